"""The physical plant: what is bought and plugged — a plug per used cage, cables and fibres.

Built from a :class:`~model.engine.routed_links.RoutedLinks` (medium and ordered length per link, the cage of
each link end, the cage-graph components) as a pure function. It is the one place where modules,
cables and fibres are counted, powered (typical and maximum) and priced, so the analysis, the
BOM and the schedule agree by construction:

* a used cage whose links run on a module medium (multimode / single-mode) holds one module: the
  catalog's module part for that medium and the cage's spec (form factor, logical ports, heat
  sink); each of its links takes ``fibres_per_port`` fibres of the module's fibre part at the
  link's ordered length (one fibre per link: the far end's module takes the same fibre);
* a component of links on an integrated medium (DAC, ACC, AEC, AOC, UTP) is one cable assembly:
  a straight cable between two cages or a splitter from a hub cage, of the part that fits;
* links on the rack backplane (NVL72 NVLink spine) come with the rack: no plug, no part;
* a co-packaged (CPO) switch port takes its link's fibre and no module (its optical engine is
  the switch's, totalled apart: ``co_packaged_ports`` and their watts); the switch's external
  laser source modules are items of their own, ordered and powered per switch
  (:mod:`model.plant.laser_sources`).

Plug rules checked here (findings): ``CAGE_MIXED_PLUGS`` a cage whose links run on different
media (it would need two plugs), ``CAGE_SPLIT_CABLE`` an integrated cable whose cage's ports go
to far cages no cable part joins (e.g. a pinned DAC on a DGX rail cage), ``PART_NOT_ORDERABLE``
a plug or assembly the catalog has no orderable part for. Such cages count as ``invalid``.
"""

from __future__ import annotations

import weakref
from collections import Counter
from itertools import repeat
from typing import TYPE_CHECKING

import numpy as np

from model.catalog.parts import part_number_for, row_number
from model.engine.cage_labels import cage_label_array, cage_reasons, plug_findings
from model.engine.cages import (
    cage_view,
)
from model.plant.laser_sources import laser_source_items, with_laser_source_power
from model.plant.links import link_parts
from model.plant.parts_count import PartCount, PhysicalPlant
from model.plant.plant_cache import PlantCache
from model.plant.power import device_plug_power, rack_power
from model.plant.tally import cage_graph, tally

# Re-exported: callers read a link's plug reasons and a rack's power from the plant module.
__all__ = [
    "PartCount",
    "PhysicalPlant",
    "PlantCache",
    "build_plant",
    "plant_findings",
    "cage_reasons",
    "link_plugs",
    "rack_power",
]

if TYPE_CHECKING:
    from model.common.findings import Finding
    from model.engine.routed_links import RoutedLinks
    from model.structured.layout_records import StructuredLayout

MAX_LISTED = 5


