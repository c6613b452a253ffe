"""The annotation edits of a design: the building's drawing under the plan (underlay) and the
dimension lines. Split out of :mod:`model.design.design` (a mixin of ``Design``); both are
announced as their own change kinds, which no route, medium or figure depends on.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import msgspec

from model.design.changes import ChangeKind
from model.design.entities import Dimension, Hall, Underlay
from model.design.records import DesignError, fit_fields


class AnnotationEdits:
    """Mixin of :class:`~model.design.design.Design` (which provides hall, the entity tables
    and ``_emit``)."""

    hall: Hall
    racks: dict[str, Any]
    devices: dict[str, Any]
    links: dict[str, Any]
    trays: dict[str, Any]

    if TYPE_CHECKING:

        def _emit(self, kind: ChangeKind, ids: Iterable[str] = ()) -> None: ...

    def set_underlay(self, underlay: Underlay | None) -> None:
        """Place, recalibrate or remove (None) the drawing under the plan. Announced as
        UNDERLAY_CHANGED alone: no route, medium or figure depends on it."""
        if underlay is not None and not isinstance(underlay, Underlay):
            raise DesignError(f"an underlay must be an Underlay record, not {underlay!r}")
        hall = msgspec.structs.replace(self.hall, underlay=underlay)
        (hall,) = fit_fields([hall], "the underlay")
        if hall != self.hall:
            self.hall = hall
            self._emit(ChangeKind.UNDERLAY_CHANGED)

    def set_dimensions(self, dimensions: Iterable[Dimension]) -> None:
        """Replace the plan's dimension lines (drawn or deleted), in this order. Announced as
        ANNOTATIONS_CHANGED alone: nothing routes by them."""
        dimensions = list(dimensions)
        if not all(isinstance(d, Dimension) for d in dimensions):
            raise DesignError("dimension lines must be Dimension records")
        ids = [d.id for d in dimensions]
        if len(set(ids)) != len(ids):
            raise DesignError("two dimension lines share one id")
        others = {o.id for o in self.hall.obstacles}
        clash = [
            i
            for i in ids
            if i in others
            or i in self.racks
            or i in self.devices
            or i in self.links
            or i in self.trays
        ]
        if clash:
            raise DesignError(f"dimension id {clash[0]!r} is already used by another object")
        hall = msgspec.structs.replace(self.hall, dimensions=dimensions)
        (hall,) = fit_fields([hall], "the dimension lines")
        if hall != self.hall:
            self.hall = hall
            self._emit(ChangeKind.ANNOTATIONS_CHANGED, ids)
