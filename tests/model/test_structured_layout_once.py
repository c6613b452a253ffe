"""A command that builds two physical plants of one zoned design lays its structured layout out
once: ``build_plant(layout=...)`` takes the caller's, and the XLSX BOM's two halves (the forked
BOM half and the schedule half) share the one laid out before the fork."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

import model.plant.structured as plant_structured
import model.runtime.forked_call as forked_call
import model.structured.layout as layout_module
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.outputs.bom_files import export_bom
from model.plant.physical_plant import build_plant
from tests.model.zoned_halls import zoned_fat_tree_file


@pytest.fixture(scope="module")
def zoned(tmp_path_factory) -> Path:
    return zoned_fat_tree_file(tmp_path_factory)


def _counting(monkeypatch) -> list[int]:
    """Counts every structured layout laid out, wherever it is asked for."""
    calls: list[int] = []
    real = layout_module.structured_layout

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(layout_module, "structured_layout", counted)
    monkeypatch.setattr(plant_structured, "structured_layout", counted)
    return calls


def test_build_plant_uses_the_layout_it_is_given(zoned, monkeypatch):
    plant = RoutedLinks(load_design(zoned))
    given = layout_module.structured_layout(plant)
    calls = _counting(monkeypatch)
    phys = build_plant(plant, with_links=True, layout=given)
    assert phys.structured is given and not calls
    assert len(given.channels.structured) > 0  # the design has channels through panels
    assert build_plant(plant).structured is not given and calls == [1]


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as book:
        return {n: book.read(n) for n in book.namelist() if n != "docProps/core.xml"}


def test_the_two_halves_of_the_workbook_share_one_layout(zoned, tmp_path, monkeypatch):
    design = load_design(zoned)
    plant = RoutedLinks(design)
    alone = tmp_path / "alone.xlsx"
    export_bom(alone, design, plant, fork=False)
    calls = _counting(monkeypatch)
    # The "forked" half run in this process (what the child runs, without a fork), so each
    # layout either half lays out is counted here.
    real_call = forked_call.ForkedCall
    monkeypatch.setattr(forked_call, "can_fork", lambda: True)
    monkeypatch.setattr(forked_call, "ForkedCall", lambda fn, fork: real_call(fn, fork=False))
    halves = tmp_path / "halves.xlsx"
    export_bom(halves, design, plant, fork=True)
    assert calls == [1]
    assert _members(halves) == _members(alone)
