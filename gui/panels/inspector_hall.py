"""HallForms: the inspector's forms for trays, obstacles and the design itself (nothing selected).

A mixin of :class:`gui.panels.inspector.InspectorPanel`, which provides the field builders
(``_text``, ``_number``, ``_combo``, ``_info``) and ``_replace`` / ``_push``; every edit is an
undo command through them. Figures (tray length) come from the model.
"""

from __future__ import annotations

import msgspec

from gui.actions.structured import CablingStyleCommand, style_words
from gui.canvas.obstacle_interaction import KINDS
from gui.edit.commands import ObstaclesCommand
from model.common.wording import count
from model.design.underlay import PDF_POINT_M
from model.files.underlay_file import UnderlayState
from model.plant.tray_products import polyline_length_m
from model.structured.layout import CABLING_STYLES

CUSTOM = "\0custom"  # the product row's entry for a width and depth no product has


def _length_text(tray) -> str:
    """The tray form's length line."""
    pts = tray.points
    return f"{polyline_length_m(pts):.2f} m, {len(pts)} corners"


def _without_corners(trays) -> tuple:
    """The trays' records but their corners: what the tray form shows besides the length."""
    return tuple(msgspec.structs.replace(t, points=[]) for t in trays)


class HallForms:
    def _tray_form(self, trays) -> None:
        design = self.scene.design
        self.title.setText(
            f"Tray {trays[0].name or trays[0].id}" if len(trays) == 1 else f"{len(trays)} trays"
        )
        self._text(
            "name", "Name", [t.name for t in trays], lambda n: self._replace("trays", trays, name=n)
        )
        self._number(
            "width",
            "Width",
            [t.width_m for t in trays],
            lambda v: self._replace("trays", trays, width_m=v),
            lo=0.05,
            hi=5,
            suffix=" m",
            step=0.05,
        )
        self._number(
            "depth",
            "Depth",
            [t.depth_m for t in trays],
            lambda v: self._replace("trays", trays, depth_m=v),
            lo=0.05,
            hi=2,
            suffix=" m",
            step=0.05,
        )
        self._product_row(trays)
        default = design.hall.tray_elevation_m
        elevations = [t.elevation_m if t.elevation_m is not None else default for t in trays]
        self._number(
            "elevation",
            "Elevation",
            elevations,
            lambda v: self._replace(
                "trays", trays, elevation_m=None if abs(v - default) < 1e-9 else v
            ),
            lo=-5,
            hi=20,
            suffix=" m",
            step=0.1,
        )
        length = self._info("Length", _length_text(trays[0])) if len(trays) == 1 else None
        self._tray_shown = (_without_corners(trays), design.hall, design.catalog, length)

    def _tray_corners_only(self, trays) -> bool:
        """True when the tray form on show is of ``trays`` as they are but for their corners
        (a corner dragged, an undo of one): its length line is then set anew, the rest kept.
        Every edit made the form again (~3 ms of Python and a Qt layout at each drop of a
        corner, on the GUI thread before the analysis job could take its snapshot)."""
        shown, design = self._tray_shown, self.scene.design
        if (
            shown is None
            or shown[1] is not design.hall  # the default elevation
            or shown[2] is not design.catalog  # the tray products
            or shown[0] != _without_corners(trays)
        ):
            return False
        if shown[3] is not None:
            shown[3].setText(_length_text(trays[0]))
        return True

    def _product_row(self, trays) -> None:
        """The catalog tray product of the trays' cross-section; choosing one sets width and
        depth to that product's (the BOM counts products from width and depth)."""
        products = sorted(
            self.scene.design.catalog.tray_products.values(), key=lambda p: (p.width_m, p.depth_m)
        )
        if not products:
            return

        def product_of(tray) -> str:
            return next(
                (
                    p.id
                    for p in products
                    if abs(p.width_m - tray.width_m) < 1e-9 and abs(p.depth_m - tray.depth_m) < 1e-9
                ),
                CUSTOM,
            )

        options = [(p.description.split(",")[0], p.id) for p in products] + [
            ("custom size (width and depth below)", CUSTOM)
        ]

        def choose(product_id: str) -> None:
            if product_id == CUSTOM:
                return
            product = self.scene.design.catalog.tray_products[product_id]
            self._replace("trays", trays, width_m=product.width_m, depth_m=product.depth_m)

        self._combo("product", "Product", options, [product_of(t) for t in trays], choose)

    def _obstacle_form(self, ids: list[str]) -> None:
        design = self.scene.design
        chosen = [o for o in design.hall.obstacles if o.id in ids]
        self.title.setText(
            f"Obstacle {chosen[0].name or chosen[0].id}"
            if len(chosen) == 1
            else f"{len(chosen)} obstacles"
        )

        def edit(**changes) -> None:
            wanted = {o.id for o in chosen}
            new = [
                msgspec.structs.replace(o, **changes) if o.id in wanted else o
                for o in design.hall.obstacles
            ]
            if new != design.hall.obstacles:
                what = "obstacle" if len(chosen) == 1 else "obstacles"
                self._push(ObstaclesCommand(design, new, f"Edit {what}"))

        self._text("name", "Name", [o.name for o in chosen], lambda n: edit(name=n))
        self._combo(
            "kind",
            "Kind",
            [(words, k) for k, words in KINDS],
            [o.kind for o in chosen],
            lambda k: edit(kind=k),
        )
        # Height: 0 on the spin box is None in the model, an obstacle from floor to ceiling
        # (a column); a CRAH or CDU unit has a top that an overhead tray clears.
        heights = [o.height_m or 0.0 for o in chosen]
        spin = self._number(
            "height",
            "Height",
            heights,
            lambda v: edit(height_m=v if v > 0 else None),
            lo=0.0,
            hi=50.0,
            suffix=" m",
            step=0.1,
        )
        if len(set(heights)) == 1:
            spin.setSpecialValueText("floor to ceiling")
        if len(chosen) == 1:
            xs = [p[0] for p in chosen[0].polygon]
            ys = [p[1] for p in chosen[0].polygon]
            self._info(
                "Extent",
                f"{max(xs) - min(xs):.2f} × {max(ys) - min(ys):.2f} m, {len(xs)} corners",
            )

    def _underlay_info(self) -> None:
        """The building's drawing: its file, scale and layers, and whether it is found."""
        underlay = self.scene.design.hall.underlay
        if underlay is None:
            return
        if underlay.kind == "pdf":  # a printed plan's scale is read as a ratio (1:100)
            ratio = underlay.scale_m / PDF_POINT_M
            words = (
                f"{underlay.path}, page {underlay.page}: 1:{ratio:.4g} on paper "
                f"({underlay.scale_m * 1000:.4g} mm a point)"
            )
        else:
            layers = ", ".join(underlay.layers) if underlay.layers else "all layers"
            unit = "pixel" if underlay.kind == "image" else "drawing unit"
            words = f"{underlay.path}: {underlay.scale_m * 1000:.4g} mm a {unit}; {layers}"
        if underlay.rotation_deg:
            words += f"; turned {underlay.rotation_deg:g}° clockwise"
        sentence = self.scene.underlay.sentence
        if self.scene.underlay.state in (UnderlayState.MISSING, UnderlayState.CHANGED):
            words += f". {sentence}"
        self._info("Underlay", words)

    def _design_form(self) -> None:
        design = self.scene.design
        self.title.setText(design.name)
        xs = [p[0] for p in design.hall.outline]
        ys = [p[1] for p in design.hall.outline]
        self._info(
            "Hall",
            f"{max(xs) - min(xs):.1f} × {max(ys) - min(ys):.1f} m, "
            f"tiles {design.hall.tile_m:g} m, trays at {design.hall.tray_elevation_m:g} m",
        )
        self._info(
            "Contents",
            f"{count(len(design.racks), 'rack')}, {count(len(design.devices), 'device')}, "
            f"{count(design.gpu_count(), 'GPU')}, {count(len(design.links), 'link')}, "
            f"{count(len(design.trays), 'tray')}",
        )
        self._underlay_info()
        self._combo(
            "cabling",
            "Cabling style",
            [(style_words(s), s) for s in CABLING_STYLES],
            [design.settings.cabling],
            lambda s: (
                self._push(CablingStyleCommand(design, s)) if s != design.settings.cabling else None
            ),
        )
        self._info(
            "Tip",
            "Select racks, trays or links to edit them; double-click a rack for its elevation.",
        )
