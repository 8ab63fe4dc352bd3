"""Fixtures for the LTI tests: a simulated platform (tests/lti/platform_sim.py) registered in
the tool as an admin would register it, and a launch through the real OIDC login."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from lti_tool.models import Key, LtiDeployment, LtiRegistration

from tests.people import classroom, other_student, student, teacher  # noqa: F401 (fixtures)

from .platform_sim import INSTRUCTOR, LEARNER, Person, Platform

TEACHER = Person("t-100", "Karla", "Kreuz", [INSTRUCTOR])
ANNA = Person("s-201", "Anna", "Pik", [LEARNER])
BEN = Person("s-202", "Ben", "Herz", [LEARNER])
CARL = Person("s-203", "Carl", "Karo", [LEARNER])


@pytest.fixture(scope="session")
def tool_key_pem() -> tuple[str, str]:
    """One RSA key pair for the tool per session (generating one takes a while)."""
    from jwcrypto.jwk import JWK

    key = JWK.generate(kty="RSA", size=2048)
    return key.export_to_pem().decode(), key.export_to_pem(private_key=True, password=None).decode()


@pytest.fixture
def tool_key(db: None, tool_key_pem: tuple[str, str]) -> Key:
    public, private = tool_key_pem
    return Key.objects.create(public_key=public, private_key=private)


@pytest.fixture
def platform(tool_key: Key) -> Iterator[Platform]:
    sim = Platform(tool_jwks=Key.objects.as_jwks()).start()
    try:
        yield sim
    finally:
        sim.stop()


@pytest.fixture
def registration(platform: Platform) -> LtiRegistration:
    """The platform as registered in the admin, with an activated deployment."""
    registration = LtiRegistration.objects.create(
        name="Simulierte Lernplattform",
        issuer=platform.issuer,
        client_id=platform.client_id,
        auth_url=platform.url("/auth"),
        token_url=platform.url("/token"),
        keyset_url=platform.url("/jwks"),
    )
    LtiDeployment.objects.create(registration=registration, deployment_id=platform.deployment_id, is_active=True)
    return registration


def login_state(client: Client, platform: Platform, registration: LtiRegistration, person: Person) -> tuple[str, str]:
    """The OIDC login the platform starts: the tool answers with a redirect to the platform's
    authorization endpoint carrying state and nonce (and sets the state cookie)."""
    response = client.get(
        f"/lti/login/{registration.uuid}/",
        {
            "iss": platform.issuer,
            "login_hint": person.sub,
            "target_link_uri": "http://testserver/lti/start/",
            "client_id": platform.client_id,
            "lti_message_hint": "hint",
        },
    )
    assert response.status_code == 302, response.content[:300]
    location = urlsplit(response["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == platform.url("/auth")
    params = {k: v[0] for k, v in parse_qs(location.query).items()}
    assert params["redirect_uri"] == "http://testserver/lti/start/"
    assert params["client_id"] == platform.client_id and params["login_hint"] == person.sub
    return params["state"], params["nonce"]


def launch(client: Client, platform: Platform, registration: LtiRegistration, person: Person, **token: Any) -> Any:
    """A whole launch: OIDC login, then the platform's signed id_token posted to the tool."""
    state, nonce = login_state(client, platform, registration, person)
    id_token = platform.id_token(nonce=nonce, person=person, **token)
    return client.post("/lti/start/", {"id_token": id_token, "state": state})
