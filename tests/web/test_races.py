"""Rule 9, races: concurrent tabs against a live server, many rounds, on SQLite and PostgreSQL.

Every round opens a fresh surface in a fresh session, releases its threads together with a
`threading.Barrier`, and then judges the answers against the log (the only authority) and
the projection folded from it. Each thread speaks through its own `Api` (one
`requests.Session` each, sharing the identity cookie), as tabs of one browser would.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ..support import Api, new_id, wait_for

ROUNDS = 16
"""Rounds per test and database; each round is a fresh session with a fresh surface."""

TAB_COUNTS = (2, 4)
"""Rounds alternate between two racing tabs and four."""

STEPS = ["backup", "schema", "switch", "verify"]

Action = Callable[[Api], Any]
Runner = Callable[[list[Action]], list[Any]]
"""How a round's actions run: released together (`Tabs.race`) or one after another (`Tabs.in_turn`)."""


def plan_values(tab: int) -> dict[str, Any]:
    """Values for the `plan` demo that differ per tab, so the log tells which tab won."""
    shift = tab % len(STEPS)
    return {"steps": STEPS[shift:] + STEPS[:shift], "constraints": f"from tab {tab}"}


class Tabs:
    """Several tabs of one browser: each its own HTTP session, all sharing the owner's cookies."""

    def __init__(self, owner: Api, count: int) -> None:
        self.owner = owner
        self.clients = [Api(owner.base) for _ in range(count)]

    def close(self) -> None:
        for client in self.clients:
            client.__exit__()

    def share_identity(self) -> None:
        """Give every tab the identity the owner's cookie carries, as tabs of one browser share it."""
        for client in self.clients:
            client.http.cookies.update(self.owner.http.cookies)

    def in_turn(self, actions: list[Action]) -> list[Any]:
        """Run `actions[i]` on client `i`, one after another: an order the race left untried."""
        assert len(actions) <= len(self.clients)
        self.share_identity()
        return [actions[i](self.clients[i]) for i in range(len(actions))]

    def race(self, actions: list[Action]) -> list[Any]:
        """Run `actions[i]` on client `i`, all released together; re-raise any failure here."""
        assert len(actions) <= len(self.clients)
        self.share_identity()
        barrier = threading.Barrier(len(actions))
        results: list[Any] = [None] * len(actions)
        failures: list[BaseException] = []

        def run(index: int) -> None:
            try:
                barrier.wait(10)
                results[index] = actions[index](self.clients[index])
            except BaseException as exc:  # handed to the test thread, never lost in this one
                failures.append(exc)
                barrier.abort()  # the others stop waiting for this one

        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert not any(t.is_alive() for t in threads), "a racing request never returned"
        if failures:  # the first real failure, not a barrier another failure broke
            raise min(failures, key=lambda exc: isinstance(exc, threading.BrokenBarrierError))
        return results


@pytest.fixture
def tabs(api: Api) -> Iterator[Callable[[int], Tabs]]:
    """Tabs beside `api`: they act for whoever `api` is, on the sessions it creates."""
    opened: list[Tabs] = []

    def open_tabs(count: int) -> Tabs:
        group = Tabs(api, count)
        opened.append(group)
        return group

    yield open_tabs
    for group in opened:
        group.close()


# -- reading the log ---------------------------------------------------------


def submissions(events: list[dict[str, Any]], surface: str) -> list[dict[str, Any]]:
    return [
        e
        for e in events
        if e["kind"] == "user/message"
        and (e["payload"]["source"].get("taskSurface") or {}).get("surfaceId") == surface
    ]


def dismissals(events: list[dict[str, Any]], surface: str) -> list[dict[str, Any]]:
    return [
        e for e in events if e["kind"] == "task-surface/dismissed" and e["payload"]["surfaceId"] == surface
    ]


def user_message_ids(events: list[dict[str, Any]]) -> list[str]:
    return [e["payload"]["messageId"] for e in events if e["kind"] == "user/message"]


def assert_gapless(api: Api, sid: str, events: list[dict[str, Any]]) -> None:
    head = api.get(f"/api/sessions/{sid}").json()["headSeq"]
    assert [e["seq"] for e in events] == list(range(1, head + 1))


