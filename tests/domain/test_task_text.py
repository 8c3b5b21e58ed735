"""The task tools' texts, word for word, and their UTF-8 byte bounds under a producer's cap."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from tasksurface.domain import task_text
from tasksurface.domain.ids import TaskId
from tasksurface.domain.task_text import FLOOR, MARKER, size
from tasksurface.domain.tasks import PublicTaskSnapshot

AT = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
TASK_ID = "t_abcdefghijk"  # the host mints ids of 13 characters
texts = st.text(st.characters(codec="utf-8"), max_size=400)
limits = st.none() | st.integers(min_value=0, max_value=600)
statuses = st.sampled_from(["queued", "running", "completed", "failed", "cancelled"])
details = st.none() | texts


def snapshot(status: str = "completed", detail: str | None = "exit status 0") -> PublicTaskSnapshot:
    return PublicTaskSnapshot(TaskId(TASK_ID), "command", "Build", status, detail, AT, AT)  # type: ignore[arg-type]


def test_a_read_ends_with_the_status_and_its_detail() -> None:
    assert task_text.read_text("1/3\n2/3\n", "running", None, None) == "1/3\n2/3\n[status: running]"
    assert (
        task_text.read_text("done", "failed", "exit status 2", None) == "done\n[status: failed] exit status 2"
    )


def test_nothing_new_reads_no_new_output() -> None:
    assert task_text.read_text("", "running", None, None) == "(no new output)\n[status: running]"


def test_the_list_is_one_line_per_task_and_none_reads_no_background_tasks() -> None:
    assert task_text.list_text([]) == "(no background tasks)"
    assert task_text.list_text([snapshot(), snapshot("running", None)]) == (
        f"{TASK_ID} [command] completed — Build\n{TASK_ID} [command] running — Build"
    )


def test_the_kill_texts() -> None:
    assert task_text.cancellation_text(TASK_ID, None) == f"requested cancellation of task {TASK_ID}"
    assert task_text.finished_text(TASK_ID, snapshot(), None) == (
        f"task {TASK_ID} already finished [status: completed] exit status 0"
    )


def test_the_completion_notice_word_for_word() -> None:
    assert task_text.notice_text(TASK_ID, "command", "Build", "failed", "exit status 2", None) == (
        f"background task {TASK_ID} (command: Build) finished [status: failed] exit status 2. "
        "Read its output with task_output."
    )


def test_a_capped_read_keeps_the_tail_and_the_suffix_and_marks_the_cut() -> None:
    text = task_text.read_text("a" * 100 + "THE END", "completed", None, 64)
    assert size(text) == 64
    assert text.startswith(MARKER) and text.endswith("THE END\n[status: completed]")


def test_an_existing_marker_is_reused_not_repeated() -> None:
    text = task_text.read_text(MARKER + "b" * 200, "running", None, 80)
    assert text.count(MARKER) == 1 and text.startswith(MARKER + "b")


def test_a_cut_never_splits_a_utf8_sequence() -> None:
    text = task_text.read_text("一二三四五六七八九十" * 10, "running", None, 70)
    assert size(text) <= 70
    text.encode("utf-8")  # a lone byte of a split sequence would not have decoded at all
    assert "\ufffd" not in text


def test_at_the_floor_the_notice_keeps_its_id_and_its_instruction() -> None:
    notice = task_text.notice_text(TASK_ID, "command", "a long label " * 10, "failed", "why " * 50, 10)
    assert notice == f"background task {TASK_ID}. Read its output with task_output."
    assert size(notice) == FLOOR


def test_a_tighter_cap_than_the_floor_counts_as_the_floor() -> None:
    assert task_text.effective_limit(1) == FLOOR and task_text.effective_limit(None) is None
    assert size(task_text.read_text("x" * 500, "running", None, 0)) == FLOOR


def test_a_bounded_notice_spends_what_is_left_on_label_and_detail_with_a_marker() -> None:
    notice = task_text.notice_text(TASK_ID, "command", "Build the release notes", "failed", "x" * 300, 100)
    assert size(notice) <= 100
    assert notice.startswith(f"background task {TASK_ID} (command: Build")
    assert notice.endswith(MARKER + ". Read its output with task_output.")


@given(texts, statuses, details, limits)
def test_every_read_fits_its_cap_and_keeps_what_fits(
    output: str, status: str, detail: str | None, limit: int | None
) -> None:
    text = task_text.read_text(output, status, detail, limit)
    whole = task_text.read_text(output, status, detail, None)
    cap = task_text.effective_limit(limit)
    if cap is None or size(whole) <= cap:
        assert text == whole
        return
    assert size(text) <= cap
    suffix = task_text.status_line(status, detail)
    if size(suffix) + 1 + size(MARKER) <= cap:
        assert text.endswith(suffix)
        body = text.removesuffix(suffix).removesuffix("\n")
        assert body.startswith(MARKER)
        assert (output or task_text.NO_NEW_OUTPUT).endswith(body.removeprefix(MARKER))
    else:
        assert text.startswith("[status: ")


@given(st.text(st.characters(codec="utf-8"), max_size=200), texts, statuses, details, limits)
def test_every_notice_fits_and_always_names_the_task_and_how_to_read_it(
    label: str, kind: str, status: str, detail: str | None, limit: int | None
) -> None:
    notice = task_text.notice_text(TASK_ID, kind, label, status, detail, limit)
    cap = task_text.effective_limit(limit)
    assert notice.startswith(f"background task {TASK_ID}")
    assert notice.endswith(". Read its output with task_output.")
    if cap is not None:
        assert size(notice) <= cap
    else:
        assert f"({kind}: {label}) finished [status: {status}]" in notice


@given(texts, st.integers(min_value=0, max_value=300))
def test_head_and_tail_cut_on_character_boundaries(text: str, budget: int) -> None:
    head, tail = task_text.head(text, budget), task_text.tail(text, budget)
    assert text.startswith(head) and text.endswith(tail)
    assert size(head) <= budget and size(tail) <= budget
    if size(text) > budget:
        # The longest that fits: one more character would not.
        assert size(text[: len(head) + 1]) > budget
        assert size(text[len(text) - len(tail) - 1 :]) > budget


def test_head_and_tail_cut_at_exact_byte_budgets() -> None:
    assert task_text.head("abc", 3) == "abc"
    assert task_text.head("abc", 2) == "ab"
    assert task_text.head("abc", 0) == ""
    assert task_text.head("abc", -1) == ""
    assert task_text.head("aé", 2) == "a"  # the two bytes of é never split
    assert task_text.tail("abc", 5) == "abc"
    assert task_text.tail("abc", 3) == "abc"
    assert task_text.tail("abc", 1) == "c"
    assert task_text.tail("abc", 0) == ""
    assert task_text.tail("abc", -2) == ""
    assert task_text.tail("éa", 2) == "a"


def test_keep_start_marks_its_cut_once_and_gives_up_below_the_marker() -> None:
    assert size(MARKER) == 5
    assert task_text.keep_start("abcdef", 6) == "abcdef"
    assert task_text.keep_start("abcdefg", 6) == "a[…]"
    assert task_text.keep_start("abcdefgh", 5) == "[…]"
    assert task_text.keep_start("abcdefgh", 4) == ""
    assert task_text.keep_start("abc[…]zzzzzz", 13) == "abc[…]"


def test_keep_end_marks_its_cut_once_and_gives_up_below_the_marker() -> None:
    assert task_text.keep_end("abcdef", 6) == "abcdef"
    assert task_text.keep_end("abcdefg", 6) == "[…]g"
    assert task_text.keep_end("abcdefgh", 5) == "[…]"
    assert task_text.keep_end("abcdefgh", 4) == ""
    assert task_text.keep_end("[…]abcdef", 9) == "[…]cdef"
    assert task_text.keep_end("abc[…]", 7) == "[…]]"


def test_a_read_of_exactly_its_cap_is_whole_and_a_byte_over_is_cut() -> None:
    body = "x" * 50 + "\n"
    assert task_text.read_text(body, "running", None, 68) == body + "[status: running]"
    assert task_text.read_text(body, "running", None, 67) == "[…]" + "x" * 43 + "\n[status: running]"


def test_a_read_whose_suffix_leaves_room_for_only_the_marker_keeps_the_marker() -> None:
    detail = "d" * 41  # "[status: failed] " + 41 = 58 bytes: 64 - 58 - 1 leaves the 5 of the marker
    assert task_text.read_text("o" * 100, "failed", detail, 64) == "[…]\n[status: failed] " + detail


def test_a_read_whose_suffix_alone_is_over_the_cap_keeps_the_suffix_start() -> None:
    read = task_text.read_text("output", "failed", "d" * 100, 64)
    assert read == "[status: failed] " + "d" * 42 + "[…]"
    assert size(read) == 64


def test_other_task_texts_are_cut_to_the_cap_and_never_below_the_floor() -> None:
    assert task_text.bounded("e" * 70, 64) == "e" * 59 + "[…]"
    assert task_text.bounded("e" * 70, 10) == "e" * 59 + "[…]"
    assert task_text.bounded("e" * 70, None) == "e" * 70
    long_id = "t_" + "a" * 62
    assert task_text.cancellation_text(long_id, 64) == "requested cancellation of task t_" + "a" * 26 + "[…]"
    assert task_text.cancellation_text(long_id, None) == f"requested cancellation of task {long_id}"
    finished = task_text.finished_text(TASK_ID, snapshot("failed", "f" * 80), 64)
    assert finished == f"task {TASK_ID} already finished [status: failed] " + "f" * 6 + "[…]"
    assert size(finished) == 64


def test_a_notice_of_exactly_its_cap_is_whole() -> None:
    whole = task_text.notice_text(TASK_ID, "command", "Build", "completed", "exit status 0", None)
    assert (
        task_text.notice_text(TASK_ID, "command", "Build", "completed", "exit status 0", size(whole)) == whole
    )
    cut = task_text.notice_text(TASK_ID, "command", "Build", "completed", "exit status 0", size(whole) - 1)
    assert cut == f"background task {TASK_ID} (command: Build) finished [status: completed] exit st[…]" + (
        ". Read its output with task_output."
    )
