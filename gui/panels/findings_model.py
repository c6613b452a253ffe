"""FindingsModel: every finding (analysis warnings, cabling check, measured lengths) as a table
model over arrays, filtered by severity, code and fabric.

Why arrays: an XL hall checked against its report can hold 60k findings; a QTableView asks only
for the rows it paints, and a filter is one numpy mask, so the list never builds an item per
finding (the warnings tree did, and stopped at 500 per group).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QColor

from gui.plain_text import tooltip
from model.common.findings import SEVERITY_ORDER, Finding

COLUMNS = ("Severity", "Code", "Fabric", "Finding", "Objects")
SEVERITY_NAMES = tuple(sorted(SEVERITY_ORDER, key=SEVERITY_ORDER.__getitem__))
SEVERITY_COLORS = {"error": "#c92a2a", "warning": "#b35c00", "info": "#1c7ed6"}
ALL = ""  # the filter value that lets every row through
NO_FABRIC = "(none)"  # the fabric filter's name for findings outside every fabric
OBJECTS_SHOWN = 4
_SEVERITY, _CODE = attrgetter("severity"), attrgetter("code")


class FindingsModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.findings: list[Finding] = []
        self.fabrics: list[str] = []  # one per finding, "" when none
        self.codes: list[str] = []  # distinct codes, sorted
        self.fabric_names: list[str] = []  # distinct fabrics, sorted
        self._severity = np.zeros(0, np.int8)
        self._code = np.zeros(0, np.int32)
        self._fabric = np.zeros(0, np.int32)
        self.rows = np.zeros(0, np.int64)  # indices into ``findings`` shown, in order
        self.filters = (ALL, ALL, ALL)  # severity, code, fabric
        self.name: Callable[[str], str] = lambda object_id: object_id

    # ------------------------------------------------------------------ contents

    def set_findings(self, findings: Sequence[Finding], fabrics: Sequence[str]) -> None:
        """Show ``findings`` (errors first, then by code, order kept within a code) with the
        fabric of each; the filters stay as they were."""
        n = len(findings)
        severity = np.fromiter(
            map(SEVERITY_ORDER.__getitem__, map(_SEVERITY, findings)), np.int8, n
        )
        codes = list(map(_CODE, findings))
        self.codes = sorted(set(codes))
        code_index = {c: i for i, c in enumerate(self.codes)}
        code = np.fromiter(map(code_index.__getitem__, codes), np.int32, n)
        order = np.lexsort((np.arange(len(findings)), code, severity))
        self.beginResetModel()
        self.findings = [findings[i] for i in order.tolist()]
        self.fabrics = [fabrics[i] for i in order.tolist()]
        self.fabric_names = sorted(set(self.fabrics) - {""})
        fabric_index = {f: i for i, f in enumerate(self.fabric_names)}
        fabric_index[""] = -1
        self._severity, self._code = severity[order], code[order]
        self._fabric = np.fromiter(map(fabric_index.__getitem__, self.fabrics), np.int32, n)
        self.rows = self._filtered()
        self.endResetModel()

    def set_filters(self, severity: str = ALL, code: str = ALL, fabric: str = ALL) -> None:
        self.beginResetModel()
        self.filters = (severity, code, fabric)
        self.rows = self._filtered()
        self.endResetModel()

    def _filtered(self) -> np.ndarray:
        severity, code, fabric = self.filters
        keep = np.ones(len(self.findings), bool)
        if severity:
            keep &= self._severity == SEVERITY_ORDER.get(severity, -1)
        if code:
            keep &= self._code == (self.codes.index(code) if code in self.codes else -2)
        if fabric == NO_FABRIC:
            keep &= self._fabric == -1
        elif fabric:
            wanted = self.fabric_names.index(fabric) if fabric in self.fabric_names else -2
            keep &= self._fabric == wanted
        return np.flatnonzero(keep)

    def finding(self, row: int) -> Finding:
        return self.findings[int(self.rows[row])]

    def fabric(self, row: int) -> str:
        return self.fabrics[int(self.rows[row])]

    def counts(self) -> dict[str, int]:
        """Shown findings per severity."""
        shown = self._severity[self.rows]
        return {name: int(np.count_nonzero(shown == i)) for i, name in enumerate(SEVERITY_NAMES)}

    def table_rows(self) -> list[tuple[str, str, str, str, str]]:
        """The shown rows as text, every object named: what Export writes."""
        out = []
        for row in range(len(self.rows)):
            f = self.finding(row)
            names = "; ".join(map(self.name, f.objects))
            out.append((f.severity, f.code, self.fabric(row), f.message, names))
        return out

    # ------------------------------------------------------------------ QAbstractTableModel

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation, role=Qt.DisplayRole):
        if orientation == Qt.Horizontal and role == Qt.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex, role=Qt.DisplayRole):
        if not index.isValid():
            return None
        f = self.finding(index.row())
        column = index.column()
        if role == Qt.ToolTipRole:
            # Messages and object names quote user strings: a tooltip is rich text by guess,
            # so it shows them escaped (gui.plain_text).
            return tooltip(self.data(index, Qt.DisplayRole))
        if role == Qt.DisplayRole:
            if column == 0:
                return f.severity
            if column == 1:
                return f.code
            if column == 2:
                return self.fabric(index.row())
            if column == 3:
                return f.message
            names = ", ".join(map(self.name, f.objects[:OBJECTS_SHOWN]))
            return names + (" …" if len(f.objects) > OBJECTS_SHOWN else "")
        if role == Qt.ForegroundRole and column == 0:
            return QColor(SEVERITY_COLORS.get(f.severity, "#333333"))
        return None
