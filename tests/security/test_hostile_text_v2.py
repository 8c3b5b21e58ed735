"""The hostile corpus through every display string of version 2 and the workspaces: help,
placeholders, units, submit choices, panel actions, review diffs, candidates, properties,
places, chart and dashboard labels. Nothing runs, nothing is fetched, everything reads."""

from __future__ import annotations

import json
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By

from ..browser.pages import ChatPage, browse_as, wait_until
from ..conftest import LiveServer
from ..support import Api
from .hostile_corpus import Hostile, hostile_corpus
from .test_hostile_text_in_browser import (  # noqa: F401 - fixtures are used by name
    DETAIL,
    MESSAGE_CHARS,
    SHORT,
    Baseline,
    Canary,
    NetworkLog,
    Spot,
    app_config,
    assert_inert,
    assert_readable,
    browser,
    canary,
    database_url,
    exercise,
    survey,
)

pytestmark = pytest.mark.browser


def _short(item: Hostile) -> str:
    return item.text if len(item.text) <= SHORT else f"item {item.number}"


def _detail(item: Hostile) -> str:
    return item.text if len(item.text) <= DETAIL else f"item {item.number}"


def v2_panel(items: list[Hostile], title: str = "Workspaces") -> dict[str, Any]:
    """One version 2 panel holding `items` in every new display position their length allows."""
    candidates = [
        {
            "id": f"c{i.number}",
            "label": _short(i),
            "detail": _detail(i),
            "group": _short(i),
            "values": {"p": _detail(i)},
        }
        for i in items
    ]
    places = [
        {
            "id": f"p{i.number}",
            "label": _short(i),
            "detail": _detail(i),
            "group": _short(i),
            "lat": 38 + (i.number % 50) / 100,
            "lon": -9 + (i.number // 50) / 100,
        }
        for i in items
    ]
    categories = [_short(i) for i in items]
    values = [float(n) for n in range(len(items))]
    return {
        "version": 2,
        "title": title,
        "sections": [
            {
                "id": "charts",
                "blocks": [
                    {
                        "kind": "chart",
                        "title": _short(items[0]),
                        "type": "bar",
                        "categories": categories,
                        "series": [{"id": "s", "label": _short(items[1]), "values": values}],
                        "unit": _short(items[2]),
                    },
                    {
                        "kind": "dashboard",
                        "title": _short(items[3]),
                        "categories": categories,
                        "series": [
                            {"id": "m", "label": _short(items[4]), "unit": _short(items[5]), "values": values}
                        ],
                    },
                ],
            }
        ],
        "fields": [
            {
                "kind": "comparison",
                "id": "cmp",
                "label": _short(items[6]),
                "select": "many",
                "properties": [{"id": "p", "label": _short(items[7]), "unit": _short(items[8])}],
                "candidates": candidates,
            },
            {"kind": "itinerary", "id": "trip", "label": _short(items[9]), "places": places},
            {
                "kind": "number",
                "id": "n",
                "label": _short(items[10]),
                "unit": _short(items[11]),
                "help": _detail(items[12]),
            },
            {
                "kind": "text",
                "id": "t",
                "label": _short(items[13]),
                "placeholder": _short(items[14]),
                "help": _detail(items[15]),
            },
            {
                "kind": "review",
                "id": "r",
                "label": _short(items[16]),
                "path": _short(items[17]),
                "before": "\n".join(_detail(i) for i in items[:3]) + "\n",
                "after": "\n".join(_detail(i) for i in items[3:6]) + "\n",
            },
        ],
        "submit": {"actions": [{"id": f"a{k}", "label": _short(items[18 + k])} for k in range(3)]},
        "actions": [{"id": f"b{k}", "label": _short(items[21 + k])} for k in range(3)],
    }


def panels(corpus: list[Hostile]) -> list[list[Hostile]]:
    """Deal the corpus over as few panels as the message size and the candidate limit allow."""
    for count in range(1, len(corpus) + 1):
        groups = [corpus[k::count] for k in range(count)]
        if all(24 <= len(g) <= 50 for g in groups) and all(
            len("/tool show_task_surface " + json.dumps({"model": v2_panel(g)})) <= MESSAGE_CHARS
            for g in groups
        ):
            return groups
    raise AssertionError("the corpus does not fit in version 2 panels")


def spots(items: list[Hostile]) -> list[Spot]:
    dock = "#task-surface-dock"
    found: list[Spot] = []
    for i in items:
        card = f'.candidate[data-candidate-id="c{i.number}"]'
        place = f'.place[data-place-id="p{i.number}"]'
        if len(i.text) <= SHORT:
            found.append(Spot(i, "candidate label", dock, f"{card} .candidate-label"))
            found.append(Spot(i, "place label", dock, f"{place} .option-label"))
            found.append(Spot(i, "chart data row", dock, ".block-chart .chart-data tbody th", every=False))
        if len(i.text) <= DETAIL:
            found.append(Spot(i, "candidate detail", dock, f"{card} .candidate-detail"))
            found.append(
                Spot(i, "property value", dock, f'.comparison-table td[data-candidate-id="c{i.number}"]')
            )
            found.append(Spot(i, "place detail", dock, f"{place} .option-detail"))
    return found


def test_hostile_text_in_version_two_panels_is_inert_and_readable(
    browser: webdriver.Chrome,  # noqa: F811 - the fixture imported above
    live_server: LiveServer,
    api: Api,
    canary: Canary,  # noqa: F811
) -> None:
    corpus = hostile_corpus(canary.base)
    log = NetworkLog(browser, live_server.url)
    sid = api.create_session()  # also gives the API client the identity the browser takes
    browse_as(browser, api)
    page = ChatPage(browser, live_server.url)
    # The benign page: the same kinds, written by people.
    benign = [Hostile(n, "benign", f"Benign text {n}") for n in range(1, 30)]
    api.show_model(sid, v2_panel(benign, "Benign"))
    page.open(sid)
    wait_until(browser, lambda d: d.find_elements(By.ID, "task-surface-dock"))
    found = survey(browser)
    base = Baseline(frozenset(found["tags"]), frozenset(n for n, _ in found["attributes"]), found["page"])
    log.take()
    for group in panels(corpus):
        sid = api.create_session()
        result = api.show_model(sid, v2_panel(group))
        assert result["payload"]["ok"] is True, result["payload"]["content"]
        browser.get(f"{live_server.url}/sessions/{sid}")
        wait_until(
            browser,
            lambda d: (
                d.find_element(
                    By.CSS_SELECTOR, "#task-surface-dock [data-workspace=comparison]"
                ).get_attribute("data-workspace-state")
                == "ready"
            ),
        )
        exercise(browser)
        assert_inert(browser, canary, log, base)
        assert_readable(browser, spots(group))
