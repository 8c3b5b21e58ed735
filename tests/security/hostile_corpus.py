"""Hostile text that a model might write, built around a "canary" origin supplied at run time.

Every string is something a model could put in a Task Surface or a chat reply: script and
event-handler injections, dangerous URL schemes in many spellings, protocol-relative URLs,
images whose URL carries a secret, entities, SVG and MathML, CSS, embedding tags, Unicode
direction tricks, template and quote breakers, very long lines and Markdown that is
expensive to parse. Every URL that a browser could request points at the canary
(`<canary>/<n>`, `n` the item's number), so any request is detected and traced back to
its item; every script that could run sets `window.__pwned = n` or calls `alert(n)`.

How an item must read where the page renders it as Markdown (`Hostile.markdown`):

- `VERBATIM`: the whole text, whitespace-normalised, is readable as typed. Raw HTML is
  escaped, so tags, attributes and entities-in-tags show literally.
- `LETTERS`: Markdown legitimately consumes syntax (emphasis markers, brackets, list and
  quote markers, backticks, table pipes, backslash escapes) and keeps link destinations
  out of the text (in `href`, or nowhere for an unsafe link); reference definitions are
  not displayed (CommonMark). Rule: drop link destinations `](...)`, reference labels
  `][...]` and reference definition lines from the input and keep its letters and
  digits; that sequence must occur, in order, among the letters and digits of the
  readable text (text plus image `alt`; the renderer may add words such as "image").
- a tuple of fragments: the human-readable parts that must each appear, used where the
  readable form differs otherwise (entities decode, autolinks lose their `<>`).

Everywhere else (titles, labels, cells, diff lines, notices, option text, user bubbles,
field values) the text is not Markdown and must read verbatim.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

Shown = Literal["verbatim", "letters"] | tuple[str, ...]
VERBATIM: Shown = "verbatim"
LETTERS: Shown = "letters"


@dataclass(frozen=True)
class Hostile:
    number: int
    label: str
    text: str
    markdown: Shown = VERBATIM

    @property
    def sentinel(self) -> str:
        """What `window.__pwned` becomes if this item's script ran."""
        return str(self.number)