def build_plant(
    plant: RoutedLinks,
    with_links: bool = False,
    around_link: str | None = None,
    fabric_of: dict[str, str] | None = None,
    fabric_rows: tuple[list[str], np.ndarray] | None = None,
    cache: PlantCache | None = None,
    layout: StructuredLayout | None = None,
) -> PhysicalPlant:
    """The physical plant of ``plant``'s current media choice.

    ``with_links`` also fills ``link_parts`` (per-link part names for the schedule, as codes
    per plant row: :class:`model.plant.links.LinkParts`; the analysis leaves it out). ``around_link`` limits the plant to
    that link's cage-graph component (what the inspector shows for one link). ``fabric_of``
    (link id -> fabric, :func:`model.design.fabrics.link_fabric_map`) splits every item by the fabric
    of the links it serves (a cage's links share their switch's fabric), for the BOM.
    ``fabric_rows`` gives the same split as (fabric names, name index per plant row), which the
    analysis has as arrays already: a dict of 400k link ids costs it ~0.3 s per report.
    ``cache`` (a :class:`PlantCache` kept from one call to the next) reuses the cage graph of
    the previous call when the links and their cages are unchanged, as after a rack move.
    ``layout``: the structured layout of ``plant`` as it is now, when the caller has it (a
    command that builds two plants of one design lays the zoned XL hall out once, ~10 s).
    """
    design, media = plant.design, list(plant.media)
    view = cage_view(plant)
    tables = view.tables
    medium = _medium_column(plant)
    backplane = _on_backplane(medium, media)
    rows = _counted_rows(backplane, cache)
    if around_link is not None:
        near = (
            plant.component_of(around_link)
            if hasattr(plant, "component_of")
            else np.flatnonzero(view.component == view.component[plant.index[around_link]])
        )
        rows = np.intersect1d(rows, near)
    out = PhysicalPlant()
    # Cages of every used (non-backplane) link end; cages_total counts every cage of every
    # device that has a port group of pluggable ports.
    out.cages_total, lasers = _device_totals(design, cache)
    if not len(rows):
        return out
    n = len(rows)
    # Every row counted (no backplane link): the plant's arrays as they are, read only (two
    # gathers of every row were ~1 ms of each optimiser move at XL).
    whole = n == len(medium)
    m = medium if whole else medium[rows]
    ordered = np.asarray(plant.ordered_m, dtype=np.float64)
    ordered = ordered if whole else ordered[rows]
    # The cache counts only the whole tally (no per-link parts, no neighbourhood).
    counter = cache if not with_links and around_link is None else None
    counting = counter is not None
    graph = counter.graph(view, rows) if counter is not None else cage_graph(view, rows)
    nodes, ia, ib = graph.nodes, graph.ia, graph.ib
    out.cages_used = len(nodes)
    dev_ids = view.dev_ids
    row_fab = np.zeros(n, dtype=np.int64)
    if fabric_rows is not None:
        given, codes = fabric_rows
        codes = np.asarray(codes, dtype=np.int64)
        used = [given[c - 1] for c in np.flatnonzero(np.bincount(codes + 1)).tolist()]
        fabric_names = ["", *sorted({f for f in used if f})]
        code_of = {f: i for i, f in enumerate(fabric_names)}
        recode = np.array([code_of.get(f, 0) for f in given], dtype=np.int64)
        row_fab = recode[codes[rows]]
    else:
        fabric_names = ["", *sorted({f for f in (fabric_of or {}).values() if f})]
        code_of = {f: i for i, f in enumerate(fabric_names)}
    if fabric_of and fabric_rows is None:
        ids = plant.link_ids
        ids = ids if n == len(ids) else [ids[r] for r in rows.tolist()]
        row_fab = np.fromiter(
            map(code_of.get, map(fabric_of.get, ids, repeat("")), repeat(0)), np.int64, n
        )
    if counter is not None:
        # Fabric codes are renumbered when the set of fabrics changes: recount then.
        if getattr(counter, "fabric_names", None) != fabric_names:
            counter.reset_counts()
        counter.fabric_names = fabric_names
        count = counter.tally(tables, graph, m, ordered, row_fab)
    else:
        # The routed lengths for the BOM's spare metres (the analysis, with a cache, skips it)
        needed = np.asarray(plant.length_m, dtype=np.float64)[rows]
        count = tally(tables, graph, np.arange(n), m, ordered, row_fab, needed)
    counts, meta, problem, lo = count.counts, count.meta, count.problem, count.lo
    assert lo is not None  # every tally sets its cages' media
    needed_mm = count.needed_mm
    for (category, _pid, length, fab), qty in sorted(counts.items(), key=lambda kv: str(kv[0])):
        part, kind_name, p_typ, p_max, price = meta[(category, _pid, length, fab)]
        if category == "co-packaged-port":  # not an orderable item: the switch's own engine
            out.co_packaged_ports += qty
            out.co_packaged_power_w += qty * p_typ
            out.co_packaged_power_w_max += qty * p_max
            continue
        out.items.append(
            PartCount(
                category=category,
                part_id=part.id,
                part_number=part_number_for(part.part_number, length),
                vendor=part.vendor,
                description=part.description,
                length_m=length,
                quantity=qty,
                kind=kind_name,
                unit_power_w=p_typ,
                unit_power_w_max=p_max,
                unit_price_usd=price,
                source=part.source,
                fabric=fabric_names[fab],
                needed_m=(
                    needed_mm[(category, _pid, length, fab)] / 1000
                    if (category, _pid, length, fab) in needed_mm
                    else None
                ),
            )
        )
    out.cages_invalid = len(problem)
    # Plug power per device by the one per-cage rule (rack_power uses it for single racks).
    if counter is not None:
        out.device_power_w, out.device_power_w_max = counter.device_power(
            tables, dev_ids, graph, lo
        )
    else:
        out.device_power_w, out.device_power_w_max = device_plug_power(
            tables, dev_ids, nodes, lo, graph.cage_spec, grouped=graph.by_device
        )
    if around_link is None and lasers:
        sources = laser_source_items(design, fabric_of is not None or fabric_rows is not None)
        if sources:
            out.items.extend(sources)
            out.device_power_w, out.device_power_w_max = with_laser_source_power(
                design, out.device_power_w, out.device_power_w_max
            )
    out.findings = plug_findings(plant, dev_ids, rows, nodes, ia, ib, problem)
    if with_links:
        # tally() (the counting path without a cache) sets both per-cage and per-row parts.
        assert count.module_of is not None and count.fibre_part_of_row is not None
        out.link_parts = link_parts(
            plant.link_ids,
            rows,
            backplane,
            (cage_label_array(plant, dev_ids, nodes), ia, ib),
            ([p.part_number for p in count.module_parts], count.module_of),
            (graph.comp, count.comp_rows, count.cable_of_comp),
            (count.fibre_part_of_row, [f.part_number for f in count.fibre_parts], ordered),
            around_link is None,
        )
    if around_link is None:
        # Imported here: the structured overlay changes nothing unless a link runs through
        # panels, and a directly cabled design need not load the structured layer.
        from model.plant.structured import apply_structured
        from model.structured.layout import uses_structured

        # The overlay reads the fabric of each plant row as codes (a dict of every link id
        # was ~0.5 s of a zoned XL plant).
        if fabric_rows is None and fabric_of and uses_structured(design):
            names = sorted({f for f in fabric_of.values() if f}) + [""]
            code = {f: i for i, f in enumerate(names)}
            codes = np.fromiter(
                (code[fabric_of.get(lid, "")] for lid in plant.link_ids),
                np.int64,
                len(plant.link_ids),
            )
            fabric_rows = (names, codes)
        trunks = cache.kept_trunk_counts() if cache is not None else None  # edits follow
        apply_structured(out, plant, fabric_rows, not counting, layout, trunks)
    return out


