"""The inspector's structured-cabling rows: a link's channel view and its "Via panels" field,
and the form of a selected trunk. A mixin of :class:`gui.panels.inspector.InspectorPanel` (it
uses the panel's form helpers: ``_info``, ``_text``, ``_push``, ``_refuse``); every figure is
the model's (:func:`model.channel_view.channel_view`, the scene's structured layout)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from gui.panel_commands import RouteViaCommand
from gui.panels.channel_view import ChannelTree, budget_lines
from gui.plain_text import plain_labels
from model.channel_view import channel_view
from model.design import DesignError
from model.panel_routes import panel_names_to_ids, via_text


class StructuredForms:
    def _channel_rows(self, link_id: str) -> None:
        """The link's optical channel: its segments, loss, limit, margin and polarity."""
        layout = self.scene.trunk_layer.layout()
        channel = layout.channels.get(link_id) if layout is not None else None
        if channel is None:
            return
        view = channel_view(self.scene.design, channel, layout=layout)
        heading = QLabel(f"Channel ({channel.style}, {len(channel.elements)} segments)")
        plain_labels(heading)
        heading.setStyleSheet("font-weight: 600; padding-top: 6px;")
        self.form.addRow(heading)
        tree = ChannelTree(view, self.scene.channel_focus)
        tree.element_activated.connect(self._select_element)
        self.fields["channel"] = tree
        self.form.addRow(tree)
        for label, text in budget_lines(view):
            self._info(label, text)

    def _via_row(self, link) -> None:
        """The panels the link passes, by name (A end to B end); blank = automatic."""
        design = self.scene.design

        def apply(text: str) -> None:
            try:
                via = panel_names_to_ids(design, text)
            except DesignError as exc:
                return self._refuse(str(exc))
            if via != link.via:
                self._push(RouteViaCommand(design, {link.id: via}))

        edit = self._text("via", "Via panels", [via_text(design, link.id)], apply)
        edit.setPlaceholderText("automatic (the cabling style's panels)")
        edit.setToolTip("Panel names, A end to B end, separated by commas")

    def _select_element(self, object_id: str) -> None:
        """A channel segment double-clicked: its trunk, or the rack holding its panel."""
        place = self.scene.trunk_layer.plan_objects().get(object_id)
        if place is None or place.kind == "cord":
            return
        self.scene.select_ids([object_id if place.kind == "trunk" else place.rack_id])

    def _trunk_form(self, trunk_ids) -> None:
        layout = self.scene.trunk_layer.layout()
        trunks = [t for t in layout.trunks if t.id in set(trunk_ids)] if layout else []
        design = self.scene.design
        self.title.setText(f"Trunk {trunks[0].id}" if len(trunks) == 1 else f"{len(trunks)} trunks")
        for trunk in trunks[:1] if len(trunks) == 1 else []:
            racks = design.racks
            self._info("Between", f"{racks[trunk.rack_a].name} and {racks[trunk.rack_b].name}")
            self._info("Part", trunk.part or "none orderable")
            self._info("Length", f"{trunk.ordered_m:g} m ordered, {trunk.length_m:.2f} m needed")
            self._info("Legs", f"{trunk.legs} MPO leg(s) of {trunk.fibres} fibres in all")
            links = list(dict.fromkeys(trunk.links))
            self._info("Channels", ", ".join(design.links[i].label or i for i in links))
