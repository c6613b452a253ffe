"""The optimiser's objective and hard limits, read from the plant and analysis functions.

Terms (each from the function the analysis itself uses, so a delta here is the analysis's):

* ``cost_usd``: capital cost of the physical plant (modules, cables, fibres, structured parts:
  :func:`model.plant.physical_plant.build_plant`), plus what the devices cost more (or less)
  than at the start: a rack move changes no device, an optics move to co-packaged swaps the
  tier's switches for their twins, whose price is part of the choice;
* ``optics_power_w`` / ``optics_power_w_max``: typical and maximum draw of the same plant items
  and of co-packaged ports' optical engines (the plant totals them apart), plus the devices'
  own draw beyond the start's (a co-packaged twin's switch power is part of the choice);
* ``failures_per_day``: the all-cause forecast of :func:`model.analysis.reliability.forecast`;
* ``cable_m``: ordered metres of every link that has a medium (backplane links excluded).

The weighted sum normalises each term by its value in the starting design, so weight 1 on cost
and 1 on power means "1 % of cost is worth 1 % of power". Failures are normalised by the
plant-counted share (optics and cables) of the start's forecast: GPUs, hosts and switches fail
the same wherever a rack stands, and dividing by them would make the weight toothless.

Hard limits (:meth:`Pricer.limits`): no rack clash (the canvas's rule), no more links without a
medium or tray path than at the start, each rack's maximum draw within its budget (or no worse
than at the start), each tray's fill within 40 % (or no worse than at the start), and, for
structured cabling, no more channels over their loss, patch-point or reach limit than at the start.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from model.analysis.reliability import NETWORK, forecast, hall_counts
from model.analysis.topology import infer_topology
from model.analysis.tray_fill import TrayFill, trunk_load
from model.analysis.tray_fill_probe import probe
from model.analysis.tray_fill_undo import take_back
from model.analysis.warnings import TRAY_FILL_WARNING
from model.common.arrays import unique_sorted
from model.design.changes import ChangeKind
from model.design.design import Design
from model.design.rack_clashes import rack_clashes
from model.engine.routed_links import NO_MEDIUM, NO_TRAY_PATH, PINNED_OUT_OF_REACH, RoutedLinks
from model.plant.physical_plant import PlantCache, build_plant, rack_power

TERMS = ("cost_usd", "optics_power_w", "optics_power_w_max", "failures_per_day", "cable_m")
DEFAULT_WEIGHTS = {
    "cost_usd": 1.0,
    "optics_power_w": 0.5,
    "optics_power_w_max": 0.5,
    "failures_per_day": 0.5,
    "cable_m": 0.1,
}
# Short names accepted by --weights (cost=1,power=0.5,...).
ALIASES = {
    "cost": "cost_usd",
    "power": "optics_power_w",
    "power_max": "optics_power_w_max",
    "failures": "failures_per_day",
    "cable": "cable_m",
    "metres": "cable_m",
}
UNREACHED = NO_MEDIUM | NO_TRAY_PATH | PINNED_OUT_OF_REACH
CHANNEL_LIMIT_CODES = (
    "CHANNEL_LOSS_OVER_BUDGET",
    "CHANNEL_TOO_MANY_PANELS",
    "CHANNEL_REACH_EXCEEDED",
)

# A candidate's tray fill is bounded before its media choice (Pricer._over_bound) while at
# least this share of recent bounded candidates was refused so (each new one weighs
# BOUND_WEIGHT), and once every BOUND_PROBE_EVERY candidates otherwise, to notice a change.
BOUND_PAYS = 0.5
BOUND_WEIGHT = 0.2
BOUND_PROBE_EVERY = 32


class OptimiseError(ValueError):
    """Input the optimiser cannot work with (the message says which and why)."""


def parse_weights(text: str | None, base: dict[str, float] | None = None) -> dict[str, float]:
    """``"cost=1,power=0.2"`` over ``base`` (default: the balanced defaults); a weight is a
    finite number ≥ 0."""
    weights = dict(DEFAULT_WEIGHTS if base is None else base)
    if not text:
        return weights
    for item in text.split(","):
        name, sep, value = item.partition("=")
        key = ALIASES.get(name.strip(), name.strip())
        if not sep or key not in weights:
            raise OptimiseError(
                f"weight {item.strip()!r}: write NAME=NUMBER with NAME one of "
                + ", ".join([*ALIASES, *TERMS])
            )
        try:
            w = float(value)
        except ValueError:
            raise OptimiseError(
                f"weight {name.strip()}: {value.strip()!r} is not a number"
            ) from None
        if not math.isfinite(w) or w < 0:
            raise OptimiseError(f"weight {name.strip()}: {w} must be a finite number ≥ 0")
        weights[key] = w
    if not any(weights.values()):
        raise OptimiseError("every weight is 0: there is nothing to minimise")
    return weights


@dataclass
class Priced:
    """One state's terms, the media of its links and its hard-limit figures."""

    terms: dict[str, float]
    medium_index: np.ndarray
    unreached: int
    channel_breaks: int
    tray_fill: dict[str, float] = field(default_factory=dict)
    # Draw at maximum (devices' own and their plugs') of each rack with a device whose plugs
    # draw otherwise than at the start; every other rack draws as at the start.
    rack_max_w: dict[str, float] = field(default_factory=dict)
    # False: refused at its tray fill before its plant was counted (no terms, no rack draws)
    complete: bool = True


