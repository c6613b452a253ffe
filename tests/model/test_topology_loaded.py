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


# The designs' bytes, made by the test that reads them, not while pytest collects: every xdist
# worker collects every module, and the L hall took ~0.65 s of CPU in each, also where the test
# then ran elsewhere.
SOURCES = {
    **{p.name: p.read_bytes for p in EXAMPLES},
    "L": lambda: design_to_bytes(build("L")),
    "nvl72-all-fabrics": lambda: design_to_bytes(generate("nvl72", racks=4, fabrics="all")),
}


@pytest.mark.parametrize("source", list(SOURCES))
def test_topology_from_the_loaders_codes_equals_the_one_from_the_records(source):
    data = SOURCES[source]()
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
