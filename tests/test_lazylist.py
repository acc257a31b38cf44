"""campaign/ledger/lazylist.py: a list whose first items stay on disk answers what a list answers, loading its
head only when an item of the head is asked for (a game asked for by its number, counted from the start, is
usually one of the last: `where` at 50,000 events loaded 25,000 archived games to read the last one's type)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scarbook.campaign.ledger.lazylist import LazyList


def lazy(items: list[int], head: int) -> tuple[LazyList, list[int]]:
    loads: list[int] = []

    def load() -> list[int]:
        loads.append(1)
        return items[:head]

    return LazyList(items[head:], head, load), loads


@pytest.mark.parametrize("index", [5, 7, 9, -1, -5])
def test_an_item_of_the_tail_is_read_without_loading_the_head(index: int) -> None:
    items = list(range(10))
    found, loads = lazy(items, 5)
    assert found[index] == items[index]
    assert not loads and not found.loaded


@given(st.lists(st.integers(), max_size=20), st.integers(0, 20), st.integers(-25, 25))
def test_any_index_answers_as_a_list_does(items: list[int], head: int, index: int) -> None:
    head = min(head, len(items))
    found, _ = lazy(items, head)
    try:
        expected = items[index]
    except IndexError:
        with pytest.raises(IndexError):
            found[index]
        return
    assert found[index] == expected and len(found) == len(items)
