"""The page arrives in the person's chosen theme: the server reads the theme cookie, so no script
in the head holds the first paint (a file is fetched without blocking; the one script in the page
runs before any stylesheet, so it waits for nothing)."""

from __future__ import annotations

import re

import pytest

from ..support import Api


def _html_tag(page: str) -> str:
    found = re.search(r"<html[^>]*>", page)
    assert found is not None
    return found.group(0)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_chosen_theme_is_on_the_page_as_it_arrives(api: Api, theme: str) -> None:
    sid = api.create_session()
    for path in ("/", f"/sessions/{sid}"):
        page = api.get(path, cookies={"ts-theme": theme}).text
        assert f'data-theme="{theme}"' in _html_tag(page)


@pytest.mark.parametrize("kept", ["auto", "", "purple", '"><script>x</script>'])
def test_auto_or_anything_else_leaves_the_system_to_decide(api: Api, kept: str) -> None:
    page = api.get("/", cookies={"ts-theme": kept}).text
    assert " data-theme=" not in _html_tag(page)
    assert "<script>x" not in page


def test_no_script_in_the_head_waits_for_anything_before_the_first_paint(api: Api) -> None:
    sid = api.create_session()
    for path in ("/", f"/sessions/{sid}"):
        head = api.get(path).text.split("</head>")[0]
        scripts = list(re.finditer(r"<script([^>]*)>", head))
        assert scripts, "the theme script is expected in the head"
        stylesheet = head.index('rel="stylesheet"')
        for script in scripts:
            attributes = script.group(1)
            if "src=" in attributes:  # a file: fetched without holding the parser
                assert " defer" in attributes or " async" in attributes or 'type="module"' in attributes
            else:  # in the page (the early socket): before any stylesheet, so it waits for none
                assert script.start() < stylesheet, attributes


@pytest.mark.parametrize("kept", ["auto", "light", "dark"])
def test_the_page_says_which_theme_cookie_it_came_with(api: Api, kept: str) -> None:
    """The theme script compares its own record with this instead of reading the cookie."""
    sid = api.create_session()
    for path in ("/", f"/sessions/{sid}"):
        assert f'data-theme-kept="{kept}"' in _html_tag(api.get(path, cookies={"ts-theme": kept}).text)


@pytest.mark.parametrize("kept", [None, "", "purple", '"><script>x</script>'])
def test_no_cookie_or_a_strange_one_is_not_echoed(api: Api, kept: str | None) -> None:
    page = api.get("/", cookies={"ts-theme": kept} if kept is not None else None).text
    assert "data-theme-kept" not in _html_tag(page)
