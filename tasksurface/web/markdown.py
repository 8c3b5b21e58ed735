"""The one Markdown renderer and its URL policy.

Raw HTML is always escaped, never rendered. Links keep only safe schemes and
navigate only when the user activates them. `remote_images` decides images:
`render` (ordinary chat) or `alt_only` (always for Task Surface content), where
image syntax becomes its alt text and the URL is never requested.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any, Literal
from urllib.parse import urlsplit

import mistune
from markupsafe import Markup, escape
from mistune.inline_parser import InlineParser
from mistune.plugins import import_plugin
from mistune.renderers.html import HTMLRenderer

RemoteImages = Literal["render", "alt_only"]
SAFE_LINK_SCHEMES = frozenset({"http", "https", "mailto"})
SAFE_IMAGE_SCHEMES = frozenset({"http", "https"})
PLUGINS = ["strikethrough", "table", "url"]


def safe_url(url: str, schemes: frozenset[str]) -> str | None:
    """The URL when its scheme is allowed; control characters and odd spellings fail closed."""
    cleaned = url.strip()
    if any(ord(ch) < 0x20 or ch == "\x7f" for ch in cleaned) or cleaned.startswith("//"):
        return None
    scheme = urlsplit(cleaned).scheme.lower()
    return cleaned if scheme in schemes else None


class _PolicyRenderer(HTMLRenderer):
    def __init__(self, remote_images: RemoteImages) -> None:
        super().__init__(escape=True)
        self.remote_images = remote_images

    def link(self, text: str, url: str, title: str | None = None) -> str:
        target = safe_url(url, SAFE_LINK_SCHEMES)
        if target is None:
            return f'<span class="md-unsafe-link">{text}</span>'
        return (
            f'<a href="{escape(target)}" title="{escape(title or target)}" '
            f'rel="noopener noreferrer nofollow" target="_blank">{text}</a>'
        )

    def image(self, text: str, url: str, title: str | None = None) -> str:
        alt = mistune.util.striptags(text)  # already escaped by mistune; drop inline tags
        target = safe_url(url, SAFE_IMAGE_SCHEMES)
        if self.remote_images == "alt_only" or target is None:
            return f'<span class="md-image-alt" title="image not loaded">{alt or "image"}</span>'
        return f'<img src="{escape(target)}" alt="{alt}" loading="lazy" referrerpolicy="no-referrer">'


EMPHASIS_BUDGET = 200
"""Emphasis delimiters (`*`, `_`, `~`) one inline run may hold before they are shown as written.

mistune resolves nested emphasis in time quadratic in the delimiters of an inline run, so model
text could make every page view slow; no paragraph written for people needs this many. The
budget applies to exactly the text mistune's inline parser receives, so no guess about block
structure (fences, HTML blocks, line endings) can get around it."""
_DELIMITER = re.compile(r"[*_~]")


class _BudgetedInline(InlineParser):
    def __call__(self, s: str, env: MutableMapping[str, Any]) -> list[dict[str, Any]]:
        if sum(s.count(c) for c in "*_~") > EMPHASIS_BUDGET:
            s = _DELIMITER.sub(r"\\\g<0>", s)
        return super().__call__(s, env)


def _scrolling_table(_renderer: object, text: str) -> str:
    """Wide tables scroll inside their own box instead of widening the page."""
    wrapper = '<div class="table-wrap" role="region" tabindex="0" aria-label="Table">'
    return f"{wrapper}<table>\n{text}</table></div>\n"


def _markdown(policy: RemoteImages) -> mistune.Markdown:
    markdown = mistune.Markdown(
        renderer=_PolicyRenderer(policy),
        inline=_BudgetedInline(),
        plugins=[import_plugin(p) for p in PLUGINS],
    )
    assert markdown.renderer is not None
    markdown.renderer.register("table", _scrolling_table)
    return markdown


_renderers: dict[RemoteImages, mistune.Markdown] = {
    policy: _markdown(policy) for policy in ("render", "alt_only")
}


def render_markdown(text: str, remote_images: RemoteImages = "render") -> Markup:
    html = _renderers[remote_images](text)
    assert isinstance(html, str)
    return Markup(html)
