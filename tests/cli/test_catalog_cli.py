"""``main.py catalog``: the NIC types and laser sources of issue 39 are listed."""

from __future__ import annotations

from cli.catalog_command import lines
from model.catalog.components import builtin_catalog


def test_catalog_command_lists_nics_and_laser_sources():
    cat = builtin_catalog()
    text = "\n".join(lines(cat, ("nics", "laser-sources", "devices")))
    assert "connectx-8\tNVIDIA ConnectX-8 SuperNIC" in text
    assert "1×800G infiniband; 2×400G ethernet" in text
    assert "q3450-els\tEST-Q3450-ELS\t8 lasers" in text
    assert "18 × q3450-els" in text