def plant_findings(plant: RoutedLinks, layout: StructuredLayout | None = None) -> list[Finding]:
    """``build_plant(plant).findings`` without counting, pricing or powering a part: the plug
    rules of :func:`model.plant.tally.tally` on every counted row, then the structured layout's
    findings, in build_plant's order (``routes`` prints them; the plant's items were ~0.8 s of
    its zoned XL run). ``layout``: ``plant``'s structured layout when the caller has it (the
    findings-only one will do: ``structured_layout(plant, findings_only=True)``)."""
    medium = _medium_column(plant)
    rows = _counted_rows(_on_backplane(medium, list(plant.media)), None)
    if not len(rows):
        return []
    view = cage_view(plant)
    n = len(rows)
    ordered = np.asarray(plant.ordered_m, dtype=np.float64)
    m, ordered = (medium, ordered) if n == len(medium) else (medium[rows], ordered[rows])
    graph = cage_graph(view, rows)
    count = tally(view.tables, graph, np.arange(n), m, ordered, np.zeros(n, dtype=np.int64))
    out = plug_findings(plant, view.dev_ids, rows, graph.nodes, graph.ia, graph.ib, count.problem)
    from model.structured.layout import structured_layout, uses_structured

    if uses_structured(plant.design):
        layout = layout if layout is not None else structured_layout(plant, findings_only=True)
        # As apply_structured adds them: when a channel runs through panels, i.e. has cords
        # (a findings-only layout has the cords and no channel rows).
        if layout.cords.link_ids:
            out = [*out, *layout.findings]
    return out


