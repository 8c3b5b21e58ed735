"""Carrying a model's history forward gives what reading every visible event again gives."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tasksurface.domain.events import EventKind, SessionEvent
from tasksurface.domain.model_history import carry_forward

AT = datetime(2026, 12, 2, tzinfo=UTC)


def event(seq: int, kind: EventKind = "assistant/message", **payload: Any) -> SessionEvent:
    return SessionEvent(seq, kind, AT, payload or {"text": f"event {seq}"})


def seqs(events: list[SessionEvent]) -> list[int]:
    return [e.seq for e in events]


def test_new_events_follow_the_kept_ones_in_the_kept_list_itself() -> None:
    kept = [event(1), event(2)]
    assert carry_forward(kept, [event(3), event(4)]) is kept
    assert seqs(kept) == [1, 2, 3, 4]
    assert seqs(carry_forward(kept, [])) == [1, 2, 3, 4]


def test_a_rewind_takes_back_the_kept_events_after_its_seq_and_stays_itself() -> None:
    kept = [event(1), event(2), event(3), event(4)]
    carried = carry_forward(kept, [event(6, "session/rewound", toSeq=2), event(7)])
    assert seqs(carried) == [1, 2, 6, 7]
    assert carried[2].kind == "session/rewound"
    assert seqs(kept) == [1, 2, 3, 4]  # a rewind gives a new list


def test_a_rewind_among_the_new_events_takes_back_new_ones_before_it_too() -> None:
    # 5 was hidden by the rewind at 6, so the log's read no longer returns it.
    carried = carry_forward([event(1), event(2)], [event(3), event(4), event(6, "session/rewound", toSeq=3)])
    assert seqs(carried) == [1, 2, 3, 6]


def test_rewinds_in_a_row_each_take_back_what_they_hid() -> None:
    kept = [event(n) for n in range(1, 6)]
    fresh = [event(7, "session/rewound", toSeq=4), event(8), event(10, "session/rewound", toSeq=1)]
    assert seqs(carry_forward(kept, fresh)) == [1, 10]


def test_a_rewind_to_the_start_keeps_nothing_before_it() -> None:
    assert seqs(carry_forward([event(1), event(2)], [event(3, "session/rewound", toSeq=0)])) == [3]
