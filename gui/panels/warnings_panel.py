"""WarningsPanel: the analysis findings grouped by severity, then code, with counts per group.

Clicking a finding emits ``objects_chosen`` with the ids of its objects; the dock wiring selects
and centres them on the canvas. Large groups list their first ``GROUP_LIMIT`` findings only.
"""

from __future__ import annotations

from collections import defaultdict

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from gui.plain_text import plain_labels, tooltip
from model.common.findings import SEVERITY_ORDER, Finding

GROUP_LIMIT = 500
SEVERITY_COLORS = {"error": "#c92a2a", "warning": "#b35c00", "info": "#1c7ed6"}
OBJECTS_ROLE = Qt.UserRole + 1


class WarningsPanel(QWidget):
    objects_chosen = Signal(tuple)  # ids of the clicked finding's objects

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.summary = QLabel("No analysis yet.")
        plain_labels(self.summary)
        self.summary.setStyleSheet("color: #555; padding: 2px 4px;")
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Finding", "Objects"])
        self.tree.setColumnWidth(0, 520)
        self.tree.setUniformRowHeights(True)
        self.tree.setWordWrap(False)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemActivated.connect(self._clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree)
        self.findings: list[Finding] = []

    def set_stale(self) -> None:
        self.summary.setText(self.summary.text().split(" ⟳")[0] + " ⟳ recomputing…")

    def set_findings(self, findings: list[Finding], name=lambda object_id: object_id) -> None:
        """Show these findings (``name`` turns an object id into the label shown); groups that
        were open stay open."""
        expanded = {
            self._key(self.tree.topLevelItem(i).child(j))
            for i in range(self.tree.topLevelItemCount())
            for j in range(self.tree.topLevelItem(i).childCount())
            if self.tree.topLevelItem(i).child(j).isExpanded()
        }
        self.findings = list(findings)
        groups: dict[str, dict[str, list[Finding]]] = defaultdict(lambda: defaultdict(list))
        for f in findings:
            groups[f.severity][f.code].append(f)
        self.tree.setUpdatesEnabled(False)
        self.tree.clear()
        for severity in sorted(groups, key=lambda s: SEVERITY_ORDER.get(s, 9)):
            codes = groups[severity]
            total = sum(len(v) for v in codes.values())
            top = QTreeWidgetItem([f"{severity.capitalize()}s ({total:,})", ""])
            top.setForeground(0, QBrush(QColor(SEVERITY_COLORS.get(severity, "#333"))))
            font = top.font(0)
            font.setBold(True)
            top.setFont(0, font)
            self.tree.addTopLevelItem(top)
            for code in sorted(codes):
                items = codes[code]
                group = QTreeWidgetItem([f"{code} ({len(items):,})", ""])
                group.setData(0, OBJECTS_ROLE, tuple(o for f in items for o in f.objects))
                top.addChild(group)
                for f in items[:GROUP_LIMIT]:
                    child = QTreeWidgetItem(
                        [
                            f.message,
                            ", ".join(map(name, f.objects[:4]))
                            + (" …" if len(f.objects) > 4 else ""),
                        ]
                    )
                    child.setToolTip(0, tooltip(f.message))
                    child.setData(0, OBJECTS_ROLE, tuple(f.objects))
                    group.addChild(child)
                if len(items) > GROUP_LIMIT:
                    group.addChild(QTreeWidgetItem([f"… {len(items) - GROUP_LIMIT:,} more", ""]))
                group.setExpanded(self._key(group) in expanded or len(items) <= 3)
            top.setExpanded(True)
        self.tree.setUpdatesEnabled(True)
        errors = sum(1 for f in findings if f.severity == "error")
        self.summary.setText(
            f"{len(findings):,} findings, {errors:,} errors"
            if findings
            else "No warnings: the design passes every check."
        )

    @staticmethod
    def _key(item: QTreeWidgetItem) -> str:
        return item.text(0).split(" (")[0]

    def _clicked(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        ids = item.data(0, OBJECTS_ROLE)
        if ids:
            self.objects_chosen.emit(tuple(ids))