def assert_closed(api: Api, sid: str, surface: str) -> None:
    assert api.projection(sid) == {"active": None, "pending": None}
    assert api.get_active(sid, surface) == {"active": False, "reason": "not-open"}
    assert api.queue(sid) == []


def fresh_surface(api: Api) -> tuple[str, str]:
    sid = api.create_session()
    return sid, api.show_surface(sid, "plan")


def submit_action(sid: str, surface: str, values: dict[str, Any], submission_id: str) -> Action:
    return lambda client: client.submit(sid, surface, values, submission_id)


def dismiss_action(sid: str, surface: str, dismissal_id: str) -> Action:
    return lambda client: client.dismiss(sid, surface, dismissal_id)


def send_action(sid: str, text: str) -> Action:
    return lambda client: client.send(sid, text)


def row_state(api: Api, sid: str, surface: str) -> str:
    html = api.get(f"/sessions/{sid}").text
    states = re.findall(rf'class="surface-row state-([a-z]+)" data-surface-id="{re.escape(surface)}"', html)
    assert len(states) == 1, states
    state: str = states[0]
    return state


# -- 1. two (or four) tabs submit different ids at once ----------------------


def test_tabs_submitting_different_ids_at_once_admit_exactly_one(
    api: Api, tabs: Callable[[int], Tabs]
) -> None:
    group = tabs(max(TAB_COUNTS))
    for round_number in range(ROUNDS):
        count = TAB_COUNTS[round_number % len(TAB_COUNTS)]
        sid, surface = fresh_surface(api)
        submission_ids = [new_id() for _ in range(count)]
        results = group.race(
            [submit_action(sid, surface, plan_values(i), submission_ids[i]) for i in range(count)]
        )
        winners = [i for i, r in enumerate(results) if r["accepted"]]
        assert len(winners) == 1, results
        [winner] = winners
        message_id = results[winner]["messageId"]
        assert results[winner] == {"accepted": True, "messageId": message_id, "phase": "queued"}
        for i, result in enumerate(results):
            if i != winner:
                assert result in (
                    {"accepted": False, "reason": "submission-pending"},
                    {"accepted": False, "reason": "not-open"},  # the winner was already committed
                ), results

        # A claimed row is in neither the queue nor the log until it commits: wait for the commit.
        def committed(sid: str = sid, surface: str = surface) -> list[dict[str, Any]]:
            return submissions(api.events(sid), surface)

        wait_for(committed)
        events = api.settled(sid)
        [message] = submissions(events, surface)
        assert message["payload"]["messageId"] == message_id
        correlation = message["payload"]["source"]["taskSurface"]
        assert correlation["submissionId"] == submission_ids[winner]
        assert correlation["values"] == plan_values(winner)
        assert user_message_ids(events).count(message_id) == 1
        assert_closed(api, sid, surface)
        assert_gapless(api, sid, events)


def test_tabs_submitting_while_paused_leave_one_queued_row(api: Api, tabs: Callable[[int], Tabs]) -> None:
    group = tabs(max(TAB_COUNTS))
    for round_number in range(ROUNDS):
        count = TAB_COUNTS[round_number % len(TAB_COUNTS)]
        sid, surface = fresh_surface(api)
        api.pause(sid)
        submission_ids = [new_id() for _ in range(count)]
        results = group.race(
            [submit_action(sid, surface, plan_values(i), submission_ids[i]) for i in range(count)]
        )
        winners = [i for i, r in enumerate(results) if r["accepted"]]
        assert len(winners) == 1, results
        [winner] = winners
        message_id = results[winner]["messageId"]
        # Nothing can commit while paused, so every loser saw the winner pending.
        assert [r for i, r in enumerate(results) if i != winner] == [
            {"accepted": False, "reason": "submission-pending"}
        ] * (count - 1)
        [row] = api.queue(sid)
        assert row["messageId"] == message_id
        assert row["source"]["taskSurface"]["submissionId"] == submission_ids[winner]
        assert api.get_active(sid, surface)["pending"] == {
            "submissionId": submission_ids[winner],
            "messageId": message_id,
            "phase": "queued",
        }
        api.pause(sid, False)
        events = api.settled(sid)
        [message] = submissions(events, surface)
        assert message["payload"]["messageId"] == message_id
        assert message["payload"]["source"]["taskSurface"]["values"] == plan_values(winner)
        assert_closed(api, sid, surface)
        assert_gapless(api, sid, events)


