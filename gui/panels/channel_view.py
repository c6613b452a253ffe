"""The inspector's channel view: a link's optical channel, one row per segment, and its budget.

Everything shown is the model's (:func:`model.structured.channel_view.channel_view`): each element with
its part, length, connectors, polarity and share of the loss; then total loss, limit, margin,
the panel rule and the polarity verdict naming the element to change. Rows of the elements a
chosen warning names are marked, and the element to change is flagged in red. Double-clicking
a trunk or a panel's row selects it (or its rack) on the plan.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem

from gui.plain_text import tooltip
from model.structured.channel_view import KIND_WORDS, ChannelView

OBJECT_ROLE = Qt.UserRole + 1
FIX_COLOR = "#c92a2a"
FOCUS_COLOR = "#fff3bf"


class ChannelTree(QTreeWidget):
    """Segments of one channel: element, length and loss, with part, connectors and polarity
    as each segment's child rows."""

    element_activated = Signal(str)  # a segment's element id (double-click)

    def __init__(self, view: ChannelView, focus: set[str] | frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.setObjectName("channel_view")
        self.setColumnCount(3)
        self.setHeaderLabels(["Segment", "Length", "Loss"])
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setSelectionMode(QAbstractItemView.SingleSelection)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeToContents)
        self.segment_items: list[QTreeWidgetItem] = []
        for row in view.rows:
            item = QTreeWidgetItem(
                [
                    f"{row.index + 1}. {KIND_WORDS[row.kind]} {row.name}",
                    f"{row.length_m:g} m" if row.kind in ("cord", "trunk") else "",
                    f"{row.loss_db:.3f} dB",
                ]
            )
            item.setData(0, OBJECT_ROLE, row.object_id)
            item.setTextAlignment(1, Qt.AlignRight | Qt.AlignVCenter)
            item.setTextAlignment(2, Qt.AlignRight | Qt.AlignVCenter)
            font = QFont(item.font(0))
            font.setBold(True)
            item.setFont(0, font)
            details = [f"Where {row.place}"] if row.place else []
            details += [
                f"Part {row.part or '(none orderable)'}: {row.description}",
                f"Connectors {row.connectors}",
                f"Polarity {row.polarity}",
                f"Loss {row.loss_text}",
            ]
            if row.change:
                details.append(f"Change: {row.change}")
            for text in details:
                child = QTreeWidgetItem([text, "", ""])
                child.setFirstColumnSpanned(True)
                child.setData(0, OBJECT_ROLE, row.object_id)
                child.setToolTip(0, tooltip(text))
                if text.startswith("Change:"):
                    child.setForeground(0, QBrush(QColor(FIX_COLOR)))
                item.addChild(child)
            if row.change:
                item.setForeground(0, QBrush(QColor(FIX_COLOR)))
                item.setToolTip(0, tooltip(f"The element to change: {row.change}"))
            if row.object_id in focus:
                for column in range(3):
                    item.setBackground(column, QBrush(QColor(FOCUS_COLOR)))
            self.addTopLevelItem(item)
            item.setExpanded(True)
            item.setFirstColumnSpanned(False)
            self.segment_items.append(item)
        self.itemDoubleClicked.connect(
            lambda item, _col: self.element_activated.emit(item.data(0, OBJECT_ROLE))
        )
        rows = sum(1 + it.childCount() for it in self.segment_items)
        self.setFixedHeight(self.header().sizeHint().height() + rows * self.sizeHintForRow(0) + 6)

    def segment_texts(self) -> list[list[str]]:
        """Each segment's row and its detail rows as text (what a person reads; for tests)."""
        return [
            [item.text(0)] + [item.child(i).text(0) for i in range(item.childCount())]
            for item in self.segment_items
        ]


def budget_lines(view: ChannelView) -> list[tuple[str, str]]:
    """(label, text) of the channel's totals, for the inspector's form."""
    budget, channel = view.budget, view.channel
    pairs = len(budget.mated_pairs)
    lines = [
        (
            "Channel loss",
            f"{budget.loss_db:.3f} dB = {pairs} mated pair{'s' * (pairs != 1)} "
            f"{budget.connectors_db:.3f} dB + {channel.length_m:g} m fibre {budget.fibre_db:.3f} dB",
        ),
        (
            "Limit",
            f"{budget.limit_db:.2f} dB ({channel.medium})"
            if budget.limit_db is not None
            else f"none in the catalog for {channel.medium}",
        ),
    ]
    if budget.margin_db is not None:
        verdict = "over budget" if budget.over_budget else "within budget"
        lines.append(("Margin", f"{budget.margin_db:+.3f} dB, {verdict}"))
    lines.append(("Panels", view.panel_rule))
    if view.length_text:
        lines.append(("Length", view.length_text))
    lines.append(("Polarity", view.polarity_text))
    return lines
