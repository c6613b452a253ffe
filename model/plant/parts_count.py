"""What the physical plant holds: each orderable item counted (:class:`PartCount`) and the
plant's totals, findings and per-device plug power (:class:`PhysicalPlant`).

The records on their own, apart from :func:`model.plant.physical_plant.build_plant` that fills
them: the structured overlay (:mod:`model.plant.structured`) adds its trunks and cords as
PartCounts, and build_plant applies it, so both import these records and neither the other's
module at load time.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from model.common.findings import Finding
from model.plant.links import LinkParts


@dataclass(frozen=True)
class PartCount:
    """One orderable item in the plant: a part at one length, its quantity and figures each."""

    category: str  # "module", "cable", "fibre", "laser-source" (and the structured overlay's)
    part_id: str
    part_number: str
    vendor: str
    description: str
    length_m: float | None
    quantity: int
    kind: str  # medium kind (dac, acc, aec, aoc, utp, mmf, smf) or "mmf-fibre" / "smf-fibre"
    unit_power_w: float
    unit_power_w_max: float
    unit_price_usd: float
    source: str
    fabric: str = ""  # the network of the links it serves, when the plant was asked for fabrics
    # The routed metres its units serve (before rounding up to the stock length), so the BOM
    # can show the spare length bought; None where not counted.
    needed_m: float | None = None


@dataclass
class PhysicalPlant:
    """Counts, power and cost of the plugs, cables and fibres of a design."""

    items: list[PartCount] = field(default_factory=list)
    cages_total: int = 0
    cages_used: int = 0
    cages_invalid: int = 0
    findings: list[Finding] = field(default_factory=list)
    # Per device id: W of the plugs in its cages (typical, max): modules and cable ends.
    device_power_w: dict[str, float] = field(default_factory=dict)
    device_power_w_max: dict[str, float] = field(default_factory=dict)
    # Per link id: (cable_id, a_cage, b_cage, a_module, b_module, part) for the schedule, a
    # mapping kept as columns (model.plant.links.LinkParts); empty unless asked for.
    link_parts: LinkParts | dict = field(default_factory=dict)
    # The structured layout the items were counted from (model.plant.structured), so the
    # schedule's segment rows reuse it instead of building it again; None: direct cabling.
    structured: object | None = None
    # Its channels' plant rows (model.structured.channels.rows_in_plant, in channel-row order),
    # for the tray trunks (model.analysis.tray_trunks): ~0.05 s at zoned XL not found twice.
    structured_rows: np.ndarray | None = None
    # Ports of co-packaged switches that carry a link: each takes a fibre and no module; the
    # watts of their optical engines (typical, max), which the device power includes too.
    co_packaged_ports: int = 0
    co_packaged_power_w: float = 0.0
    co_packaged_power_w_max: float = 0.0

    def of(self, category: str) -> list[PartCount]:
        return [i for i in self.items if i.category == category]

    def total(self, category: str, attr: str = "quantity") -> float:
        return sum(
            i.quantity * (1 if attr == "quantity" else getattr(i, attr)) for i in self.of(category)
        )

    @property
    def cost_usd(self) -> float:
        return sum(i.quantity * i.unit_price_usd for i in self.items)

    @property
    def power_w(self) -> float:
        return sum(i.quantity * i.unit_power_w for i in self.items)

    @property
    def power_w_max(self) -> float:
        return sum(i.quantity * i.unit_power_w_max for i in self.items)

    def summary(self) -> dict:
        """The ``plant`` section of ``analyze --json``."""
        modules = self.of("module")
        # Everything pulled is one cable: integrated cables, fibres and patch cords, and the
        # trunks of structured cabling, so the count equals the cabling schedule's rows and
        # the BOM's cables, fibres and trunks (issue 43: the trunks were left out).
        assemblies = self.of("cable") + self.of("fibre") + self.of("trunk")
        by_kind: Counter[str] = Counter()
        for i in assemblies:
            by_kind[i.kind] += i.quantity
        return {
            "modules": {
                "total": int(self.total("module")),
                "by_part": _by_part(modules),
                "power_w": round(self.total("module", "unit_power_w"), 3),
                "power_w_max": round(self.total("module", "unit_power_w_max"), 3),
                "cost_usd": round(self.total("module", "unit_price_usd"), 2),
            },
            "cables": {
                "total": int(sum(i.quantity for i in assemblies)),
                "by_part": _by_part(assemblies),
                "by_kind": dict(sorted(by_kind.items())),
                "length_m": round(sum(i.quantity * (i.length_m or 0.0) for i in assemblies), 3),
                "power_w": round(self.total("cable", "unit_power_w"), 3),
                "power_w_max": round(self.total("cable", "unit_power_w_max"), 3),
                "cost_usd": round(
                    sum(self.total(c, "unit_price_usd") for c in ("cable", "fibre", "trunk")), 2
                ),
            },
            "cages": {
                "total": self.cages_total,
                "used": self.cages_used,
                "invalid": self.cages_invalid,
            },
        }


def _by_part(items: list[PartCount]) -> dict[str, int]:
    out: Counter[str] = Counter()
    for i in items:
        out[i.part_number] += i.quantity
    return dict(sorted(out.items()))
