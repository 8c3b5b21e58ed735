"""Who may embed the page: the `frame-ancestors` allow-list, read once and matched exactly.

The same list decides three things, so they can never disagree: the CSP header (which sites
may frame the page), whether the identity cookie must survive a cross-site frame, and which
origin the frame may talk to with `postMessage`.
"""

from __future__ import annotations

import re

KEYWORDS = frozenset({"'self'", "'none'"})
_ORIGIN = re.compile(
    r"^(?P<scheme>https?)://(?P<host>(?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*"
    r"|\[[0-9a-f:.]+\])(?::(?P<port>[0-9]{1,5}))?$"
)
DEFAULT_PORTS = {"http": "80", "https": "443"}


class BadFrameAncestors(ValueError):
    """A source the allow-list cannot hold: it would let unlisted sites frame the page."""


def check_frame_ancestors(value: str) -> str:
    """`'self'`, `'none'` or origins (`https://app.example.com`, `https://*.example.com:8443`).

    Schemes alone (`https:`), `*`, paths and other keywords are refused: each would admit sites
    nobody listed, and `postMessage` needs exact origins to talk to.
    """
    sources = value.split()
    if not sources:
        raise BadFrameAncestors("name at least one source, e.g. 'self'")
    for source in sources:
        if source.lower() in KEYWORDS:
            continue
        if _ORIGIN.match(source.lower().rstrip("/")) is None:
            raise BadFrameAncestors(
                f"{source!r} is not 'self', 'none' or an origin like https://app.example.com"
            )
    if "'none'" in (s.lower() for s in sources) and len(sources) > 1:
        raise BadFrameAncestors("'none' cannot be combined with other sources")
    return " ".join(s.lower().rstrip("/") for s in sources)  # no keyword ends with a slash


def listed_origins(value: str) -> tuple[str, ...]:
    """The other sites in the list (everything but the keywords)."""
    return tuple(s for s in value.split() if s.lower() not in KEYWORDS)


def embedding_on(value: str) -> bool:
    """Another site may frame the page, so its identity cookie must work in a cross-site frame."""
    return bool(listed_origins(value))


def _parts(origin: str) -> tuple[str, str, str] | None:
    found = _ORIGIN.match(origin.lower())
    if found is None:
        return None
    scheme, host = found["scheme"], found["host"]
    return scheme, host, found["port"] or DEFAULT_PORTS[scheme]


def origin_listed(origin: str, value: str) -> bool:
    """Whether `origin` (as a browser reports it: no path, no trailing slash) is listed.

    A wildcard source matches subdomains only (`https://*.example.com` is not
    `https://example.com`), as CSP's own matching does.
    """
    asked = _parts(origin)
    if asked is None or "*" in asked[1]:
        return False
    for source in listed_origins(value):
        listed = _parts(source)
        if listed is None or listed[0] != asked[0] or listed[2] != asked[2]:
            continue
        if listed[1] == asked[1]:
            return True
        if listed[1].startswith("*.") and asked[1].endswith(listed[1][1:]):
            return True
    return False
