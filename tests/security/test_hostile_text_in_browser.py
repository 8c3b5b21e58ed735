"""Model text is data: the hostile corpus in every model-controlled string, in a real browser.

Each corpus item goes through
- its own Task Surface, where it fills every text position its length allows (title,
  description, section title, markdown, metric label/value/detail, table column and cell,
  diff path/language/before/after, notice, the label of a field of every kind), shown as
  the transcript row's read-only replay;
- the dock: an open panel lists the item as an option label and detail and a text-field
  initial value, and, in turn, items are its field labels, title, description, section,
  Markdown and submit label (the dock holds one panel at a time, so the corpus is dealt
  over a few panels, each checked while it is the open one);
- an ordinary message: the person's bubble and the agent's Markdown reply ("You said: ...").

The first test lets the server render all of it into the pages (one session per panel).
The second opens the page first and lets the messages and the dock panels arrive live:
rows pushed over the websocket, each dock fetched and swapped in.

What must hold, with every replay `<details>` open, every link and focusable element
hovered or focused (never clicked) and a second to let anything load:
(a) no script ran: the page's `alert`/`confirm`/`prompt`/`print` are traps set before the
    page loads, every payload sets `window.__pwned` or calls one of them, and no real
    dialog is open;
(b) nothing was fetched: the canary server (every corpus URL points at it) saw no request;
    Chromium's network log shows no request leaving the page's origin that was not
    blocked, and the only blocked attempts are the `<img>` the chat policy renders for
    Markdown images in agent replies (`remote_images="render"`, stopped by `img-src`);
    no other CSP violation was reported and the console shows no refused script;
(c) every item is readable where it was put (see `hostile_corpus` for the Markdown rule:
    verbatim, its letters, or named fragments), attribute values round-trip exactly;
(d) around model text the DOM holds only elements and attributes that the templates draw
    for the shipped demo panels or that the Markdown renderer makes, links and images obey
    the renderer's URL policy, and the page's scripts, links and handlers are those of the
    benign page: nothing was parsed out of model text.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait
from werkzeug.serving import BaseWSGIServer, make_server

from ..browser.conftest import CHROMEDRIVER, CHROMIUM, chromium_options
from ..browser.pages import ChatPage, browse_as, wait_until
from ..conftest import LiveServer
from ..support import Api, wait_for
from .hostile_corpus import Hostile, hostile_corpus, reads_as

pytestmark = pytest.mark.browser

SHORT = 200
DETAIL = 1000
INITIAL = 4000
MESSAGE_CHARS = 32_000
"""The scripted agent takes a model as a chat message, which holds at most 32,000 characters."""
DOCK_JSON_BUDGET = 30_000

TRAPS = """
(() => {
  const trap = (name) => function (...args) {
    const call = name + ":" + args.map(String).join(",");
    if (window.__pwned === undefined) window.__pwned = call;
    (window.__trapped = window.__trapped || []).push(call);
  };
  for (const name of ["alert", "confirm", "prompt", "print"]) window[name] = trap(name);
  window.__csp = [];
  window.addEventListener("securitypolicyviolation", (e) => {
    const t = e.target;
    const element = t && t.nodeType === 1 ? t : null;
    window.__csp.push({
      directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample || "",
      tag: element ? element.tagName.toLowerCase() : "",
    });
  }, true);
})();
"""
"""Installed before any page script: traps for dialogs and a record of CSP violations."""


# -- fixtures ---------------------------------------------------------------------------


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """SQLite only: the browser checks rendering, not storage."""
    yield f"sqlite:///{tmp_path / 'hostile.sqlite3'}"


@pytest.fixture
def app_config(database_url: str) -> dict[str, Any]:
    # The whole transcript on one page, so every row is in the DOM at once.
    return {"database_url": database_url, "secret_key": "test-secret-key", "history_page": 5000}


class Canary:
    """A second origin on 127.0.0.1 that counts every request it receives."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        self._lock = threading.Lock()
        self._server: BaseWSGIServer = make_server("127.0.0.1", 0, self._app, threaded=True)
        self.origin = f"http://127.0.0.1:{self._server.server_port}"
        self.base = self.origin + "/canary"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def _app(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        with self._lock:
            query = environ.get("QUERY_STRING", "")
            self.hits.append(
                f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}{'?' + query if query else ''}"
            )
        start_response("200 OK", [("Content-Type", "text/plain"), ("Access-Control-Allow-Origin", "*")])
        return [b"canary"]

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


@pytest.fixture
def canary() -> Iterator[Canary]:
    server = Canary()
    yield server
    server.stop()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    """Headless Chromium with its network and console logs, and the traps installed."""
    if not Path(CHROMIUM).exists() or not Path(CHROMEDRIVER).exists():
        pytest.fail("Chromium and its driver are needed: the README's test command installs them")
    options = chromium_options(tmp_path / "profile")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TRAPS})
    yield driver
    driver.quit()


