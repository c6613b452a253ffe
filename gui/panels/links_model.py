"""The links table's model: every link of the cable plant, sortable and filterable, 400k rows fast.

``LinksTableModel`` is virtual: it holds one numpy array ``order`` (view row -> plant row) and
formats a cell only when the view asks for it, so no per-row Python object exists up front.
Sorting is ``numpy.argsort`` on a plant column; filters are boolean masks. Plant rows move when
links are deleted, so the model re-derives ``order`` whenever the plant is refreshed.
Editing the medium (auto or a matching pinned medium) and the length override pushes an
``UpdateCommand`` on the document's undo stack; the model never writes the design itself.
"""

from __future__ import annotations

import math

import msgspec
import numpy as np
from PySide6.QtCore import QAbstractTableModel, Qt, Signal
from PySide6.QtGui import QColor

from gui.edit.commands import UpdateCommand, push
from gui.plain_text import tooltip
from gui.style import MEDIUM_KIND_COLORS
from model.analysis.topology import infer_topology, tier_codes
from model.catalog.components import medium_group
from model.catalog.parts import row_number
from model.design.changes import DEVICE_KINDS, LINK_KINDS, Change
from model.engine.media import media_that_fit
from model.plant.links import LinkParts

COLUMNS = ("A end", "B end", "Tier", "Speed", "Routed m", "Ordered m", "Medium", "Reason")
COL_A, COL_B, COL_TIER, COL_SPEED, COL_ROUTED, COL_ORDERED, COL_MEDIUM, COL_REASON = range(8)
HEADER_TIPS = {
    COL_ROUTED: "Routed estimate along the trays with slack (hover a cell for its pieces)",
    COL_ORDERED: "Length to order: the medium's next orderable length. Double-click to type a "
    "length override (blank clears it); an as-built measurement wins over both",
    COL_MEDIUM: "Chosen medium; (pinned) = chosen by hand. Double-click to pin one of the matching media or "
    "return to auto",
    COL_REASON: "Why this medium (or why none reaches)",
}
# The tiers offered as filters; the column shows whatever the analysis names (peer, tier4, ...).
TIER_NAMES = ("server-leaf", "leaf-spine", "spine-core", "scale-up", "other")
WARNING_BITS = 2 | 4 | 8 | 16 | 32  # every status flag but SAME_RACK
MAX_CANVAS_SELECTION = 2000
# Past this many runs of changed rows, one signal spans them (each signal costs the view a
# repaint request of its own).
MAX_CHANGED_RUNS = 256
MANY_CHANGED = 16 * MAX_CHANGED_RUNS  # more changed links than this: one span, rows not looked up