def _medium_column(plant) -> np.ndarray:
    """The plant's medium row per link, its own integer column as it is (int32): widened to
    int64 it was a 3 MB copy of every optimiser move at XL; every use indexes or compares it
    (the tally widens the rows it counts)."""
    medium = np.asarray(plant.medium_index)
    return medium if medium.dtype.kind == "i" else medium.astype(np.int64)


def _counted_rows(backplane: np.ndarray, cache: PlantCache | None) -> np.ndarray:
    """Plant rows off the backplane; when that is every row, the cache's kept row numbers
    (read only), not a search of 393k flags for every optimiser move at XL."""
    if backplane.any() or cache is None:
        return np.flatnonzero(~backplane)
    if len(cache.all_rows) != len(backplane):
        cache.all_rows = np.arange(len(backplane))
        cache.all_rows.flags.writeable = False
    return cache.all_rows


def _on_backplane(medium: np.ndarray, media) -> np.ndarray:
    """Per plant row: does the link run on a backplane medium? Compared as integers, one
    comparison per backplane medium: a string array of 400k kinds cost the analysis tens of
    ms per report, and a lookup through every row's medium three passes of every optimiser
    move at XL."""
    out = np.zeros(len(medium), dtype=bool)
    for k in [k for k, m in enumerate(media) if m.kind == "backplane"]:
        out |= medium == k
    return out


def _device_totals(design, cache: PlantCache | None = None) -> tuple[int, bool]:
    """(cages of every device, whether any device is a co-packaged switch with laser sources).

    Only the devices decide them: a cache keeps them while the design's device edits stand (a
    walk of every device, twice, was ~5 ms of each optimiser move at XL). The editor's analysis
    reads a new snapshot of the design after each edit, which shares the last one's devices
    (and catalog) while no device changed: those count as the same devices (~1 ms of each XL
    analysis after a tray or rack edit)."""
    edits = getattr(design, "_device_edits", None)
    memo = getattr(cache, "cages_total_memo", None)
    if memo is not None and edits is not None:
        ref, devices, catalog, then, totals = memo
        same = ref() is design or (devices is design.devices and catalog is design.catalog)
        if same and then == (edits, len(design.devices)):
            return totals
    totals = _count_cages(design)
    if cache is not None and edits is not None:
        key = (edits, len(design.devices))
        cache.cages_total_memo = (weakref.ref(design), design.devices, design.catalog, key, totals)
    return totals


def _count_cages(design) -> tuple[int, bool]:
    total = 0
    counts = Counter(d.type for d in design.devices.values())
    types = design.catalog.device_types
    for type_id, count in counts.items():
        dtype = types[type_id]
        per = sum(
            -(-g.count // g.ports_per_cage)
            for g in dtype.port_groups
            if g.form_factor not in ("nvlink-backplane",)
        )
        total += per * count
    return total, any(types[t].laser_sources for t in counts)


def link_plugs(plant: RoutedLinks, link_id: str) -> dict[str, str]:
    """The cages, plugs and cable of one link, for the inspector: computed for its component.
    Part numbers as the BOM and the schedule show them (``row_number``: "quote" for an EST-)."""
    phys = build_plant(plant, with_links=True, around_link=link_id)
    cable_id, a_cage, b_cage, a_module, b_module, part = phys.link_parts.get(
        link_id, (link_id, "", "", "", "", "")
    )
    return {
        "a_cage": a_cage,
        "b_cage": b_cage,
        "a_plug": row_number(a_module) or ("cable end" if part else ""),
        "b_plug": row_number(b_module) or ("cable end" if part else ""),
        "cable_id": cable_id,
        "part": row_number(part),
        "problems": "; ".join(f.message for f in phys.findings),
    }
