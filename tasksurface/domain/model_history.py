"""The history a model reads, carried forward by what was logged since it was last read.

The log only grows, with one exception: a rewind hides the events after its `toSeq` and logs a
`session/rewound` marker saying so. Reading only the new events and applying each marker to what
was kept gives the same history as reading every visible event again, at the cost of the new ones.
"""

from __future__ import annotations

from collections.abc import Sequence

from .events import SessionEvent

REWOUND = "session/rewound"


def carry_forward(kept: list[SessionEvent], fresh: Sequence[SessionEvent]) -> list[SessionEvent]:
    """`kept` (visible events, in order) advanced by `fresh` (the visible events logged after them,
    in order): each rewind marker takes back the events before it whose seq is after its `toSeq`.
    Without a rewind, `kept` itself is extended (its owner keeps it for the next read); a rewind
    gives a new list and leaves `kept` as it was."""
    if not any(event.kind == REWOUND for event in fresh):
        kept.extend(fresh)
        return kept
    history = list(kept)
    for event in fresh:
        if event.kind == REWOUND:
            to_seq = event.payload.get("toSeq")
            if isinstance(to_seq, int):
                history = [e for e in history if e.seq <= to_seq]
        history.append(event)
    return history
