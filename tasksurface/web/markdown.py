"""The one Markdown renderer and its URL policy.

Raw HTML is always escaped, never rendered. Links keep only safe schemes and
navigate only when the user activates them. `remote_images` decides images:
`render` (ordinary chat) or `alt_only` (always for Task Surface content), where
image syntax becomes its alt text and the URL is never requested.
"""

from __future__ import annotations

import re
from typing import Literal
from urllib.parse import urlsplit

import mistune
from markupsafe import Markup, escape
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


def _scrolling_table(_renderer: object, text: str) -> str:
    """Wide tables scroll inside their own box instead of widening the page."""
    wrapper = '<div class="table-wrap" role="region" tabindex="0" aria-label="Table">'
    return f"{wrapper}<table>\n{text}</table></div>\n"


def _markdown(policy: RemoteImages) -> mistune.Markdown:
    markdown = mistune.create_markdown(renderer=_PolicyRenderer(policy), plugins=PLUGINS)
    assert markdown.renderer is not None
    markdown.renderer.register("table", _scrolling_table)
    return markdown


_renderers: dict[RemoteImages, mistune.Markdown] = {
    policy: _markdown(policy) for policy in ("render", "alt_only")
}


EMPHASIS_BUDGET = 200
"""Emphasis delimiters (`*`, `_`, `~`) a paragraph may hold before they are shown as written.

mistune resolves nested emphasis in time quadratic in the delimiters of a paragraph, so model
text could make every page view slow; no paragraph written for people needs this many."""
_FENCE = re.compile(r"^ {0,3}(`{3,}(?=[^`]*$)|~{3,})")
"""A CommonMark code fence: a backtick fence's info string holds no backtick."""
_DELIMITER = re.compile(r"[*_~]")
_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
"""Lines as CommonMark ends them (LF, CR, CRLF), not at every character `splitlines` knows."""


def _defuse_emphasis(text: str) -> str:
    """Escape every delimiter of an over-budget paragraph (code spans included: guessing where they
    end is how a budget gets bypassed), so cost stays linear. Fenced code blocks are left alone."""
    if sum(text.count(c) for c in "*_~") <= EMPHASIS_BUDGET:
        return text
    out: list[str] = []
    paragraph: list[str] = []
    fence: str | None = None

    def flush() -> None:
        block = "".join(paragraph)
        if sum(block.count(c) for c in "*_~") > EMPHASIS_BUDGET:
            block = _DELIMITER.sub(r"\\\g<0>", block)
        out.append(block)
        paragraph.clear()

    for line in _LINES.findall(text):
        opener = _FENCE.match(line)
        if fence is not None:  # inside a fenced code block: leave it alone
            out.append(line)
            if opener and opener.group(1)[0] == fence[0] and len(opener.group(1)) >= len(fence):
                fence = None
            continue
        if opener:
            flush()
            fence = opener.group(1)
            out.append(line)
        elif not line.strip(" \t\r\n"):  # blank as CommonMark sees it: spaces and tabs only
            flush()
            out.append(line)
        else:
            paragraph.append(line)
    flush()
    return "".join(out)


def render_markdown(text: str, remote_images: RemoteImages = "render") -> Markup:
    html = _renderers[remote_images](_defuse_emphasis(text))
    assert isinstance(html, str)
    return Markup(html)
