"""Undo commands: every user edit is one of these, and each calls only the model's edit API.

Commands hold ids and plain model records, never graphics items (items die on delete and
reload). ``QUndoStack.push()`` runs ``redo()``; a refused edit (``DesignError``) marks the
command obsolete so that the stack drops it, and :func:`push` returns the sentence to show.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from PySide6.QtGui import QUndoCommand, QUndoStack

from model.common.wording import count
from model.design.design import Design, DesignError, Removed
from model.design.entities import (
    Device,
    Dimension,
    Hall,
    Link,
    Obstacle,
    Point,
    Rack,
    Settings,
    Tray,
    Underlay,
)

MOVE_RACKS_ID = 1001


class DesignCommand(QUndoCommand):
    """Base: runs an edit, turning a refusal into an obsolete command with ``error`` set."""

    def __init__(self, design: Design, text: str) -> None:
        super().__init__(text)
        self.design = design
        self.error: str | None = None

    def redo(self) -> None:
        try:
            with self.design.batch():  # one user edit, one change event
                self.apply()
        except DesignError as exc:
            self.error = str(exc)
            self.setObsolete(True)

    def undo(self) -> None:
        with self.design.batch():
            self.revert()

    def apply(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def revert(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


def push(stack: QUndoStack, command: DesignCommand) -> str | None:
    """Push and run ``command``; the user sentence if the model refused it, else None."""
    stack.push(command)
    return command.error


def _plural(n: int, word: str) -> str:
    return count(n, word)


class AddObjectsCommand(DesignCommand):
    """Add trays, racks, devices and links in one step (place, draw, connect, paste)."""

    def __init__(
        self,
        design: Design,
        text: str,
        *,
        trays: Iterable[Tray] = (),
        racks: Iterable[Rack] = (),
        devices: Iterable[Device] = (),
        links: Iterable[Link] = (),
    ) -> None:
        super().__init__(design, text)
        self.added = Removed(list(trays), list(racks), list(devices), list(links))

    def ids(self) -> list[str]:
        a = self.added
        return [o.id for o in (*a.links, *a.devices, *a.racks, *a.trays)]

    def apply(self) -> None:
        self.design.restore(self.added)

    def revert(self) -> None:
        self.design.delete(self.ids())


class DeleteCommand(DesignCommand):
    """Delete any mix of objects with everything that depends on them."""

    def __init__(self, design: Design, ids: Iterable[str], text: str | None = None) -> None:
        ids = list(dict.fromkeys(ids))
        super().__init__(design, text or f"Delete {_describe(design, ids)}")
        self.ids = ids
        self.removed: Removed | None = None

        # Obstacles are part of the hall record, not an entity table: taken out of its list.
        obstacles = {o.id for o in design.hall.obstacles}
        self.obstacle_ids = {i for i in ids if i in obstacles}
        self.old_obstacles = list(design.hall.obstacles)
        # Dimension lines likewise (annotations of the hall record).
        self.dimension_ids = {i for i in ids if any(d.id == i for d in design.hall.dimensions)}
        self.old_dimensions = list(design.hall.dimensions)

    def apply(self) -> None:
        rest = [i for i in self.ids if i not in self.obstacle_ids and i not in self.dimension_ids]
        if self.dimension_ids:
            self.design.set_dimensions(
                d for d in self.old_dimensions if d.id not in self.dimension_ids
            )
        if self.obstacle_ids:
            self.design.set_obstacles(
                o for o in self.old_obstacles if o.id not in self.obstacle_ids
            )
        if rest:
            self.removed = self.design.delete(rest)

    def revert(self) -> None:
        if self.removed is not None:
            self.design.restore(self.removed)
        if self.obstacle_ids:
            self.design.set_obstacles(self.old_obstacles)
        if self.dimension_ids:
            self.design.set_dimensions(self.old_dimensions)


class MoveRacksCommand(DesignCommand):
    """Move racks to new centres; consecutive keyboard nudges of the same racks merge."""

    def __init__(
        self,
        design: Design,
        positions: Mapping[str, tuple[float, float]],
        text: str | None = None,
        mergeable: bool = False,
    ) -> None:
        super().__init__(design, text or f"Move {_describe(design, positions)}")
        self.new = {k: (float(x), float(y)) for k, (x, y) in positions.items()}
        self.old = {
            k: (design.racks[k].x, design.racks[k].y) for k in positions if k in design.racks
        }
        self.mergeable = mergeable

    def id(self) -> int:
        return MOVE_RACKS_ID if self.mergeable else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, MoveRacksCommand) or set(other.new) != set(self.new):
            return False
        self.new = other.new
        return True

    def apply(self) -> None:
        self.design.move_racks(self.new)

    def revert(self) -> None:
        self.design.move_racks(self.old)


class RotateRacksCommand(DesignCommand):
    def __init__(
        self, design: Design, rotations: Mapping[str, int], text: str | None = None
    ) -> None:
        super().__init__(design, text or f"Rotate {_describe(design, rotations)}")
        self.new = dict(rotations)
        self.old = {k: design.racks[k].rotation for k in rotations if k in design.racks}

    def apply(self) -> None:
        self.design.rotate_racks(self.new)

    def revert(self) -> None:
        self.design.rotate_racks(self.old)


class UpdateCommand(DesignCommand):
    """Replace records of one kind (racks, devices, links or trays) keeping their ids."""

    def __init__(
        self, design: Design, kind: str, records: Iterable, text: str | None = None
    ) -> None:
        records = list(records)
        super().__init__(design, text or f"Edit {_describe(design, [r.id for r in records])}")
        self.kind = kind
        table = getattr(design, kind)
        self.new = records
        self.old = [table[r.id] for r in records if r.id in table]

    def _update(self, records: list) -> None:
        getattr(self.design, f"update_{self.kind}")(records)

    def apply(self) -> None:
        self._update(self.new)

    def revert(self) -> None:
        self._update(self.old)


class MoveDevicesCommand(DesignCommand):
    def __init__(
        self, design: Design, places: Mapping[str, tuple[str, int]], text: str | None = None
    ) -> None:
        super().__init__(design, text or f"Move {_describe(design, places)}")
        self.new = dict(places)
        self.old = {
            k: (design.devices[k].rack, design.devices[k].u) for k in places if k in design.devices
        }

    def apply(self) -> None:
        self.design.move_devices(self.new)

    def revert(self) -> None:
        self.design.move_devices(self.old)


class SetHallCommand(DesignCommand):
    def __init__(self, design: Design, hall: Hall, text: str = "Edit hall") -> None:
        super().__init__(design, text)
        self.new, self.old = hall, design.hall

    def apply(self) -> None:
        self.design.set_hall(self.new)

    def revert(self) -> None:
        self.design.set_hall(self.old)


class TrayPointsCommand(DesignCommand):
    """One tray reshaped: a corner dragged, inserted or deleted (the old points put back)."""

    def __init__(self, design: Design, tray_id: str, points: list[Point], text: str) -> None:
        super().__init__(design, text)
        self.tray_id = tray_id
        self.new = list(points)
        self.old = list(design.trays[tray_id].points)

    def apply(self) -> None:
        self.design.set_tray_points(self.tray_id, self.new)

    def revert(self) -> None:
        self.design.set_tray_points(self.tray_id, self.old)


class MoveTraysCommand(DesignCommand):
    """Whole trays shifted; undo puts back the very records (no float round trip)."""

    def __init__(self, design: Design, ids: list[str], dx_m: float, dy_m: float) -> None:
        super().__init__(design, f"Move {_describe(design, ids)}")
        self.ids, self.dx_m, self.dy_m = list(ids), dx_m, dy_m
        self.old = [design.trays[i] for i in self.ids]

    def apply(self) -> None:
        self.design.move_trays(self.ids, self.dx_m, self.dy_m)

    def revert(self) -> None:
        self.design.update_trays(self.old)


class SplitTrayCommand(DesignCommand):
    """A tray cut in two at an inner corner; undo takes the new tray away and puts the old
    record back."""

    def __init__(self, design: Design, tray_id: str, corner: int) -> None:
        super().__init__(design, f"Split {_describe(design, [tray_id])}")
        self.tray_id, self.corner = tray_id, corner
        self.new_id = design.new_id("tray")
        self.old = design.trays[tray_id]

    def apply(self) -> None:
        self.design.split_tray(self.tray_id, self.corner, self.new_id)

    def revert(self) -> None:
        self.design.remove_trays([self.new_id])
        self.design.update_trays([self.old])


class JoinTraysCommand(DesignCommand):
    """Two trays whose ends meet made one; undo puts both records back."""

    def __init__(self, design: Design, keep_id: str, other_id: str) -> None:
        super().__init__(design, f"Join {_describe(design, [keep_id, other_id])}")
        self.keep_id, self.other_id = keep_id, other_id
        self.old = [design.trays[keep_id], design.trays[other_id]]

    def apply(self) -> None:
        self.design.join_trays(self.keep_id, self.other_id)

    def revert(self) -> None:
        self.design.update_trays([self.old[0]])
        self.design.add_trays([self.old[1]])


class MoveSelectionCommand(DesignCommand):
    """Racks, trays and obstacles dragged together by one offset; undo puts back the very
    records (no float round trip)."""

    def __init__(self, design: Design, ids: Iterable[str], dx_m: float, dy_m: float) -> None:
        ids = list(ids)
        super().__init__(design, f"Move {_describe(design, ids)}")
        obstacle_ids = {o.id for o in design.hall.obstacles}
        self.racks = [i for i in ids if i in design.racks]
        self.trays = [i for i in ids if i in design.trays]
        self.obstacles = [i for i in ids if i in obstacle_ids]
        self.dx_m, self.dy_m = dx_m, dy_m
        self.old_racks = {r: (design.racks[r].x, design.racks[r].y) for r in self.racks}
        self.old_trays = [design.trays[t] for t in self.trays]
        self.old_obstacles = list(design.hall.obstacles)

    def apply(self) -> None:
        dx, dy = self.dx_m, self.dy_m
        if self.racks:
            self.design.move_racks(
                {r: (round(x + dx, 6), round(y + dy, 6)) for r, (x, y) in self.old_racks.items()}
            )
        if self.trays:
            self.design.move_trays(self.trays, dx, dy)
        if self.obstacles:
            self.design.move_obstacles(self.obstacles, dx, dy)

    def revert(self) -> None:
        if self.racks:
            self.design.move_racks(self.old_racks)
        if self.trays:
            self.design.update_trays(self.old_trays)
        if self.obstacles:
            self.design.set_obstacles(self.old_obstacles)


class OutlineCommand(DesignCommand):
    """The hall outline reshaped (a corner dragged, inserted or deleted)."""

    def __init__(self, design: Design, points: list[Point], text: str) -> None:
        super().__init__(design, text)
        self.new = list(points)
        self.old = list(design.hall.outline)

    def apply(self) -> None:
        self.design.set_outline(self.new)

    def revert(self) -> None:
        self.design.set_outline(self.old)


class ObstaclesCommand(DesignCommand):
    """The hall's obstacles replaced: one drawn, reshaped, moved, renamed or re-kinded."""

    def __init__(self, design: Design, obstacles: Iterable[Obstacle], text: str) -> None:
        super().__init__(design, text)
        self.new = list(obstacles)
        self.old = list(design.hall.obstacles)

    def apply(self) -> None:
        self.design.set_obstacles(self.new)

    def revert(self) -> None:
        self.design.set_obstacles(self.old)


