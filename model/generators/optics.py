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
    """Give ``design`` the optics strategy ``text`` (see :func:`parse_optics`).

    A co-packaged tier's switches that have a co-packaged twin become it; the others keep
    their pluggable cages, as a linear tier keeps DSP modules where no linear one fits, and the
    analysis says so (OPTICS_STRATEGY_UNMET): with every network, the leaf tier of a GB300 hall
    is its Q3400 compute leaves and its Spectrum-4 storage and in-band leaves, of which only
    the Q3400 has a twin. A tier with a switch already co-packaged (a Vera Rubin hall's SN6810
    leaves) is met by it. A co-packaged tier none of whose switches is or has a co-packaged
    twin would change nothing: refused with a sentence naming them."""
    wanted = parse_optics(text)
    types = design.catalog.device_types
    swaps = []
    no_twin: dict[str, set[str]] = {}
    met: set[str] = set()  # roles with a switch co-packaged already or now
    for device in design.devices.values():
        if wanted.get(device.role) != "co-packaged":
            continue
        dtype = types[device.type]
        if dtype.category != "switch":
            continue
        if dtype.laser_sources:  # already co-packaged
            met.add(device.role)
            continue
        twin = dtype.co_packaged_twin
        if twin:
            swaps.append(msgspec.structs.replace(device, type=twin))
            met.add(device.role)
        else:
            no_twin.setdefault(device.role, set()).add(f"{dtype.id} ({dtype.model})")
    for role, plain in sorted(no_twin.items()):
        if role not in met:
            raise GenerateError(
                f"optics: no co-packaged switch is in the catalog in the place of the "
                f"{role} switch {', '.join(sorted(plain))}; co-packaged twins: "
                + ", ".join(f"{t.id} -> {t.co_packaged_twin}" for t in _twins(design))
            )
    was = {d.id: design.devices[d.id].type for d in swaps}
    try:
        design.update_devices(swaps)
    except DesignError as exc:
        raise GenerateError(f"optics: the co-packaged twin does not fit: {exc}") from None
    # The generator's name states the scale-out switch ("q3400 scale-out"): it is the twin now.
    for device in swaps:
        design.set_name(
            design.name.replace(f"{was[device.id]} scale-out", f"{device.type} scale-out")
        )
    strategy = dict(sorted(wanted.items()))
    design.set_settings(msgspec.structs.replace(design.settings, optics_strategy=strategy))
    return design


def _twins(design: Design):
    return [t for t in design.catalog.device_types.values() if t.co_packaged_twin]
