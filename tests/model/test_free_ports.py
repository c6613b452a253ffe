"""The generator's free ports (model.generators.leaf_spine.FreePorts): each device's own lists,
handed out in port order by role, whatever other devices of its kind were added before."""

from __future__ import annotations

import pytest

from model.catalog.components import builtin_catalog
from model.catalog.ports import port_table
from model.generators.leaf_spine import FreePorts
from model.generators.plans import GenerateError


def test_devices_of_one_kind_have_their_own_free_ports_in_table_order():
    catalog = builtin_catalog()
    ports = FreePorts(catalog)
    for leaf in ("leaf1", "leaf2"):
        ports.add(leaf, "qm9700")
    table = port_table(catalog.device_types["qm9700"])
    compute = [name for name, info in table.items() if info.role == "compute"]
    ports.use("leaf1", compute[5])
    assert ports.take("leaf1", "compute", 2) == compute[:2]
    # leaf2 shares no list with leaf1 (the names per kind are kept once, copied per device).
    assert ports.count("leaf2", "compute") == len(compute)
    assert ports.take("leaf2", "compute") == compute[:1]
    assert ports.count("leaf1", "compute") == len(compute) - 3
    assert sum(ports.count("leaf1", role) for role in {i.role for i in table.values()}) == (
        len(table) - 3
    )
    with pytest.raises(GenerateError, match="leaf2 has no free compute port left"):
        ports.take("leaf2", "compute", len(compute))


def test_a_breakout_gives_the_ports_it_runs():
    catalog = builtin_catalog()
    ports = FreePorts(catalog)
    ports.add("sw1", "sn5600")
    ports.add("sw2", "sn5600", {"p": 2})
    plain = port_table(catalog.device_types["sn5600"])
    split = port_table(catalog.device_types["sn5600"], {"p": 2})
    assert ports.tables["sw1"] is plain and ports.tables["sw2"] is split
    role = plain["p2"].role
    assert ports.count("sw2", role) == sum(1 for i in split.values() if i.role == role)
    assert ports.count("sw2", role) == 2 * ports.count("sw1", role)  # each port split in two
    assert ports.take("sw2", role, 2) == list(split)[:2] != list(plain)[:2]