# -- 2. submit and dismiss at once -------------------------------------------


def submit_against_dismiss(api: Api, run: Runner, *, dismiss_first: bool) -> str:
    """One round of a submission and a dismissal of one surface; return which of them won."""
    sid, surface = fresh_surface(api)
    submission_id, dismissal_id = new_id(), new_id()
    head = len(api.events(sid))
    actions = [
        submit_action(sid, surface, plan_values(0), submission_id),
        dismiss_action(sid, surface, dismissal_id),
    ]
    ran = run(actions[::-1] if dismiss_first else actions)
    submitted, dismissed = ran[::-1] if dismiss_first else ran
    events = api.settled(sid)
    messages, closings = submissions(events, surface), dismissals(events, surface)
    if submitted["accepted"]:
        assert dismissed in (
            {"dismissed": False, "reason": "submission-pending"},
            {"dismissed": False, "reason": "not-open"},
        ), (submitted, dismissed)
        assert closings == []
        [message] = messages
        assert message["payload"]["messageId"] == submitted["messageId"]
        assert message["payload"]["source"]["taskSurface"]["submissionId"] == submission_id
    else:
        assert submitted == {"accepted": False, "reason": "not-open"}, (submitted, dismissed)
        assert dismissed == {"dismissed": True, "eventSeq": head + 1}
        assert messages == []
        [closing] = closings
        assert closing["seq"] == dismissed["eventSeq"]
        assert closing["payload"]["dismissalId"] == dismissal_id
    assert_closed(api, sid, surface)
    assert_gapless(api, sid, events)
    return "submit" if submitted["accepted"] else "dismiss"


def test_submit_and_dismiss_at_once_exactly_one_wins(api: Api, tabs: Callable[[int], Tabs]) -> None:
    group = tabs(2)
    wins = {"submit": 0, "dismiss": 0}
    for round_number in range(ROUNDS):  # alternate which thread starts first
        wins[submit_against_dismiss(api, group.race, dismiss_first=round_number % 2 == 1)] += 1
    # Chance usually gives each side some rounds; a side it never gave is played in turn, so
    # both branches of the checks above always run.
    for side in [side for side, count in wins.items() if not count]:
        assert submit_against_dismiss(api, group.in_turn, dismiss_first=side == "dismiss") == side


# -- 3. one submissionId racing itself ---------------------------------------


def test_a_double_click_racing_itself_admits_one_message(api: Api, tabs: Callable[[int], Tabs]) -> None:
    count = 4
    group = tabs(count)
    for round_number in range(ROUNDS):
        sid, surface = fresh_surface(api)
        paused = round_number % 2 == 1  # replays find the inbox row, or (often) the durable message
        if paused:
            api.pause(sid)
        submission_id = new_id()
        results = group.race([submit_action(sid, surface, plan_values(0), submission_id)] * count)
        first = results[0]
        assert first["accepted"] is True and first["phase"] == "queued"
        assert results == [first] * count
        if paused:
            assert [row["messageId"] for row in api.queue(sid)] == [first["messageId"]]
            api.pause(sid, False)
        events = api.settled(sid)
        [message] = submissions(events, surface)
        assert message["payload"]["messageId"] == first["messageId"]
        assert message["payload"]["source"]["taskSurface"]["submissionId"] == submission_id
        assert user_message_ids(events).count(first["messageId"]) == 1
        assert_closed(api, sid, surface)
        assert_gapless(api, sid, events)
        # Settled, the same id still answers with the first result and appends nothing.
        assert api.submit(sid, surface, plan_values(0), submission_id) == first
        assert api.events(sid) == events


# -- 4. an ordinary message and a submission queued together -----------------


