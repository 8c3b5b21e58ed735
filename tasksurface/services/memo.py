"""A bounded, thread-safe memo: what is derived from an event that never changes, computed once."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class BoundedMemo(Generic[Value]):
    """The newest `capacity` results kept; the least recently used one goes first."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._kept: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_compute(self, key: Hashable, compute: Callable[[], Value]) -> Value:
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        value = compute()  # outside the lock: two first computations of one key agree, and are rare
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.capacity:
                self._kept.popitem(last=False)
        return value

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)
