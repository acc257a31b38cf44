"""A list whose first items stay on disk until something needs them.

The ledger cache serves a 50,000-event campaign without building 50,000 events: `Ledger.events`
holds the last event and knows how many came before it, and the cached state's `games` holds the
last games and knows how many are archived. Length, truth, the last items, appending and reversed
iteration (newest first, loading the rest only if the loop goes that far) answer from the tail;
anything else loads the head first (`load()` returns exactly `head` items, or raises), after
which the object is an ordinary list. It never changes what a list answers, only when the work
is done.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, SupportsIndex


class LazyList(list):  # type: ignore[type-arg]
    """`tail` in memory; `head` more items before it, from `load()` on first need."""

    __slots__ = ("_head", "_load")
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, tail: list[Any], head: int, load: Callable[[], list[Any]]) -> None:
        super().__init__(tail)
        self._head = head
        self._load: Callable[[], list[Any]] | None = load if head else None

    def fill(self) -> None:
        """Load the head (if not loaded yet)."""
        if self._head:
            load, self._load = self._load, None
            head = load() if load is not None else []
            if len(head) != self._head:
                raise ValueError(f"the cache gave {len(head)} items instead of {self._head}")
            self._head = 0
            list.__setitem__(self, slice(0, 0), head)

    @property
    def loaded(self) -> bool:
        return not self._head

    def __len__(self) -> int:
        return list.__len__(self) + self._head

    def __bool__(self) -> bool:
        return bool(self._head) or list.__len__(self) > 0

    def __getitem__(self, i: Any) -> Any:
        if self._head and isinstance(i, int) and not isinstance(i, bool):
            if -list.__len__(self) <= i < 0:
                return list.__getitem__(self, i)
            if self._head <= i < len(self):  # counted from the start, but in the tail (a game by its number)
                return list.__getitem__(self, i - self._head)
        self.fill()
        return list.__getitem__(self, i)

    def __reversed__(self) -> Iterator[Any]:
        if not self._head:
            return list.__reversed__(self)
        return self._newest_first()

    def _newest_first(self) -> Iterator[Any]:
        tail = list(list.__iter__(self))
        yield from reversed(tail)
        self.fill()
        yield from reversed(list.__getitem__(self, slice(0, list.__len__(self) - len(tail))))

    def since(self, start: int) -> list[Any]:
        """The items from index `start` (>= 0) on, as a plain list: loads nothing when they are all in the tail."""
        if start >= self._head:
            return list.__getitem__(self, slice(start - self._head, None))
        self.fill()
        return list.__getitem__(self, slice(start, None))

    def append(self, item: Any) -> None:
        list.append(self, item)

    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        self.fill()
        return (list, (list(list.__iter__(self)),))

    def __repr__(self) -> str:
        self.fill()
        return list.__repr__(self)


def _loading(name: str) -> Callable[..., Any]:
    method = getattr(list, name)

    def call(self: LazyList, *args: Any, **kwargs: Any) -> Any:
        self.fill()
        return method(self, *args, **kwargs)

    call.__name__ = name
    return call


for _name in ("__iter__", "__contains__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__",
              "__radd__", "__iadd__", "__mul__", "__rmul__", "__imul__", "__setitem__", "__delitem__", "extend",
              "insert", "pop", "remove", "index", "count", "sort", "reverse", "copy", "clear"):
    if hasattr(list, _name):
        setattr(LazyList, _name, _loading(_name))
