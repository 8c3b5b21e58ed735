"""The statements the hot paths run (a submission, its admission, a push, a page), built once.

Building a statement and passing it through the ORM cost ten times what the database does for a
lookup by key; these are built at import and run with `db.run`, their values bound by name.
"""

from __future__ import annotations

from typing import cast

import sqlalchemy as sa

from .tables import EventRow, HiddenRangeRow, InboxRow, SessionRow

SESSIONS = cast(sa.Table, SessionRow.__table__)
EVENTS = cast(sa.Table, EventRow.__table__)
INBOX = cast(sa.Table, InboxRow.__table__)
HIDDEN = cast(sa.Table, HiddenRangeRow.__table__)

# -- sessions
SESSION = sa.select(SESSIONS).where(SESSIONS.c.id == sa.bindparam("sid"))
SESSION_LOCKED = SESSION.with_for_update()
OWNER = sa.select(SESSIONS.c.owner).where(SESSIONS.c.id == sa.bindparam("sid"))
QUESTION_SEQ = sa.select(SESSIONS.c.question_call_seq).where(SESSIONS.c.id == sa.bindparam("sid"))
ADVANCE = (
    sa.update(SESSIONS)
    .where(SESSIONS.c.id == sa.bindparam("sid"))
    .values(
        head_seq=sa.bindparam("new_head"),
        active_call_id=sa.bindparam("new_call"),
        active_surface_id=sa.bindparam("new_surface"),
        active_result_seq=sa.bindparam("new_result_seq"),
        question_call_seq=sa.bindparam("new_question_seq"),
    )
)
NEXT_POSITION = (
    sa.update(SESSIONS)
    .where(SESSIONS.c.id == sa.bindparam("sid"))
    .values(next_position=SESSIONS.c.next_position + 1)
    .returning(SESSIONS.c.next_position)
)

# -- the log
INSERT_EVENT = sa.insert(EVENTS)
_EVENT_COLUMNS = ("session_id", "seq", "kind", "at", "payload", "call_id", "message_id", "request_id")
APPEND_IN_ONE = (
    sa.insert(EVENTS)
    .add_cte(ADVANCE.cte("advanced"))
    .values({name: sa.bindparam("event_" + name, type_=EVENTS.c[name].type) for name in _EVENT_COLUMNS})
)
"""PostgreSQL: the event and the session row's new head in one round trip (the row is already
locked by the append's read). The event's values are bound as `event_<column>`, apart from the
update's own."""
_OF_SESSION = EVENTS.c.session_id == sa.bindparam("sid")
EVENT_AT = sa.select(EVENTS).where(_OF_SESSION, EVENTS.c.seq == sa.bindparam("seq"))
EVENT_BY_REQUEST = sa.select(EVENTS).where(_OF_SESSION, EVENTS.c.request_id == sa.bindparam("rid"))
_HIDDEN_HERE = sa.and_(
    HIDDEN.c.session_id == sa.bindparam("sid"),
    HIDDEN.c.first_seq <= EVENTS.c.seq,
    HIDDEN.c.last_seq >= EVENTS.c.seq,
)
_VISIBLE = sa.and_(_OF_SESSION, ~sa.exists(sa.select(HIDDEN.c.id).where(_HIDDEN_HERE)))
"""Events of the session that no rewind has taken out of its history."""
_LIMIT = sa.bindparam("limit", type_=sa.Integer)
EVENTS_AFTER = sa.select(EVENTS).where(_VISIBLE, EVENTS.c.seq > sa.bindparam("after")).order_by(EVENTS.c.seq)
EVENTS_AFTER_LIMITED = EVENTS_AFTER.limit(_LIMIT)
LATEST_EVENTS = sa.select(EVENTS).where(_VISIBLE).order_by(EVENTS.c.seq.desc()).limit(_LIMIT)
LATEST_EVENTS_BEFORE = LATEST_EVENTS.where(EVENTS.c.seq < sa.bindparam("before"))
FIRST_OF_KINDS_AFTER = (
    sa.select(EVENTS)
    .where(
        _VISIBLE,
        EVENTS.c.seq > sa.bindparam("after"),
        EVENTS.c.kind.in_(sa.bindparam("kinds", expanding=True)),
    )
    .order_by(EVENTS.c.seq)
    .limit(1)
)
HIDES = sa.select(
    sa.exists(
        sa.select(HIDDEN.c.id).where(
            HIDDEN.c.session_id == sa.bindparam("sid"),
            HIDDEN.c.first_seq <= sa.bindparam("seq"),
            HIDDEN.c.last_seq >= sa.bindparam("seq"),
        )
    )
)