# -- models ---------------------------------------------------------------------------------


def _fits(text: str, limit: int) -> bool:
    return len(text) <= limit


def item_model(item: Hostile) -> dict[str, Any]:
    """A panel with `item` in every text position its length allows."""
    s = item.text
    short = s if _fits(s, SHORT) else f"item {item.number}"
    options = [{"id": "one", "label": "One"}, {"id": "two", "label": "Two"}]
    metric: dict[str, Any] = {"label": short, "value": short}
    if _fits(s, DETAIL):
        metric["detail"] = s
    model: dict[str, Any] = {
        "version": 1,
        "title": short,
        "sections": [
            {
                "id": "sec-text",
                "title": short,
                "blocks": [
                    {"kind": "markdown", "text": s},
                    {"kind": "notice", "tone": "warning", "text": s},
                    {"kind": "metrics", "items": [metric]},
                    {
                        "kind": "table",
                        "columns": [{"id": "c", "label": short}],
                        "rows": [{"c": s if _fits(s, DETAIL) else short}],
                    },
                ],
            },
            {
                "id": "sec-after",
                "blocks": [{"kind": "diff", "path": short, "language": short, "before": None, "after": s}],
            },
            {"id": "sec-before", "blocks": [{"kind": "diff", "path": "before", "before": s, "after": ""}]},
        ],
        "fields": [
            {"kind": "text", "id": "text", "label": short},
            {"kind": "toggle", "id": "toggle", "label": short},
            {"kind": "choice", "id": "choice", "label": short, "options": options},
            {"kind": "multi-choice", "id": "multi", "label": short, "options": options},
            {"kind": "order", "id": "order", "label": short, "options": options},
        ],
        "submit": {"label": short},
    }
    if _fits(s, DETAIL):
        model["description"] = s
    return model


def tool_message(model: dict[str, Any]) -> str:
    text = "/tool show_task_surface " + json.dumps({"model": model})
    assert len(text) <= MESSAGE_CHARS, f"model too large for one message: {len(text)}"
    return text


def _single_line(text: str) -> bool:
    # An <input type=text> drops CR and LF from its value; those items go in a textarea.
    return "\n" not in text and "\r" not in text


