"""Plug power of the physical plant: per cage, per device and per rack (typical and max).

One rule for the power of a plug (:func:`plug_power_w`) serves the analysis totals, the rack
power the canvas, inspector and elevation sheet show, and the BOM (:mod:`model.plant.physical_plant` counts the
parts; this module sums the watts of the cages they sit in).
"""

from __future__ import annotations

import numpy as np

from model.engine.cages import CAGE_STRIDE, MODULE_KINDS, cage_view
from model.plant.laser_sources import with_laser_source_power


def plug_power_w(tables, medium: int, spec: int) -> tuple[float, float]:
    """(typical W, max W) of the plug of ``medium`` in a cage of ``spec``: the one rule for it.

    A module medium: the module part's power (a twin-port module draws the same half used or
    not, §2). An integrated cable: the power of the cable end that fits the cage (A end of a
    part whose A side matches, else a B end). The backplane and missing parts: 0.
    """
    key = (medium, spec)
    cache = tables.__dict__.setdefault("_plug_power", {})
    if key in cache:
        return cache[key]
    kind = tables.media[medium].kind if medium >= 0 else "none"
    out = (0.0, 0.0)
    if kind in MODULE_KINDS:
        part = tables.module(medium, spec)
        if part is not None:
            out = (part.power_w, part.power_w_max)
    elif kind not in ("backplane", "none"):
        ff, ports = tables.specs[spec][0], tables.specs[spec][1]
        for (m, ffa, pa, ffb, pb), parts in tables.cables.items():
            if m != medium:
                continue
            if (ffa, pa) == (ff, ports):
                out = (parts[0].power_a_w, parts[0].power_a_w_max)
                break
            if (ffb, pb) == (ff, ports):
                out = (parts[0].power_b_w, parts[0].power_b_w_max)
    cache[key] = out
    return out


def cage_power_by_device(plant, rows: np.ndarray | None = None, devices=None):
    """Plug power per device id, (typical, max) dicts, over the cages of ``rows``' link ends.

    Each used cage counts once, at :func:`plug_power_w` of its medium (the smallest medium row
    among its links when they disagree). ``devices`` limits the ends counted (a set of ids).
    """
    view = cage_view(plant)
    medium = np.asarray(plant.medium_index, dtype=np.int64)
    if rows is None:
        rows = np.arange(len(plant.link_ids))
    keys = np.concatenate([view.cage_a[rows], view.cage_b[rows]])
    specs = np.concatenate([view.spec_a[rows], view.spec_b[rows]])
    meds = np.concatenate([medium[rows], medium[rows]])
    order = np.lexsort((meds, keys))
    keys, specs, meds = keys[order], specs[order], meds[order]
    first = np.ones(len(keys), dtype=bool)
    first[1:] = keys[1:] != keys[:-1]
    return device_plug_power(
        view.tables, view.dev_ids, keys[first], meds[first], specs[first], devices
    )


def device_plug_power(
    tables, dev_ids, cage_keys, cage_medium, cage_spec, devices=None, grouped=None
):
    """Plug power per device id, (typical, max) dicts, of cages given by sorted key, medium
    row and spec row (one entry per cage); ``devices`` limits the devices counted. ``grouped``
    = (device numbers, local device of each cage) of ``cage_keys`` when the caller has it."""
    device_no = cage_keys // CAGE_STRIDE
    specs, meds = cage_spec, cage_medium
    if devices is not None:
        wanted = np.fromiter((d in devices for d in dev_ids), dtype=bool, count=len(dev_ids))
        keep = wanted[device_no]
        device_no, specs, meds = device_no[keep], specs[keep], meds[keep]
        grouped = None
    # Watts per (medium, spec) from a small table, then sums per device with numpy: a Python
    # pass per cage would cost ~0.3 s of every analysis at 400k links.
    table = plug_power_table(tables)
    if len(meds) and (meds.max() + 1 >= table.shape[0] or specs.max() >= table.shape[1]):
        table = plug_power_table(tables, refresh=True)
    watts = table[meds + 1, specs]
    present, local = grouped if grouped is not None else np.unique(device_no, return_inverse=True)
    local = local.reshape(-1)
    typ = np.bincount(local, weights=watts[:, 0], minlength=len(present))
    mx = np.bincount(local, weights=watts[:, 1], minlength=len(present))
    names = [dev_ids[i] for i in present.tolist()]
    return dict(zip(names, typ.tolist(), strict=True)), dict(zip(names, mx.tolist(), strict=True))


def plug_power_table(tables, refresh: bool = False) -> np.ndarray:
    """(typical, max) W of :func:`plug_power_w` for every (medium row + 1, spec row): row 0 is
    no medium. Kept on ``tables``; rebuilt when specs were added since."""
    table = tables.__dict__.get("_plug_power_table")
    if table is None or refresh or table.shape[1] != len(tables.specs):
        table = np.array(
            [
                [plug_power_w(tables, m, s) for s in range(len(tables.specs))]
                for m in range(-1, len(tables.media))
            ],
            dtype=float,
        ).reshape(len(tables.media) + 1, len(tables.specs), 2)
        tables.__dict__["_plug_power_table"] = table
    return table


def rack_power(design, plant, rack_ids=None) -> dict[str, tuple[float, float, float]]:
    """(typical W, max W, budget W) per rack: its devices plus the plugs in their cages.

    The figure the analysis reports (``Report.rack_power_w``) and the canvas, inspector and
    elevation sheet display: computed here once, only for the racks asked for.
    """
    racks = list(design.racks) if rack_ids is None else [r for r in rack_ids if r in design.racks]
    types = design.catalog.device_types
    wanted = set(racks)
    devices = {d.id: d for d in design.devices.values() if d.rack in wanted}
    rows = None
    if plant is not None and rack_ids is not None:
        index = plant.index
        rows = np.array(
            sorted({index[x] for x in design.links_of_racks(racks) if x in index}), dtype=np.int64
        )
    plug_typ, plug_max = (
        cage_power_by_device(plant, rows, set(devices)) if plant is not None else ({}, {})
    )
    plug_typ, plug_max = with_laser_source_power(design, plug_typ, plug_max, set(devices))
    out = {}
    for rack_id in racks:
        out[rack_id] = [0.0, 0.0, design.racks[rack_id].power_budget_kw * 1000]
    for device in devices.values():
        dtype = types[device.type]
        entry = out[device.rack]
        entry[0] += dtype.power_typical_w + plug_typ.get(device.id, 0.0)
        entry[1] += dtype.power_max_w + plug_max.get(device.id, 0.0)
    return {r: (v[0], v[1], v[2]) for r, v in out.items()}