def message_against_submission(api: Api, run: Runner, label: str, *, message_first: bool) -> str:
    """One paused round of a message and a submission; return how the surface closed."""
    sid, surface = fresh_surface(api)
    api.pause(sid)
    submission_id = new_id()
    actions: list[Action] = [
        submit_action(sid, surface, plan_values(1), submission_id),
        send_action(sid, f"actually, let us talk ({label})"),
    ]
    ran = run(actions[::-1] if message_first else actions)
    submitted, sent = ran[::-1] if message_first else ran
    assert submitted == {"accepted": True, "messageId": submitted["messageId"], "phase": "queued"}
    queued = [row["messageId"] for row in api.queue(sid)]
    assert sorted(queued) == sorted([submitted["messageId"], sent["messageId"]])
    api.pause(sid, False)
    events = api.settled(sid)
    admitted = [m for m in user_message_ids(events) if m in queued]
    assert admitted == queued  # both admitted, once each, in inbox order
    closing = "submitted" if admitted[0] == submitted["messageId"] else "bypassed"
    assert row_state(api, sid, surface) == closing
    assert_closed(api, sid, surface)
    assert_gapless(api, sid, events)
    # The surface is closed either way: a late retry replays, another id finds nothing open.
    assert api.submit(sid, surface, plan_values(1), submission_id) == submitted
    assert api.submit(sid, surface, plan_values(1)) == {"accepted": False, "reason": "not-open"}
    return closing


def test_a_message_and_a_submission_at_once_the_log_order_decides(
    api: Api, tabs: Callable[[int], Tabs]
) -> None:
    group = tabs(2)
    seen = {"submitted": 0, "bypassed": 0}
    for round_number in range(ROUNDS):
        label = f"round {round_number}"
        seen[message_against_submission(api, group.race, label, message_first=round_number % 2 == 1)] += 1
    # Under load one order can win every race; an order chance never gave is played in turn, so
    # both closings (submitted, bypassed) are always checked.
    for closing in [closing for closing, count in seen.items() if not count]:
        message_first = closing == "bypassed"
        played = message_against_submission(api, group.in_turn, "in turn", message_first=message_first)
        assert played == closing


# -- 5. one dismissalId racing itself ----------------------------------------


def test_one_dismissal_id_from_several_threads_appends_one_event(
    api: Api, tabs: Callable[[int], Tabs]
) -> None:
    count = 4
    group = tabs(count)
    for _ in range(ROUNDS):
        sid, surface = fresh_surface(api)
        before = api.events(sid)
        dismissal_id = new_id()
        results = group.race([dismiss_action(sid, surface, dismissal_id)] * count)
        first = results[0]
        assert first == {"dismissed": True, "eventSeq": before[-1]["seq"] + 1}
        assert results == [first] * count
        events = api.events(sid)
        assert events[: len(before)] == before
        [closing] = events[len(before) :]  # one event, and no turn started
        assert closing["kind"] == "task-surface/dismissed" and closing["seq"] == first["eventSeq"]
        assert closing["payload"]["dismissalId"] == dismissal_id
        assert closing["payload"]["surfaceId"] == surface
        assert_closed(api, sid, surface)
        assert_gapless(api, sid, events)
        assert api.dismiss(sid, surface, dismissal_id) == first


# -- 6. concurrent sends to one session --------------------------------------


def test_concurrent_sends_are_admitted_once_each_in_inbox_order(
    api: Api, tabs: Callable[[int], Tabs]
) -> None:
    count, per_tab = 4, 3
    group = tabs(count)

    def sender(sid: str, tab: int) -> Action:
        def send_all(client: Api) -> list[str]:
            return [client.send(sid, f"tab {tab} message {n}")["messageId"] for n in range(per_tab)]

        return send_all

    for round_number in range(ROUNDS):
        sid = api.create_session()
        paused = round_number % 2 == 0  # paused: the queue shows inbox order; else sends race admissions
        if paused:
            api.pause(sid)
        sent = group.race([sender(sid, tab) for tab in range(count)])
        every = [m for ids in sent for m in ids]
        assert len(set(every)) == count * per_tab
        if paused:
            queued = [row["messageId"] for row in api.queue(sid)]
            assert sorted(queued) == sorted(every)
            api.pause(sid, False)
        events = api.settled(sid)
        admitted = user_message_ids(events)
        assert sorted(admitted) == sorted(every)  # each exactly once
        if paused:
            assert admitted == queued
        for ids in sent:  # one tab's messages keep that tab's order
            assert [m for m in admitted if m in ids] == ids
        assert api.queue(sid) == []
        assert_gapless(api, sid, events)