class MoveObstaclesCommand(DesignCommand):
    def __init__(self, design: Design, ids: list[str], dx_m: float, dy_m: float) -> None:
        super().__init__(design, f"Move {_describe(design, ids)}")
        self.ids, self.dx_m, self.dy_m = list(ids), dx_m, dy_m
        self.old = list(design.hall.obstacles)

    def apply(self) -> None:
        self.design.move_obstacles(self.ids, self.dx_m, self.dy_m)

    def revert(self) -> None:
        self.design.set_obstacles(self.old)


class UnderlayCommand(DesignCommand):
    """Place, calibrate or remove (None) the drawing under the plan."""

    def __init__(self, design: Design, underlay: Underlay | None, text: str) -> None:
        super().__init__(design, text)
        self.old = design.hall.underlay
        self.new = underlay

    def apply(self) -> None:
        self.design.set_underlay(self.new)

    def revert(self) -> None:
        self.design.set_underlay(self.old)


class DimensionsCommand(DesignCommand):
    """Replace the plan's dimension lines (one drawn, deleted)."""

    def __init__(self, design: Design, dimensions: Iterable[Dimension], text: str) -> None:
        super().__init__(design, text)
        self.old = list(design.hall.dimensions)
        self.new = list(dimensions)

    def apply(self) -> None:
        self.design.set_dimensions(self.new)

    def revert(self) -> None:
        self.design.set_dimensions(self.old)