class LinksTableModel(QAbstractTableModel):
    """Rows of the cable plant; ``order`` maps view rows to plant rows."""

    edit_refused = Signal(str)

    def __init__(self, design, plant, stack, parent=None) -> None:
        super().__init__(parent)
        self.design, self.plant, self.stack = design, plant, stack
        self.order = np.arange(len(plant.link_ids), dtype=np.int64)
        self.sort_column, self.sort_order = -1, Qt.AscendingOrder
        self.filters: dict[str, object] = {
            "kind": None,
            "tier": None,
            "warning": False,
            "rack": "",
            "part": "",
        }
        self._parts: dict[str, tuple] | None = None  # link id -> the plant's part names
        self._tiers: np.ndarray | None = None  # per plant row; dropped when links or devices change
        self._tier_names: list[str] = list(TIER_NAMES)
        # True once an analysis runner feeds the codes (set_tiers): the column then waits for
        # them instead of computing them on the GUI thread.
        self.tiers_follow_analysis = False
        self._subscription = design.subscribe(self._on_change)

    def close(self) -> None:
        self._subscription.close()

    def _on_change(self, change: Change) -> None:
        if change.touches(LINK_KINDS | DEVICE_KINDS):
            self._tiers = None

    # ------------------------------------------------------------------ Qt model API

    def rowCount(self, parent=None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.order)

    def columnCount(self, parent=None) -> int:
        return 0 if parent is not None and parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if orientation != Qt.Horizontal:
            return None
        if role == Qt.DisplayRole:
            return COLUMNS[section]
        if role == Qt.ToolTipRole:
            return HEADER_TIPS.get(section)
        return None

    def flags(self, index):
        base = Qt.ItemIsEnabled | Qt.ItemIsSelectable
        if index.column() in (COL_MEDIUM, COL_ORDERED):
            base |= Qt.ItemIsEditable
        return base

    def link_id(self, view_row: int) -> str | None:
        """The link shown in this view row (None while the plant has fewer rows than the view)."""
        row = int(self.order[view_row])
        return self.plant.link_ids[row] if row < len(self.plant.link_ids) else None

    def data(self, index, role=Qt.DisplayRole):
        if not index.isValid() or index.row() >= len(self.order):
            return None
        row = int(self.order[index.row()])
        if row >= len(self.plant.link_ids):
            return None  # the plant dropped rows; plant_changed() re-derives the order next
        col = index.column()
        plant = self.plant
        if role == Qt.DisplayRole:
            return self._text(row, col)
        if role == Qt.EditRole:
            link = self.design.links.get(plant.link_ids[row])
            if link is None:
                return None
            if col == COL_MEDIUM:
                return link.medium
            if col == COL_ORDERED:
                return "" if link.length_override_m is None else f"{link.length_override_m:g}"
        if role == Qt.ForegroundRole:
            if col == COL_MEDIUM:
                k = int(plant.medium_index[row])
                return (
                    QColor(MEDIUM_KIND_COLORS.get(plant.media[k].kind, "#8a8f98")).darker(130)
                    if k >= 0
                    else QColor("#c92a2a")
                )
            if col == COL_REASON and int(plant.status[row]) & WARNING_BITS:
                return QColor("#c92a2a")
        if role == Qt.TextAlignmentRole and col in (COL_SPEED, COL_ROUTED, COL_ORDERED):
            return int(Qt.AlignRight | Qt.AlignVCenter)
        if role == Qt.ToolTipRole and col in (COL_REASON, COL_ROUTED):
            link_id = plant.link_ids[row]
            if col == COL_REASON:
                return tooltip(plant.reason(link_id))
            r = plant.route(link_id)
            return (
                f"vertical A {r.vertical_a_m:.2f} m + hop {r.hop_a_m:.2f} + tray {r.tray_m:.2f} "
                f"+ hop {r.hop_b_m:.2f} + vertical B {r.vertical_b_m:.2f} + floor {r.floor_m:.2f}"
                f" + slack {r.slack_m:.2f} = {r.total_m:.2f} m ({r.method})"
            )
        return None

    def _text(self, row: int, col: int) -> str:
        plant, design = self.plant, self.design
        link_id = plant.link_ids[row]
        if col in (COL_A, COL_B):
            link = design.links.get(link_id)
            if link is None:
                return "?"
            end = link.a if col == COL_A else link.b
            device = design.devices.get(end.device)
            if device is None:
                return f"{end.device}:{end.port}"
            rack = design.racks.get(device.rack)
            return f"{rack.name if rack else '?'} · {device.name or device.id}:{end.port}"
        if col == COL_TIER:
            if self._tiers is None and self.tiers_follow_analysis:
                return "…"  # the analysis worker hands the codes over with its result
            return self._tier_names[int(self.tiers()[row])]
        if col == COL_SPEED:
            return f"{plant.speed_gbps[row]:g}G"
        if col == COL_ROUTED:
            return _metres(plant.routed_m[row])
        if col == COL_ORDERED:
            link = design.links.get(link_id)
            text = _metres(plant.ordered_m[row])
            if link is not None and link.as_built_m is not None:
                return f"{text} (as built {link.as_built_m:g})"
            if link is not None and link.length_override_m is not None:
                return f"{text} (typed {link.length_override_m:g})"
            return text
        if col == COL_MEDIUM:
            k = int(plant.medium_index[row])
            name = plant.media[k].name if k >= 0 else "none reaches"
            link = design.links.get(link_id)
            # A word, not an emoji: without an emoji font a pin renders as an empty box.
            return f"{name} (pinned)" if link is not None and link.medium != "auto" else name
        if col == COL_REASON:
            return plant.reason(link_id)
        return ""

    def setData(self, index, value, role=Qt.EditRole) -> bool:
        if role != Qt.EditRole or not index.isValid():
            return False
        link_id = self.link_id(index.row())
        link = self.design.links.get(link_id) if link_id is not None else None
        if link is None:
            return False
        if index.column() == COL_MEDIUM:
            if value == link.medium:
                return False
            new = msgspec.structs.replace(link, medium=str(value))
            text = (
                f"Pin medium of link {link_id}"
                if value != "auto"
                else f"Unpin medium of link {link_id}"
            )
        elif index.column() == COL_ORDERED:
            text_value = str(value).strip()
            try:
                length = None if text_value == "" else float(text_value)
            except ValueError:
                self.edit_refused.emit(f"{text_value!r} is not a length in metres")
                return False
            if length is not None and not (0 < length <= 1e5):
                self.edit_refused.emit("a length override must be above 0 m")
                return False
            if length == link.length_override_m:
                return False
            new = msgspec.structs.replace(link, length_override_m=length)
            text = (
                f"Override length of link {link_id}"
                if length is not None
                else f"Clear length override of link {link_id}"
            )
        else:
            return False
        error = push(self.stack, UpdateCommand(self.design, "links", [new], text))
        if error:
            self.edit_refused.emit(error)
            return False
        return True

    def sort(self, column: int, order=Qt.AscendingOrder) -> None:
        self.sort_column, self.sort_order = column, order
        self.layoutAboutToBeChanged.emit()
        self._apply()
        self.layoutChanged.emit()

    # ------------------------------------------------------------------ plant following

    def medium_choices(self, view_row: int) -> list[tuple[str, str]]:
        """(media id, label) of the media that can carry this link, "auto" first."""
        link = self.design.links[self.link_id(view_row)]
        pa = self.design.ports(link.a.device)[link.a.port]
        pb = self.design.ports(link.b.device)[link.b.port]
        media = self.plant.media
        cands = media_that_fit(media, pa, pb)
        choices = [("auto", "auto (engine chooses)")]
        choices += [(media[c].id, f"{media[c].name} (≤ {media[c].reach_m:g} m)") for c in cands]
        if link.medium != "auto" and link.medium not in {c for c, _ in choices}:
            choices.append((link.medium, f"{link.medium} (pinned, does not match)"))
        return choices

    def plant_changed(self, changed: set[str] | None = None) -> bool:
        """The plant was refreshed; ``changed`` are the links it reported (None: unknown).

        With no filter and no sort, and the same rows, only the changed rows are repainted;
        otherwise rows may have moved, appeared or gone and the table is rebuilt. True when
        it was rebuilt.
        """
        self._parts = None  # cable parts follow the media: taken again on demand
        plain = (
            changed is not None
            and self.sort_column < 0
            and not any(self.filters.values())
            and len(self.order) == len(self.plant.link_ids)
        )
        if plain and len(changed) > MANY_CHANGED:
            # A tray edit changes a large part of the plant (XL: 259k links along one tray):
            # finding and sorting their rows took ~0.3 s of the GUI thread, where repainting
            # the rows on screen (all the view repaints of one span) takes a few ms.
            last_col = len(COLUMNS) - 1
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.order) - 1, last_col))
            return False
        if plain:
            index = self.plant.index
            rows = sorted(index[i] for i in changed if i in index)
            # One signal per run of adjacent rows, not one from the first to the last: a moved
            # rack's links lie far apart in the table, and the span between them repainted
            # every row on screen (~150 cell reads per edit at XL) when none of them showed.
            runs = _runs(rows)
            if len(runs) > MAX_CHANGED_RUNS:
                runs = [(rows[0], rows[-1])]
            last_col = len(COLUMNS) - 1
            for first, last in runs:
                self.dataChanged.emit(self.index(first, 0), self.index(last, last_col))
            return False
        self.beginResetModel()
        self._apply()
        self.endResetModel()
        return True

    def link_parts(self) -> LinkParts | dict[str, tuple]:
        """Per link: (cable_id, a_cage, b_cage, a_module, b_module, part), from the model's plant."""
        if self._parts is None:
            from model.plant.physical_plant import build_plant

            self._parts = build_plant(self.plant, with_links=True).link_parts
        return self._parts

    def set_filter(self, **filters) -> None:
        self.filters.update(filters)
        self.beginResetModel()
        self._apply()
        self.endResetModel()

    def set_tiers(self, tiers: tuple[list[str], np.ndarray] | None, revision: int) -> None:
        """Take the tier codes the analysis worker computed for design ``revision`` (names,
        code per plant row: ``Analyzer.tier_codes``), so the GUI thread never infers them."""
        if tiers is None or revision != self.design.revision:
            return
        names, codes = tiers
        if len(codes) != len(self.plant.link_ids):
            return
        had = self._tiers is not None
        self._tier_names, self._tiers = list(names), codes
        if not had and len(self.order):
            # Cells shown as pending ("…") while the codes were on their way.
            self.dataChanged.emit(
                self.index(0, COL_TIER), self.index(len(self.order) - 1, COL_TIER)
            )

    def tiers(self) -> np.ndarray:
        """Tier code per plant row (index into ``_tier_names``): the analysis's classification
        (``model.analysis.topology.tier_codes``). Normally handed over by the analysis worker
        (``set_tiers``); computed here, on the calling thread, only when a sort or a filter
        needs them before the worker's result for the current links has arrived."""
        if self._tiers is None or len(self._tiers) != len(self.plant.link_ids):
            topo = infer_topology(self.design)
            index = self.plant.index
            known = [i for i, k in enumerate(topo.link_ids) if k in index]
            rows = np.fromiter((index[topo.link_ids[i]] for i in known), np.int64, len(known))
            link_tier = [topo.link_tier[i] for i in known]
            self._tier_names, self._tiers = tier_codes(
                link_tier, rows, len(self.plant.link_ids), TIER_NAMES
            )
        return self._tiers

    def _apply(self) -> None:
        plant = self.plant
        n = len(plant.link_ids)
        mask = np.ones(n, dtype=bool)
        kind = self.filters["kind"]
        if kind:
            kinds = np.array([medium_group(m.kind) == kind for m in plant.media] + [kind == "none"])
            mask &= kinds[plant.medium_index.astype(np.int64)]  # -1 picks the "none" slot
        tier = self.filters["tier"]
        if tier:
            mask &= self.tiers() == TIER_NAMES.index(tier)  # the first codes are TIER_NAMES
        if self.filters["warning"]:
            mask &= (plant.status & WARNING_BITS) != 0
        rack_text = str(self.filters["rack"]).strip().lower()
        if rack_text:
            racks = [r.id for r in self.design.racks.values() if rack_text in r.name.lower()]
            rows = [plant.index[k] for k in self.design.links_of_racks(racks) if k in plant.index]
            hit = np.zeros(n, dtype=bool)
            hit[np.array(rows, dtype=np.int64)] = True
            mask &= hit
        part_text = str(self.filters["part"]).strip().lower()
        if part_text:
            mask &= self._part_hits(part_text, n)
        rows = np.flatnonzero(mask)
        key = self._sort_key(self.sort_column)
        if key is not None:
            sub = key[rows]
            idx = np.argsort(sub, kind="stable")
            if self.sort_order == Qt.DescendingOrder:
                idx = idx[::-1]
            rows = rows[idx]
        self.order = rows

    def _part_hits(self, text: str, n: int) -> np.ndarray:
        """Plant rows whose module (either end), cable or fibre part number contains ``text``
        (lower case), as the BOM and the schedule show it ("quote" where the catalog's is an
        EST- estimate) or as the catalog names it: matched once per distinct number."""
        parts = self.link_parts()
        hit = np.zeros(n, dtype=bool)
        if isinstance(parts, LinkParts):
            for column in ("a_module", "b_module", "part"):
                names = parts.names(column).tolist()  # ends with "": code -1
                match = np.array([_part_matches(text, x) for x in names], dtype=bool)
                hit[parts.rows[match[parts.codes(column, parts.rows)]]] = True
            return hit
        for link_id, (_cable, _a, _b, mod_a, mod_b, part) in parts.items():
            row = self.plant.index.get(link_id)
            if row is not None and any(_part_matches(text, x) for x in (mod_a, mod_b, part)):
                hit[row] = True
        return hit

    def _sort_key(self, column: int) -> np.ndarray | None:
        plant = self.plant
        if column == COL_SPEED:
            return plant.speed_gbps
        if column == COL_ROUTED:
            return plant.routed_m
        if column == COL_ORDERED:
            return np.nan_to_num(plant.ordered_m, nan=np.inf)
        if column == COL_TIER:
            return self.tiers()
        if column == COL_MEDIUM:
            names = [m.name for m in plant.media]
            rank = np.empty(len(names) + 1, dtype=np.int64)
            rank[:-1] = np.argsort(np.argsort(names))
            rank[-1] = len(names)  # no medium last
            return rank[plant.medium_index.astype(np.int64)]
        if column == COL_REASON:
            return plant.status
        if column in (COL_A, COL_B):
            design = self.design
            racks = design.racks
            names = sorted({r.name for r in racks.values()})
            rank = {name: i for i, name in enumerate(names)}
            end = (lambda link: link.a) if column == COL_A else (lambda link: link.b)
            rack_rank = {d: rank[racks[dev.rack].name] for d, dev in design.devices.items()}
            return np.fromiter(
                (rack_rank[end(design.links[k]).device] for k in plant.link_ids),
                dtype=np.int64,
                count=len(plant.link_ids),
            )
        return None

    def view_rows_of(self, link_ids) -> np.ndarray:
        """View rows showing these links (those filtered out are skipped)."""
        plant_rows = np.array(
            [self.plant.index[k] for k in link_ids if k in self.plant.index], dtype=np.int64
        )
        if not len(plant_rows):
            return plant_rows
        position = np.full(len(self.plant.link_ids), -1, dtype=np.int64)
        position[self.order] = np.arange(len(self.order))
        found = position[plant_rows]
        return np.sort(found[found >= 0])


def _metres(x: float) -> str:
    return "—" if not math.isfinite(float(x)) else f"{x:,.2f}"


def _runs(rows: list[int]) -> list[tuple[int, int]]:
    """(first, last) of each run of consecutive numbers in the sorted ``rows``."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and row == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


def _part_matches(text: str, number: str) -> bool:
    """``text`` (lower case) in the number as shown (``row_number``) or as the catalog has it:
    "quote" finds every estimated part, "lacc" or "est-" the estimated ones among them."""
    return text in row_number(number).lower() or text in number.lower()