@dataclass
class DockPanel:
    """One open panel that lists a slice of the corpus in every dock-only position."""

    items: list[Hostile]
    model: dict[str, Any] = field(default_factory=dict)
    option_fields: list[tuple[str, list[Hostile]]] = field(default_factory=list)
    text_fields: list[tuple[str, list[Hostile], bool]] = field(default_factory=list)
    labelled: list[tuple[str, Hostile]] = field(default_factory=list)
    title: Hostile | None = None
    description: Hostile | None = None
    submit: Hostile | None = None

    def build(self) -> dict[str, Any]:
        shorts = [i for i in self.items if _fits(i.text, SHORT)]
        details = [i for i in self.items if _fits(i.text, DETAIL)]
        fields: list[dict[str, Any]] = []
        self.option_fields, self.text_fields, self.labelled = [], [], []
        kinds = ("choice", "multi-choice", "order")
        for k in range(0, len(shorts), 40):
            group = shorts[k : k + 40]
            field_id = f"options{k // 40}"
            fields.append(
                {
                    "kind": kinds[(k // 40) % 3],
                    "id": field_id,
                    "label": "Options",
                    "options": [
                        {"id": f"o{i.number}", "label": i.text}
                        | ({"detail": i.text} if _fits(i.text, DETAIL) else {})
                        for i in group
                    ],
                }
            )
            self.option_fields.append((field_id, group))
        singles = [i for i in self.items if _single_line(i.text) and _fits(i.text, INITIAL)]
        inputs = singles[:8]
        for n, i in enumerate(inputs):
            fields.append({"kind": "text", "id": f"line{n}", "label": "Line", "initial": i.text})
            self.text_fields.append((f"line{n}", [i], False))
        rest = [i for i in self.items if i not in inputs and _fits(i.text, INITIAL)]
        chunk: list[Hostile] = []
        for i in rest:
            if chunk and sum(len(c.text) + 1 for c in chunk) + len(i.text) > INITIAL:
                self._textarea(fields, chunk)
                chunk = []
            chunk.append(i)
        if chunk:
            self._textarea(fields, chunk)
        # Field labels take the short items in turn.
        for f, i in zip(fields, shorts[::-1], strict=False):
            f["label"] = i.text
            self.labelled.append((f["id"], i))
        fields.append({"kind": "toggle", "id": "toggle", "label": shorts[0].text})
        self.labelled.append(("toggle", shorts[0]))
        self.title, self.submit = shorts[1], shorts[2]
        self.description = details[3]
        self.model = {
            "version": 1,
            "title": self.title.text,
            "description": self.description.text,
            "sections": [
                {
                    "id": "sec-intro",
                    "title": shorts[4].text,
                    "blocks": [{"kind": "markdown", "text": shorts[5].text}],
                }
            ],
            "fields": fields,
            "submit": {"label": self.submit.text},
        }
        return self.model

    def _textarea(self, fields: list[dict[str, Any]], chunk: list[Hostile]) -> None:
        field_id = f"area{len(self.text_fields)}"
        initial = "\n".join(c.text for c in chunk)
        fields.append(
            {"kind": "text", "id": field_id, "label": "Area", "multiline": True, "initial": initial}
        )
        self.text_fields.append((field_id, list(chunk), True))

    def size(self) -> int:
        return len(tool_message(self.build()))


def dock_panels(corpus: list[Hostile]) -> list[DockPanel]:
    """Deal the corpus round-robin over as few dock panels as the message size allows."""
    for count in range(1, len(corpus) + 1):
        panels = [DockPanel(corpus[k::count]) for k in range(count)]
        if all(len(json.dumps({"model": panel.build()})) <= DOCK_JSON_BUDGET for panel in panels):
            return panels
    raise AssertionError("the corpus does not fit in dock panels")


# -- the sessions ---------------------------------------------------------------------------
# The corpus is dealt over a few parts; each part is one session page that holds its items
# in every position: their messages, their own panels' rows, and the dock panel, open last.
# (The agent re-reads a session's whole log on every turn, so smaller sessions build faster.)


class Events:
    """A session's log, fetched incrementally."""

    def __init__(self, api: Api, sid: str) -> None:
        self.api, self.sid = api, sid
        self.seen: list[dict[str, Any]] = []

    def fetch(self) -> list[dict[str, Any]]:
        while page := self.api.events(self.sid, after=self.seen[-1]["seq"] if self.seen else 0):
            self.seen.extend(page)
        return self.seen


def settle(api: Api, sid: str, surfaces: int, replies: int, timeout: float = 60.0) -> list[dict[str, Any]]:
    """Wait until the agent has answered everything: `surfaces` panels and `replies` replies."""
    log = Events(api, sid)

    def probe() -> list[dict[str, Any]] | None:
        if api.queue(sid):
            return None
        events = log.fetch()
        shown = sum(1 for e in events if e["kind"] == "tool/result")
        said = sum(1 for e in events if e["kind"] == "assistant/message")
        done = shown >= surfaces and said >= replies and events[-1]["kind"] != "user/message"
        return events if done else None

    return wait_for(probe, timeout=timeout, interval=0.2)


def map_messages(events: list[dict[str, Any]], items: list[Hostile]) -> dict[int, tuple[int, int]]:
    """item number -> (seq of its user bubble, seq of the agent's reply to it)."""
    assert not [e for e in events if e["kind"] == "agent/error"]
    found: dict[int, tuple[int, int]] = {}
    users = iter(e for e in events if e["kind"] == "user/message")
    for item in items:
        expected = item.text.replace("\r\n", "\n")
        user = next(e for e in users if e["payload"]["content"][0]["text"] == expected)
        reply = next(
            e for e in events if e["seq"] > user["seq"] and e["kind"] in ("assistant/message", "user/message")
        )
        assert reply["kind"] == "assistant/message", f"no reply to {item.label}"
        found[item.number] = (user["seq"], reply["seq"])
    return found


def surface_results(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    results = [e for e in events if e["kind"] == "tool/result"]
    refused = [e["payload"]["content"] for e in results if not e["payload"]["ok"]]
    assert not refused, f"a test model was refused: {refused[:2]}"
    return results


@dataclass
class Part:
    """One session: where each of its items was put, by event seq."""

    sid: str
    panel: DockPanel
    messages: dict[int, tuple[int, int]] = field(default_factory=dict)
    """item number -> (seq of the user bubble, seq of the agent reply)"""
    rows: dict[int, int] = field(default_factory=dict)
    """item number -> seq of the transcript row of the item's own panel"""
    dock_row: int = 0
    surface_id: str = ""

    @property
    def items(self) -> list[Hostile]:
        return self.panel.items

    def send(self, api: Api) -> None:
        for item in self.items:
            api.send(self.sid, item.text)
        for item in self.items:
            api.send(self.sid, tool_message(item_model(item)))
        api.send(self.sid, tool_message(self.panel.model))

    def read(self, api: Api) -> None:
        """Wait for the agent, then map every item to its rows."""
        events = settle(api, self.sid, surfaces=len(self.items) + 1, replies=len(self.items))
        self.messages = map_messages(events, self.items)
        results = surface_results(events)
        assert len(results) == len(self.items) + 1
        for item, result in zip(self.items, results, strict=False):
            self.rows[item.number] = result["seq"]
        self.dock_row = results[-1]["seq"]
        self.surface_id = results[-1]["payload"]["meta"]["surfaceId"]

    def spots(self) -> list[Spot]:
        spots: list[Spot] = []
        for item in self.items:
            spots += row_spots(item, self.rows[item.number])
            spots += message_spots(item, *self.messages[item.number])
        return spots + dock_spots(self.panel) + panel_row_spots(self.panel, self.dock_row)


# -- what the page shows ---------------------------------------------------------------------


@dataclass(frozen=True)
class Spot:
    """One place where an item must be readable.

    mode: `text` (innerText), `content` (textContent, for text the CSS upper-cases),
    `markdown` (innerText plus image alt text, read by the Markdown rule), `lines` (the
    innerText of every match joined by newlines: diff rows), `value` (a form control's
    value) or `attr:<name>`; `exact` compares value and attribute exactly.
    """

    item: Hostile
    where: str
    root: str
    selector: str
    mode: str = "text"
    exact: str | None = None
    every: bool = False


def row_spots(item: Hostile, seq: int) -> list[Spot]:
    root, s = f"#ev-{seq}", item.text
    spots = [
        Spot(item, "panel row: markdown block", root, ".block-markdown", "markdown"),
        Spot(item, "panel row: notice", root, ".block-notice"),
        Spot(
            item,
            "panel row: diff 'after' lines",
            root,
            "section.surface-section:nth-of-type(2) td.code",
            "lines",
        ),
        Spot(
            item,
            "panel row: diff 'before' lines",
            root,
            "section.surface-section:nth-of-type(3) td.code",
            "lines",
        ),
    ]
    if _fits(s, SHORT):
        spots += [
            Spot(item, "panel row: title", root, ".surface-row-title"),
            Spot(
                item, "panel row: aria-label", root, "article.surface-row", "attr:aria-label", "Panel: " + s
            ),
            Spot(item, "panel row: section title", root, ".surface-section h3", "content"),
            Spot(item, "panel row: metric label", root, ".metric dt"),
            Spot(item, "panel row: metric value", root, ".metric-value"),
            Spot(item, "panel row: table column", root, ".block-table thead th"),
            Spot(item, "panel row: diff path", root, "section.surface-section:nth-of-type(2) .diff-path"),
            Spot(
                item,
                "panel row: diff language",
                root,
                "section.surface-section:nth-of-type(2) figcaption .badge",
            ),
            Spot(item, "panel row: field labels", root, ".replay-field", every=True),
        ]
    if _fits(s, DETAIL):
        spots += [
            Spot(item, "panel row: description", root, ".surface-description"),
            Spot(item, "panel row: metric detail", root, ".metric-detail"),
            Spot(item, "panel row: table cell", root, ".block-table tbody td"),
        ]
    return spots


def message_spots(item: Hostile, user_seq: int, reply_seq: int) -> list[Spot]:
    return [
        Spot(item, "user bubble", f"#ev-{user_seq}", ".bubble-user .plain-text"),
        Spot(item, "agent reply (Markdown)", f"#ev-{reply_seq}", ".bubble-agent", "markdown"),
    ]


def dock_spots(panel: DockPanel) -> list[Spot]:
    dock = "#task-surface-dock"
    assert panel.title and panel.description and panel.submit
    spots = [
        Spot(panel.title, "dock: title", dock, "#dock-title"),
        Spot(panel.description, "dock: description", dock, ".dock-body > .surface-description"),
        Spot(panel.submit, "dock: submit label", dock, "button[data-action=submit]"),
    ]
    intro = panel.model["sections"][0]
    by_text = {i.text: i for i in panel.items}
    spots.append(Spot(by_text[intro["title"]], "dock: section title", dock, ".surface-section h3", "content"))
    spots.append(
        Spot(by_text[intro["blocks"][0]["text"]], "dock: markdown block", dock, ".block-markdown", "markdown")
    )
    for field_id, item in panel.labelled:
        spots.append(Spot(item, "dock: field label", dock, f'.field[data-field-id="{field_id}"]'))
    for field_id, group in panel.option_fields:
        scope = f'.field[data-field-id="{field_id}"] [data-option-id="o{{n}}"]'
        kind = next(f["kind"] for f in panel.model["fields"] if f["id"] == field_id)
        for i in group:
            if kind == "order":
                option = scope.format(n=i.number)
                up = f"{option} [data-move=up]"
                spots.append(Spot(i, "dock: order item", dock, f"{option} .option-label"))
                spots.append(
                    Spot(i, "dock: move button label", dock, up, "attr:aria-label", f"Move {i.text} up")
                )
            else:
                label = f'.field[data-field-id="{field_id}"] input[value="o{i.number}"] + label'
                spots.append(Spot(i, "dock: option label", dock, f"{label} .option-label"))
            if _fits(i.text, DETAIL):
                where = scope.format(n=i.number) if kind == "order" else label
                spots.append(Spot(i, "dock: option detail", dock, f"{where} .option-detail"))
    for field_id, group, multiline in panel.text_fields:
        control = f'.field[data-field-id="{field_id}"] ' + ("textarea" if multiline else "input")
        for i in group:
            exact = None if multiline else i.text
            spots.append(Spot(i, "dock: initial value", dock, control, "value", exact))
    return spots


def panel_row_spots(panel: DockPanel, seq: int) -> list[Spot]:
    """The dock panel's own transcript row: what its read-only replay shows."""
    root = f"#ev-{seq}"
    by_text = {i.text: i for i in panel.items}
    intro = panel.model["sections"][0]
    assert panel.title and panel.description
    spots = [
        Spot(panel.title, "dock panel row: title", root, ".surface-row-title"),
        Spot(panel.description, "dock panel row: description", root, ".surface-description"),
        Spot(
            by_text[intro["title"]], "dock panel row: section title", root, ".surface-section h3", "content"
        ),
        Spot(
            by_text[intro["blocks"][0]["text"]],
            "dock panel row: markdown",
            root,
            ".block-markdown",
            "markdown",
        ),
    ]
    for _, item in panel.labelled:
        spots.append(Spot(item, "dock panel row: field label", root, ".replay-field"))
    return spots


READ_SPOTS = """
const spots = arguments[0];
const read = (el, mode) => {
  if (mode === "value") return el.value;
  if (mode.startsWith("attr:")) return el.getAttribute(mode.slice(5));
  if (!el.checkVisibility({visibilityProperty: true, opacityProperty: true})) return null;
  if (mode === "content") return el.textContent;
  let text = el.innerText;
  if (mode === "markdown") for (const img of el.querySelectorAll("img")) text += " " + img.alt;
  return text;
};
return spots.map(([root, selector, mode]) => {
  const scope = document.querySelector(root);
  if (!scope) return null;
  const found = selector ? [...scope.querySelectorAll(selector)] : [scope];
  const texts = found.map((el) => read(el, mode)).filter((t) => t !== null);
  return mode === "lines" ? [texts.join("\\n")] : texts;
});
"""


def _newlines(text: str) -> str:
    """HTML parsing turns CR LF and lone CR into LF, in text and attribute values alike."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def unreadable(driver: WebDriver, spots: list[Spot]) -> list[str]:
    """The spots where the item cannot be read, described for a failure message."""
    found: list[list[str] | None] = driver.execute_script(
        READ_SPOTS, [[s.root, s.selector, s.mode] for s in spots]
    )
    problems = []
    for spot, texts in zip(spots, found, strict=True):
        if not texts:
            problems.append(f"#{spot.item.number} {spot.item.label} @ {spot.where}: nothing visible")
            continue
        if spot.exact is not None:
            ok = any(_newlines(t) == _newlines(spot.exact) for t in texts)
        else:
            as_markdown = spot.mode == "markdown"
            checks = [reads_as(spot.item, t, as_markdown) for t in texts]
            ok = all(checks) if spot.every else any(checks)
        if not ok:
            problems.append(f"#{spot.item.number} {spot.item.label} @ {spot.where}: reads {texts[0][:160]!r}")
    return problems


# -- what the page did -------------------------------------------------------------------------

MARKDOWN_TAGS = frozenset(
    {
        *("p", "a", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li", "hr", "br", "del"),
        *("h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "div", "span"),
        "img",
    }
)
"""Everything `tasksurface.web.markdown` can emit."""
MARKDOWN_ATTRIBUTES = frozenset(
    {
        *("href", "title", "rel", "target", "class", "src", "alt", "loading", "referrerpolicy"),
        *("role", "tabindex", "start", "aria-label"),
    }
)
MARKDOWN_URL = {"a": re.compile(r"(?i)^(https?|mailto):"), "img": re.compile(r"(?i)^https?:")}
"""The renderer's URL policy: absolute http(s) or mailto links, http(s) images."""

DOM_SURVEY = """
const origin = location.origin;
const out = {tags: [], attributes: [], urls: [], images: []};
for (const root of document.querySelectorAll("#events, #dock-slot")) {
  for (const el of root.querySelectorAll("*")) {
    const tag = el.localName;
    out.tags.push(tag);
    const markdown = !!el.closest(".markdown");
    for (const attr of el.attributes) {
      out.attributes.push([attr.name, el.outerHTML.slice(0, 160)]);
      const urlish = ["href", "src", "srcset", "action", "formaction", "poster", "data", "xlink:href"];
      if (urlish.includes(attr.name)) {
        const url = new URL(attr.value, location.href);
        out.urls.push([tag, attr.name, attr.value.slice(0, 160), url.origin === origin, markdown]);
      }
    }
    if (tag === "img") out.images.push([el.src, !!el.closest(".bubble-agent")]);
  }
}
out.page = {
  scripts: [...document.scripts].map((s) => [s.getAttribute("src"), s.type]),
  links: [...document.querySelectorAll("link")].map((l) => [l.rel, l.getAttribute("href")]),
  embedded: document.querySelectorAll(
    "iframe, frame, object, embed, base, svg, math, style, video, audio, meta[http-equiv]").length,
  baseURI: document.baseURI === location.href,
  handlers: [...document.querySelectorAll("*")].flatMap((el) =>
    [...el.attributes].filter((a) => a.name.startsWith("on")).map((a) => el.localName + " " + a.name)),
};
return out;
"""


@dataclass(frozen=True)
class Baseline:
    """The page as the templates draw it around benign content: the shipped demo panels."""

    tags: frozenset[str]
    attributes: frozenset[str]
    page: dict[str, Any]


def survey(driver: WebDriver) -> dict[str, Any]:
    driver.execute_script("document.querySelectorAll('details').forEach((d) => { d.open = true; });")
    found: dict[str, Any] = driver.execute_script(DOM_SURVEY)
    return found


def benign_baseline(driver: WebDriver, api: Api, page: ChatPage) -> Baseline:
    sid = api.create_session()
    api.send(sid, "Hello there")
    api.show_surface(sid, "all")  # every block and field kind, open in the dock
    page.open(sid)
    wait_until(driver, lambda d: d.find_elements(By.ID, "task-surface-dock"))
    found = survey(driver)
    attributes = frozenset(name for name, _ in found["attributes"])
    return Baseline(frozenset(found["tags"]), attributes, found["page"])


def _attribute_known(name: str, base: Baseline) -> bool:
    return name.startswith(("aria-", "data-")) or name in base.attributes or name in MARKDOWN_ATTRIBUTES


def dom_problems(driver: WebDriver, base: Baseline) -> tuple[list[str], list[str]]:
    """Anything in the DOM that model text could only have made by being parsed as HTML,
    compared with the benign page; and the `<img>` sources the chat policy rendered."""
    found = survey(driver)
    problems = [f"unexpected element <{t}>" for t in sorted(set(found["tags"]) - base.tags - MARKDOWN_TAGS)]
    problems += [
        f"unexpected attribute {name!r}: {html}"
        for name, html in found["attributes"]
        if not _attribute_known(name, base)
    ]
    for tag, name, value, same_origin, markdown in found["urls"]:
        policy = MARKDOWN_URL.get(tag)
        if markdown and policy and name in ("href", "src"):
            if not policy.match(value):
                problems.append(f"<{tag} {name}={value!r}> breaks the Markdown URL policy")
        elif not same_origin:
            problems.append(f"<{tag} {name}={value!r}> leaves the origin")
    problems += [
        f"<img src={src!r}> outside an agent reply" for src, in_reply in found["images"] if not in_reply
    ]
    for key, value in found["page"].items():
        if value != base.page[key]:
            problems.append(f"page {key} differs from the benign page: {value!r} != {base.page[key]!r}")
    return problems, [src for src, _ in found["images"]]


HOVER_TARGETS = "#events a, #dock-slot a, .md-unsafe-link, .md-image-alt, .bubble-agent img"
REAL_HOVERS = 24
"""Real mouse moves are slow on a page this size: a sample of each kind gets one, and every
target also gets the synthetic pointer and focus events that would fire a handler."""


def exercise(driver: WebDriver) -> None:
    """Open every replay, focus everything focusable, hover every link; never click."""
    count: int = driver.execute_script(
        """
        document.querySelectorAll("details").forEach((d) => { d.open = true; });
        for (const el of document.querySelectorAll("a, button, input, textarea, summary, [tabindex]")) {
          el.focus({preventScroll: true});
        }
        const targets = [...document.querySelectorAll(arguments[0])];
        for (const el of targets) {
          for (const type of ["pointerover", "pointerenter", "mouseover", "mouseenter", "mousemove"]) {
            el.dispatchEvent(new MouseEvent(type, {bubbles: true, cancelable: true, view: window}));
          }
          el.dispatchEvent(new FocusEvent("focus"));
        }
        window.__hoverTargets = targets;
        return targets.length;
        """,
        HOVER_TARGETS,
    )
    step = max(1, count // REAL_HOVERS)
    for index in range(0, count, step):
        x, y = driver.execute_script(
            """
            const el = window.__hoverTargets[arguments[0]];
            el.scrollIntoView({block: "center"});
            const r = el.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2];
            """,
            index,
        )
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
    driver.execute_script("delete window.__hoverTargets; window.scrollTo(0, 0);")


def chromium_log(driver: webdriver.Chrome, kind: str) -> list[dict[str, Any]]:
    """Chromium's `performance` (CDP events) or `browser` (console) log since the last read."""
    entries: list[dict[str, Any]] = driver.get_log(kind)  # type: ignore[no-untyped-call]
    return entries


BROWSER_SCHEMES = frozenset({"chrome", "chrome-extension", "chrome-untrusted", "devtools"})


class NetworkLog:
    """Requests Chromium attempted that leave the app's origin, sent or blocked.

    Chromium's performance log is drained on every read, so entries accumulate here.
    Requests made by Chromium's own pages (its first tab) are not the page's doing."""

    def __init__(self, driver: webdriver.Chrome, app_origin: str) -> None:
        self.driver = driver
        self.app = urlsplit(app_origin).netloc
        self.requests: dict[str, tuple[str, str]] = {}
        self.blocked: set[str] = set()
        self.in_flight: dict[str, str] = {}
        """Request id → URL of what has started and not yet finished or failed."""

    def read(self) -> None:
        for entry in chromium_log(self.driver, "performance"):
            message = json.loads(entry["message"])["message"]
            params = message.get("params", {})
            if message.get("method") == "Network.requestWillBeSent":
                document = params.get("documentURL", "")
                self.requests[params["requestId"]] = (params["request"]["url"], document)
                url = params["request"]["url"]
                if not {urlsplit(url).scheme, urlsplit(document).scheme} & BROWSER_SCHEMES:
                    self.in_flight[params["requestId"]] = url  # Chromium's own pages may never finish
            elif message.get("method") == "Network.loadingFinished":
                self.in_flight.pop(params["requestId"], None)
            elif message.get("method") == "Network.loadingFailed":
                self.in_flight.pop(params["requestId"], None)
                if params.get("blockedReason"):
                    self.blocked.add(params["requestId"])

    def quiet(self) -> bool:
        """Every request the browser started has finished or failed."""
        self.read()
        return not self.in_flight

    def wait_quiet(self) -> None:
        """Wait for quiet (a loaded machine answers dozens of pushes slowly); name what still loads."""
        try:
            WebDriverWait(self.driver, QUIET_TIMEOUT).until(lambda _: self.quiet())
        except TimeoutException:
            loading = sorted(self.in_flight.values())
            raise AssertionError(f"requests still loading after {QUIET_TIMEOUT} s: {loading}") from None

    def take(self) -> tuple[list[str], list[str]]:
        """Foreign requests since the last call: (sent, blocked before sending)."""
        self.read()
        foreign = {rid: url for rid, (url, document) in self.requests.items() if self._leaves(url, document)}
        sent = sorted(url for rid, url in foreign.items() if rid not in self.blocked)
        blocked = sorted(url for rid, url in foreign.items() if rid in self.blocked)
        self.requests.clear()
        self.blocked.clear()
        return sent, blocked

    def _leaves(self, url: str, document: str) -> bool:
        if urlsplit(url).scheme in BROWSER_SCHEMES or urlsplit(document).scheme in BROWSER_SCHEMES:
            return False
        parts = urlsplit(url)
        return parts.scheme not in ("http", "https", "ws", "wss") or parts.netloc != self.app


IDLE_AFTER_TWO_FRAMES = """
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(() => done(true))));
"""


QUIET_TIMEOUT = 60


def settle_page(driver: webdriver.Chrome, log: NetworkLog) -> None:
    """Wait until whatever the page would load has loaded and its handlers have run.

    Every request the page started has finished or failed (so a canary request has reached the
    canary, and a load or error event is queued); then the page renders two frames and goes idle,
    which it does only once its queued tasks (those events' handlers among them) have run."""
    log.wait_quiet()
    assert driver.execute_async_script(IDLE_AFTER_TWO_FRAMES) is True
    log.wait_quiet()  # nothing the handlers started is still loading


def assert_inert(driver: webdriver.Chrome, canary: Canary, log: NetworkLog, base: Baseline) -> None:
    """(a), (b) and (d): nothing ran, nothing was fetched, nothing was parsed into the page."""
    settle_page(driver, log)
    try:
        alert = driver.switch_to.alert
        pytest.fail(f"a real dialog is open: {alert.text!r}")
    except NoAlertPresentException:
        pass
    state = driver.execute_script("return [window.__pwned, window.__trapped || [], window.__csp];")
    pwned, trapped, violations = state
    assert pwned is None and not trapped, f"a payload ran: __pwned={pwned!r}, trapped calls {trapped}"
    assert canary.hits == [], f"the canary was requested: {canary.hits[:10]}"

    sent, blocked = log.take()
    assert sent == [], f"requests left the origin: {sent[:10]}"
    problems, images = dom_problems(driver, base)
    assert problems == [], "model text became markup:\n" + "\n".join(problems[:30])
    # The only blocked attempts are the chat policy's Markdown images in agent replies.
    assert set(blocked) <= set(images), f"blocked requests not made by agent-reply images: {blocked[:10]}"
    unexpected = [v for v in violations if not (v["directive"] == "img-src" and v["blocked"] in images)]
    assert unexpected == [], f"CSP violations other than agent-reply images: {unexpected[:10]}"
    refused = [
        entry["message"]
        for entry in chromium_log(driver, "browser")
        if "Refused to execute" in entry["message"] or "Refused to evaluate" in entry["message"]
    ]
    assert refused == [], refused[:5]


def assert_readable(driver: WebDriver, spots: Iterable[Spot]) -> None:
    problems = unreadable(driver, list(spots))
    assert problems == [], f"{len(problems)} placements unreadable:\n" + "\n".join(problems[:40])


def eventually(driver: WebDriver, condition: Callable[[WebDriver], Any]) -> bool:
    """Wait for `condition`; report instead of raising, so the checks below say what broke."""
    try:
        wait_until(driver, condition)
    except TimeoutException:
        return False
    return True


def dock_shows(surface_id: str) -> Callable[[WebDriver], Any]:
    return lambda d: d.execute_script(
        "const dock = document.getElementById('task-surface-dock');"
        "return !!dock && dock.dataset.surfaceId === arguments[0] && dock.checkVisibility();",
        surface_id,
    )


def row_shows(seq: int) -> Callable[[WebDriver], Any]:
    return lambda d: d.find_elements(By.ID, f"ev-{seq}")


def is_live(driver: WebDriver) -> Any:
    """The page script has its controls and follows the session over its open socket."""
    return driver.execute_script(
        "return document.body.dataset.live === 'true' && document.body.dataset.connection === 'open';"
    )


# -- the tests -------------------------------------------------------------------------------


def check_page(
    driver: webdriver.Chrome, url: str, part: Part, canary: Canary, log: NetworkLog, base: Baseline
) -> None:
    driver.get(url)
    live = eventually(driver, is_live)
    docked = eventually(driver, dock_shows(part.surface_id))
    exercise(driver)
    assert_inert(driver, canary, log, base)
    assert_readable(driver, part.spots())
    assert live and docked, "the page script did not start, or the dock did not show"


def test_hostile_text_rendered_by_the_server_is_inert_and_readable(
    browser: webdriver.Chrome, live_server: LiveServer, api: Api, canary: Canary
) -> None:
    corpus = hostile_corpus(canary.base)
    assert len(corpus) >= 100
    parts = [Part(api.create_session(), panel) for panel in dock_panels(corpus)]
    for part in parts:
        part.send(api)  # the sessions' agents work side by side
    for part in parts:
        part.read(api)

    log = NetworkLog(browser, live_server.url)
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    base = benign_baseline(browser, api, page)
    for part in parts:
        check_page(browser, f"{live_server.url}/sessions/{part.sid}", part, canary, log, base)


def test_hostile_text_pushed_live_is_inert_and_readable(
    browser: webdriver.Chrome, live_server: LiveServer, api: Api, canary: Canary
) -> None:
    """The page is open first: rows arrive over the websocket and each dock is fetched.

    Every item comes live as a message and in every dock position (the panels replace one
    another in the open dock); the items' own panels are covered by the test above."""
    corpus = hostile_corpus(canary.base)
    panels = dock_panels(corpus)
    sid = api.create_session()  # also gives the API client its identity cookie
    log = NetworkLog(browser, live_server.url)
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    base = benign_baseline(browser, api, page)
    page.open(sid)

    for item in corpus:
        api.send(sid, item.text)
    messages = map_messages(settle(api, sid, surfaces=0, replies=len(corpus)), corpus)
    last_reply = max(reply for _, reply in messages.values())
    arrived = eventually(browser, row_shows(last_reply))
    exercise(browser)
    assert_inert(browser, canary, log, base)
    assert_readable(browser, [s for i in corpus for s in message_spots(i, *messages[i.number])])
    assert arrived and is_live(browser), "the page stopped following the session"

    for shown, panel in enumerate(panels, start=1):
        api.send(sid, tool_message(panel.model))
        result = surface_results(settle(api, sid, surfaces=shown, replies=len(corpus)))[-1]
        docked = eventually(browser, dock_shows(result["payload"]["meta"]["surfaceId"]))
        arrived = eventually(browser, row_shows(result["seq"]))
        exercise(browser)
        assert_inert(browser, canary, log, base)
        assert_readable(browser, [*dock_spots(panel), *panel_row_spots(panel, result["seq"])])
        assert docked and arrived and is_live(browser), "the dock or its row did not arrive live"
