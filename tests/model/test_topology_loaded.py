"""The topology of a just-loaded design, read from the loader's end codes, equals the one read
from the link records (what every edited design uses)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from model.analysis.topology import infer_topology
from model.design.bulk_load import loaded_link_codes
from model.files.design_file import design_to_bytes, read_design_bytes
from model.generators.generate import generate
from tests.benchmarks.workloads import build

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "resources" / "examples").glob("*.json"))


def _designs():
    yield from (pytest.param(p.read_bytes(), id=p.name) for p in EXAMPLES)
    yield pytest.param(design_to_bytes(build("L")), id="L")
    nvl72 = generate("nvl72", racks=4, fabrics="all")
    yield pytest.param(design_to_bytes(nvl72), id="nvl72-all-fabrics")


@pytest.mark.parametrize("data", list(_designs()))
def test_topology_from_the_loaders_codes_equals_the_one_from_the_records(data):
    design = read_design_bytes(data)
    assert loaded_link_codes(design) is not None  # the coded path is the one under test
    coded = infer_topology(design)
    design._loaded_codes = None  # as after any edit: the records are read
    assert loaded_link_codes(design) is None
    recorded = infer_topology(design)
    for field in dataclasses.fields(coded):
        one, other = getattr(coded, field.name), getattr(recorded, field.name)
        if isinstance(one, np.ndarray):
            assert one.dtype == other.dtype and np.array_equal(one, other), field.name
        else:
            assert one == other, field.name
