"""A learning platform simulated for the LTI tests, as the IMS LTI 1.3 specification describes one.

It has its own RSA key and serves, on 127.0.0.1 only, from a thread:

- ``GET /jwks``: its public key set (the tool checks launch signatures with it);
- ``GET /auth``: the OIDC authorization endpoint (for the browser test): answers the tool's
  login redirect with a form that posts a signed ``id_token`` to the tool's launch URL;
- ``POST /token``: OAuth 2 client credentials; the client assertion must be a JWT signed with the
  tool's key (checked against the tool's JWKS) with the tool's client ID and this URL as audience;
- ``GET /memberships``: names and roles (bearer token required);
- ``POST /lineitems/<n>/lineitem/scores``: assignment and grade services (bearer token required).

``id_token()`` signs launches for the tests that drive the tool with Django's test client.
"""

from __future__ import annotations

import html
import json
import secrets
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit
from urllib.request import urlopen

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwcrypto.jwk import JWK

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
AGS = "https://purl.imsglobal.org/spec/lti-ags/"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/"
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"
ROLE = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
INSTRUCTOR = ROLE + "Instructor"
LEARNER = ROLE + "Learner"
SCORE_MEDIA_TYPE = "application/vnd.ims.lis.v1.score+json"
AGS_SCOPES = [AGS + "scope/lineitem", AGS + "scope/result.readonly", AGS + "scope/score"]


