"""The optics strategy per switch tier as an optimiser move: what each tier may take, the move.

A tier (leaf, spine, core) may take a strategy only where its switches support it:

* "pluggable" (DSP modules): always, but a co-packaged tier goes back to it only where the
  catalog has the pluggable switch whose co-packaged twin it is;
* "linear" (LPO modules): where the catalog has a linear module that fits the cages of every
  switch type of the tier (form factor, heat sink, and a host family its vendor lists:
  :func:`model.catalog.parts.fits`); the media choice then takes it per cage where its
  medium is chosen (:func:`model.engine.cages.device_optics`);
* "co-packaged": a switch change, so only where every switch of the tier has a co-packaged twin
  in the catalog (``DeviceType.co_packaged_twin``) with the same port names and count.

Anything else is skipped with a sentence saying why. A move sets ``Settings.optics_strategy``
for the tier and swaps the tier's switch types where co-packaged asks it, through the design's
edit API (``update_devices``, ``set_settings``), as ``generate --optics`` does; the incremental
plant re-prices it like a rack move (a settings change re-routes every link).
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from model.analysis.optics import tier_strategy
from model.catalog.parts import fits
from model.catalog.ports import port_table
from model.design.design import Design
from model.generators.optics import SWITCH_TIERS


@dataclass(frozen=True)
class TierOptions:
    """Per switch tier present in the design, the strategies it may take (its current one
    first); and one sentence per strategy skipped, saying why."""

    options: dict[str, tuple[str, ...]]
    skipped: tuple[str, ...]


def _tier_switches(design: Design) -> dict[str, list]:
    types = design.catalog.device_types
    out: dict[str, list] = {}
    for device in design.devices.values():
        if device.role in SWITCH_TIERS and types[device.type].category == "switch":
            out.setdefault(device.role, []).append(device)
    return out


def _plain_of(design: Design) -> dict[str, str]:
    """Co-packaged type id -> the pluggable type whose twin it is."""
    return {
        t.co_packaged_twin: t.id
        for t in design.catalog.device_types.values()
        if t.co_packaged_twin and not t.laser_sources
    }


def takes_linear(design: Design, type_id: str) -> bool:
    """Whether some linear (LPO) module of the catalog fits a cage of the switch type."""
    dtype = design.catalog.device_types[type_id]
    linear = [p for p in design.catalog.module_parts.values() if p.optics == "linear"]
    for group in dtype.port_groups:
        heatsink = group.cage_heatsink or ("finned" if dtype.category == "switch" else "flat")
        family = group.family or dtype.family
        for part in linear:
            if (
                part.form_factor == group.form_factor
                and part.heatsink in ("any", heatsink)
                and fits(part.hosts, family)
            ):
                return True
    return False


def _same_ports(design: Design, device, type_a: str, type_b: str) -> bool:
    types = design.catalog.device_types
    try:
        a = port_table(types[type_a], device.breakout)
        b = port_table(types[type_b], device.breakout)
    except (KeyError, ValueError):
        return False
    return list(a) == list(b)


def tier_options(design: Design) -> TierOptions:
    """What each switch tier of ``design`` may take (module docstring for the rules)."""
    types = design.catalog.device_types
    plain_of = _plain_of(design)
    current = tier_strategy(design)
    options: dict[str, tuple[str, ...]] = {}
    skipped: list[str] = []
    for tier, devices in _tier_switches(design).items():
        now = current[tier]
        allowed = [now]
        # The pluggable type behind each switch ("" for a co-packaged one with no such type).
        plain = {
            d.id: plain_of.get(d.type, "") if types[d.type].laser_sources else d.type
            for d in devices
        }
        orphans = sorted({d.type for d in devices if not plain[d.id]})
        if orphans:
            skipped.append(
                f"{tier} tier stays co-packaged: no pluggable switch in the catalog has "
                f"{', '.join(orphans)} as its co-packaged twin"
            )
            options[tier] = tuple(allowed)
            continue
        plain_types = sorted(set(plain.values()))
        if now != "pluggable":
            allowed.append("pluggable")
        if now != "linear":
            if all(takes_linear(design, t) for t in plain_types):
                allowed.append("linear")
            else:
                skipped.append(
                    f"{tier} tier: linear skipped: no linear (LPO) module in the catalog fits "
                    f"the cages of {', '.join(plain_types)}"
                )
        if now != "co-packaged":
            no_twin = [t for t in plain_types if not types[t].co_packaged_twin]
            mismatched = sorted(
                {
                    plain[d.id]
                    for d in devices
                    if not no_twin
                    and not _same_ports(design, d, plain[d.id], types[plain[d.id]].co_packaged_twin)
                }
            )
            if no_twin:
                skipped.append(
                    f"{tier} tier: co-packaged skipped: the catalog has no co-packaged twin of "
                    f"{', '.join(no_twin)}"
                )
            elif mismatched:
                skipped.append(
                    f"{tier} tier: co-packaged skipped: the co-packaged twin of "
                    f"{', '.join(mismatched)} has other ports"
                )
            else:
                allowed.append("co-packaged")
        options[tier] = tuple(allowed)
    return TierOptions(options, tuple(skipped))


def tier_devices(design: Design, tier: str) -> list[str]:
    """Ids of the tier's switches."""
    return [d.id for d in _tier_switches(design).get(tier, [])]


def apply_tier(design: Design, tier: str, strategy: str) -> None:
    """Give ``tier`` the optics ``strategy`` through the edit API (switch types swapped to
    or from their co-packaged twins, then the setting); raises ``DesignError`` when a
    twin does not fit its rack (the design is then as it was)."""
    types = design.catalog.device_types
    plain_of = _plain_of(design)
    swaps = []
    for device in _tier_switches(design).get(tier, []):
        dtype = types[device.type]
        if strategy == "co-packaged":
            want = device.type if dtype.laser_sources else dtype.co_packaged_twin or device.type
        else:
            want = plain_of.get(device.type, device.type) if dtype.laser_sources else device.type
        if want != device.type:
            swaps.append(msgspec.structs.replace(device, type=want))
    if swaps:
        design.update_devices(swaps)
    wanted: dict[str, str] = {t: s for t, s in design.settings.optics_strategy.items()}
    wanted[tier] = strategy
    design.set_settings(
        msgspec.structs.replace(design.settings, optics_strategy=dict(sorted(wanted.items())))
    )


def apply_strategies(design: Design, strategies: dict[str, str]) -> list[str]:
    """Apply each tier's strategy that differs from the design's; the tiers changed."""
    current = tier_strategy(design)
    changed = [t for t in SWITCH_TIERS if t in strategies and strategies[t] != current.get(t)]
    for tier in changed:
        apply_tier(design, tier, strategies[tier])
    return changed
