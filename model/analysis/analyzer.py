"""``analyze(design, plant) -> Report`` and the incremental :class:`Analyzer` behind it.

The analysis is computed in stages, each cached until an edit invalidates it:

* topology (devices and links changed, catalog changed): tiers, per-switch capacity,
  oversubscription, hops, per-GPU bandwidth, scale-up domains, and the bisection (the minimum
  over balanced cuts, :mod:`model.analysis.min_cut`: a property of the graph, so a rack move
  leaves it as it was);
* devices (devices changed): device power and price, rack U checks;
* placement (racks moved/added/removed, hall changed): overlaps, outside hall, on obstacle;
* media (every report): links per medium and lengths (``link_media``); modules, cables,
  power and cost from the physical plant (``build_plant``, per cage); per-rack power, tray fill (updated for the links whose route or medium the plant's ``refresh()`` changed);
* settings: oversubscription target and all-reduce parameters (cheap, always recomputed).
``analyze`` runs a fresh Analyzer once: the incremental and the full report share one code path,
but for two things only a one-shot run does: it counts plugs without keeping the editor's
tally, and takes the collectives and bisection a caller computed apart (``plant_free``).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from model.analysis import warnings as warn
from model.analysis.allreduce import collective_figures
from model.analysis.analyzer_kept import KeptFigures
from model.analysis.bandwidth import Bandwidth, bandwidth
from model.analysis.bisection import Bisection
from model.analysis.collectives import Collectives
from model.analysis.devices import (
    DeviceFigures,
    RackPowerSums,
    device_figures,
)
from model.analysis.entry_checks import entry_findings
from model.analysis.fabrics import fabric_figures
from model.analysis.hops import Hops, server_hops
from model.analysis.link_media import link_media
from model.analysis.min_cut import MinCut
from model.analysis.optics import modules_by_kind, optics_figures, strategy_findings
from model.analysis.optics_plugs import PlugTally
from model.analysis.plant_free import (
    PlantFreeFigures,
    collective_settings_key,
    switch_groups,
    usable_figures,
)
from model.analysis.plant_free_stages import PlantFreeStages
from model.analysis.reliability import forecast
from model.analysis.report import Report
from model.analysis.topology import Topology, infer_topology, tier_codes, tier_name, tier_order
from model.analysis.totals import plant_sum, power_and_cost
from model.analysis.tray_fill import TrayFill, TrunkLoadMemo, trunk_load
from model.common.findings import Finding, sort_findings
from model.design.changes import (
    DEVICE_KINDS,
    LINK_KINDS,
    RACK_KINDS,
    TRAY_KINDS,
    Change,
    ChangeKind,
)
from model.design.design import Design
from model.design.entities import FABRICS
from model.design.rack_clashes import Clash, rack_clashes
from model.facility.cooling import cooling_findings, cooling_use
from model.facility.floor_load import floor_findings, floor_load
from model.facility.power_checks import power_feed_use, power_findings
from model.plant.physical_plant import PlantCache, build_plant
from model.plant.tray_products import tray_items
from model.structured.channel_checks import skew_findings, table_checks
from model.structured.layout import structured_layout, uses_structured
from model.structured.layout_records import StructuredLayout
from model.structured.leg_reuse import LegMemo

K = ChangeKind
# A fabric pinned on a link moves it between networks: the topology (tiers, switches off the
# tiers) is inferred again; any other link edit (medium, length, label) leaves it.
TOPOLOGY_EVENTS = DEVICE_KINDS | {K.LINKS_ADDED, K.LINKS_REMOVED, K.LINKS_REFABRICKED}
DEVICE_EVENTS = DEVICE_KINDS | {K.RACKS_ADDED, K.RACKS_REMOVED, K.RACKS_CHANGED}
PLACEMENT_EVENTS = RACK_KINDS | {K.HALL_CHANGED}
# What the entry checks (model.analysis.entry_checks) read: link lengths, rack sizes, roles.
ENTRY_EVENTS = DEVICE_EVENTS | LINK_KINDS
TRAY_EVENTS = TRAY_KINDS | {K.HALL_CHANGED}


def analyze(design: Design, plant=None, phys=None, topology=None, plant_free=None) -> Report:
    """The full analysis of ``design`` with the cable plant's media and lengths (None: no media).

    The plant must be up to date (``plant.refresh()`` called after the last edit). ``phys``:
    the physical plant of ``plant`` that the caller has built already, split by fabric
    (``build_plant(plant, ..., fabric_rows=plant_fabric_rows(design, plant))``, as the BOM
    does), used instead of building it again. ``topology``: ``infer_topology(design)`` of the
    design as it is now, if the caller made it already (the BOM splits its plant by the
    topology's link fabrics). ``plant_free``: a function giving ``plant_free_figures(design)``
    (:mod:`model.analysis.plant_free`), asked once the plant's stages are done (the command
    line's forked child computes them meanwhile).
    """
    analyzer = Analyzer(design, plant, subscribe=False, refresh_plant=False)
    analyzer.given_phys = phys
    analyzer.given_topology = topology
    analyzer.given_plant_free = plant_free
    return analyzer.report()


def analysis_findings(design: Design, plant=None, phys=None, topology=None) -> list[Finding]:
    """``analyze(design, plant, phys, topology).warnings`` without the report's other figures
    (what an export's Warnings need)."""
    analyzer = Analyzer(design, plant, subscribe=False, refresh_plant=False)
    analyzer.given_phys = phys
    analyzer.given_topology = topology
    return analyzer.findings()


class Analyzer(KeptFigures):
    """Keeps a design's report up to date, recomputing only what an edit touched.

    With ``subscribe`` it listens to the design's change events; ``refresh_plant`` makes
    :meth:`report` call ``plant.refresh()`` first (route + media of the changed links).
    """

    def __init__(
        self, design: Design, plant=None, *, subscribe: bool = True, refresh_plant: bool = True
    ) -> None:
        self.design = design
        self.plant = plant
        self.refresh_plant = refresh_plant
        self._dirty = {"topology", "devices", "placement", "trays", "entries"}
        self._topo: Topology | None = None
        self._groups: dict[int, np.ndarray] | None = None
        self._bw: Bandwidth | None = None
        self._hops: Hops | None = None
        self._collectives: Collectives | None = None
        self._bisection: Bisection | None = None
        self._min_cut: MinCut | None = None
        self._dev: DeviceFigures | None = None
        self._dev_findings: list[Finding] = []
        self._entry_findings: list = []
        self._placement: list[Finding] = []
        self._clashes: list[Clash] | None = None  # placement findings' (design.rack_clashes)
        self._moved_racks: set[str] | None = set()  # since them; None: redo every rack
        self._scale_up: list[Finding] | None = None
        self._nic_modes = None  # (topology, NIC_MODE_UNSUPPORTED findings) of that topology
        self._optics_kept = None  # (topology, part tables, media, optics per tier)
        self._co_packaged_kept = None  # (device figures, catalog, co-packaged devices)
        self._facility_kept = None  # (device figures, catalog, hall, facility cost)
        self._plugs: PlugTally | None = None  # each cage's plug, kept while the cages stand
        self._trays = TrayFill()
        self._rack_power = RackPowerSums()  # (typical, max) per rack, kept while plugs stand
        self._plant_cache = PlantCache()  # the cage graph, reused while no link changes cages
        self._legs = LegMemo()  # the last structured legs, re-measured after a rack move
        self._trunk_load = TrunkLoadMemo()  # its trunks, read again only where re-made
        self.given_phys = None  # analyze()'s caller's physical plant of ``plant``, if any
        self.given_topology = None  # analyze()'s caller's topology of the design, if any
        self.given_plant_free = None  # analyze()'s caller's: () -> PlantFreeFigures, if any
        self._free: PlantFreeFigures | None = None  # given_plant_free's, for this report only
        self._plant_rows: np.ndarray | None = None
        self._rows_in_order = False  # _plant_rows is every plant row in order (an arange)
        self._rows_generation: tuple = (None, None)  # plant route_generation, link_ids read at
        self._links_by_tier: dict[str, int] = {}
        self._switches_by_tier: dict[str, int] = {}  # of the topology, in tier order
        self._tier_codes: tuple | None = None  # ((topology, rows, row count, names), codes)
        # fabric_shapes ("shapes") and reliability.hall_counts ("hall"): (topology, catalog, value)
        self._kept_per_topology: dict[str, tuple] = {}
        self._topo_findings = None  # (topology, bandwidth, target, findings)
        self._cut: tuple | None = None  # (topology, bisection, its cut_json)
        self._off_tiers = None  # (topology, device figures, switches off the tiers)
        self._ratios = None  # (topology, bandwidth, each switch's oversubscription by id)
        self._fabric_rows = None  # (topology, plant rows, rows, fabric code per plant row)
        self._allreduce_figures = None  # (collectives, settings key, CollectiveFigures)
        self._pending_links: set[str] = set()
        self._racks_moved = False  # a rack moved or changed since the last report
        self._geometry = _geometry_settings(design.settings)
        self._explicit = False  # fed by advance(): changes are known without a subscription
        self._subscription = design.subscribe(self._on_change) if subscribe else None
        # The structured layout of the last report (None: direct cabling): the editor's trunk
        # layer and channel views show this one rather than lay the hall out again.
        self.structured: StructuredLayout | None = None

    def close(self) -> None:
        if self._subscription is not None:
            self._subscription.close()
            self._subscription = None

    def advance(self, design: Design, plant, changes, changed_links: set[str]) -> Report:
        """The report of ``design`` (and its refreshed ``plant``) after ``changes``.

        For an analyzer that follows no design (``subscribe=False``) and works on snapshots
        (:mod:`model.engine.snapshot`): ``design`` and ``plant`` replace the ones it read before,
        ``changes`` are the design's change events since then and ``changed_links`` the links
        whose route or medium the plant's refreshes reported. Only what they touch is redone.
        """
        self.design, self.plant = design, plant
        for change in changes:
            self._on_change(change)
        if not self._dirty & {"trays", "tray-spans"}:  # else recounted (see _take_changes)
            self._pending_links |= changed_links
        self._explicit = True
        return self.report()

    def cables_by_tray(self, group_of) -> dict[str, dict[str, int]]:
        """Cables per tray and group as of the last report (see ``TrayFill.cables_by_tray``)."""
        return self._trays.cables_by_tray(self.plant, group_of)

    def used_stretches(self) -> dict[str, list[tuple[float, float]]]:
        """Per tray, the stretches some cable runs along as of the last report (see
        ``TrayFill.used_stretches``; every link with a medium)."""
        return self._trays.used_stretches(self.plant)

    def tier_codes(self, first=()) -> tuple[list[str], np.ndarray] | None:
        """Tier code per plant row as of the last report (``topology.tier_codes``; None without
        a plant), kept until the link set or the plant's rows change: what the links table
        shows and filters by, computed here so the GUI thread never infers the topology."""
        if self.plant is None or self._topo is None or self._plant_rows is None:
            return None
        cached = self._tier_codes
        key = (self._topo, self._plant_rows, len(self.plant.link_ids), tuple(first))
        if cached is None or any(a is not b for a, b in zip(cached[0][:2], key[:2], strict=True)):
            cached = None
        elif cached[0][2:] != key[2:]:
            cached = None
        if cached is None:
            codes = tier_codes(self._topo.link_tier, self._plant_rows, key[2], first)
            cached = self._tier_codes = (key, codes)
        return cached[1]

    def _on_change(self, change: Change) -> None:
        if change.touches(TOPOLOGY_EVENTS):
            self._dirty.add("topology")
        if change.touches(DEVICE_EVENTS):
            self._dirty.add("devices")
        if change.touches(ENTRY_EVENTS):
            self._dirty.add("entries")
        if change.touches(PLACEMENT_EVENTS):
            self._dirty.add("placement")
            # Moves alone: only the moved racks' clashes are redone; anything else (a rack
            # added, removed or renamed: names are in the messages; the hall) redoes them all.
            if self._moved_racks is not None and set(change.kinds) & PLACEMENT_EVENTS <= {
                K.RACKS_MOVED
            }:
                self._moved_racks.update(change.ids(K.RACKS_MOVED))
            else:
                self._moved_racks = None
        if change.touches(TRAY_EVENTS):
            # Trays alone: the routes' intervals are learnt again, the counts carried over
            # (TrayFill.forget_spans); the hall (tray elevation, outline): all counted again.
            self._dirty.add("tray-spans" if change.kinds <= TRAY_KINDS else "trays")
        # Links whose route or medium may have changed, whoever refreshes the plant. A moved
        # rack's links are not listed (at 393k links that read, or first built, the design's
        # device-to-links table on the worker): the tray fill finds every link whose route or
        # medium changed by comparing the plant's arrays, and a move only needs to be known.
        if any(r in self.design.racks for r in change.ids(K.RACKS_MOVED, K.RACKS_CHANGED)):
            self._racks_moved = True
        self._pending_links.update(change.ids(K.LINKS_CHANGED))
        if K.SETTINGS_CHANGED in change:
            geometry = _geometry_settings(self.design.settings)
            if geometry != self._geometry:
                self._geometry = geometry
                self._dirty.add("trays")  # every route and medium may change

    # ----------------------------------------------------------------------------- stages

    def _topology(self) -> None:
        """The topology stage; its figures (:meth:`_topology_figures`) follow the plant's."""
        design = self.design
        given, self.given_topology = self.given_topology, None  # after an edit: inferred
        topo = self._topo = given if given is not None else infer_topology(design)
        self._groups = self._bw = self._hops = self._min_cut = None  # _topology_figures'
        self._collectives = None  # made when asked: a one-shot given its figures needs none
        self._bisection = None
        self._scale_up = None
        self._plant_rows = None
        self._links_by_tier = dict(Counter(topo.link_tier))
        by_tier = Counter(tier_name(int(v)) for v in topo.level[topo.level >= 1].tolist())
        self._switches_by_tier = dict(sorted(by_tier.items(), key=lambda kv: tier_order(kv[0])))
        self._dirty.add("trays")  # link set changed: tray fill from scratch

    def _topology_figures(self, stages: PlantFreeStages | None) -> None:
        """The new topology's switch groups, bandwidth, hops and cut finder (``stages``: these
        computed apart for the design as it is now), once per topology."""
        topo = self._topo
        if self._bw is not None or topo is None:
            return
        if stages is not None:
            self._groups, self._bw, self._hops = stages.groups, stages.bandwidth, stages.hops
            self._keep_given(topo, stages)
        else:
            self._groups = switch_groups(topo)
            self._bw = bandwidth(self.design, topo, self._groups)
            self._hops = server_hops(topo, self._groups)  # the same components, found once
        self._min_cut = MinCut(topo, switch_groups=self._groups)  # the same components

    def _refresh_device_findings(self, stages: PlantFreeStages | None) -> None:
        """Device figures and rack-U findings after a device edit; the entry checks after an
        edit of what they read (lengths, rack sizes, roles); ``stages``: as in _topology."""
        if "devices" in self._dirty:
            if stages is not None:
                self._dev, self._dev_findings = stages.devices, stages.rack_u_findings
            else:
                self._dev = device_figures(self.design)
                self._dev_findings = warn.rack_u_findings(self.design)
            self._dirty.discard("devices")
        if "entries" in self._dirty:
            given = stages.entry_findings if stages is not None else None
            self._entry_findings = given if given is not None else entry_findings(self.design)
            self._dirty.discard("entries")

    def report(self) -> Report:
        phys, trays, typ, mx, fill, findings, channels = self._checks()
        design = self.design
        topo, bw, dev, hops, min_cut = self._stages()
        free, self._free = self._free, None
        if self._bisection is None:
            # The graph's cuts are kept per topology; a move re-evaluates only the floor's halves.
            self._bisection = free.bisection if free else min_cut.bisection(design)
        media = link_media(topo, self.plant, self._plant_rows, self._rows_in_order)
        settings = design.settings
        servers = np.flatnonzero(topo.is_gpu_server)
        total_gpus = int(topo.gpus.sum())
        coll = self._collective_figures(settings, free)
        job = coll.default["all-reduce"] if coll else None
        points = coll.curves["all-reduce"] if coll else []
        power, power_max, cost = power_and_cost(design, dev, phys, trays, self._facility_cost())
        return Report(
            gpus=total_gpus,
            servers=len(servers),
            racks=len(design.racks),
            switches_by_tier=dict(self._switches_by_tier),
            switches_off_tier=self._switches_off_the_tiers(design, dev, topo),
            links_total=len(topo.link_ids),
            links_by_tier=dict(self._links_by_tier),
            links_by_kind=media.by_kind,
            links_by_medium=media.by_medium,
            links_without_medium=media.no_medium,
            media_available=media.available,
            transceivers=int(plant_sum(phys, "module", "quantity")),
            transceiver_power_w=power["transceivers"],
            transceivers_by_kind=modules_by_kind(phys) if phys else {},
            cable_length_total_m=media.length_total_m,
            cable_length_max_m=media.length_max_m,
            cable_ordered_total_m=media.ordered_total_m,
            oversubscription=bw.tiers,
            switch_oversubscription=self._switch_ratios(topo, bw),
            bisection_gbps=self._bisection.gbps,
            bisection_method=self._bisection.method,
            bisection_regular=self._bisection.regular,
            bisection=self._cut_json(topo, self._bisection),
            hops=hops,
            bandwidth_layers=bw.layers,
            scale_up_gbps=bw.scale_up,
            scale_out_gbps=bw.scale_out,
            effective_gbps=bw.effective,
            bottleneck=bw.bottleneck,
            bottleneck_explanation=bw.explanation,
            scale_up_name=bw.scale_up_name,
            allreduce=job,
            allreduce_curve=points,
            allreduce_knee=coll.knee if coll else "No GPUs, no collective.",
            collectives=coll,
            power_w=power,
            power_w_max=power_max,
            plant=phys.summary() if phys else None,
            channels=channels,
            cost_usd=cost,
            rack_power_w={
                r: (typ[r], mx[r], design.racks[r].power_budget_kw * 1000) for r in design.racks
            },
            tray_fill=fill,
            warnings=sort_findings(findings),
            fabrics=fabric_figures(design, topo, media, phys, self._shapes(topo)),
            reliability=forecast(design, topo, phys, hall=self._hall(topo)),
            power_feeds=power_feed_use(design, mx),
            optics=optics_figures(
                design,
                self.plant,
                phys,
                total_gpus,
                self._optics_by_tier(design, topo),
                self._co_packaged(),
            ),
            cooling=cooling_use(design, mx),
            floor_load=floor_load(design),
        )

    def findings(self) -> list[Finding]:
        """The report's ``warnings``, without the figures only the report shows (collectives,
        bisection, link media, reliability, fabrics: ~0.8 s of 2 s at XL with every network)."""
        return sort_findings(self._checks()[5])

    def _checks(self) -> tuple:
        """Every stage the findings read, brought up to date: (the physical plant, tray items,
        per-rack typical and max power, tray fill, the findings unsorted, structured channels)."""
        design = self.design
        changed, racks_moved = self._take_changes()
        if racks_moved:
            self._bisection = None  # the next report re-evaluates the floor's halves
        if "topology" in self._dirty:
            self._topology()
            self._dirty.discard("topology")
        topo = self._topo
        assert topo is not None  # _topology has run (the first report finds it dirty)
        self._refresh_plant_rows(topo)
        phys = self._physical_plant(topo)
        trays = tray_items(design)
        respan = "tray-spans" in self._dirty
        if "trays" in self._dirty:
            self._trays.reset()
        elif respan:
            self._trays.forget_spans()
        self._dirty -= {"trays", "tray-spans"}
        # Structured: one layout for trays and channels, the physical plant's (same plant now).
        layout = None
        if self.plant and uses_structured(design):
            layout = getattr(phys, "structured", None) or structured_layout(self.plant)
        self.structured = layout
        rows = phys.structured_rows if layout is getattr(phys, "structured", 0) else None
        trunks = trunk_load(self.plant, layout, rows, self._trunk_load) if layout else None
        fill = self._trays.update(design, self.plant, changed, trunks)
        # The caller's plant-free figures, asked for once the plant's stages are done (a forked
        # child has had the routing and these to finish them), before the stages they spare.
        given, self.given_plant_free = self.given_plant_free, None
        self._free = usable_figures(given() if given is not None else None, design)
        stages = self._free.stages if self._free is not None else None
        self._topology_figures(stages)
        self._refresh_device_findings(stages)
        topo, bw, _dev, _hops, _cut = self._stages()
        self._refresh_placement(stages)
        if self._scale_up is None or changed is None or changed or racks_moved or respan:
            self._scale_up = warn.scale_up_findings(design, topo, self.plant)
        typ, mx = self._rack_power_of(phys)
        findings = self._findings(topo, bw, phys, typ, mx, fill)
        channels = None
        if layout is not None:
            # Structured cabling: channel loss, reach and polarity (trunk findings: the plant's).
            channels, channel_finds = table_checks(layout.channels, kept=self._legs.shapes)
            findings.extend(channel_finds)
            findings.extend(skew_findings(layout))
        return phys, trays, typ, mx, fill, findings, channels

    def _stages(self) -> tuple[Topology, Bandwidth, DeviceFigures, Hops, MinCut]:
        """The topology and device stages' results, which :meth:`report` has just brought up
        to date (they start as None, before the first report)."""
        topo, bw, dev, hops, cut = self._topo, self._bw, self._dev, self._hops, self._min_cut
        if topo is None or bw is None or dev is None or hops is None or cut is None:
            raise RuntimeError("the analyzer's topology and device stages have not run")
        return topo, bw, dev, hops, cut

    def _take_changes(self) -> tuple[set[str] | None, bool]:
        """The links to re-read from the plant (None: all, no event history to go by) and
        whether a rack moved since the last report; refreshes the plant when asked to."""
        followed = self._subscription is not None or self._explicit
        # A tray edit recounts the tray fill by comparing the plant's rows with the counted
        # ones: the links it re-routed are not gathered one by one (a corner drop on XL's
        # busiest tray: 190k ids put in a set and copied, ~50-80 ms of the analysis).
        recount = "trays" in self._dirty
        changed: set[str] | None = set(self._pending_links) if followed and not recount else None
        self._pending_links.clear()
        racks_moved, self._racks_moved = self._racks_moved, False
        if self.plant is not None and self.refresh_plant:
            refreshed = self.plant.refresh()
            if changed is not None:
                changed |= set(refreshed)
        return changed, racks_moved

    def _refresh_placement(self, stages: PlantFreeStages | None) -> None:
        """Clashes and placement findings after a rack or hall edit (only the moved racks'
        clashes when racks only moved; ``stages``: as in _topology)."""
        if "placement" not in self._dirty:
            return
        design = self.design
        moved = self._moved_racks
        if stages is not None:
            self._clashes, self._placement = stages.clashes, stages.placement_findings
        elif moved is not None and self._clashes is not None:
            self._clashes = warn.moved_clashes(design, self._clashes, moved)
        else:
            self._clashes = rack_clashes(design)
        self._moved_racks = set()
        if stages is None:
            self._placement = warn.placement_findings(design, self._clashes)
        self._dirty.discard("placement")
        self._scale_up = None

    def _refresh_plant_rows(self, topo) -> None:
        """The plant row of each topology link, redone when the link set or the rows change (a
        full rebuild: new generation and id list); a tray edit keeps the id list (a live plant's
        changes in place only when links come or go, which drops the rows): ~17 ms at XL."""
        now = (getattr(self.plant, "route_generation", None), getattr(self.plant, "link_ids", None))
        if self.plant is None or (
            self._plant_rows is not None
            and len(self._plant_rows) == len(topo.link_ids)
            and (now[0] == self._rows_generation[0] or now[1] is self._rows_generation[1])
        ):
            return
        self._rows_generation = now
        self._rows_in_order = in_order = list(self.plant.link_ids) == topo.link_ids
        if in_order:
            rows = np.arange(len(topo.link_ids), dtype=np.int64)
        else:
            index = self.plant.index
            rows = np.fromiter(
                (index[lid] for lid in topo.link_ids), dtype=np.int64, count=len(topo.link_ids)
            )
        # A tray edit starts a route generation over the same rows: the rows kept as the same
        # array, what is keyed on them stands (the tier codes: ~30 ms at XL after each drop).
        kept = self._plant_rows
        if kept is None or not np.array_equal(kept, rows):
            self._plant_rows = rows

    def _physical_plant(self, topo):
        """The caller's physical plant, else ``build_plant`` of the plant split by fabric once:
        the totals are the sums, the per-fabric figures its parts (None without a plant)."""
        phys = self.given_phys
        if self.plant is None or phys is not None:
            return phys
        codes = self._fabric_codes(topo)  # Fabric code per plant row (-1: none, the last name)
        fabric_rows = ([*FABRICS, ""], codes) if codes is not None else None
        # Edits follow (a one-shot keeps no legs, nor the count's copies: see PlantCache.keep).
        self._plant_cache.keep = edited = self._subscription is not None or self._explicit
        edited = edited and uses_structured(self.design)
        lay = structured_layout(self.plant, memo=self._legs) if edited else None
        return build_plant(self.plant, fabric_rows=fabric_rows, cache=self._plant_cache, layout=lay)

    def _rack_power_of(self, phys):
        """Typical and maximum power per rack (the previous sums while the plant cache hands
        back the same plug dicts: no plug changed)."""
        plugs = (phys.device_power_w, phys.device_power_w_max) if phys else (None, None)
        return self._rack_power.of(self.design, self._dev, *plugs)

    def _findings(self, topo, bw, phys, typ, mx, fill) -> list:
        """Every finding of the report but the structured channels', unsorted."""
        design = self.design
        findings = [
            *self._placement,
            *self._dev_findings,
            *self._entry_findings,
            *(self._scale_up or ()),
            *self._nic_mode_findings(design, topo),
            *strategy_findings(design, self._optics_by_tier(design, topo)),
            *self._topology_findings(topo, bw),
            *warn.rack_power_findings(design, typ, mx),
            *power_findings(design, mx),  # feeds and panels at max draw (model.facility)
            *cooling_findings(design, mx),
            *floor_findings(design),
            *warn.tray_findings(design, fill, self._trays),
        ]
        if self.plant is not None:
            findings.extend(self.plant.findings())
            findings.extend(phys.findings)
        return findings

    def _collective_figures(self, settings, free=None):
        """The default job's collectives and curves (~1 s at 131k GPUs), kept while topology and
        settings stand (a rack move changes none); ``free``: PlantFreeFigures, if of these."""
        key = collective_settings_key(settings)
        if free is not None and free.settings_key == key and self._collectives is None:
            return free.collectives  # analyze()'s, computed apart: no Collectives (~20 ms XL)
        coll = self._collectives or Collectives(self.design, self._topo, groups=self._groups)
        self._collectives = coll.with_pxn(settings.pxn == "on").with_routing(settings.routing)
        if free is not None and free.settings_key == key:
            self._allreduce_figures = (self._collectives, key, free.collectives)
        cached = self._allreduce_figures
        if cached is None or cached[0] is not self._collectives or cached[1] != key:
            figures = collective_figures(self._collectives, settings)
            cached = self._allreduce_figures = (self._collectives, key, figures)
        return cached[2]


def _geometry_settings(settings) -> tuple:
    """The settings that change routed lengths or media (and so tray fill)."""
    return (
        settings.slack_per_end_m,
        settings.slack_pct,
        settings.tray_reach_m,
        settings.tray_join_tolerance_m,
        settings.media_policy,
    )
