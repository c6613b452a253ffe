"""The optics strategy of a generated fabric: pluggable, linear or co-packaged, per switch tier.

``apply_optics(design, "co-packaged")`` (or ``"leaf=co-packaged,spine=linear"``) sets the design's
``Settings.optics_strategy`` and, for every tier asked to be co-packaged, replaces each switch of
that tier by its co-packaged twin (``DeviceType.co_packaged_twin``: the Quantum-X800 Q3400-RA by
the Quantum-X Photonics Q3450-LD, same ports, same names), through the design's edit API, so the
links stay as they are and only the plugs change: no module in the co-packaged cages, a fibre
and the switch's laser sources instead. "linear" is left to the media choice (a linear module
where the catalog has one for the cage, :func:`model.engine.cages.device_optics`).
"""

from __future__ import annotations

import msgspec

from model.design.design import Design, DesignError
from model.generators.plans import GenerateError

STRATEGIES = ("pluggable", "linear", "co-packaged")
SWITCH_TIERS = ("leaf", "spine", "core")


def parse_optics(text: str) -> dict[str, str]:
    """``"linear"`` (every switch tier) or ``"leaf=co-packaged,spine=pluggable"`` -> per tier."""
    words = [w.strip() for w in text.split(",") if w.strip()]
    if not words:
        raise GenerateError("optics: give pluggable, linear or co-packaged (or TIER=STRATEGY,...)")
    out: dict[str, str] = {}
    for word in words:
        tier, _, strategy = word.rpartition("=")
        tiers = SWITCH_TIERS if not tier else (tier.strip(),)
        strategy = strategy.strip()
        if strategy not in STRATEGIES:
            raise GenerateError(
                f"optics {word!r}: the strategy must be one of {', '.join(STRATEGIES)}"
            )
        for name in tiers:
            if name not in SWITCH_TIERS:
                raise GenerateError(
                    f"optics {word!r}: the tier must be one of {', '.join(SWITCH_TIERS)}"
                )
            out[name] = strategy
    return out


def apply_optics(design: Design, text: str) -> Design:
    """Give ``design`` the optics strategy ``text`` (see :func:`parse_optics`); a co-packaged
    tier whose switch has no co-packaged twin is refused with a sentence naming the switch."""
    wanted = parse_optics(text)
    types = design.catalog.device_types
    swaps = []
    for device in design.devices.values():
        if wanted.get(device.role) != "co-packaged":
            continue
        dtype = types[device.type]
        if dtype.category != "switch" or dtype.laser_sources:
            continue  # already co-packaged
        twin = dtype.co_packaged_twin
        if not twin:
            raise GenerateError(
                f"optics: no co-packaged switch is in the catalog in the place of the "
                f"{device.role} switch {dtype.id} ({dtype.model}); co-packaged twins: "
                + ", ".join(f"{t.id} -> {t.co_packaged_twin}" for t in _twins(design))
            )
        swaps.append(msgspec.structs.replace(device, type=twin))
    try:
        design.update_devices(swaps)
    except DesignError as exc:
        raise GenerateError(f"optics: the co-packaged twin does not fit: {exc}") from None
    strategy = dict(sorted(wanted.items()))
    design.set_settings(msgspec.structs.replace(design.settings, optics_strategy=strategy))
    return design


def _twins(design: Design):
    return [t for t in design.catalog.device_types.values() if t.co_packaged_twin]
