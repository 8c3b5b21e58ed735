"""The team's signed word for who its user is: a short-lived HS256 JWT, checked strictly.

Only HS256 is accepted (never `none`, never a public-key algorithm that could be confused with
the shared secret), `sub` and `exp` are required, and every refusal has its own code so the
team can tell a clock problem from a wrong key.
"""

from __future__ import annotations

from dataclasses import dataclass

import jwt

from ..services.errors import Unauthenticated

ALGORITHM = "HS256"
LEEWAY_SECONDS = 30
"""Clocks of the team's backend and this host may disagree a little."""
MAX_TOKEN_CHARS = 4096
MAX_SUB_CHARS = 150
MAX_NAME_CHARS = 80


@dataclass(frozen=True)
class EmbedUser:
    sub: str
    """The team's own id of its user: the same sub is the same owner in every browser."""
    name: str | None
    """How the page greets the user; display only, never an identity."""


class TokenRefused(Unauthenticated):
    """A token that names nobody: the code says why (`token.expired`, `token.bad-signature`, …)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)


def verify_token(token: str, secret: str) -> EmbedUser:
    if not token or len(token) > MAX_TOKEN_CHARS:
        raise TokenRefused("token.malformed", "the token is empty or too long")
    try:
        header = jwt.get_unverified_header(token)
    except jwt.DecodeError:
        raise TokenRefused("token.malformed", "the token is not a JWT") from None
    if header.get("alg") != ALGORITHM:
        raise TokenRefused("token.algorithm", f"only {ALGORITHM} tokens are accepted")
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=[ALGORITHM],
            leeway=LEEWAY_SECONDS,
            options={"require": ["sub", "exp"], "verify_aud": False},
        )
    except jwt.ExpiredSignatureError:
        raise TokenRefused("token.expired", "the token has expired") from None
    except jwt.ImmatureSignatureError:
        raise TokenRefused("token.not-yet-valid", "the token is not valid yet") from None
    except jwt.InvalidSignatureError:
        raise TokenRefused("token.bad-signature", "the token is not signed with this host's key") from None
    except jwt.MissingRequiredClaimError as exc:
        raise TokenRefused("token.missing-claim", f"the token has no {exc.claim!r} claim") from None
    except jwt.InvalidAlgorithmError:
        raise TokenRefused("token.algorithm", f"only {ALGORITHM} tokens are accepted") from None
    except jwt.DecodeError:
        raise TokenRefused("token.malformed", "the token cannot be read") from None
    except jwt.InvalidTokenError as exc:  # a claim of the wrong type (a numeric sub, a text exp)
        raise TokenRefused("token.invalid-claim", str(exc)) from None
    return _user(claims)


def _user(claims: dict[str, object]) -> EmbedUser:
    sub, name = claims.get("sub"), claims.get("name")
    if not isinstance(sub, str) or not sub.strip() or len(sub) > MAX_SUB_CHARS:
        raise TokenRefused("token.invalid-claim", f"sub must be a text of 1 to {MAX_SUB_CHARS} characters")
    if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME_CHARS):
        raise TokenRefused("token.invalid-claim", f"name must be a text of up to {MAX_NAME_CHARS} characters")
    return EmbedUser(sub, (name.strip() or None) if isinstance(name, str) else None)
