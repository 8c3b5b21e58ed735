"""Tokens as a team's backend mints them, and the broken ones a host must refuse."""

from __future__ import annotations

import base64
import json
import time
import warnings
from typing import Any

import jwt
import requests

from ..support import Api

SECRET = "a-team-secret-that-is-long-enough-0123456789"
ORIGIN = "http://localhost:5999"


def mint(sub: Any = "user-42", *, secret: str = SECRET, ttl: float = 300, **claims: Any) -> str:
    now = int(time.time())
    payload: dict[str, Any] = {"sub": sub, "exp": now + int(ttl), "iat": now, **claims}
    return jwt.encode({k: v for k, v in payload.items() if v is not None}, secret, algorithm="HS256")


def _b64(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def unsigned(sub: str = "user-42") -> str:
    """`alg: none`: a token anyone can write."""
    claims = {"sub": sub, "exp": int(time.time()) + 300}
    return f"{_b64({'alg': 'none', 'typ': 'JWT'})}.{_b64(claims)}."


def other_algorithm(sub: str = "user-42") -> str:
    """Signed with the right key, but HS512: only HS256 is taken."""
    with warnings.catch_warnings():  # the key is short for HS512; the host never gets that far
        warnings.simplefilter("ignore")
        return jwt.encode({"sub": sub, "exp": int(time.time()) + 300}, SECRET, algorithm="HS512")


class PlainHttpApi(Api):
    """Hands the Secure identity cookie on over plain HTTP, as a browser does for 127.0.0.1
    (a secure context); this HTTP client would otherwise keep it to itself."""

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return self._plain(super().get(path, **kwargs))

    def post(self, path: str, body: Any = None, **kwargs: Any) -> requests.Response:
        return self._plain(super().post(path, body, **kwargs))

    def _plain(self, response: requests.Response) -> requests.Response:
        for cookie in self.http.cookies:
            cookie.secure = False
        return response