class Pricer:
    """Prices the design as it stands through ``plant``; keeps the caches the editor keeps."""

    def __init__(self, design: Design, plant: RoutedLinks) -> None:
        self.design, self.plant = design, plant
        plant.index_rack_rows()  # a run moves hundreds of racks: their rows found in one sort
        self.topo = infer_topology(design)  # devices and links do not change in a move
        self.hall = hall_counts(design, self.topo)
        self.cache = PlantCache()
        # Each pricing reads the plug draws at once (into Priced.rack_max_w), keeping no dict.
        self.cache.plugs_in_place = True
        self.fill = TrayFill()
        self._backplane = np.array([m.kind == "backplane" for m in plant.media] + [False])
        self._copper = np.array([m.is_copper for m in plant.media] + [False])
        self._changed: set[str] | None = None
        # Whether every edit since the last pricing only moved racks (the plant cache then
        # keeps its cage graph without comparing the cage arrays): followed by a subscription.
        self._only_moves = False
        # The racks moved since the last pricing, and the plant rows of each rack's links
        # (kept while only racks move): what the plant cache and the tray fill compare.
        self._moved: set[str] = set()
        self._rack_rows: dict[str, np.ndarray] = {}
        # Per plant row: ordered micrometres counted and whether unreached, with their totals
        self._per_row: tuple[np.ndarray, np.ndarray, list[int]] | None = None
        # The listener holds the pricer weakly and goes with it: a design outlives its runs.
        follow = weakref.ref(self)

        def heard(change) -> None:
            pricer = follow()
            if pricer is None:
                return
            if change.kinds - {ChangeKind.RACKS_MOVED}:
                pricer._only_moves = False
                pricer._thinnest = None
            pricer._moved.update(change.ids(ChangeKind.RACKS_MOVED))

        weakref.finalize(self, design.subscribe(heard).close)
        self.start_places = {r.id: (r.x, r.y) for r in design.racks.values()}
        self.start_devices = self._device_figures()
        self.device_delta = (0.0, 0.0, 0.0)  # cost, typical and max W beyond the start's
        self._rack_tables()
        # Plug draw at maximum per device at the start (a copy: the cache updates its own)
        self._start_plugs: dict[str, float] | None = None
        # (the plant cache's power generation, the devices whose plug draw at maximum then
        # differs from the start's), followed from one pricing to the next through the
        # devices the cache summed again
        self._off_devices: tuple[int, set[str]] | None = None
        self._layout_free = False  # the last whole pricing had no structured layout
        self._fill_first: tuple[float, int, dict[str, float] | None] | None = None
        # What the last pricing, refused at its tray fill, wrote into the per-row link totals
        # (rows, their micrometres and unreached flags and the totals as they were): put back
        # by take_back() with the tray fill's own record.
        self._refused: tuple[np.ndarray, np.ndarray, np.ndarray, list[int]] | None = None
        self._probed = False  # the last pricing was refused at its bound (_over_bound)
        self._hint: np.ndarray | None = None  # _hinted()'s rows, for the pricing under way
        self._limits: tuple[tuple, dict[str, float]] | None = None  # _fill_limits()
        # Candidates whose tray fill was bounded before their media choice, and those the
        # bound refused (_over_bound)
        self.bound_tries = self.bound_refusals = 0
        # The recent share of bounded candidates the bound refused (decayed), and the
        # candidates not bounded since the last one that was
        self._bound_rate, self._bound_skipped = 1.0, 0
        # Every plant row's thinnest medium (plant.thinnest_media), kept while only racks move:
        # a function of the row's port classes and pin, which a rack move leaves as they are.
        self._thinnest: np.ndarray | None = None
        self.start = self.price()
        self._start_plugs = dict(self._plugs)
        self._off_devices = (self.cache.power_generation, set())
        self.start_forecast = self.last_forecast
        self.start_power = rack_power(design, plant)
        self._plant_fails = max(self._network_fails(self.start_forecast), 1e-12)
        self.norm = {t: max(abs(self.start.terms[t]), 1e-9) for t in TERMS}
        self.norm["failures_per_day"] = self._plant_fails

    def _device_figures(self) -> tuple[float, float, float]:
        types = self.design.catalog.device_types
        cost = typ = mx = 0.0
        for device in self.design.devices.values():
            t = types[device.type]
            cost += t.price_usd
            typ += t.power_typical_w
            mx += t.power_max_w
        return cost, typ, mx

    def _rack_tables(self) -> None:
        """Each rack's devices and their own maximum draw (plugs apart), and each device's
        rack: what a rack's power at maximum draw adds the plugs' to, kept while the devices
        stand, so a move checks only the racks it touched."""
        design = self.design
        types = design.catalog.device_types
        self._rack_of: dict[str, str] = {}
        self._rack_devices: dict[str, list[str]] = {}
        self._rack_own_max: dict[str, float] = dict.fromkeys(design.racks, 0.0)
        for device in design.devices.values():
            self._rack_of[device.id] = device.rack
            self._rack_devices.setdefault(device.rack, []).append(device.id)
            self._rack_own_max[device.rack] += types[device.type].power_max_w

    def rack_max_w(self, priced: Priced, rack_id: str) -> float:
        """A rack's draw at maximum: its devices' own and their plugs' (as
        :func:`model.plant.physical_plant.rack_power` counts it)."""
        found = priced.rack_max_w.get(rack_id)
        if found is not None:
            return found
        assert self._start_plugs is not None  # set once the start is priced
        return self._rack_sum(self._start_plugs, rack_id)

    def _rack_sum(self, plugs: dict[str, float], rack_id: str) -> float:
        return self._rack_own_max[rack_id] + sum(
            plugs.get(d, 0.0) for d in self._rack_devices.get(rack_id, ())
        )

    def _follow_plugs(self, plugs: dict[str, float]) -> dict[str, float]:
        """The draw at maximum of each rack with a device whose plug draw in ``plugs`` (the
        dicts just priced) differs from the start's: only the devices the cache summed again
        can have changed since the last pricing (comparing every device's draw with the
        start's, ~20k at XL, was ~3 ms of each move). A plug's draw is its cage's medium's, so
        a move changes the draw of the racks of the moved links' cages alone."""
        first = self._start_plugs
        if first is None:  # the start itself
            return {}
        followed, generation = self._off_devices, self.cache.power_generation
        resummed = self.cache.resummed
        if followed is not None and followed[0] == generation:
            off = followed[1]
        elif (
            followed is not None
            and resummed is not None
            and resummed[0] == followed[0]
            and resummed[1] == generation
            and resummed[2] is not None
        ):
            off = followed[1]
            for d in resummed[2]:
                if plugs.get(d, None) != first.get(d, None):
                    off.add(d)
                else:
                    off.discard(d)
        else:
            off = {d for d, w in plugs.items() if first.get(d) != w}
            off |= first.keys() - plugs.keys()
        self._off_devices = (generation, off)
        rack_of = self._rack_of
        return {r: self._rack_sum(plugs, r) for r in sorted({rack_of[d] for d in off})}

    def devices_changed(self) -> None:
        """Recount what depends on the device types (after an optics move swapped switches):
        the topology and hall counts of the failure forecast, and the devices' cost and draw."""
        self.topo = infer_topology(self.design)
        self.hall = hall_counts(self.design, self.topo)
        (cost, typ, mx), start = self._device_figures(), self.start_devices
        self.device_delta = (cost - start[0], typ - start[1], mx - start[2])
        self._rack_tables()
        self._thinnest = None  # the swapped switches' ports may take other media

    @staticmethod
    def _network_fails(fc: dict) -> float:
        return sum(fc["categories"][n]["failures_per_day"] for n in NETWORK)

    def price(self, changed: set[str] | None = None, stop_at_fill: bool = False) -> Priced:
        """Terms of the design as it stands (``changed``: link ids the last refresh reported).

        ``stop_at_fill``: when a tray would fill past its limit (and no link loses its reach,
        the limit :meth:`broken` checks before), the state is refused before its plant is
        counted: the Priced has no terms (``complete`` False), and :meth:`broken` names a tray
        past its limit (refused at the thinnest-cable bound: that fill, perhaps another tray
        than a whole pricing would name; the decision is the same)."""
        design, plant = self.design, self.plant
        self._fill_first = self._refused = self._hint = None
        self._probed = False
        if stop_at_fill and self._only_moves and plant.deferred_media is not None:
            # Bounded while the bound pays: when it does not decide, its fill is counted and
            # taken back for nothing (~ the media choice it saves when it does). The S pod
            # refuses no candidate at its fill; XL all but 58 of 452 (seed 0).
            if self._bound_rate >= BOUND_PAYS or self._bound_skipped >= BOUND_PROBE_EVERY:
                self._bound_skipped = 0
                refused = self._over_bound(changed)
                if refused is not None:
                    return refused
            else:
                self._bound_skipped += 1
        if plant.deferred_media is not None:
            changed = (changed or set()) | plant.finish_media()
        if stop_at_fill and self._only_moves:
            refused = self._over_fill(changed)
            if refused is not None:
                return refused
        # (metres, links unreached, tray fill or None) found for this state by _over_fill
        first, self._fill_first = self._fill_first, None
        only, moved, self._moved = self._only_moves, self._moved, set()
        self.cache.cages_unchanged, self._only_moves = only, True
        self.cache.rows_hint = (len(plant.link_ids), self._rows_of(moved)) if only else None
        self.cache.hinted_rows = None  # set again by this count (a plant of no rows has none)
        if not only:
            self._rack_rows.clear()  # links may have changed: their rows are found again
        phys = build_plant(plant, cache=self.cache)
        hinted = self.cache.hinted_rows
        self._plugs = phys.device_power_w_max  # read now: the cache updates it in place
        rack_max = self._follow_plugs(self._plugs)
        dev_cost, dev_typ, dev_max = self.device_delta
        cost = sum(i.quantity * i.unit_price_usd for i in phys.items) + dev_cost
        typ = sum(i.quantity * i.unit_power_w for i in phys.items)
        typ += phys.co_packaged_power_w + dev_typ
        mx = sum(i.quantity * i.unit_power_w_max for i in phys.items)
        mx += phys.co_packaged_power_w_max + dev_max
        fc = forecast(design, self.topo, phys, hall=self.hall)
        self.last_forecast = fc
        # The plant's own int32 column: widened to int64 and copied twice, it was two 3 MB
        # copies of every XL move; the price keeps one int32 copy.
        medium = np.asarray(plant.medium_index)
        # Found before the count for these same rows (the moved racks' links' components):
        # taken as they are, not compared again.
        metres, unreached = first[:2] if first is not None else self._link_totals(medium, hinted)
        layout = getattr(phys, "structured", None)
        self._layout_free = layout is None
        if first is not None and first[2] is not None:
            fill = first[2]
        else:
            fill = self.fill.update(
                design,
                plant,
                changed,
                trunk_load(plant, layout) if layout is not None else None,
                loads=False,  # the limit is the fill ratio: no weight or bend figures per move
                rows_hint=hinted,  # the rows the cache compared: all a rack move can change
            )
        breaks = 0
        if layout is not None:
            from model.structured.channel_checks import table_checks

            breaks = sum(f.code in CHANNEL_LIMIT_CODES for f in table_checks(layout.channels)[1])
        return Priced(
            terms={
                "cost_usd": float(cost),
                "optics_power_w": float(typ),
                "optics_power_w_max": float(mx),
                "failures_per_day": float(fc["failures_per_day"]),
                "cable_m": metres,
            },
            medium_index=medium.copy(),
            unreached=unreached,
            channel_breaks=breaks,
            tray_fill=dict(fill),
            rack_max_w=rack_max,
        )

    def _over_fill(self, changed: set[str] | None) -> Priced | None:
        """The state's tray fill and reach alone, as a Priced without terms, when a tray would
        fill past its limit and no link loses its reach; None otherwise (or when the fill
        needs the plant: structured trunks), and the caller prices the state whole.

        Taken while only racks moved since the last whole pricing, whose cage graph therefore
        stands (a move changes no link end's cage): the rows a move can change are those of
        the moved racks' links' cage components, the rows the plant cache compares. The tray
        fill and link totals found here are the state's: the whole pricing that follows when
        no tray is over takes them as they are (the same rows). The moved racks stay
        listed for the plant cache, which has not counted them. At XL most candidates fill a
        tray past 40 % (187 of 219 priced, seed 0): their plant count was most of their price.
        """
        graph, plant = self.cache._graph, self.plant
        if not self._layout_free or graph is None or len(graph.comp) != len(plant.link_ids):
            return None
        hinted = self._hinted(graph)
        medium = np.asarray(plant.medium_index)
        kept = self._per_row
        saved = None
        if kept is not None and len(kept[0]) == len(medium):
            saved = (hinted, kept[0][hinted], kept[1][hinted], list(kept[2]))
        metres, unreached = self._link_totals(medium, hinted)
        if unreached > self.start.unreached:
            # broken() names the reach first: priced whole, as it was
            self._fill_first = (metres, unreached, None)
            return None
        fill = self.fill.update(
            self.design, plant, changed, None, loads=False, rows_hint=hinted, undoable=True
        )
        start = self.start.tray_fill
        if not any(
            ratio > max(TRAY_FILL_WARNING, start.get(tray_id, 0.0)) + 1e-9
            for tray_id, ratio in fill.items()
        ):
            self._fill_first = (metres, unreached, fill)  # the whole pricing takes them
            return None
        self._refused = saved if self.fill.undo is not None else None
        return Priced(
            terms={},
            medium_index=medium.copy(),
            unreached=unreached,
            channel_breaks=0,  # no structured channel: the layout-free case only
            tray_fill=dict(fill),
            complete=False,
        )

    def _over_bound(self, changed: set[str] | None) -> Priced | None:
        """The state refused at its tray fill before its media are chosen, when even the
        thinnest cable each moved link could take fills a tray past its limit (the plant
        refreshed with ``defer_media``: those rows are given the thinnest media,
        ``bound_media``; the fill found from the kept levels, counting nothing:
        :func:`model.analysis.tray_fill_probe.probe`); None when that bound does not decide
        (the caller then chooses the media and counts the fill).

        A chosen cable is never thinner, and a tray's fill only grows with its cables, so the
        fill with the chosen media is past the limit too, or a link found no medium and the
        state loses its reach: refused either way, as the whole pricing refuses it. Exact only
        when the start reaches every link (a link without a medium refuses the state only if
        the start had none), so otherwise the media are chosen first, as before. At XL most
        candidates fill a tray past 40 % even with every moved link on its thinnest cable."""
        graph, plant = self.cache._graph, self.plant
        if (
            self.start.unreached
            or not self._layout_free
            or graph is None
            or len(graph.comp) != len(plant.link_ids)
        ):
            return None
        hinted = self._hinted(graph)
        thinnest = self._thinnest
        if thinnest is None or len(thinnest) != len(plant.link_ids):
            thinnest = self._thinnest = plant.thinnest_media(np.arange(len(plant.link_ids)))
        plant.bound_media(thinnest)
        # Found from the kept levels, nothing counted (refused, there is nothing to take back;
        # otherwise the media are chosen and counted as before).
        fill = probe(self.fill, self.design, plant, hinted, self._fill_limits())
        if fill is None:
            return None
        self.bound_tries += 1
        start = self.start.tray_fill
        over = any(
            ratio > max(TRAY_FILL_WARNING, start.get(tray_id, 0.0)) + 1e-9
            for tray_id, ratio in fill.items()
        )
        self._bound_rate += BOUND_WEIGHT * (over - self._bound_rate)
        if not over:
            return None
        self.bound_refusals += 1
        self._probed = True  # take_back() has only the racks to put back
        return Priced(
            terms={},
            medium_index=np.zeros(0, np.int32),  # not chosen: a refused state shows no media
            unreached=self.start.unreached,  # not counted: broken() names the tray
            channel_breaks=0,  # no structured channel: the layout-free case only
            tray_fill=dict(fill),
            complete=False,
        )

    def _fill_limits(self) -> dict[str, float]:
        """Each tray's fill limit as :meth:`broken` reads it (40 %, or the start's fill where
        higher); a ratio must pass it by more than 1e-9 to break it."""
        key = (TRAY_FILL_WARNING, tuple(self.design.trays))
        if self._limits is None or self._limits[0] != key:
            start = self.start.tray_fill
            limits = {t: max(TRAY_FILL_WARNING, start.get(t, 0.0)) for t in self.design.trays}
            self._limits = (key, limits)
        return self._limits[1]

    def _hinted(self, graph) -> np.ndarray:
        """The rows a move of the racks moved since the last whole pricing can change (their
        links' cage components in ``graph``, the plant cache's), found once per pricing: the
        bound and the fill after the media choice ask for the same rows."""
        if self._hint is None:
            self._hint = graph.rows_of(unique_sorted(graph.comp[self._rows_of(self._moved)]))
        return self._hint

    def mark(self) -> set[str]:
        """The racks moved since the last whole pricing, before a candidate moves more: what
        :meth:`take_back` returns to."""
        return set(self._moved)

    def take_back(self, mark: set[str]) -> bool:
        """After a candidate refused at its tray fill (the last pricing) was moved back and its
        plant rows put back as saved (:func:`model.engine.move_undo.restore`): the tray fill,
        the per-row link totals and the racks to compare put back as they were at ``mark``, so
        the next pricing neither compares nor recounts the moved-back rows (at XL the move
        back's recount was about as dear as the move's). False (nothing written) when that
        pricing kept no record: the racks stay listed and the next pricing compares them."""
        refused, self._refused = self._refused, None
        if self._probed:  # refused at its bound: nothing was counted
            self._probed = False
            self._moved = mark
            return True
        if refused is None or self._per_row is None or not take_back(self.fill):
            return False
        rows, um, lost, totals = refused
        kept_um, kept_lost, kept_totals = self._per_row
        kept_um[rows], kept_lost[rows], kept_totals[:] = um, lost, totals
        self._moved = mark
        return True

    def _rows_of(self, racks: set[str]) -> np.ndarray:
        """Plant rows of the links of ``racks`` (sorted), each rack's kept while only racks
        move (its links and their rows stay)."""
        index, parts = self.plant.index, []
        # The plant keeps the same rows per moved rack while only racks move (it just routed
        # them): taken from it, a rack's thousands of link ids are looked up once, not twice.
        plants = getattr(self.plant, "_rack_rows", {})
        for rack_id in sorted(racks):
            rows = self._rack_rows.get(rack_id)
            if rows is None:
                rows = plants.get(rack_id)
            if rows is None:
                ids = self.design.links_of_racks([rack_id])
                rows = np.fromiter(map(index.__getitem__, ids), np.int64, len(ids))
            self._rack_rows[rack_id] = rows
            parts.append(rows)
        return unique_sorted(np.concatenate([np.zeros(0, np.int64), *parts]))

    def _link_totals(self, medium: np.ndarray, hinted: np.ndarray | None) -> tuple[float, int]:
        """Ordered metres of the links with a medium (backplane links apart) and the links
        without a medium or tray path. Kept per row, in whole micrometres so that a sum taken
        apart and put back is exact: ``hinted`` (the rows the plant cache compared, all a rack
        move can change) are summed again, not every row (~2 ms of every XL move)."""
        plant = self.plant
        ordered = np.asarray(plant.ordered_m, dtype=np.float64)
        status = np.asarray(plant.status)
        kept = self._per_row
        if hinted is None or kept is None or len(kept[0]) != len(medium):
            rows = np.arange(len(medium))
            um, lost = np.zeros(len(medium), np.int64), np.zeros(len(medium), bool)
            kept = self._per_row = (um, lost, [0, 0])
        else:
            rows = hinted
        um, lost, totals = kept
        m = medium[rows]
        carried = m >= 0
        for k in np.flatnonzero(self._backplane[:-1]).tolist():
            carried &= m != k
        length = ordered[rows]
        new_um = np.where(carried & np.isfinite(length), np.rint(length * 1e6), 0).astype(np.int64)
        new_lost = (status[rows] & UNREACHED) != 0
        totals[0] += int(new_um.sum() - um[rows].sum())
        totals[1] += int(np.count_nonzero(new_lost) - np.count_nonzero(lost[rows]))
        um[rows], lost[rows] = new_um, new_lost
        return totals[0] / 1e6, totals[1]

    def copper_share(self, priced: Priced) -> float:
        """Share of the cabled links (backplane excluded) whose medium is copper."""
        medium = priced.medium_index
        carried = (medium >= 0) & ~self._backplane[medium]
        n = int(carried.sum())
        return float((carried & self._copper[medium]).sum() / n) if n else 0.0

    def objective(self, priced: Priced, weights: dict[str, float]) -> float:
        return sum(weights[t] * priced.terms[t] / self.norm[t] for t in TERMS)

    def broken(
        self, priced: Priced, moved: list[str], changed: set[str], racks: Iterable[str] = ()
    ) -> str | None:
        """Why the state breaks a hard limit (one sentence), None when every limit holds;
        rack power is checked on every rack whose plugs draw otherwise than at the start and
        on ``racks`` (``changed``: the link ids the refresh reported, kept for callers)."""
        design = self.design
        if moved and rack_clashes(design, only=moved):  # none moved: ~5 ms of nothing at XL
            return "a moved rack clashes with a rack, an obstacle or the hall outline"
        if priced.unreached > self.start.unreached:
            return "a link would lose its medium or tray path (reach)"
        if priced.channel_breaks > self.start.channel_breaks:
            return "a channel would exceed its loss, patch-point or reach limit"
        for tray_id, ratio in priced.tray_fill.items():
            if ratio > max(TRAY_FILL_WARNING, self.start.tray_fill.get(tray_id, 0.0)) + 1e-9:
                return f"tray {tray_id} would fill to {ratio:.0%} (limit 40 %)"
        for rack_id in sorted(set(racks) | priced.rack_max_w.keys()):
            mx = self.rack_max_w(priced, rack_id)
            budget = design.racks[rack_id].power_budget_kw * 1000
            if mx > max(budget, self.start_power[rack_id][1]) + 1e-6:
                return f"rack {design.racks[rack_id].name} would draw {mx / 1000:.1f} kW at most"
        return None
