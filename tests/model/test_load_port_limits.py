"""The loader's port limits count each device's ports as broken out: a device that breaks out a
group has more ports than one of its type that does not, in either order in the file."""

from __future__ import annotations

import pytest

from model.design import limits
from model.files import checks
from model.files.design_file import design_to_bytes, parse_document
from tests.builders import device, empty_hall, rack


@pytest.mark.parametrize("split_first", [False, True], ids=["plain first", "split first"])
def test_ports_per_device_and_in_all_count_the_breakout(monkeypatch, split_first):
    design = empty_hall()
    rack(design, "n1", 2.1, 3.0)
    order = [("sw-split", {"p": 2}), ("sw-plain", None)]
    for k, (device_id, breakout) in enumerate(order if split_first else order[::-1]):
        device(design, device_id, "n1", 20 + 2 * k, "sn5600", role="leaf", breakout=breakout)
    document = parse_document(design_to_bytes(design))
    split_at = [d.id for d in document.devices].index("sw-split")
    # an SN5600 has 64 ports and a management port: 65, 129 with every p port split in two
    monkeypatch.setattr(limits, "MAX_PORTS_PER_DEVICE", 100)
    monkeypatch.setattr(limits, "MAX_PORTS_TOTAL", 193)
    found = checks._check_device_ports(document)
    assert [(p.json_path, p.message) for p in found] == [
        (f"$.devices[{split_at}].breakout", "129 ports, more than the limit of 100"),
        ("$.devices", "194 ports in all, more than the limit of 193"),
    ]