def new_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def pem(key: rsa.RSAPrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def public_jwk(key: rsa.RSAPrivateKey, kid: str) -> dict[str, Any]:
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    jwk = JWK.from_pem(public).export_public(as_dict=True)
    jwk.update(kid=kid, alg="RS256", use="sig")
    found: dict[str, Any] = jwk
    return found


@dataclass
class Person:
    sub: str
    given_name: str
    family_name: str
    roles: list[str]
    status: str = "Active"

    @property
    def name(self) -> str:
        return f"{self.given_name} {self.family_name}"


@dataclass
class Platform:
    """Start with :meth:`start`, stop with :meth:`stop` (the fixture does both)."""

    client_id: str = "skatschule-tool"
    deployment_id: str = "deployment-1"
    context_id: str = "course-42"
    context_title: str = "Skat-AG 9b"
    kid: str = "platform-key-1"
    key: rsa.RSAPrivateKey = field(default_factory=new_key)
    tool_jwks: dict[str, Any] | None = None  # the tool's public keys, or fetched from tool_jwks_url
    tool_jwks_url: str = ""
    tool_login_url: str = ""  # where the platform starts a launch (third-party initiated login)
    tool_launch_url: str = ""
    members: list[Person] = field(default_factory=list)
    scores: list[dict[str, Any]] = field(default_factory=list)
    token_requests: list[dict[str, Any]] = field(default_factory=list)
    refuse_scores: bool = False  # answer scores with 503 (an LMS under maintenance)
    launches: dict[str, dict[str, Any]] = field(default_factory=dict)  # login_hint -> launch for /auth
    _tokens: set[str] = field(default_factory=set)
    _server: ThreadingHTTPServer | None = None

    # --- addresses ----------------------------------------------------------------------------

    @property
    def issuer(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        assert isinstance(host, str)
        return f"http://{host}:{port}"

    def url(self, path: str) -> str:
        return self.issuer + path

    @property
    def lineitem_url(self) -> str:
        return self.url("/lineitems/1/lineitem")

    # --- launches -----------------------------------------------------------------------------

    def id_token(  # noqa: PLR0913 - a test helper over the budget since issue 27; to be split
        self,
        *,
        nonce: str,
        person: Person,
        message_type: str = "LtiResourceLinkRequest",
        custom: dict[str, str] | None = None,
        services: bool = True,
        key: rsa.RSAPrivateKey | None = None,
        aud: str | None = None,
        expires_in: int = 300,
        return_url: str = "",
    ) -> str:
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "aud": [aud or self.client_id],
            "azp": aud or self.client_id,
            "sub": person.sub,
            "iat": now,
            "exp": now + expires_in,
            "nonce": nonce,
            "given_name": person.given_name,
            "family_name": person.family_name,
            "name": person.name,
            LTI + "message_type": message_type,
            LTI + "version": "1.3.0",
            LTI + "deployment_id": self.deployment_id,
            LTI + "target_link_uri": "http://testserver/lti/start/",
            LTI + "roles": person.roles,
            LTI + "context": {
                "id": self.context_id,
                "title": self.context_title,
                "label": "9b",
                "type": ["http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"],
            },
            LTI + "tool_platform": {"guid": "sim-platform", "name": "Simulierte Lernplattform"},
            LTI + "launch_presentation": {"document_target": "window", "return_url": self.url("/return")},
        }
        if message_type == "LtiResourceLinkRequest":
            claims[LTI + "resource_link"] = {"id": "link-" + (custom or {}).get("skatschule", "none"), "title": "Skat"}
        else:
            claims[DL + "deep_linking_settings"] = {
                "deep_link_return_url": return_url or self.url("/deep-link-return"),
                "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["window"],
                "accept_multiple": False,
                "data": "opaque-platform-data",
            }
        if custom:
            claims[LTI + "custom"] = custom
        if services:
            claims[AGS + "claim/endpoint"] = {
                "scope": AGS_SCOPES,
                "lineitems": self.url("/lineitems"),
                "lineitem": self.lineitem_url,
            }
            claims[NRPS + "claim/namesroleservice"] = {
                "context_memberships_url": self.url("/memberships"),
                "service_versions": ["2.0"],
            }
        return jwt.encode(claims, pem(key or self.key), algorithm="RS256", headers={"kid": self.kid})

    # --- the server ---------------------------------------------------------------------------

    def start(self) -> Platform:  # noqa: C901 - a test helper over the budget since issue 27; to be split
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                path = urlsplit(self.path).path
                if path == "/start":  # a course page's link: the platform starts the OIDC login
                    hint = parse_qs(urlsplit(self.path).query).get("login_hint", [""])[0]
                    self.send_response(302)
                    self.send_header("Location", platform._login_redirect(hint))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                elif path == "/jwks":
                    self._json(200, {"keys": [public_jwk(platform.key, platform.kid)]})
                elif path == "/auth":
                    self._html(*platform._authorize(parse_qs(urlsplit(self.path).query)))
                elif path == "/memberships":
                    if not platform._authorized(self.headers.get("Authorization", "")):
                        return self._json(401, {"error": "invalid_token"})
                    body = {
                        "id": platform.url("/memberships"),
                        "context": {"id": platform.context_id, "title": platform.context_title},
                        "members": [
                            {
                                "user_id": p.sub,
                                "roles": p.roles,
                                "status": p.status,
                                "name": p.name,
                                "given_name": p.given_name,
                                "family_name": p.family_name,
                            }
                            for p in platform.members
                        ],
                    }
                    self._json(200, body, "application/vnd.ims.lti-nrps.v2.membershipcontainer+json")
                else:
                    self._json(404, {"error": "not found"})

            def do_POST(self) -> None:
                path = urlsplit(self.path).path
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if path == "/token":
                    status, answer = platform._token(parse_qs(body.decode()))
                    self._json(status, answer)
                elif path.startswith("/lineitems/") and path.endswith("/scores"):
                    if not platform._authorized(self.headers.get("Authorization", "")):
                        return self._json(401, {"error": "invalid_token"})
                    if platform.refuse_scores:
                        return self._json(503, {"error": "maintenance"})
                    if self.headers.get("Content-Type") != SCORE_MEDIA_TYPE:
                        return self._json(415, {"error": "score media type expected"})
                    score = json.loads(body)
                    score["_lineitem"] = platform.url(path.removesuffix("/scores"))
                    platform.scores.append(score)
                    self._json(200, {})
                else:
                    self._json(404, {"error": "not found"})

            def _json(self, status: int, data: Any, media_type: str = "application/json") -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", media_type)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _html(self, status: int, text: str) -> None:
                raw = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # a short poll: shutdown() waits for the loop's next look (0.5 s by default, in every test)
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    # --- endpoints ----------------------------------------------------------------------------

    def _authorize(self, params: dict[str, list[str]]) -> tuple[int, str]:
        """OIDC authorization: the login hint names a prepared launch; answer with a form post."""
        one = {k: v[0] for k, v in params.items()}
        if one.get("client_id") != self.client_id or one.get("response_mode") != "form_post":
            return 400, "bad authorization request"
        prepared = self.launches.get(one.get("login_hint", ""))
        if prepared is None:
            return 403, "unknown login hint"
        token = self.id_token(nonce=one["nonce"], **prepared)
        action = html.escape(one["redirect_uri"])
        return 200, (
            "<!doctype html><title>Platform</title>"
            f'<form method="post" action="{action}">'
            f'<input type="hidden" name="id_token" value="{html.escape(token)}">'
            f'<input type="hidden" name="state" value="{html.escape(one["state"])}">'
            "<button type=submit>Weiter zum Werkzeug</button></form>"
        )

    def _login_redirect(self, login_hint: str) -> str:
        query = urlencode(
            {
                "iss": self.issuer,
                "login_hint": login_hint,
                "target_link_uri": self.tool_launch_url,
                "client_id": self.client_id,
                "lti_message_hint": "course-page",
            }
        )
        return f"{self.tool_login_url}?{query}"

    def _tool_keys(self) -> dict[str, Any]:
        if self.tool_jwks is not None:
            return self.tool_jwks
        with urlopen(self.tool_jwks_url, timeout=5) as answer:  # noqa: S310 (127.0.0.1 only)
            keys: dict[str, Any] = json.load(answer)
            return keys

    def _token(self, form: dict[str, list[str]]) -> tuple[int, dict[str, Any]]:
        one = {k: v[0] for k, v in form.items()}
        self.token_requests.append(one)
        if one.get("grant_type") != "client_credentials" or not one.get("client_assertion"):
            return 400, {"error": "invalid_request"}
        assertion = one["client_assertion"]
        kid = jwt.get_unverified_header(assertion).get("kid")
        keys = [k for k in self._tool_keys()["keys"] if k.get("kid") == kid]
        if not keys:
            return 401, {"error": "invalid_client", "error_description": "unknown key"}
        public = JWK(**keys[0]).export_to_pem()
        try:
            claims = jwt.decode(assertion, public, algorithms=["RS256"], audience=self.url("/token"))
        except jwt.InvalidTokenError as error:
            return 401, {"error": "invalid_client", "error_description": str(error)}
        if claims.get("iss") != self.client_id or claims.get("sub") != self.client_id:
            return 401, {"error": "invalid_client"}
        token = secrets.token_hex(16)
        self._tokens.add(token)
        return 200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600, "scope": one.get("scope", "")}

    def _authorized(self, header: str) -> bool:
        return header.startswith("Bearer ") and header.removeprefix("Bearer ") in self._tokens


def unique_sub() -> str:
    return uuid.uuid4().hex[:12]
