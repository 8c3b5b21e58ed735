"""The frame-ancestors allow-list, character by character: which hosts and ports an origin may
have, what each refusal says, and how a listed origin is matched."""

from __future__ import annotations

import pytest

from tasksurface.domain.embedding import (
    BadFrameAncestors,
    check_frame_ancestors,
    embedding_on,
    listed_origins,
    origin_listed,
)


@pytest.mark.parametrize(
    "origin",
    [
        "https://0.example.com",  # a label may start with a digit, any digit
        "https://9.example.com",
        "https://a0b.example.com",  # ... hold one inside
        "https://a9b.example.com",
        "https://a0.example.com",  # ... or end with one
        "https://a9.example.com",
        "https://app.0.example.com",  # the same for every later label
        "https://app.9.example.com",
        "https://app.a0b.example.com",
        "https://app.a9b.example.com",
        "https://app.a0.example.com",
        "https://app.a9.example.com",
        "https://a-b.example.com",
        "http://[2001:db8::10]",
        "http://[::9]:8080",
        "http://localhost:5",  # a port of one digit
        "http://localhost:65535",  # ... up to five
        "https://*.example.com:8443",
    ],
)
def test_an_origin_is_accepted_as_it_is_written(origin: str) -> None:
    assert check_frame_ancestors(origin) == origin
    assert listed_origins(origin) == (origin,)


@pytest.mark.parametrize(
    "origin",
    [
        "http://localhost:123456",  # six digits are no port
        "https://-a.example.com",
        "https://a-.example.com",
        "https://a.-b.example.com",
        "https://a.b-.example.com",
        "https://a..example.com",
        "https://*.*.example.com",
        "https://a.*.example.com",
        "http://[::g]",
        "https://example.com:",
        "https://example.com:x",
        "https://example.com/a",
        "https://ex_ample.com",
    ],
)
def test_anything_else_is_refused_with_the_source_named(origin: str) -> None:
    with pytest.raises(BadFrameAncestors) as refused:
        check_frame_ancestors(f"'self' {origin}")
    assert str(refused.value) == f"{origin!r} is not 'self', 'none' or an origin like https://app.example.com"


def test_an_empty_list_asks_for_a_source() -> None:
    for value in ("", "   ", "\n"):
        with pytest.raises(BadFrameAncestors) as refused:
            check_frame_ancestors(value)
        assert str(refused.value) == "name at least one source, e.g. 'self'"


def test_none_stands_alone() -> None:
    assert check_frame_ancestors("'none'") == "'none'"
    assert check_frame_ancestors("'NONE'") == "'none'"
    for value in ("'none' 'self'", "'self' 'NONE'", "https://a.example.com 'none'"):
        with pytest.raises(BadFrameAncestors) as refused:
            check_frame_ancestors(value)
        assert str(refused.value) == "'none' cannot be combined with other sources"


def test_keywords_and_origins_are_written_in_lower_case_without_a_trailing_slash() -> None:
    assert check_frame_ancestors("'Self'") == "'self'"
    assert (
        check_frame_ancestors("https://A.example.com/ 'SELF'\thttp://B.example.com:8080/")
        == "https://a.example.com 'self' http://b.example.com:8080"
    )
    assert check_frame_ancestors("https://xx.example.com/") == "https://xx.example.com"


def test_the_listed_origins_are_everything_but_the_keywords() -> None:
    value = "'self' https://a.example.com 'NONE' https://b.example.com:8443"
    assert listed_origins(value) == ("https://a.example.com", "https://b.example.com:8443")
    assert listed_origins("'self' 'none'") == ()
    assert embedding_on("https://a.example.com") is True
    assert embedding_on("'self'") is False


@pytest.mark.parametrize(
    ("origin", "value", "listed"),
    [
        ("http://example.com", "http://example.com:80", True),  # 80 is http's own port
        ("http://example.com:80", "http://example.com", True),
        ("http://example.com:81", "http://example.com", False),
        ("https://example.com:443", "https://example.com", True),
        ("https://example.com:444", "https://example.com", False),
        ("http://example.com:443", "https://example.com", False),  # same port, another scheme
        ("https://EXAMPLE.com", "https://example.com", True),
        ("https://example.com", "https://EXAMPLE.COM", True),
        ("https://b.example.com", "https://a.example.com https://b.example.com", True),
        ("https://b.example.com", "nonsense https://b.example.com", True),
        ("https://b.example.com", "nonsense", False),
        ("https://a.example.com:8080", "https://a.example.com:8443 https://a.example.com:8080", True),
        ("http://a.example.com", "https://a.example.com http://a.example.com", True),
        ("https://evilexample.org:8443", "https://*.example.org:8443", False),
        ("https://a.example.org:8443", "https://*.example.org:8443", True),
        ("https://a.example.org:8443", "https://a.*.org:8443", False),
        ("https://*.example.org:8443", "https://*.example.org:8443", False),
        ("https://example.org", "https://example.org https://*.example.org", True),
        ("https://xexample.org", "https://example.org", False),
        ("http://[::1]:5000", "http://[::1]:5000", True),
        ("http://[::1]", "http://[::1]:5000", False),
    ],
)
def test_an_origin_matches_by_scheme_host_and_port(origin: str, value: str, listed: bool) -> None:
    assert origin_listed(origin, value) is listed
