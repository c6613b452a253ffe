"""The inspector's structured-cabling rows: a link's channel view and its "Via panels" field,
and the form of a selected trunk. A mixin of :class:`gui.panels.inspector.InspectorPanel` (it
uses the panel's form helpers: ``_info``, ``_text``, ``_push``, ``_refuse``); every figure is
the model's (:func:`model.structured.channel_view.channel_view`, the scene's structured layout)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton

from gui.edit.panel_commands import PolarityRecordCommand, RouteViaCommand, SetPolarityCommand
from gui.panels.channel_view import ChannelTree, budget_lines
from gui.plain_text import plain_labels
from model.design.design import DesignError
from model.structured.channel_view import channel_view, parts_text, trunk_part_text
from model.structured.link_polarity import parse_polarity_text, polarity_fix, polarity_text
from model.structured.panel_routes import panel_names_to_ids, via_text


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
        self._polarity_row(self.scene.design.links[link_id])
        fix = polarity_fix(channel)
        if fix is not None:  # the check names one element to change: offer to record it
            key, value, words = fix
            button = QPushButton("Fix polarity")
            button.setToolTip(f"{words[0].upper()}{words[1:]} (one undo step)")
            button.clicked.connect(
                lambda _on=False: self._push(
                    SetPolarityCommand(
                        self.scene.design, link_id, key, value, f"Fix polarity of {link_id}"
                    )
                )
            )
            self.fields["fix_polarity"] = button
            self.form.addRow(QLabel(words[0].upper() + words[1:]), button)

    def _channel_cable_row(self, link_id: str) -> bool:
        """The "Cable" line of a link through panels: its channel's parts (cords, panels or
        cassettes, trunks), not the direct fibre it no longer orders. False: not paneled."""
        layout = self.scene.trunk_layer.layout()
        channel = layout.channels.get(link_id) if layout is not None else None
        if channel is None or not channel.panels:
            return False
        view = channel_view(self.scene.design, channel, layout=layout)
        self._info("Cable", f"channel of {channel.panels} patch points: {parts_text(view)}")
        return True

    def _polarity_row(self, link) -> None:
        """What is installed where it differs from the style's polarity ("trunk-1 A, cord-2
        AA"; blank: as laid out), so the check runs on the channel as built."""

        def apply(text: str) -> None:
            try:
                record = parse_polarity_text(link.id, text)
            except DesignError as exc:
                return self._refuse(str(exc))
            if record != link.polarity:
                self._push(PolarityRecordCommand(self.scene.design, link.id, record))

        edit = self._text("polarity", "Installed polarity", [polarity_text(link.polarity)], apply)
        edit.setPlaceholderText("as laid out (the cabling style's polarity)")
        edit.setToolTip(
            "Elements installed differently from the layout, e.g. trunk-1 A, cord-2 AA, "
            "cassette-2 A@3 (cords, cassettes and trunks counted from the A end)"
        )

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
            self._info("Part", trunk_part_text(trunk))
            self._info("Length", f"{trunk.ordered_m:g} m ordered, {trunk.length_m:.2f} m needed")
            self._info("Legs", f"{trunk.legs} MPO leg(s) of {trunk.fibres} fibres in all")
            links = list(dict.fromkeys(trunk.links))
            self._info("Channels", ", ".join(design.links[i].label or i for i in links))