class SetSettingsCommand(DesignCommand):
    def __init__(
        self, design: Design, settings: Settings, text: str = "Edit design settings"
    ) -> None:
        super().__init__(design, text)
        self.new, self.old = settings, design.settings

    def apply(self) -> None:
        self.design.set_settings(self.new)

    def revert(self) -> None:
        self.design.set_settings(self.old)


def _describe(design: Design, ids: Iterable[str]) -> str:
    """'rack R07', '3 racks', '2 objects' — the words shown in Edit > Undo."""
    ids = list(ids)
    kinds = []
    for object_id in ids:
        for kind, table in (
            ("rack", design.racks),
            ("device", design.devices),
            ("link", design.links),
            ("tray", design.trays),
        ):
            if object_id in table:
                kinds.append((kind, table[object_id]))
                break
        else:
            obstacle = next((o for o in design.hall.obstacles if o.id == object_id), None)
            if obstacle is not None:
                kinds.append(("obstacle", obstacle))
            elif any(d.id == object_id for d in design.hall.dimensions):
                kinds.append(
                    ("dimension line", next(d for d in design.hall.dimensions if d.id == object_id))
                )
    if not kinds:
        return _plural(len(ids), "object")
    names = {k for k, _ in kinds}
    if len(kinds) == 1:
        kind, record = kinds[0]
        label = getattr(record, "name", "") or getattr(record, "label", "") or record.id
        return f"{kind} {label}"
    if len(names) == 1:
        return _plural(len(kinds), kinds[0][0])
    return _plural(len(kinds), "object")
