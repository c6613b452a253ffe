"""The analysis report: every figure of the live panel and of ``main.py analyze``.

``Report.to_json()`` is the machine-readable contract of ``analyze --json`` (the keys it writes;
extra keys may be added, none removed). ``Report.to_text()`` is the readable report.
Units: Gb/s per direction, W, USD, m, s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from model.analysis.allreduce import CollectiveFigures, bottleneck_sentence
from model.analysis.bandwidth import TierRatio
from model.analysis.collectives import Estimate
from model.analysis.fabrics import FabricFigures
from model.analysis.hops import Hops
from model.analysis.link_media import KINDS
from model.common.findings import Finding
from model.facility.plan_view import facility_summary_lines

SWITCH_TIERS = ("leaf", "spine", "core")
LINK_TIERS = ("server-leaf", "leaf-spine", "spine-core")


@dataclass
class Report:
    gpus: int
    servers: int
    racks: int
    switches_by_tier: dict[str, int]
    links_total: int
    links_by_tier: dict[str, int]
    links_by_kind: dict[str, int]
    links_by_medium: dict[str, int]
    links_without_medium: int
    media_available: bool
    transceivers: int
    transceiver_power_w: float
    transceivers_by_kind: dict[str, dict[str, float]]
    cable_length_total_m: float
    cable_length_max_m: float
    cable_ordered_total_m: float
    oversubscription: dict[str, TierRatio]
    switch_oversubscription: dict[str, float]
    bisection_gbps: float
    bisection_method: str
    bisection_regular: bool
    hops: Hops
    bandwidth_layers: list[tuple[str, float]]
    scale_up_gbps: float
    scale_out_gbps: float
    effective_gbps: float
    bottleneck: str
    bottleneck_explanation: str
    allreduce: Estimate | None  # the default job's all-reduce
    allreduce_curve: list[Estimate]
    allreduce_knee: str
    power_w: dict[str, float]
    cost_usd: dict[str, float]
    rack_power_w: dict[str, tuple[float, float, float]]  # rack -> (typical, max, budget)
    tray_fill: dict[str, float]
    warnings: list[Finding] = field(default_factory=list)
    power_w_max: dict[str, float] = field(default_factory=dict)  # same keys as power_w
    plant: dict | None = (
        None  # model.plant.physical_plant.PhysicalPlant.summary(); None without a plant
    )
    # model.structured.channel_checks.channel_summary of a structured design; None for direct cabling.
    channels: dict | None = None
    fabrics: dict[str, FabricFigures] = field(default_factory=dict)
    reliability: dict = field(default_factory=dict)  # model.analysis.reliability.forecast
    # Scale-out switches outside the tiers ("unconnected", "other-fabric"): bought and powered,
    # so in the total, but no tier of the compute fabric. In JSON as "switches.off_tier", only
    # when there are any (the key is an addition to the issue-5 contract).
    switches_off_tier: dict[str, int] = field(default_factory=dict)
    # model.analysis.min_cut.cut_json: the minimum balanced cut, its halves and its links.
    bisection: dict = field(default_factory=dict)
    # Every collective of the default job, and over job sizes (model.analysis.allreduce).
    collectives: CollectiveFigures | None = None
    # model.facility.power_checks.power_feed_use: per feed and panel, rating and load at max
    # draw; in JSON as "power_feeds" only when the design has feeds.
    power_feeds: list[dict] = field(default_factory=list)
    # model.analysis.optics.optics_figures: modules or laser sources, fibres, watts, lasers and
    # cost per tier, in total and per GPU (the optics strategy's figures, issue 39).
    optics: dict = field(default_factory=dict)
    # model.facility.cooling.cooling_use (JSON "cooling", only when the hall has cooling units)
    # and model.facility.floor_load.floor_load (JSON "floor_load", only when the hall states a
    # floor rating), so the outputs of designs without them are unchanged.
    cooling: dict = field(default_factory=dict)
    floor_load: dict = field(default_factory=dict)
    # The GPU servers' scale-up technology ("NVLink", "UALink"; catalog GpuSpec.scale_up_link).
    scale_up_name: str = "NVLink"

    @property
    def switches_total(self) -> int:
        return sum(self.switches_by_tier.values()) + sum(self.switches_off_tier.values())

    def errors(self) -> list[Finding]:
        return [w for w in self.warnings if w.severity == "error"]

    def to_json(self) -> dict:
        """The stable machine-readable form (plain dicts, lists, numbers, strings)."""
        by_tier = {t: 0 for t in SWITCH_TIERS} | self.switches_by_tier
        links_by_tier = {t: 0 for t in LINK_TIERS} | self.links_by_tier
        return _clean(
            {
                "gpus": self.gpus,
                "servers": self.servers,
                "racks": self.racks,
                "switches": {"total": self.switches_total, "by_tier": by_tier}
                | ({"off_tier": dict(self.switches_off_tier)} if self.switches_off_tier else {}),
                "links": {
                    "total": self.links_total,
                    "by_tier": links_by_tier,
                    "by_kind": {k: 0 for k in KINDS} | self.links_by_kind,
                    "by_medium": self.links_by_medium,
                    "without_medium": self.links_without_medium,
                },
                "media_available": self.media_available,
                "transceivers": {
                    "total": self.transceivers,
                    "power_w": self.transceiver_power_w,
                    "by_kind": self.transceivers_by_kind,
                },
                "cable_length_m": {
                    "total": self.cable_length_total_m,
                    "max": self.cable_length_max_m,
                    "ordered_total": self.cable_ordered_total_m,
                },
                "oversubscription": {name: t.max for name, t in self.oversubscription.items()},
                "oversubscription_weighted": {
                    name: t.weighted for name, t in self.oversubscription.items()
                },
                "bisection_gbps": self.bisection_gbps,
                "bisection_method": self.bisection_method,
                "bisection": self.bisection,
                "hops": {
                    "max": self.hops.max,
                    "typical": self.hops.typical,
                    "disconnected_pairs": self.hops.disconnected_pairs,
                },
                "bandwidth_per_gpu_gbps": {
                    "scale_up": self.scale_up_gbps,
                    "scale_out": self.scale_out_gbps,
                    "effective": self.effective_gbps,
                    "layers": dict(self.bandwidth_layers),
                },
                "bottleneck": {
                    "layer": self.bottleneck,
                    "explanation": self.bottleneck_explanation,
                    "collective": bottleneck_sentence(self.collectives),
                    **_busiest(self.collectives),
                },
                "allreduce": _allreduce_json(self.allreduce)
                | {
                    "curve": [_allreduce_json(p) for p in self.allreduce_curve],
                    "knee": self.allreduce_knee,
                },
                "collectives": self.collectives.to_json() if self.collectives else {},
                "power_w": self.power_w,
                "power_w_max": self.power_w_max,
                "cost_usd": self.cost_usd,
                "plant": self.plant,
                "fabrics": {name: f.to_json() for name, f in self.fabrics.items()},
                "reliability": self.reliability,
                "optics": self.optics,
                "warnings": [
                    {
                        "code": w.code,
                        "severity": w.severity,
                        "message": w.message,
                        "objects": list(w.objects),
                    }
                    for w in self.warnings
                ],
            }
            | ({"channels": self.channels} if self.channels is not None else {})
            | ({"power_feeds": self.power_feeds} if self.power_feeds else {})
            | ({"cooling": self.cooling} if self.cooling else {})
            | ({"floor_load": self.floor_load} if self.floor_load else {})
        )

    def to_text(self) -> str:
        """A readable report for the terminal."""
        j = self.to_json()
        lines = [
            f"GPUs {self.gpus:,} in {self.servers:,} servers, {self.racks:,} racks",
            "Switches "
            + ", ".join(
                f"{k} {v:,}" for k, v in (j["switches"]["by_tier"] | self.switches_off_tier).items()
            )
            + f" (total {self.switches_total:,})",
            "Links "
            + ", ".join(f"{k} {v:,}" for k, v in j["links"]["by_tier"].items() if v)
            + f" (total {self.links_total:,})",
        ]
        if self.media_available:
            lines.append(
                "Media "
                + ", ".join(f"{k} {v:,}" for k, v in self.links_by_kind.items() if v)
                + (f", none {self.links_without_medium:,}" if self.links_without_medium else "")
            )
            kinds = ", ".join(f"{k} {v['modules']:,}" for k, v in self.transceivers_by_kind.items())
            lines.append(
                f"Transceiver modules {self.transceivers:,}"
                + (f" ({kinds})" if kinds else "")
                + f", {self.transceiver_power_w / 1000:,.1f} kW; cable "
                f"{self.cable_length_total_m:,.0f} m, longest {self.cable_length_max_m:,.1f} m"
            )
        else:
            lines.append("Media not computed (no cable plant).")
        for name, t in self.oversubscription.items():
            lines.append(
                f"Oversubscription {name}: {_ratio(t.max)} worst, {_ratio(t.weighted)} overall"
            )
        lines.append(
            f"Bisection {self.bisection_gbps:,.0f} Gb/s ({self.bisection_method}"
            f"{'' if self.bisection_regular else ', irregular fabric'}"
            + (
                f"; minimum balanced cut: {self.bisection['halves']}, "
                f"{len(self.bisection['cut']['links']):,} links)"
                if self.bisection.get("halves")
                else ")"
            )
        )
        if self.hops.max is not None or self.hops.typical is not None:
            lines.append(
                f"Switch hops between servers: typical {self.hops.typical}, max {self.hops.max}"
            )
        lines.append(
            "Per GPU (Gb/s per direction): "
            + ", ".join(f"{k} {v:,.0f}" for k, v in self.bandwidth_layers)
        )
        # The links the default job's collectives load most (link loads), then the static
        # per-layer figure: an oversubscribed tier is not charged to a ring that barely uses it.
        sentence = bottleneck_sentence(self.collectives)
        lines.append(f"Bottleneck: {sentence or self.bottleneck_explanation}")
        if sentence:
            lines.append(f"  Per-GPU layers: {self.bottleneck_explanation}")
        if self.allreduce:
            a = self.allreduce
            lines.append(
                f"All-reduce {a.message_mb:g} MB over {a.gpus:,} GPUs ({a.algorithm}, {a.protocol}): "
                f"{a.time_s * 1000:,.3f} ms (latency {a.latency_s * 1e6:,.1f} us, transfer "
                f"{a.bandwidth_s * 1000:,.3f} ms), busBW {a.busbw_gbps / 8:,.0f} GB/s"
            )
            lines.append(f"  {self.allreduce_knee}")
        if self.plant:
            cables = self.plant["cables"]
            kinds = ", ".join(f"{k} {v:,}" for k, v in cables["by_kind"].items())
            cages = self.plant["cages"]
            lines.append(
                f"Plant: {self.plant['modules']['total']:,} modules, {cables['total']:,} cables"
                + (f" ({kinds})" if kinds else "")
                + f"; cages {cages['used']:,} used of {cages['total']:,}, {cages['invalid']:,} invalid"
            )
        lines.append(
            "Power typical " + ", ".join(f"{k} {v / 1000:,.1f} kW" for k, v in self.power_w.items())
        )
        if self.power_w_max:
            lines.append(
                "Power max "
                + ", ".join(f"{k} {v / 1000:,.1f} kW" for k, v in self.power_w_max.items())
            )
        lines.append("Cost " + ", ".join(f"{k} ${v:,.0f}" for k, v in self.cost_usd.items()))
        lines += facility_summary_lines(self.power_feeds, self.cooling, self.floor_load)
        if len(self.fabrics) > 1:
            for name, f in self.fabrics.items():
                lines.append(
                    f"Fabric {name}: {f.switches:,} switches, {f.links:,} links, "
                    f"{f.transceivers:,} transceivers, {f.power_w['typical'] / 1000:,.1f} kW "
                    f"typical / {f.power_w['max'] / 1000:,.1f} kW max, "
                    f"${f.cost_usd['total']:,.0f}"
                )
        if self.reliability:
            rel = self.reliability
            parts = ", ".join(
                f"{v['label']} {v['failures_per_day']:.3f}"
                for v in rel["categories"].values()
                if v["count"]
            )
            lines.append(
                f"Expected failures ({rel['scope']}) {rel['failures_per_day']:.2f} per day, "
                f"{rel['failures_per_year']:,.0f} per year ({parts}); job of "
                f"{rel['job_gpus']:,} GPUs: {rel['job_interruptions_per_day']:.2f} interruptions "
                f"and {rel['gpu_hours_at_risk_per_day']:,.0f} GPU-hours at risk per day"
            )
        lines.append(f"Warnings: {len(self.warnings)} ({len(self.errors())} errors)")
        for w in self.warnings:
            lines.append(f"  {w.severity.upper():7} {w.code}: {w.message}")
        return "\n".join(lines)


def _ratio(value: float) -> str:
    return "no uplinks" if math.isinf(value) else f"{value:.2f}:1"


def _busiest(fig: CollectiveFigures | None) -> dict:
    """The default job's all-reduce busiest links (ids the editor selects) and their layer."""
    if fig is None:
        return {"limited_by": "none", "links": []}
    e = fig.default["all-reduce"]
    return {"limited_by": e.limited_by, "links": list(e.bottleneck_links)}


def _allreduce_json(a: Estimate | None) -> dict:
    if a is None:
        return {}
    return a.to_json() | {"message_mb": a.message_mb}


def _clean(value):
    """Round floats to 10 significant digits and turn inf/nan into None for strict JSON."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return float(f"{value:.10g}") + 0.0
    if hasattr(value, "item"):  # numpy scalar
        return _clean(value.item())
    return value
