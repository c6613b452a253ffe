"""The panels-only layout (what ``generate --cabling`` and the rack elevations ask for) gives the
full layout's own panel figures: virtual panels, use of the placed panels, cassettes and the
PANELS_NOT_PLACED findings, before and after the panels are placed, in every structured style."""

from __future__ import annotations

import pytest

from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.structured.layout import place_panels, set_cabling, structured_layout


def _panel_figures(layout):
    return (layout.virtual_panels, layout.panel_use, layout.cassettes, layout.findings)


@pytest.mark.parametrize("style", ["cross-connect", "zones"])
@pytest.mark.parametrize(
    "template, params",
    [
        ("rail-optimized", dict(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)),
        (
            "rail-optimized",
            dict(nodes=64, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=32),
        ),
        ("nvl72", dict(racks=4)),
    ],
)
def test_panels_only_gives_the_full_layouts_panel_figures(style, template, params):
    design = generate(template, **params)
    set_cabling(design, style)
    full = structured_layout(RoutedLinks(design))
    assert full.virtual_panels  # nothing placed yet: every panel is virtual
    assert _panel_figures(structured_layout(RoutedLinks(design), panels_only=True)) == (
        _panel_figures(full)
    )
    assert place_panels(design) > 0
    full = structured_layout(RoutedLinks(design))
    assert full.panel_use
    only = structured_layout(RoutedLinks(design), panels_only=True)
    assert _panel_figures(only) == _panel_figures(full)
    assert not only.channels and not only.trunks and not only.cords  # nothing else made