# -- the inbox
INSERT_ITEM = sa.insert(INBOX)
_ENQUEUED = (
    "id",
    "session_id",
    "message_id",
    "placement",
    "source",
    "content",
    "request_id",
    "surface_id",
    "created_at",
)
_NEW_POSITION = NEXT_POSITION.cte("new_position")
ENQUEUE_IN_ONE = (
    sa.insert(INBOX)
    .add_cte(_NEW_POSITION)
    .from_select(
        [*_ENQUEUED, "position"],
        sa.select(
            *(sa.bindparam("new_" + name, type_=INBOX.c[name].type) for name in _ENQUEUED),
            _NEW_POSITION.c.next_position - 1,
        ),
    )
    .returning(INBOX.c.position)
)
"""PostgreSQL: the session's next position and the row, in one round trip (the update in the
statement's first part takes the session's row lock, as `NEXT_POSITION` does on its own). The
row's values are bound as `new_<column>`: an update given values named like its table's columns
would set them."""
_MINE = INBOX.c.session_id == sa.bindparam("sid")
ITEMS = sa.select(INBOX).where(_MINE).order_by(INBOX.c.position)
ADMISSION_ORDER = (INBOX.c.placement != "steering", INBOX.c.position)
"""The order the runner admits waiting input in: steering first, then arrival."""
WAITING = (
    sa.select(INBOX)
    .join(SESSIONS, SESSIONS.c.id == INBOX.c.session_id)
    .where(_MINE, sa.not_(SESSIONS.c.paused))
    .order_by(*ADMISSION_ORDER)
)
"""The rows the runner may admit, in its order: none while the session is paused."""
ITEM = sa.select(INBOX).where(_MINE, INBOX.c.id == sa.bindparam("item_id"))
ITEM_BY_REQUEST = sa.select(INBOX).where(_MINE, INBOX.c.request_id == sa.bindparam("rid"))
ITEM_FOR_SURFACE = sa.select(INBOX).where(_MINE, INBOX.c.surface_id == sa.bindparam("surface"))
DELETE_ITEM = sa.delete(INBOX).where(INBOX.c.id == sa.bindparam("item_id"))
TAKE_ITEM = sa.delete(INBOX).where(_MINE, INBOX.c.id == sa.bindparam("item_id")).returning(*INBOX.c)
TAKE_CLAIMED_ITEM = TAKE_ITEM.where(INBOX.c.claimed_by == sa.bindparam("token"))

# -- what already used a submission's request id or answers its panel (each usually nothing, so the
# rows themselves are read only when named), and whether any input is queued at all; asked after
# the session's row lock is taken, so that PostgreSQL reads it with a snapshot that holds what the
# lock waited for
_REQUEST_SEQ = sa.select(EVENTS.c.seq).where(_OF_SESSION, EVENTS.c.request_id == sa.bindparam("rid"))
_REQUEST_ITEM = sa.select(INBOX.c.id).where(_MINE, INBOX.c.request_id == sa.bindparam("rid"))
_SURFACE_ITEM = sa.select(INBOX.c.id).where(_MINE, INBOX.c.surface_id == sa.bindparam("surface"))
_ANY_ITEM = sa.exists().where(_MINE)
HAS_ITEMS = sa.select(_ANY_ITEM)
ANSWERS = sa.select(
    _REQUEST_SEQ.scalar_subquery().label("request_seq"),
    _REQUEST_ITEM.scalar_subquery().label("request_item"),
    _SURFACE_ITEM.scalar_subquery().label("surface_item"),
    _ANY_ITEM.label("has_items"),
)
