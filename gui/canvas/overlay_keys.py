"""OverlayKeys: the plan legend's lines for what the overlays mark now, per overlay item.

A colour on the plan is always explained in its key: each overlay (warning marks, a blast
radius, a compare highlight) hands its lines here, and the views repaint only their legend's
corner when the lines change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Entry = tuple[str, str, str]  # (label, colour, "frame" or "dot")


class OverlayKeys:
    """Legend lines per overlay owner, in the order the overlays were shown."""

    def __init__(self, views: Callable[[], Iterable]) -> None:
        """``views``: the views showing the plan now (the scene's ``views``)."""
        self._views = views
        self.by_owner: dict[int, tuple[Entry, ...]] = {}

    def set(self, owner: object, entries: tuple[Entry, ...]) -> None:
        """``owner``'s legend lines; the views repaint their legend when the lines change."""
        if self.by_owner.get(id(owner), ()) == entries:
            return
        before = len(self.lines())
        if entries:
            self.by_owner[id(owner)] = entries
        else:
            self.by_owner.pop(id(owner), None)
        marks = max(before, len(self.lines()))
        for view in self._views():
            if hasattr(view, "update_legend"):
                view.update_legend(marks)  # the legend's corner, not the whole plan
            else:
                view.viewport().update()

    def lines(self) -> list[Entry]:
        """Every overlay's legend lines, each once, in the order the overlays were shown."""
        return list(dict.fromkeys(e for entries in self.by_owner.values() for e in entries))