@dataclass(frozen=True)
class Pathology:
    """Markdown that once made parsers slow: `lead + open * n + middle + close * n + tail`."""

    label: str
    open: str
    middle: str = "x"
    close: str = ""
    lead: str = ""
    tail: str = ""
    markdown: Shown = LETTERS

    def build(self, n: int, url: str = "http://127.0.0.1:9/canary/0") -> str:
        text = self.lead + self.open * n + self.middle + self.close * n + self.tail
        return text.replace("§URL§", url)

    def unit_chars(self) -> int:
        return len(self.open) + len(self.close)

    def sized(self, chars: int, url: str = "http://127.0.0.1:9/canary/0") -> tuple[int, str]:
        """The repetition count (and text) whose length comes closest to `chars` from below."""
        fixed = len(self.lead) + len(self.middle) + len(self.tail)
        n = max(1, (chars - fixed) // max(1, self.unit_chars()))
        while n > 1 and len(self.build(n, url)) > chars:
            n -= 1
        return n, self.build(n, url)


PATHOLOGIES: tuple[Pathology, ...] = (
    Pathology("nested-brackets", "[", "a", "]", markdown=VERBATIM),
    Pathology("nested-links", "[", "a", "](§URL§)"),
    Pathology("nested-images", "![", "a", "](§URL§)"),
    Pathology("nested-emphasis-star", "*a ", "b", " a*"),
    Pathology("nested-strong-star", "**a ", "b", " a**"),
    Pathology("nested-emphasis-underscore", "_a ", "b", " a_"),
    Pathology("nested-strong-underscore", "__a ", "b", " a__"),
    Pathology("nested-emphasis-around-links", "*[a](§URL§) ", "b", " a*"),
    Pathology("nested-emphasis-alternating", "*_", "a", "_*"),
    Pathology("nested-emphasis-tight", "**", "a", "**"),
    # The renderer escapes the delimiters of a paragraph holding more than its budget, outside
    # code; these make it see code, or small paragraphs, where Markdown sees one paragraph.
    Pathology("nested-emphasis-after-invalid-fence", "*a ", "b", " a*", lead="```a`\n"),
    Pathology("nested-emphasis-in-unequal-backticks", "*a ", "b", " a*", lead="`", tail="``"),
    Pathology("nested-emphasis-after-separator-fence", "*a ", "b", " a*", lead="text\u2028```\n"),
    Pathology("nested-emphasis-after-fence-in-html-block", "*a ", "b", " a*", lead="<div>\n```\n\n"),
    Pathology("nested-emphasis-after-escaped-backtick", "*a ", "b", " a*", lead="\\`", tail="`"),
    Pathology(
        "nested-emphasis-split-by-nbsp-lines", "*a " * 20 + "\n\u00a0\n", "b", "\n\u00a0\n" + " a*" * 20
    ),
    Pathology("nested-strikethrough", "~~", "a", "~~", lead="x "),
    Pathology("nested-blockquotes", "> ", "deep quote"),
    Pathology("blockquote-lines", ">\n", "deep quote"),
    Pathology("nested-lists", "- ", "deep item"),
    Pathology("nested-ordered-lists", "1. ", "deep item", markdown=("deep item",)),
    Pathology("nested-quoted-lists", "> - ", "deep item"),
    Pathology("run-of-stars", "*"),
    Pathology("run-of-underscores", "_"),
    Pathology("run-of-open-brackets", "[", markdown=VERBATIM),
    Pathology("run-of-close-brackets", "]", markdown=VERBATIM),
    Pathology("run-of-backticks", "`", lead="code ", markdown=VERBATIM),
    Pathology("backtick-pairs", "`a ", "b"),
    Pathology("growing-backtick-runs", "`` a `", "b"),
    Pathology("run-of-less-than", "<", markdown=VERBATIM),
    Pathology("unclosed-tags", "<a ", markdown=VERBATIM),
    Pathology("unclosed-attribute", "<a href='", markdown=VERBATIM),
    Pathology("unclosed-comments", "<!--", markdown=VERBATIM),
    Pathology("unclosed-declarations", "<!", markdown=VERBATIM),
    Pathology("unclosed-link-openers", "[a](", "x"),
    Pathology("unclosed-angle-destinations", "[a](<", "x"),
    Pathology("unclosed-link-titles", '[a](b "', "x"),
    Pathology("unclosed-image-openers", "![a](", "x"),
    Pathology("emphasis-bracket-mix", "*[", "x"),
    Pathology("bracket-emphasis-mix", "[*", "x"),
    Pathology("bang-runs", "!", "x", markdown=VERBATIM),
    Pathology("entity-openers", "&#", "x", markdown=VERBATIM),
    Pathology("backslash-runs", "\\", "x"),
    Pathology("autolink-openers", "<http://", "x"),
    Pathology("email-autolink-openers", "<a@", "x"),
    Pathology("undefined-references", "[a][", "x"),
    Pathology("reference-definitions", "[a]: §URL§\n", "[a]"),
    Pathology("nested-parentheses-in-destination", "(", "x", ")", lead="[a](", tail=")"),
    Pathology("intraword-underscores", "a_b_", "x"),
    Pathology("setext-underlines", "a\n=\n", "x"),
    Pathology("hard-breaks", "a  \n", "x"),
    Pathology("heading-lines", "#\n", "x"),
    Pathology("table-rows", "|x|y|\n", "end", lead="|a|b|\n|-|-|\n"),
    Pathology("bracket-spaces", "[ ", "x"),
    Pathology("blank-lines", "\n", "b", lead="a"),
)


def _urls(canary: str, n: int) -> dict[str, str]:
    parts = urlsplit(canary)
    host = parts.netloc
    path = parts.path.rstrip("/")
    script = f"<script>__pwned={n}</script>"
    return {
        "§URL§": f"{canary.rstrip('/')}/{n}",
        "§UPPERURL§": f"{parts.scheme.upper()}://{host}{path}/{n}",
        "§NET§": f"//{host}{path}/{n}",
        "§HOSTPATH§": f"{host}{path}/{n}",
        "§JS§": f"__pwned={n}",
        "§ALERT§": f"alert({n})",
        "§N§": str(n),
        "§B64§": base64.b64encode(script.encode()).decode(),
    }


def _fill(template: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        template = template.replace(key, value)
    assert "§" not in template, template
    return template


# (label, template, how it reads as Markdown); placeholders: see `_urls`.
_Item = tuple[str, str, Shown]
_TEMPLATES: tuple[_Item, ...] = (
    # --- <script> in many spellings -------------------------------------------------
    ("script-plain", "<script>§JS§</script>", VERBATIM),
    ("script-upper", "<SCRIPT>§JS§</SCRIPT>", VERBATIM),
    ("script-mixed-case", "<ScRiPt>§ALERT§</sCrIpT>", VERBATIM),
    ("script-space-before-gt", "<script >§JS§</script >", VERBATIM),
    ("script-newline-in-tag", '<script\ntype="text/javascript">§JS§</script>', VERBATIM),
    ("script-tab-in-tag", "<script\t>§JS§</script\t>", VERBATIM),
    ("script-src", '<script src="§URL§"></script>', VERBATIM),
    ("script-src-protocol-relative", "<script src=§NET§></script>", VERBATIM),
    ("script-slash-separator", "<script/src=§URL§></script>", VERBATIM),
    ("script-self-closing", '<script src="§URL§"/>', VERBATIM),
    ("script-nested-split", "<scr<script>ipt>§JS§</scr</script>ipt>", VERBATIM),
    ("script-unclosed", "<script>§JS§", VERBATIM),
    ("script-unclosed-tag", "<script src=§URL§ ", VERBATIM),
    ("script-double-open", "<<script>§JS§//<</script>", VERBATIM),
    ("script-module-import", "<script type=module>import '§URL§'</script>", VERBATIM),
    ("script-inside-attribute", '<a title="</script><script>§JS§</script>">x</a>', VERBATIM),
    ("script-in-comment", "<!--<script>§JS§</script>-->", VERBATIM),
    ("script-in-cdata", "<![CDATA[<script>§JS§</script>]]>", VERBATIM),
    ("textarea-breakout", "</textarea><script>§JS§</script>", VERBATIM),
    ("title-breakout", "</title><script>§JS§</script>", VERBATIM),
    ("style-breakout", "</style><script>§JS§</script>", VERBATIM),
    ("noscript-breakout", '<noscript><p title="</noscript><img src=x onerror=§JS§>">', VERBATIM),
    ("json-script-breakout", '"}</script><script>§JS§</script>', VERBATIM),
    # --- event handlers ----------------------------------------------------------------
    ("img-onerror", "<img src=x onerror=§JS§>", VERBATIM),
    ("img-onerror-quoted", '<img src="x" onerror="§ALERT§">', VERBATIM),
    ("img-onerror-upper", "<IMG SRC=x ONERROR=§JS§>", VERBATIM),
    ("img-onerror-slashes", "<img/src=x/onerror=§JS§>", VERBATIM),
    ("img-onerror-newlines", "<img src=x\nonerror=\n§JS§>", VERBATIM),
    ("img-onerror-backticks", "<img src=`x` onerror=`§JS§`>", ("<img src=", "onerror=", "§JS§")),
    ("img-onerror-canary", "<img src=§URL§ onerror=§JS§>", VERBATIM),
    ("svg-onload", "<svg onload=§JS§>", VERBATIM),
    ("svg-onload-slash", "<svg/onload=§ALERT§>", VERBATIM),
    ("body-onload", "<body onload=§JS§>", VERBATIM),
    ("body-onpageshow", "<body onpageshow=§JS§>", VERBATIM),
    ("details-ontoggle", "<details open ontoggle=§JS§><summary>x</summary></details>", VERBATIM),
    ("iframe-onload", "<iframe onload=§JS§></iframe>", VERBATIM),
    ("div-onmouseover", '<div onmouseover="§JS§" style="position:fixed;inset:0">hover</div>', VERBATIM),
    ("a-onmouseover", '<a href="#" onmouseover=§JS§>hover me</a>', VERBATIM),
    ("input-autofocus-onfocus", "<input autofocus onfocus=§JS§>", VERBATIM),
    ("video-source-onerror", '<video><source onerror="§JS§"></video>', VERBATIM),
    ("audio-onerror", "<audio src=x onerror=§JS§>", VERBATIM),
    ("marquee-onstart", "<marquee onstart=§JS§>x</marquee>", VERBATIM),
    ("style-onload", "<style onload=§JS§></style>", VERBATIM),
    ("attribute-breakout-double", '" onmouseover="§JS§" x="', VERBATIM),
    ("attribute-breakout-single", "' onfocus='§JS§' autofocus x='", VERBATIM),
    ("attribute-breakout-unquoted", "x onerror=§JS§ autofocus onfocus=§JS§", VERBATIM),
    ("tag-breakout-double", '"><img src=x onerror=§JS§>', VERBATIM),
    ("tag-breakout-single", "'><svg onload=§JS§>", VERBATIM),
    ("button-formaction", "<form><button formaction=javascript:§JS§>go</button></form>", VERBATIM),
    # --- javascript:, vbscript:, data: links -------------------------------------------
    ("md-link-javascript", "[click me](javascript:§ALERT§)", LETTERS),
    ("md-link-javascript-upper", "[click me](JAVASCRIPT:§JS§)", LETTERS),
    ("md-link-javascript-mixed", "[click me](JaVaScRiPt:§JS§)", LETTERS),
    ("md-link-javascript-leading-space", "[click me](   javascript:§JS§)", LETTERS),
    ("md-link-javascript-decimal-entity", "[click me](&#106;avascript:§JS§)", ("click me",)),
    ("md-link-javascript-hex-entities", "[click me](&#x6A;&#x61;vascript&#x3A;§JS§)", ("click me",)),
    ("md-link-javascript-named-colon", "[click me](javascript&colon;§JS§)", ("click me",)),
    ("md-link-javascript-percent", "[click me](%6Aavascript:§JS§)", LETTERS),
    ("md-link-javascript-percent-colon", "[click me](javascript%3A§JS§)", LETTERS),
    ("md-link-javascript-escaped-colon", "[click me](javascript\\:§JS§)", LETTERS),
    ("md-link-javascript-tab", "[click me](java\tscript:§JS§)", VERBATIM),
    ("md-link-javascript-newline", "[click me](java\nscript:§JS§)", VERBATIM),
    ("md-link-javascript-zero-width", "[click me](java\u200bscript:§JS§)", LETTERS),
    ("md-link-javascript-angle", "[click me](<javascript:§JS§>)", LETTERS),
    ("md-link-javascript-angle-space", "[click me](<java script:§JS§>)", LETTERS),
    ("md-link-vbscript", "[click me](vbscript:msgbox(§N§))", LETTERS),
    ("md-link-data-html", "[click me](data:text/html,<script>§JS§</script>)", LETTERS),
    ("md-link-data-base64", "[click me](data:text/html;base64,§B64§)", LETTERS),
    ("md-link-file", "[click me](file:///etc/passwd)", LETTERS),
    ("md-link-title-breakout", '[click me](§URL§ "\\" onmouseover=\\"§JS§")', LETTERS),
    ("md-link-html-text", "[<img src=x onerror=§JS§>](§URL§)", ("<img src=x onerror=§JS§>",)),
    ("md-link-mailto-script", "[mail me](mailto:a@b.invalid?body=<script>§JS§</script>)", LETTERS),
    ("md-strikethrough-link", "~~[struck](javascript:§JS§)~~", LETTERS),
    ("md-image-javascript", "![alt text](javascript:§JS§)", LETTERS),
    ("md-escaped-brackets", "\\[not a link\\](javascript:§JS§)", ("[not a link](javascript:§JS§)",)),
    ("autolink-javascript", "<javascript:§ALERT§>", ("javascript:§ALERT§",)),
    ("autolink-javascript-upper", "<JAVASCRIPT:§JS§>", ("JAVASCRIPT:§JS§",)),
    ("autolink-vbscript", "<vbscript:msgbox(§N§)>", ("vbscript:msgbox(§N§)",)),
    ("autolink-data", "<data:text/html;base64,§B64§>", ("data:text/html;base64,§B64§",)),
    ("reference-link-javascript", "[click me][evil]\n\n[evil]: javascript:§JS§", LETTERS),
    ("reference-link-angle-title", '[click me][x]\n\n[x]: <javascript:§JS§> "a title"', LETTERS),
    ("reference-collapsed-vbscript", "[evil][]\n\n[evil]: vbscript:msgbox(§N§)", LETTERS),
    ("reference-shortcut-data", "[evil]\n\n[evil]: data:text/html,<script>§JS§</script>", LETTERS),
    ("raw-a-javascript", '<a href="javascript:§JS§">raw link</a>', VERBATIM),
    (
        "raw-a-entity-javascript",
        '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;§JS§">x</a>',
        VERBATIM,
    ),
    ("raw-a-tab-entity", '<a href="jav&#x09;ascript:§JS§">x</a>', VERBATIM),
    ("raw-a-control-prefix", '<a href=" &#14;  javascript:§JS§">x</a>', VERBATIM),
    ("bare-javascript-url", "javascript:§ALERT§", VERBATIM),
    ("bare-javascript-leading-spaces", "   javascript:§JS§", VERBATIM),
    ("bare-vbscript-url", "VBScript:MsgBox(§N§)", VERBATIM),
    ("bare-data-url", "data:text/html,<script>§JS§</script>", VERBATIM),
    # --- protocol-relative and other relative forms ----------------------------------
    ("md-link-protocol-relative", "[relative](§NET§)", LETTERS),
    ("md-image-protocol-relative", "![relative image](§NET§)", LETTERS),
    ("md-link-backslash-relative", "[backslash](/\\§HOSTPATH§)", LETTERS),
    ("md-link-triple-slash", "[triple](///§HOSTPATH§)", LETTERS),
    ("raw-img-protocol-relative", '<img src="§NET§">', VERBATIM),
    ("bare-protocol-relative", "see §NET§ for details", VERBATIM),
    # --- images whose URL carries a secret ---------------------------------------------
    ("md-image-secret-query", "![status](§URL§?secret=hunter2&session=abc)", LETTERS),
    ("md-image-secret-title", '![chart](§URL§?token=abc123 "Quarterly chart")', LETTERS),
    ("md-image-reference-secret", "![logo][l]\n\n[l]: §URL§?api_key=sk-test-123", LETTERS),
    ("md-image-inside-link", "[![badge](§URL§?s=1)](§URL§)", LETTERS),
    ("md-image-upper-scheme", "![shouting](§UPPERURL§?secret=1)", LETTERS),
    ("md-image-empty-alt", "Look: ![](§URL§?secret=empty-alt) end", LETTERS),
    ("md-image-data-svg", "![svg](data:image/svg+xml;base64,§B64§)", LETTERS),
    ("md-image-angle-destination", "![angled](<§URL§?secret=angle>)", LETTERS),
    ("bare-url-secret", "§URL§?secret=bare.png", VERBATIM),
    ("raw-img-secret", '<img src="§URL§?secret=raw">', VERBATIM),
    ("raw-picture-srcset", '<img srcset="§URL§?secret=srcset 2x">', VERBATIM),
    # --- entities -------------------------------------------------------------------------
    # The renderer escapes `&` in text, so entities read as typed, not decoded.
    ("entity-script", "&lt;script&gt;§JS§&lt;/script&gt;", VERBATIM),
    ("entity-decimal-img", "&#60;img src=x onerror=§JS§&#62;", VERBATIM),
    ("entity-hex-svg", "&#x3C;svg onload=§JS§&#x3E;", VERBATIM),
    ("entity-double-encoded", "&amp;lt;script&amp;gt;§JS§", VERBATIM),
    ("entity-without-semicolons", "&lt&gt&quot&amp &#60 &#x3C", VERBATIM),
    ("entity-named-exotic", "&NewLine;&Tab;&colon;&lpar;&rpar;&quot;&apos;", VERBATIM),
    ("entity-zero-width", "a&#8203;b&#x200B;c&zwnj;d", VERBATIM),
    ("entity-bidi-override", "&#x202E;evil&#x202C;", VERBATIM),
    ("entity-out-of-range", "&#0; &#x110000; &#xD800;", VERBATIM),
    # --- SVG and MathML ------------------------------------------------------------------
    ("svg-script", "<svg><script>§JS§</script></svg>", VERBATIM),
    ("svg-animate-onbegin", "<svg><animate onbegin=§JS§ attributeName=x dur=1s>", VERBATIM),
    ("svg-use-href", '<svg><use href="§URL§#x"/></svg>', VERBATIM),
    ("svg-xlink", '<svg><a xlink:href="javascript:§JS§"><text x="20" y="20">XSS</text></a></svg>', VERBATIM),
    (
        "svg-foreignobject",
        '<svg><foreignObject><iframe src="javascript:§JS§"></iframe></foreignObject>',
        VERBATIM,
    ),
    ("svg-set-handler", "<svg><set attributeName=onmouseover to=§JS§ />", VERBATIM),
    ("svg-image-href", "<svg><image href=§URL§ /></svg>", VERBATIM),
    ("math-xlink", '<math><mi xlink:href="javascript:§JS§">click</mi></math>', VERBATIM),
    ("math-mglyph-style", "<math><mtext><table><mglyph><style><img src=x onerror=§JS§>", VERBATIM),
    (
        "math-annotation-html",
        '<math><annotation-xml encoding="text/html"><img src=x onerror=§JS§></annotation-xml></math>',
        VERBATIM,
    ),
    # --- CSS ------------------------------------------------------------------------------
    ("css-expression", '<div style="width: expression(§ALERT§)">x</div>', VERBATIM),
    ("css-import", "<style>@import '§URL§';</style>", VERBATIM),
    ("css-background-url", '<div style="background:url(§URL§)">bg</div>', VERBATIM),
    ("css-behavior", '<div style="behavior: url(§URL§.htc)">x</div>', VERBATIM),
    ("css-attribute-text", "style=\"background-image:url('§URL§')\"", VERBATIM),
    ("link-stylesheet", "<link rel=stylesheet href=§URL§>", VERBATIM),
    # --- embedding and document-changing tags --------------------------------------------
    ("iframe-canary", '<iframe src="§URL§"></iframe>', VERBATIM),
    ("iframe-javascript", '<iframe src="javascript:§JS§"></iframe>', VERBATIM),
    ("iframe-srcdoc", '<iframe srcdoc="&lt;script&gt;parent.§JS§&lt;/script&gt;"></iframe>', VERBATIM),
    ("frameset", "<frameset><frame src=§URL§></frameset>", VERBATIM),
    ("object-data", '<object data="§URL§"></object>', VERBATIM),
    ("object-javascript", '<object data="javascript:§JS§"></object>', VERBATIM),
    ("embed-src", '<embed src="§URL§">', VERBATIM),
    ("video-poster", '<video poster="§URL§" src="§URL§" autoplay></video>', VERBATIM),
    ("audio-autoplay", '<audio autoplay src="§URL§"></audio>', VERBATIM),
    ("meta-refresh", '<meta http-equiv="refresh" content="0;url=§URL§">', VERBATIM),
    ("meta-refresh-javascript", '<meta http-equiv="refresh" content="0;url=javascript:§JS§">', VERBATIM),
    ("base-href", '<base href="§URL§/">', VERBATIM),
    ("form-action", '<form action="§URL§"><input name=q value=secret><button>Go</button></form>', VERBATIM),
    ("input-image", "<input type=image src=§URL§>", VERBATIM),
    ("link-prefetch", "<link rel=prefetch href=§URL§>", VERBATIM),
    # --- Unicode direction tricks and invisible characters ---------------------------------
    ("rlo-file-name", "invoice\u202efdp.exe", VERBATIM),
    ("rlo-link-text", "[safe\u202eevil](§URL§)", ("safe\u202eevil",)),
    ("rlo-reversed-script", "\u202e>tpircs/<§JS§>tpircs<", VERBATIM),
    ("bidi-isolates", "\u2066admin\u2069 \u2067\u2068root\u2069", VERBATIM),
    ("bidi-marks-embeddings", "\u200e\u200fpay \u202a100\u202c to \u202bevil\u202c", VERBATIM),
    ("zero-width-javascript", "java\u200bscript:§JS§", VERBATIM),
    ("zero-width-joiner-script", "\ufeff<scr\u200dipt>§JS§</scr\u200dipt>", VERBATIM),
    ("homoglyph-domain", "Sign in at pаypаl.com (Cyrillic a)", VERBATIM),
    ("combining-marks", "Z\u0351\u0364a\u0352l\u0313g\u036fo <b>tag</b>", VERBATIM),
    ("line-separators", "line\u2028separator\u2029paragraph <i>x</i>", VERBATIM),
    ("fullwidth-script", "\uff1cscript\uff1e§JS§\uff1c/script\uff1e", VERBATIM),
    # --- template injection -------------------------------------------------------------
    ("jinja-arithmetic", "{{7*7}} {{ 7*'7' }}", LETTERS),
    ("jinja-config", "{{ config.items() }}{% raw %}x{% endraw %}{# c #}", VERBATIM),
    ("jinja-dunder", "{{ ''.__class__.__mro__[1].__subclasses__() }}", LETTERS),
    ("dollar-and-erb", "${7*7} #{7*7} <%= 7*7 %> @(7*7)", LETTERS),
    ("angular-constructor", "{{constructor.constructor('§JS§')()}}", VERBATIM),
    ("template-literal", "`${§JS§}`", ("${§JS§}",)),
    ("format-strings", "%s%s%n %(secret)s {0.__class__} %x", LETTERS),
    ("handlebars-block", '{{#with "s" as |string|}}{{/with}}', VERBATIM),
    # --- JSON and quote breakers -------------------------------------------------------
    ("json-breakout", '"}]}, "__proto__": {"polluted": true}, "x": [{"', LETTERS),
    ("quote-soup", "'\"`;--></'\">\\'\\\"", LETTERS),
    ("escaped-unicode-script", '\\"\\u003cscript\\u003e§JS§\\u003c/script\\u003e', LETTERS),
    ("sql-comment", "'; DROP TABLE events; --", VERBATIM),
    ("closing-tags", "</li></ol></section></form></main></body></html>", VERBATIM),
    ("js-keywords", "undefined null NaN [object Object] {} __proto__", LETTERS),
    ("crlf-header-injection", "x\r\nSet-Cookie: tasksurface_session=stolen\r\n\r\n<b>body</b>", VERBATIM),
    # --- Markdown block constructs around HTML -------------------------------------------
    ("heading-script", "# <script>§JS§</script>", ("<script>§JS§</script>",)),
    ("setext-heading-img", "<img src=x onerror=§JS§>\n===", ("<img src=x onerror=§JS§>",)),
    ("blockquote-iframe", "> <iframe src=§URL§>", ("<iframe src=§URL§>",)),
    (
        "list-handlers",
        "- <svg onload=§JS§>\n- <body onload=§JS§>",
        ("<svg onload=§JS§>", "<body onload=§JS§>"),
    ),
    (
        "table-html",
        "| a | <img src=x onerror=§JS§> |\n|---|---|\n| <script>§JS§</script> | b |",
        ("<img src=x onerror=§JS§>", "<script>§JS§</script>"),
    ),
    ("code-fence-html", "```html\n<script>§JS§</script>\n```", ("<script>§JS§</script>",)),
    ("indented-code-html", "    <script>§JS§</script>", ("<script>§JS§</script>",)),
    ("strong-script", "**<script>§JS§</script>**", ("<script>§JS§</script>",)),
    ("html-comment-hiding", "visible<!-- hidden <script>§JS§</script> -->text", VERBATIM),
    ("hard-break-inside-tag", "<img src=x  \nonerror=§JS§>", VERBATIM),
    ("autolink-with-quote", '<§URL§?a="onmouseover=§JS§>', ('§URL§?a="onmouseover=§JS§',)),
    ("bare-url-tag-breakout", '§URL§?q="><script>§JS§</script>', VERBATIM),
    ("html-block-div", "<div>\n<script>§JS§</script>\n</div>", VERBATIM),
    ("leading-newline-script", "\n\n<script>§JS§</script>", VERBATIM),
    # Markdown itself keeps these parts out of view (CommonMark): an unused reference
    # definition and the words of a fence's info string. Only the rest must be readable.
    ("reference-definition-comment", "Shown.\n\n[//]: # (hidden note §URL§)", ("Shown.",)),
    ("fence-info-string", "```js <script>§JS§</script>\nvisible code\n```", ("visible code",)),
    # --- very long lines ------------------------------------------------------------------
    ("long-line-900", "A" * 880 + " <b>end</b>", VERBATIM),
    ("long-word-5000", "x" * 5000 + "<script>§JS§</script>", VERBATIM),
    ("long-line-of-unsafe-links", "[l](javascript:§JS§) " * 40, LETTERS),
    ("long-line-of-tags", "<i>" * 150 + "deep" + "</i>" * 150, VERBATIM),
)

BROWSER_PATHOLOGY_CHARS = 600
"""Pathological Markdown goes through the browser at this size; the cost test scales it up."""


def hostile_corpus(canary: str) -> list[Hostile]:
    """The corpus with every requestable URL under `canary` (e.g. http://127.0.0.1:5001/canary)."""
    items: list[Hostile] = []
    for label, template, shown in _TEMPLATES:
        values = _urls(canary, len(items) + 1)
        markdown = shown if isinstance(shown, str) else tuple(_fill(part, values) for part in shown)
        items.append(Hostile(len(items) + 1, label, _fill(template, values), markdown))
    for pathology in PATHOLOGIES:
        number = len(items) + 1
        _, text = pathology.sized(BROWSER_PATHOLOGY_CHARS, _urls(canary, number)["§URL§"])
        items.append(Hostile(number, "pathological-" + pathology.label, text, pathology.markdown))
    labels = [item.label for item in items]
    assert len(set(labels)) == len(labels), "labels must be unique"
    return items


def readable_letters(text: str) -> str:
    """Letters and digits in reading order (the `LETTERS` rule's comparison form)."""
    return "".join(ch for ch in text if ch.isalnum())


def markdown_letters(text: str) -> str:
    """The `LETTERS` rule applied to an input: link destinations, reference labels and
    reference definitions dropped, letters and digits kept."""
    without_definitions = re.sub(r"(?m)^ {0,3}\[[^\]\n]+\]:[^\n]*$", "", text)
    without_destinations = re.sub(r"\]\((?:[^()\n]|\([^()\n]*\))*\)", "]", without_definitions)
    without_labels = re.sub(r"\]\[[^\]\n]*\]", "]", without_destinations)
    return readable_letters(without_labels)


def is_subsequence(needle: str, haystack: str) -> bool:
    """Every character of `needle`, in order, somewhere in `haystack`."""
    rest = iter(haystack)
    return all(ch in rest for ch in needle)


def normalise(text: str) -> str:
    """Whitespace-insensitive form: browsers collapse and wrap whitespace."""
    return " ".join(text.replace("\r\n", "\n").split())


def expected_fragments(item: Hostile, as_markdown: bool) -> Sequence[str]:
    """The normalised fragments that must be readable, or `()` for the LETTERS rule."""
    if not as_markdown or item.markdown == VERBATIM:
        return (normalise(item.text),)
    if item.markdown == LETTERS:
        return ()
    return tuple(normalise(part) for part in item.markdown)


def reads_as(item: Hostile, readable: str, as_markdown: bool) -> bool:
    """Whether `readable` (an element's visible text) shows `item` by the rules above."""
    if as_markdown and item.markdown == LETTERS:
        return is_subsequence(markdown_letters(item.text), readable_letters(readable))
    shown = normalise(readable)
    return all(part in shown for part in expected_fragments(item, as_markdown))
