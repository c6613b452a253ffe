"""The cage graph of all a plant's rows reads the cage ranks the plant's component graph made
(model.plant.tally.cage_graph with CageView.ranks): the same graph as ranking them again."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from model.engine.cages import cage_view
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.plant.tally import cage_graph

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "superpod-4su.hall.json"


def _same(a, b) -> None:
    """Every array of two cage graphs equal (fields that are pairs of arrays, pair by pair)."""
    for field in dataclasses.fields(a):
        x, y = getattr(a, field.name), getattr(b, field.name)
        pairs = zip(x, y, strict=True) if isinstance(x, tuple) else [(x, y)]
        assert all(np.array_equal(p, q) for p, q in pairs)


def test_the_plant_s_ranks_give_the_graph_a_fresh_ranking_gives():
    design = load_design(EXAMPLE)
    plant = RoutedLinks(design)
    plant.refresh()
    for step in range(3):
        view = cage_view(plant)
        assert view.ranks is not None
        rows = np.arange(len(view.cage_a))
        _same(cage_graph(view, rows), cage_graph(dataclasses.replace(view, ranks=None), rows))
        # Edits that renumber rows and change cages: links removed, then a rack moved
        if step == 0:
            design.remove_links(list(design.links)[::7])
        else:
            rack = next(iter(design.racks.values()))
            design.move_racks({rack.id: (rack.x + 0.6, rack.y)})
        plant.refresh()
