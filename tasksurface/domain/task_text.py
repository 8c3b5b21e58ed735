"""The exact texts of the task tools and the completion notice, and their UTF-8 byte bounds.

A producer's output limit caps the whole UTF-8 text after the status or notice text is added,
never below FLOOR bytes. Cuts never split a UTF-8 sequence. A read keeps the output's tail and
its status suffix; a notice keeps the task id and the `task_output` instruction first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .tasks import PublicTaskSnapshot

FLOOR = 64
"""No cap is tighter than this: the id and the collection instruction of a notice always fit."""
MARKER = "[…]"
"""Where text was cut; text that already carries it at the cut is not marked twice."""
NO_NEW_OUTPUT = "(no new output)"
NO_TASKS = "(no background tasks)"
NOTICE_TAIL = ". Read its output with task_output."


def size(text: str) -> int:
    return len(text.encode("utf-8"))


def effective_limit(limit: int | None) -> int | None:
    return None if limit is None else max(limit, FLOOR)


def head(text: str, budget: int) -> str:
    """The longest prefix of `text` that fits in `budget` bytes (a cut sequence's bytes are dropped)."""
    return text.encode()[: max(budget, 0)].decode(errors="ignore")


def tail(text: str, budget: int) -> str:
    """The longest suffix of `text` that fits in `budget` bytes (a cut sequence's bytes are dropped)."""
    data = text.encode()
    return data[max(len(data) - max(budget, 0), 0) :].decode(errors="ignore")


def status_line(status: str, detail: str | None) -> str:
    return f"[status: {status}]" + (f" {detail}" if detail else "")


def keep_start(text: str, budget: int) -> str:
    """`text` cut at its end to fit, marked where it was cut; nothing when not even the marker fits."""
    if size(text) <= budget:
        return text
    if budget < size(MARKER):
        return ""
    kept = head(text, budget - size(MARKER))
    return kept if kept.endswith(MARKER) else kept + MARKER


def keep_end(text: str, budget: int) -> str:
    """`text` cut at its start to fit, marked where it was cut. A mark already at its start is never
    repeated: the cut always takes more than that mark away."""
    if size(text) <= budget:
        return text
    if budget < size(MARKER):
        return ""
    return MARKER + tail(text, budget - size(MARKER))


def read_text(output: str, status: str, detail: str | None, limit: int | None) -> str:
    """`task_output`: the output (or `(no new output)`), then `[status: …]` and its detail."""
    body = output or NO_NEW_OUTPUT
    suffix = status_line(status, detail)
    whole = _joined(body, suffix)
    cap = effective_limit(limit)
    if cap is None or size(whole) <= cap:
        return whole
    room = cap - size("\n" + suffix)
    if room < size(MARKER):
        return keep_start(suffix, cap)
    return _joined(keep_end(body, room), suffix)


def _joined(body: str, suffix: str) -> str:
    return body + ("" if body.endswith("\n") else "\n") + suffix


def bounded(text: str, limit: int | None) -> str:
    """Any other text of a task tool (a refusal, a failure), under the same producer cap."""
    cap = effective_limit(limit)
    return text if cap is None else keep_start(text, cap)


def cancellation_text(task_id: str, limit: int | None) -> str:
    return bounded(f"requested cancellation of task {task_id}", limit)


def finished_text(task_id: str, snapshot: PublicTaskSnapshot, limit: int | None) -> str:
    """A kill of a task that already ended: its terminal status, its output left unread."""
    return bounded(f"task {task_id} already finished " + status_line(snapshot.status, snapshot.detail), limit)


def list_line(snapshot: PublicTaskSnapshot) -> str:
    return f"{snapshot.id} [{snapshot.kind}] {snapshot.status} — {snapshot.label}"


def list_text(snapshots: Sequence[PublicTaskSnapshot]) -> str:
    return "\n".join(list_line(s) for s in snapshots) if snapshots else NO_TASKS


def notice_text(
    task_id: str, kind: str, label: str, status: str, detail: str | None, limit: int | None
) -> str:
    """The completion notice; under a cap the id and the instruction win over label and detail."""
    start = f"background task {task_id}"
    middle = f" ({kind}: {label}) finished " + status_line(status, detail)
    cap = effective_limit(limit)
    if cap is None:
        return start + middle + NOTICE_TAIL
    return start + keep_start(middle, cap - size(start + NOTICE_TAIL)) + NOTICE_TAIL
