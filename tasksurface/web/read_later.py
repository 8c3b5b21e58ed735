"""Template values read only when the template first asks for one of them.

The chat page's head names the stylesheet, the page script and the socket: a few cheap values.
Its body needs the slower reads (the dock, the rows' states, the queue, the question). Given
under `READ_LATER`, those are read at the first name the template asks for and was not given,
which for that page is in its body, after the head has left: the browser fetches what the head
names while the server reads. Jinja looks a block's names up when the block starts, so a name
used in the head, even in a branch not taken, must be among the values given at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask
from jinja2.runtime import Context
from jinja2.utils import missing

READ_LATER = "read_later"


class ReadLater:
    """The values `read` returns, read once, on the first name asked for."""

    def __init__(self, read: Callable[[], Mapping[str, Any]]) -> None:
        self._read = read
        self._values: Mapping[str, Any] | None = None

    def get(self, name: str) -> Any:
        if self._values is None:
            self._values = self._read()
        return self._values.get(name, missing)


class ReadLaterContext(Context):
    """A template context that asks a page's `ReadLater` for any name it was not given."""

    def resolve_or_missing(self, key: str) -> Any:
        found = super().resolve_or_missing(key)
        if found is not missing or key == READ_LATER:
            return found
        later = super().resolve_or_missing(READ_LATER)
        return later.get(key) if isinstance(later, ReadLater) else found


def init_read_later(app: Flask) -> None:
    app.jinja_env.context_class = ReadLaterContext
