"""The physical plant: what is bought and plugged — a plug per used cage, cables and fibres.

Built from a :class:`~model.cabling.CablePlant` (medium and ordered length per link, the cage of
each link end, the cage-graph components) as a pure function. It is the one place where modules,
cables and fibres are counted, powered (typical and maximum) and priced, so the analysis, the
BOM and the schedule agree by construction:

* a used cage whose links run on a module medium (multimode / single-mode) holds one module: the
  catalog's module part for that medium and the cage's spec (form factor, logical ports, heat
  sink); each of its links takes ``fibres_per_port`` fibres of the module's fibre part at the
  link's ordered length (one fibre per link: the far end's module takes the same fibre);
* a component of links on an integrated medium (DAC, ACC, AEC, AOC, UTP) is one cable assembly:
  a straight cable between two cages or a splitter from a hub cage, of the part that fits;
* links on the rack backplane (NVL72 NVLink spine) come with the rack: no plug, no part.

Plug rules checked here (findings): ``CAGE_MIXED_PLUGS`` a cage whose links run on different
media (it would need two plugs), ``CAGE_SPLIT_CABLE`` an integrated cable whose cage's ports go
to far cages no cable part joins (e.g. a pinned DAC on a DGX rail cage), ``PART_NOT_ORDERABLE``
a plug or assembly the catalog has no orderable part for. Such cages count as ``invalid``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from model.cages import (
    CAGE_STRIDE,
    MODULE_KINDS,
    SHAPE_SPLITTER,
    SHAPE_STRAIGHT,
    cage_view,
    component_shapes,
)
from model.findings import Finding, sort_findings
from model.parts import CablePart, ModulePart, part_number_for

if TYPE_CHECKING:
    from model.cabling import CablePlant

MAX_LISTED = 5


@dataclass(frozen=True)
class PartCount:
    """One orderable item in the plant: a part at one length, its quantity and figures each."""

    category: str  # "module", "cable", "fibre"
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
    # Per link id: (cable_id, a_cage, b_cage, a_module, b_module, part) for the schedule.
    link_parts: dict[str, tuple[str, str, str, str, str, str]] = field(default_factory=dict)

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
        assemblies = self.of("cable") + self.of("fibre")
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
                    self.total("cable", "unit_price_usd") + self.total("fibre", "unit_price_usd"), 2
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


def build_plant(
    plant: CablePlant,
    with_links: bool = False,
    around_link: str | None = None,
    fabric_of: dict[str, str] | None = None,
) -> PhysicalPlant:
    """The physical plant of ``plant``'s current media choice.

    ``with_links`` also fills ``link_parts`` (per-link part names for the schedule; a Python
    pass over the links, so the analysis leaves it out). ``around_link`` limits the plant to
    that link's cage-graph component (what the inspector shows for one link). ``fabric_of``
    (link id -> fabric, :func:`model.fabrics.link_fabric_map`) splits every item by the fabric
    of the links it serves (a cage's links share their switch's fabric), for the BOM.
    """
    design, media = plant.design, list(plant.media)
    view = cage_view(plant)
    tables = view.tables
    medium = np.asarray(plant.medium_index, dtype=np.int64)
    kinds = np.array([m.kind for m in media] + ["none"])
    kind = kinds[np.where(medium < 0, len(media), medium)]
    rows = np.flatnonzero(kind != "backplane")
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
    out.cages_total = _cages_total(design)
    if not len(rows):
        return out
    n = len(rows)
    m = medium[rows]
    ordered = np.asarray(plant.ordered_m)[rows]
    cage_a, cage_b = view.cage_a[rows], view.cage_b[rows]
    spec_a, spec_b = view.spec_a[rows], view.spec_b[rows]
    _, comp = np.unique(view.component[rows], return_inverse=True)
    comp = comp.reshape(-1)
    nodes, inv = np.unique(np.concatenate([cage_a, cage_b]), return_inverse=True)
    ia, ib = inv[:n], inv[n:]
    out.cages_used = len(nodes)
    cage_spec = np.zeros(len(nodes), dtype=np.int64)
    cage_spec[ia], cage_spec[ib] = spec_a, spec_b
    # Medium of each cage: mixed when its links disagree.
    lo = np.full(len(nodes), np.iinfo(np.int64).max)
    hi = np.full(len(nodes), -(2**62))
    for side in (ia, ib):
        np.minimum.at(lo, side, m)
        np.maximum.at(hi, side, m)
    mixed = lo != hi
    cage_medium = np.where(mixed, -1, lo)
    problem: dict[int, tuple[str, str]] = {}  # cage -> (code, why)
    for c in np.flatnonzero(mixed).tolist():
        problem[c] = (
            "CAGE_MIXED_PLUGS",
            "its ports run on different media, one cage takes one plug",
        )
    for c in np.flatnonzero((cage_medium < 0) & ~mixed).tolist():
        problem[c] = ("PART_NOT_ORDERABLE", "no medium reaches: no plug")
    dev_ids = view.dev_ids
    counts: Counter[tuple] = Counter()
    meta: dict[tuple, tuple] = {}

    fabric_names = ["", *sorted({f for f in (fabric_of or {}).values() if f})]
    code_of = {f: i for i, f in enumerate(fabric_names)}
    row_fab = np.zeros(n, dtype=np.int64)
    if fabric_of:
        row_fab = np.fromiter(
            (code_of.get(fabric_of.get(plant.link_ids[r], ""), 0) for r in rows.tolist()),
            np.int64,
            n,
        )
    cage_fab = np.zeros(len(nodes), dtype=np.int64)
    cage_fab[ia], cage_fab[ib] = row_fab, row_fab

    def add(category, part, length, qty, kind_name, p_typ, p_max, price, fab=0):
        key = (category, part.id, length, fab)
        counts[key] += qty
        meta[key] = (part, kind_name, p_typ, p_max, price)

    # ---- modules: one per used cage on a module medium
    module_of = np.full(len(nodes), -1, dtype=np.int64)
    module_parts: list[ModulePart] = []
    module_cages = np.flatnonzero(
        (cage_medium >= 0) & np.isin(kinds[np.maximum(cage_medium, 0)], list(MODULE_KINDS))
    )
    pairs = cage_medium[module_cages] * 4096 + cage_spec[module_cages]
    for key in np.unique(pairs).tolist():
        part = tables.module(key // 4096, key % 4096)
        sel = module_cages[pairs == key]
        if part is None:
            spec = tables.specs[key % 4096]
            for c in sel.tolist():
                problem.setdefault(
                    c,
                    (
                        "PART_NOT_ORDERABLE",
                        f"no {media[key // 4096].name} module for a {spec[0]} cage of "
                        f"{spec[1]} port(s), {spec[2]} top",
                    ),
                )
            continue
        module_parts.append(part)
        module_of[sel] = len(module_parts) - 1
        fabs, per_fab = np.unique(cage_fab[sel], return_counts=True)
        for fab, qty in zip(fabs.tolist(), per_fab.tolist(), strict=True):
            add(
                "module",
                part,
                None,
                qty,
                media[key // 4096].kind,
                part.power_w,
                part.power_w_max,
                part.price_usd,
                fab,
            )
    # ---- fibres: per link on a module medium, at its ordered length
    fibre_rows = np.flatnonzero(np.isin(kind[rows], list(MODULE_KINDS)))
    fpp = np.array([p.fibres_per_port for p in module_parts] + [1])
    link_fpp = fpp[
        np.where(module_of[ia[fibre_rows]] >= 0, module_of[ia[fibre_rows]], len(module_parts))
    ]
    # Grouped by (medium, ordered length) with numpy: a Python pass per fibre would dominate
    # the analysis at 400k links.
    fibre_of = np.full(len(media) + 1, -1, dtype=np.int64)
    fibre_parts = list({id(f): f for f in tables.fibre_of.values()}.values())
    for medium_row, fpart in tables.fibre_of.items():
        fibre_of[medium_row] = fibre_parts.index(fpart)
    m_f = m[fibre_rows]
    len_f = ordered[fibre_rows]
    part_f = fibre_of[np.where(m_f >= 0, m_f, len(media))]
    good = (part_f >= 0) & np.isfinite(len_f)
    for r in fibre_rows[~good].tolist():
        for c in (int(ia[r]), int(ib[r])):
            problem.setdefault(c, ("PART_NOT_ORDERABLE", "no orderable fibre for its length"))
    fibre_part_of_row = np.full(n, -1, dtype=np.int64)
    fibre_part_of_row[fibre_rows[good]] = part_f[good]
    if good.any():
        key = (row_fab[fibre_rows[good]] * 64 + part_f[good]) * 10_000_000 + np.round(
            len_f[good] * 1000
        ).astype(np.int64)
        keys, inverse = np.unique(key, return_inverse=True)
        qty = np.bincount(inverse.reshape(-1), weights=link_fpp[good], minlength=len(keys))
        for k, q in zip(keys.tolist(), qty.tolist(), strict=True):
            fab, fpart = divmod(k // 10_000_000, 64)
            fpart = fibre_parts[fpart]
            length = (k % 10_000_000) / 1000
            add(
                "fibre",
                fpart,
                length,
                int(round(q)),
                f"{fpart.mode}-fibre",
                0.0,
                0.0,
                fpart.price_at(length),
                fab,
            )
    # ---- integrated cables: one assembly per component
    shape, hub, leaf, leaves, cage_comp = component_shapes(comp, ia, ib, len(nodes))
    cable_rows = np.flatnonzero(~np.isin(kind[rows], list(MODULE_KINDS)) & (m >= 0))
    cable_of_comp: dict[int, tuple[CablePart, float]] = {}
    comps = np.unique(comp[cable_rows]).tolist()
    comp_rows: dict[int, list[int]] = defaultdict(list)
    for r in cable_rows.tolist():
        comp_rows[int(comp[r])].append(r)
    for c in comps:
        crow = comp_rows[c]
        mm = int(m[crow[0]])
        cages_here = {int(ia[r]) for r in crow} | {int(ib[r]) for r in crow}
        if any(int(m[r]) != mm for r in crow) or any(x in problem for x in cages_here):
            continue
        part = None
        if shape[c] in (SHAPE_STRAIGHT, SHAPE_SPLITTER):
            h, f = int(cage_spec[hub[c]]), int(cage_spec[leaf[c]])
            part = tables.cable(mm, h, f, int(leaves[c])) or (
                tables.cable(mm, f, h, 1) if shape[c] == SHAPE_STRAIGHT else None
            )
            if (
                shape[c] == SHAPE_SPLITTER
                and len({int(cage_spec[x]) for x in cages_here} - {h}) > 1
            ):
                part = None
        if part is None:
            # Ports of one cage to different far cages with no splitter part for them.
            code = "CAGE_SPLIT_CABLE" if shape[c] != SHAPE_STRAIGHT else "PART_NOT_ORDERABLE"
            why = (
                f"{media[mm].name}: its ports go to different far cages, which no "
                "integrated cable joins (a module and a fibre per link would)"
                if code == "CAGE_SPLIT_CABLE"
                else f"no orderable {media[mm].name} part of this shape"
            )
            for x in cages_here:
                problem.setdefault(x, (code, why))
            continue
        length = float(np.nanmax(ordered[crow])) if np.isfinite(ordered[crow]).any() else np.nan
        if not np.isfinite(length) or length > part.reach_m + 1e-9:
            for x in cages_here:
                problem.setdefault(
                    x, ("PART_NOT_ORDERABLE", f"{part.part_number}: no length that long")
                )
            continue
        length = min(x for x in part.lengths_m if x + 1e-9 >= length)
        cable_of_comp[c] = (part, length)
        add(
            "cable",
            part,
            length,
            1,
            media[mm].kind,
            part.power_a_w + part.fanout * part.power_b_w,
            part.power_a_w_max + part.fanout * part.power_b_w_max,
            part.price_at(length),
            int(row_fab[crow[0]]),
        )
    for (category, _pid, length, fab), qty in sorted(counts.items(), key=lambda kv: str(kv[0])):
        part, kind_name, p_typ, p_max, price = meta[(category, _pid, length, fab)]
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
            )
        )
    out.cages_invalid = len(problem)
    # Plug power per device by the one per-cage rule (rack_power uses it for single racks).
    out.device_power_w, out.device_power_w_max = cage_power_by_device(plant, rows)
    out.findings = _findings(plant, dev_ids, rows, nodes, ia, ib, problem)
    if with_links:
        out.link_parts = _link_parts(
            plant,
            rows,
            kind,
            _cage_labels(plant, dev_ids, nodes),
            (ia, ib),
            [p.part_number for p in module_parts],
            module_of,
            (comp, comp_rows, cable_of_comp),
            (fibre_part_of_row, [f.part_number for f in fibre_parts], ordered),
            around_link is None,
        )
    if around_link is None and design.settings.cabling != "direct":
        # Imported here: model.structured_plant builds on this module's PartCount.
        from model.structured_plant import apply_structured

        apply_structured(out, plant, fabric_of)
    return out


def _link_parts(
    plant, rows, kind, labels, ends, module_names, module_of, cables, fibres, with_backplane
) -> dict[str, tuple[str, str, str, str, str, str]]:
    """``PhysicalPlant.link_parts``, column by column: names per cage, per cable assembly and
    per (fibre, length), then one tuple per link (no per-link search of its component)."""
    link_ids = plant.link_ids
    ia, ib = ends
    comp, comp_rows, cable_of_comp = cables
    fibre_part_of_row, fibre_names, ordered = fibres
    names = [*module_names, ""]
    plug = [names[k] for k in np.where(module_of >= 0, module_of, len(module_names)).tolist()]
    ids = [link_ids[r] for r in rows.tolist()]
    cable_id, part = list(ids), [""] * len(ids)
    for c, (cpart, length) in cable_of_comp.items():
        members = comp_rows[c]
        first = min(ids[x] for x in members)
        name = part_number_for(cpart.part_number, length)
        shared = first if len(members) == 1 else f"{first}+"
        for x in members:
            cable_id[x], part[x] = shared, name
    fibre = np.flatnonzero(fibre_part_of_row >= 0)
    memo: dict[tuple[int, float], str] = {}
    for r, f, length in zip(
        fibre.tolist(), fibre_part_of_row[fibre].tolist(), ordered[fibre].tolist(), strict=True
    ):
        if int(comp[r]) in cable_of_comp:
            continue
        name = memo.get((f, length))
        if name is None:
            name = memo[(f, length)] = part_number_for(fibre_names[f], length)
        part[r] = name
    a_side, b_side = ia.tolist(), ib.tolist()
    out = dict(
        zip(
            ids,
            zip(
                cable_id,
                [labels[a] for a in a_side],
                [labels[b] for b in b_side],
                [plug[a] for a in a_side],
                [plug[b] for b in b_side],
                part,
                strict=True,
            ),
            strict=True,
        )
    )
    if with_backplane:
        for r in np.flatnonzero(kind == "backplane").tolist():
            out[link_ids[r]] = ("", "", "", "", "", "rack backplane")
    return out


def _cages_total(design) -> int:
    total = 0
    counts = Counter(d.type for d in design.devices.values())
    for type_id, count in counts.items():
        dtype = design.catalog.device_types[type_id]
        per = sum(
            -(-g.count // g.ports_per_cage)
            for g in dtype.port_groups
            if g.form_factor not in ("nvlink-backplane",)
        )
        total += per * count
    return total


def _cage_labels(plant: CablePlant, dev_ids: list[str], nodes: np.ndarray) -> list[str]:
    """``{rack}-U{u} {device} {group} cage {n}`` for each cage key (worked out once per device
    and per device type and breakout, then filled in per cage)."""
    from model.cages import port_cages

    design = plant.design
    out = []
    prefix: dict[int, tuple[str, dict[int, str]] | None] = {}
    tables: dict[tuple, dict[int, str]] = {}
    for key in nodes.tolist():
        number, cage = divmod(key, CAGE_STRIDE)
        known = prefix.get(number, False)
        if known is False:
            device = design.devices.get(dev_ids[number])
            if device is None:
                known = None
            else:
                kind = (device.type, tuple(sorted((device.breakout or {}).items())))
                table = tables.get(kind)
                if table is None:
                    table = tables[kind] = {
                        c: label
                        for c, _spec, label in port_cages(
                            design.catalog.device_types[device.type], device.breakout
                        ).values()
                    }
                rack = design.racks.get(device.rack)
                where = f"{rack.name}-U{device.u}" if rack else device.name
                known = (f"{where} {device.name} ", table)
            prefix[number] = known
        if known is None:
            out.append(f"{dev_ids[number]} cage {cage}")
        else:
            out.append(f"{known[0]}{known[1].get(cage, '')}".strip())
    return out


def _findings(plant, dev_ids, rows, nodes, ia, ib, problem) -> list[Finding]:
    if not problem:
        return []
    by_code: dict[str, list[int]] = defaultdict(list)
    for c, (code, _why) in problem.items():
        by_code[code].append(c)
    labels = _cage_labels(plant, dev_ids, nodes[sorted(problem)])
    label_of = dict(zip(sorted(problem), labels, strict=True))
    links_of: dict[int, list[str]] = defaultdict(list)
    wanted = set(problem)
    for r, (a, b) in enumerate(zip(ia.tolist(), ib.tolist(), strict=True)):
        for c in (a, b):
            if c in wanted and len(links_of[c]) < 4:
                links_of[c].append(plant.link_ids[rows[r]])
    out = []
    for code, cages in by_code.items():
        for c in sorted(cages, key=label_of.get):
            device = dev_ids[int(nodes[c]) // CAGE_STRIDE]
            out.append(
                Finding(
                    code=code,
                    severity="error",
                    message=f"cage {label_of[c]}: {problem[c][1]}",
                    objects=(device, *links_of[c]),
                )
            )
    return sort_findings(out)


def tray_items(design) -> list[PartCount]:
    """Tray products for the design's trays: metres of each standard product, by bank.

    A tray wider than the widest product is a bank of parallel trays of the smallest product
    width that divides it into at most as many trays as needed (a 1.8 m tray = 2 x 0.9 m); its
    depth rounds up to the next product depth. Metres are rounded up to whole sections.
    """
    products = sorted(design.catalog.tray_products.values(), key=lambda p: (p.width_m, p.depth_m))
    if not products:
        return []
    metres: Counter[str] = Counter()
    widest = max(p.width_m for p in products)
    for tray in design.trays.values():
        length = _polyline_length(tray.points)
        banks = max(1, int(np.ceil(tray.width_m / widest - 1e-9)))
        each = tray.width_m / banks
        fit = [p for p in products if p.width_m + 1e-9 >= each and p.depth_m + 1e-9 >= tray.depth_m]
        if not fit:
            fit = [max(products, key=lambda p: (p.width_m, p.depth_m))]
        product = min(fit, key=lambda p: (p.width_m * p.depth_m, p.width_m))
        metres[product.id] += banks * length
    out = []
    for product_id, length in sorted(metres.items()):
        product = design.catalog.tray_products[product_id]
        sections = int(np.ceil(length / product.length_m - 1e-9))
        out.append(
            PartCount(
                category="tray",
                part_id=product.id,
                part_number=product.part_number,
                vendor=product.vendor,
                description=product.description,
                length_m=product.length_m,
                quantity=sections,
                kind="tray",
                unit_power_w=0.0,
                unit_power_w_max=0.0,
                unit_price_usd=product.price_per_m_usd * product.length_m,
                source=product.source,
            )
        )
    return out


def _polyline_length(points) -> float:
    pts = np.asarray(points, dtype=float)
    if len(pts) < 2:
        return 0.0
    return float(np.hypot(*np.diff(pts, axis=0).T).sum())


def cage_reasons(plant: CablePlant, link_id: str) -> tuple[str, str]:
    """Why each end's cage holds the plug it holds, in words (A end, B end).

    For example "cage A01-U2 node01 nic cage 1: ports go to 2 different far cages → twin-port
    module 980-9I51A-00NS00 + 1 MPO-12/APC fibre per link". Reads only the link's component.
    """
    from model.cages import SHAPE_NAMES, cage_view

    view = cage_view(plant)
    r = plant.index[link_id]
    rows = (
        plant.component_of(link_id)
        if hasattr(plant, "component_of")
        else np.flatnonzero(view.component == view.component[r])
    )
    m = int(plant.medium_index[r])
    medium = plant.media[m] if m >= 0 else None
    n = len(rows)
    nodes, inv = np.unique(
        np.concatenate([view.cage_a[rows], view.cage_b[rows]]), return_inverse=True
    )
    ia, ib = inv[:n], inv[n:]
    shape, *_ = component_shapes(np.zeros(n, dtype=np.int64), ia, ib, len(nodes))
    labels = _cage_labels(plant, view.dev_ids, nodes)
    k = int(np.flatnonzero(rows == r)[0])
    out = []
    for mine, spec in ((int(ia[k]), int(view.spec_a[r])), (int(ib[k]), int(view.spec_b[r]))):
        far = {int(b) for a, b in zip(ia.tolist(), ib.tolist(), strict=True) if a == mine} | {
            int(a) for a, b in zip(ia.tolist(), ib.tolist(), strict=True) if b == mine
        }
        ports = int(np.sum(ia == mine) + np.sum(ib == mine))
        where = (
            f"ports go to {len(far)} different far cages"
            if len(far) > 1
            else f"{ports} port(s) to one far cage"
        )
        if medium is None:
            plug = "no medium reaches: no plug"
        elif medium.kind == "backplane":
            plug = "rack backplane (comes with the rack)"
        elif medium.kind in MODULE_KINDS:
            part = view.tables.module(m, spec)
            fibre = view.tables.fibre_of.get(m)
            plug = (
                f"module {part.part_number} ({medium.name})" if part else f"no {medium.name} module"
            ) + (
                f" + {len(far) if len(far) > 1 else ports} {fibre.connector} fibre(s)"
                if fibre
                else ""
            )
        else:
            plug = f"one end of a {SHAPE_NAMES[int(shape[0])]} {medium.name}"
        out.append(f"cage {labels[nodes.tolist().index(int(nodes[mine]))]}: {where} → {plug}")
    return out[0], out[1]


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
    typ: defaultdict[str, float] = defaultdict(float)
    mx: defaultdict[str, float] = defaultdict(float)
    dev_ids = view.dev_ids
    combos: dict[tuple[int, int], tuple[float, float]] = {}
    for key, spec, m in zip(
        keys[first].tolist(), specs[first].tolist(), meds[first].tolist(), strict=True
    ):
        device = dev_ids[key // CAGE_STRIDE]
        if devices is not None and device not in devices:
            continue
        watts = combos.get((m, spec))
        if watts is None:
            watts = combos[(m, spec)] = plug_power_w(view.tables, m, spec)
        typ[device] += watts[0]
        mx[device] += watts[1]
    return dict(typ), dict(mx)


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
    out = {}
    for rack_id in racks:
        out[rack_id] = [0.0, 0.0, design.racks[rack_id].power_budget_kw * 1000]
    for device in devices.values():
        dtype = types[device.type]
        entry = out[device.rack]
        entry[0] += dtype.power_typical_w + plug_typ.get(device.id, 0.0)
        entry[1] += dtype.power_max_w + plug_max.get(device.id, 0.0)
    return {r: (v[0], v[1], v[2]) for r, v in out.items()}


def link_plugs(plant: CablePlant, link_id: str) -> dict[str, str]:
    """The cages, plugs and cable of one link, for the inspector: computed for its component."""
    phys = build_plant(plant, with_links=True, around_link=link_id)
    cable_id, a_cage, b_cage, a_module, b_module, part = phys.link_parts.get(
        link_id, (link_id, "", "", "", "", "")
    )
    return {
        "a_cage": a_cage,
        "b_cage": b_cage,
        "a_plug": a_module or ("cable end" if part else ""),
        "b_plug": b_module or ("cable end" if part else ""),
        "cable_id": cable_id,
        "part": part,
        "problems": "; ".join(f.message for f in phys.findings),
    }
