"""ChangedRows: the ids of the links a refresh changed, held as plant rows and named only when read.

A corner dragged on the busiest tray of the XL hall changes the length of ~190k links. The
re-route of the analysis worker's copy (:mod:`model.engine.retray_copy`) made a Python set of
their ids, ~52 ms of its CPU per drop (median of 4 at XL), for listeners that then read only
how many there were (the links table repaints every row past a few thousand) or nothing at all
(the analysis recounts the tray fill whole after a tray edit; the plan's bundles compare the
plant's arrays). This set keeps the rows and the id list, and builds the ids on first use
(membership, iteration, a union with another set), once.

The id list must not change while the set lives: a snapshot's copy's list (read-only, shared
with its snapshot) does not; a live plant's does (rows are added and dropped in place), so a
live plant's refresh names its ids at once, as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence, Set
from typing import TypeVar

import numpy as np

_T = TypeVar("_T")


class ChangedRows(Set[str]):
    """The link ids ``link_ids[r]`` of ``rows`` (distinct plant rows), an immutable set of str."""

    __slots__ = ("_ids", "_link_ids", "rows")

    def __init__(self, rows: np.ndarray, link_ids: Sequence[str]) -> None:
        self.rows = rows  # int64 plant rows, each once
        self._link_ids = link_ids
        self._ids: frozenset[str] | None = None

    @property
    def ids(self) -> frozenset[str]:
        """The ids themselves (built on first use; rows as Python ints through a C-level map:
        numpy scalars as list indices cost twice as much)."""
        ids = self._ids
        if ids is None:
            ids = self._ids = frozenset(map(self._link_ids.__getitem__, self.rows.tolist()))
        return ids

    def __len__(self) -> int:
        return len(self.rows)

    def __contains__(self, link_id: object) -> bool:
        return link_id in self.ids

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def __repr__(self) -> str:
        return f"ChangedRows({len(self.rows)} links)"

    @classmethod
    def _from_iterable(cls, it: Iterable[_T]) -> set[_T]:
        # What Set's operators (|, &, -, ^) build: a plain set of ids, as the unions of the
        # refresh results (``changed |= plant.refresh()``) expect.
        return set(it)
