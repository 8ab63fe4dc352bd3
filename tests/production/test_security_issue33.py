"""Issue 33, L5 and L6: the forwarded address is an address, one name is locked from all addresses
together, IPv6 is counted by /64, and every response sends a Permissions-Policy."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse
from pytest_django.fixtures import Settings

from skatschule.core.security import PERMISSIONS_POLICY, client_ip, network_of

pytestmark = pytest.mark.django_db
PASSWORD = "kreuz-bube-und-herz-zehn"


@pytest.mark.parametrize(
    "forwarded", ["junk", "<script>", "1.2.3.4:5678", "999.1.1.1", "x" * 5000, "example.org", ", , ,"]
)
def test_junk_in_x_forwarded_for_falls_back_to_the_servers_address(settings: Settings, forwarded: str) -> None:
    settings.PROXY_COUNT = 1
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR=forwarded, REMOTE_ADDR="10.0.0.9")
    assert client_ip(request) == "10.0.0.9"


def test_a_forwarded_address_is_taken_and_normalised(settings: Settings) -> None:
    settings.PROXY_COUNT = 1
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="1.1.1.1, 2001:DB8::0001", REMOTE_ADDR="10.0.0.9")
    assert client_ip(request) == "2001:db8::1"


@pytest.mark.parametrize("forwarded", ["junk", "1.2.3.4:5678", "a" * 300])
def test_a_failed_login_with_junk_forwarded_is_a_400_not_a_500(
    settings: Settings, client: Client, forwarded: str
) -> None:
    """django-axes stores the address in an ``inet`` column on PostgreSQL: junk there was a 500
    where ``PROXY_COUNT`` is higher than the real number of proxies."""
    settings.PROXY_COUNT = 2
    response = client.post(
        reverse("accounts:login"),
        {"username": "bert", "password": "falsch"},
        HTTP_X_FORWARDED_FOR=f"{forwarded}, 10.0.0.1",
        REMOTE_ADDR="10.0.0.2",
    )
    assert response.status_code == 400
    from axes.models import AccessAttempt

    assert AccessAttempt.objects.get().ip_address == "10.0.0.2"


@pytest.mark.postgres
@pytest.mark.parametrize("forwarded", ["junk"])
def test_a_failed_login_with_junk_forwarded_on_postgres(settings: Settings, client: Client, forwarded: str) -> None:
    test_a_failed_login_with_junk_forwarded_is_a_400_not_a_500(settings, client, forwarded)


def test_ipv6_is_counted_by_its_64() -> None:
    assert network_of("2001:db8:1:2:aaaa::1") == network_of("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert network_of("2001:db8:1:3::1") != network_of("2001:db8:1:2::1")
    assert network_of("::ffff:192.0.2.7") == "192.0.2.7"
    assert network_of("192.0.2.7") == "192.0.2.7"


def test_one_name_tried_from_many_addresses_is_locked(client: Client) -> None:
    """Four wrong passwords from each of ten addresses (below the per-address limit of five each)
    used to be 40 guesses without a lock; from ``LOGIN_ACCOUNT_FAILURE_LIMIT`` on the name is
    locked from every address, even with the right password, and another name is not."""
    user_model = get_user_model()
    user_model.objects.create_user("bert", password=PASSWORD)
    user_model.objects.create_user("dora", password=PASSWORD)
    url = reverse("accounts:login")
    per_address = settings.AXES_FAILURE_LIMIT - 1
    limit = settings.LOGIN_ACCOUNT_FAILURE_LIMIT
    codes = []
    for tried in range(limit):
        address = f"10.1.0.{tried // per_address + 1}"
        codes.append(Client().post(url, {"username": "bert", "password": "falsch"}, REMOTE_ADDR=address).status_code)
    assert codes == [400] * limit
    fresh = Client()
    response = fresh.post(url, {"username": "bert", "password": PASSWORD}, REMOTE_ADDR="10.2.0.1")
    assert response.status_code == 429 and "_auth_user_id" not in fresh.session
    assert f"Nach {limit} falschen Passwörtern von verschiedenen Anschlüssen" in response.content.decode()
    assert response["Retry-After"] == str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    other = Client()
    response = other.post(url, {"username": "dora", "password": PASSWORD}, REMOTE_ADDR="10.2.0.1")
    assert response.status_code == 302 and "_auth_user_id" in other.session


@pytest.mark.parametrize("url", ["/", "/konto/anmelden/", "/gibt-es-nicht/", "/healthz"])
def test_every_response_sends_a_permissions_policy(client: Client, url: str) -> None:
    response = client.get(url)
    assert response["Permissions-Policy"] == PERMISSIONS_POLICY
    assert "camera=()" in PERMISSIONS_POLICY and "geolocation=()" in PERMISSIONS_POLICY
