"""Rack power summed column-wise with each plug device's rack kept (RackPowerSums) equals the
plain loop (rack_power below, the analyzer's rule before) to the last bit: plug watts changed,
devices gaining plugs, ids of no device, another device figures object, the same dicts."""

from __future__ import annotations

import random

from model.analysis.devices import RackPowerSums, device_figures
from tests.benchmarks.synthetic import synthetic_hall


# The oracle: the sums as one addition per plug in the dicts' order, as the analyzer made them
# before RackPowerSums (moved here from model/analysis/devices.py, where nothing else used it).
def rack_power(
    design,
    dev,
    plug_w: dict[str, float] | None,
    plug_w_max: dict[str, float] | None,
) -> tuple[dict[str, float], dict[str, float]]:
    """Typical and maximum W per rack: devices plus the plugs in their cages (by device id)."""
    typ = dict(dev.rack_typical_w)
    mx = dict(dev.rack_max_w)
    devices = design.devices
    for table, plugs in ((typ, plug_w), (mx, plug_w_max)):
        for device_id, watts in (plugs or {}).items():
            device = devices.get(device_id)
            if device is not None and device.rack in table:
                table[device.rack] += watts
    return typ, mx


def _plugs(rng: random.Random, ids: list[str]) -> dict[str, float]:
    # watts that do not add exactly in floats: the order of the additions shows
    return {i: rng.uniform(0.1, 40.0) / 3.0 for i in ids}


def test_kept_rack_sums_equal_the_loop():
    design = synthetic_hall(256)
    dev = device_figures(design)
    rng = random.Random(3)
    ids = list(design.devices)
    rng.shuffle(ids)
    some = ids[: len(ids) // 2] + ["no-such-device"]
    sums = RackPowerSums()
    typ_w, max_w = _plugs(rng, some), _plugs(rng, some)
    assert sums.of(design, dev, typ_w, max_w) == rack_power(design, dev, typ_w, max_w)
    for _ in range(3):  # new values for the same devices (a tray edit's media): rows kept
        typ_w = {i: w * rng.choice([1.0, 1.1, 0.7]) for i, w in typ_w.items()}
        max_w = dict(typ_w)
        got = sums.of(design, dev, typ_w, max_w)
        assert got == rack_power(design, dev, typ_w, max_w)
        assert sums.of(design, dev, typ_w, max_w) is got  # the same dicts: the same sums
    more = {**typ_w, **_plugs(rng, ids[len(ids) // 2 :])}  # devices gain their first plug
    assert sums.of(design, dev, more, None) == rack_power(design, dev, more, None)
    fresh = device_figures(design)  # another figures object: the racks found again
    assert sums.of(design, fresh, None, more) == rack_power(design, fresh, None, more)
    assert sums.of(design, fresh, {}, {}) == (dev.rack_typical_w, dev.rack_max_w)
