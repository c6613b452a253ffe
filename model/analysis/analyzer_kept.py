"""The analyzer's figures kept per topology (and the plant's media): each is redone only when
what it reads changed, so an edit that leaves it as it was (a rack move: the same topology,
mostly the same media) reads it back. A mixin of :class:`model.analysis.analyzer.Analyzer`,
which owns the slots (set in its ``__init__``); apart because the analyzer passed 600 lines.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from model.analysis import warnings as warn
from model.analysis.bisection import Bisection
from model.analysis.devices import DeviceFigures, switches_off_the_tiers
from model.analysis.fabrics import fabric_shapes
from model.analysis.min_cut import cut_json
from model.analysis.nic_modes import nic_mode_findings
from model.analysis.optics import co_packaged_devices, optics_by_tier
from model.analysis.optics_plugs import PlugTally, kept_tally
from model.analysis.plant_free_stages import PlantFreeStages
from model.analysis.reliability import hall_counts
from model.design.design import Design
from model.facility.parts import facility_cost


class KeptFigures:
    """Figures kept while the topology (and what else each names) stands."""

    design: Design
    plant: Any
    _subscription: Any  # the design's change subscription (None: a one-shot or snapshots)
    _explicit: bool  # fed by Analyzer.advance(): edits follow
    _optics_kept: Any  # (topology, part tables, media, optics per tier)
    _plugs: PlugTally | None  # each cage's plug, kept while the cages stand
    _cut: tuple | None  # (topology, bisection, its cut_json)
    _nic_modes: Any  # (topology, NIC_MODE_UNSUPPORTED findings) of that topology
    _topo_findings: Any  # (topology, bandwidth, target, findings)
    _kept_per_topology: dict[str, tuple]  # slot: (topology, catalog, value)
    _off_tiers: Any  # (topology, device figures, switches off the tiers)
    _ratios: Any  # (topology, bandwidth, each switch's oversubscription by id)
    _fabric_rows: Any  # (topology, plant rows, rows, fabric code per plant row)
    _plant_rows: np.ndarray | None  # the plant row of each topology link
    _dev: DeviceFigures | None  # the device figures: a new object after any device or rack edit
    _co_packaged_kept: Any  # (device figures, catalog, co-packaged devices)
    _facility_kept: Any  # (device figures, catalog, hall, facility cost)

    def _optics_by_tier(self, design, topo):
        """model.analysis.optics.optics_by_tier, kept while the topology, the plant's part
        tables and every link's medium stand (a rack move that flips no medium: ~0.1 s of a
        report at 400k links saved). A one-shot analysis (analyze(): no edit will follow)
        counts the plugs without the tally an edit would recount (~0.03-0.1 s less at XL)."""
        plant = self.plant
        parts = getattr(plant, "parts", None)
        if parts is None:  # no plant, or a stand-in without part tables: nothing to key on
            return optics_by_tier(design, plant)
        medium = np.asarray(plant.medium_index)
        kept = self._optics_kept
        if (
            kept is not None
            and kept[0] is topo
            and kept[1].specs == parts.specs  # a snapshot's tables are copies
            and kept[1].modules == parts.modules
            and np.array_equal(kept[2], medium)
        ):
            return kept[3]
        if self._subscription is not None or self._explicit:  # edits follow: kept plug tally
            self._plugs = kept_tally(self._plugs, plant)  # a tray edit: the changed media's cages
        tiers = optics_by_tier(design, plant, tally=self._plugs, co_packaged=self._co_packaged())
        self._optics_kept = (topo, parts, medium.copy(), tiers)
        return tiers

    def _co_packaged(self) -> list:
        """``co_packaged_devices`` of the design, kept while the device figures and the
        catalog stand: the analyzer makes new device figures after every edit of a device or
        a rack (the records the list is of), and a tray edit changes neither (a pass over the
        XL hall's 21k devices, ~3.5 ms of each report, twice: the tiers and their strategy)."""
        design, dev = self.design, self._dev
        kept = self._co_packaged_kept
        if dev is None:  # no device stage yet: nothing to key on
            return co_packaged_devices(design)
        if kept is None or kept[0] is not dev or kept[1] is not design.catalog:
            kept = self._co_packaged_kept = (dev, design.catalog, co_packaged_devices(design))
        return kept[2]

    def _facility_cost(self) -> dict[str, float]:
        """``facility_cost`` of the design, kept while the device figures (new after every
        device or rack edit: the PDUs, rack types and cooling paths it reads are the racks'),
        the catalog and the hall record (its cooling units; replaced when edited) stand: a
        tray edit changes none of them (~2.9 ms of each XL report). A copy: reports own their
        dicts."""
        design, dev = self.design, self._dev
        if dev is None:
            return facility_cost(design)
        kept = self._facility_kept
        if (
            kept is None
            or kept[0] is not dev
            or kept[1] is not design.catalog
            or kept[2] is not design.hall
        ):
            kept = self._facility_kept = (dev, design.catalog, design.hall, facility_cost(design))
        return dict(kept[3])

    def _keep_given(self, topo, stages: PlantFreeStages) -> None:
        """Keep the figures of ``stages`` (computed apart for the design as it is now, with the
        bandwidth the analyzer takes from them) as computed here for ``topo``."""
        catalog = self.design.catalog
        self._nic_modes = (topo, stages.nic_mode_findings)
        target = self.design.settings.oversubscription_target
        self._topo_findings = (topo, stages.bandwidth, target, stages.topology_findings)
        self._kept_per_topology["shapes"] = (topo, catalog, stages.fabric_shapes)
        self._kept_per_topology["hall"] = (topo, catalog, stages.hall_counts)

    def _switches_off_the_tiers(self, design, dev: DeviceFigures, topo) -> dict[str, int]:
        """``switches_off_the_tiers``, kept while the topology and the device figures stand:
        it reads the switches, the links and the tiers, each of whose edits makes a new
        topology or new figures; a tray edit changes none (~2 ms of each report at XL)."""
        kept = self._off_tiers
        if kept is None or kept[0] is not topo or kept[1] is not dev:
            kept = self._off_tiers = (
                topo,
                dev,
                switches_off_the_tiers(design, dev.switch_ids, topo),
            )
        return dict(kept[2])

    def _switch_ratios(self, topo, bw) -> dict[str, float]:
        """Each switch's oversubscription by device id (the switches with a ratio), kept while
        topology and bandwidth stand: a tray edit changes neither (~0.5 ms of each report for
        the 21k switches of XL); a copy, as each report owns its dicts (a one-shot analysis,
        which no edit follows, keeps none and copies none)."""
        kept = self._ratios
        if kept is None or kept[0] is not topo or kept[1] is not bw:
            ratio, ids = bw.switch_ratio, topo.device_ids
            by_id = {ids[i]: float(ratio[i]) for i in np.flatnonzero(~np.isnan(ratio)).tolist()}
            if self._subscription is None and not self._explicit:
                return by_id
            kept = self._ratios = (topo, bw, by_id)
        return dict(kept[2])

    def _fabric_codes(self, topo) -> np.ndarray | None:
        """The fabric code of each plant row (-1: none) that build_plant splits the plant by
        (None: the topology has no fabrics), kept while the topology and the plant rows stand
        (a tray or rack edit keeps both: ~1.2 ms of each XL report), read-only: every report
        reads the same array."""
        rows = self._plant_rows
        if topo.fabric is None or rows is None:
            return None
        n = len(self.plant.link_ids)
        kept = self._fabric_rows
        if kept is None or kept[0] is not topo or kept[1] is not rows or kept[2] != n:
            codes = np.full(n, -1, dtype=np.int64)
            codes[rows] = topo.fabric
            codes.flags.writeable = False
            kept = self._fabric_rows = (topo, rows, n, codes)
        return kept[3]

    def _cut_json(self, topo, bis: Bisection) -> dict:
        """``cut_json``, kept while topology and bisection stand (~4 ms of each XL report)."""
        if self._cut is None or self._cut[0] is not topo or self._cut[1] is not bis:
            self._cut = (topo, bis, cut_json(topo, bis))
        return self._cut[2]

    def _nic_mode_findings(self, design, topo):
        """NIC_MODE_UNSUPPORTED (model.analysis.nic_modes), redone only for a new topology:
        it reads links and device types, which a rack move leaves as they were."""
        if self._nic_modes is None or self._nic_modes[0] is not topo:
            self._nic_modes = (topo, nic_mode_findings(design))
        return self._nic_modes[1]

    def _topology_findings(self, topo, bw):
        """``warnings.topology_findings``, kept while topology, bandwidth and target stand (a
        device rename or a link edit makes a new topology)."""
        target = self.design.settings.oversubscription_target
        cached = self._topo_findings
        if cached is None or cached[0] is not topo or cached[1] is not bw or cached[2] != target:
            findings = warn.topology_findings(self.design, topo, bw.switch_ratio)
            cached = self._topo_findings = (topo, bw, target, findings)
        return cached[3]

    def _shapes(self, topo):
        """The fabrics' topology part (``fabric_shapes``), kept while topology and catalog stand."""
        return self._per_topology("shapes", fabric_shapes, topo)

    def _hall(self, topo):
        """The hall's GPUs, hosts, NICs, switches and NVLink trays for the reliability forecast,
        kept while topology and catalog stand (2-4 ms of every report at 16k GPUs otherwise,
        growing with the devices and links)."""
        return self._per_topology("hall", hall_counts, topo)

    def _per_topology(self, slot: str, compute, topo):
        """``compute(design, topo)``, kept in ``slot`` while the topology and catalog stand."""
        catalog = self.design.catalog
        cached = self._kept_per_topology.get(slot)
        if cached is None or cached[0] is not topo or cached[1] is not catalog:
            cached = self._kept_per_topology[slot] = (topo, catalog, compute(self.design, topo))
        return cached[2]
