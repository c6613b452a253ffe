"""Cages and the per-cage media choice: which plug goes into every used cage.

A port belongs to a *cage* (``ports_per_cage`` physical ports of its group, times the breakout
fan-out: an NVIDIA twin-port OSFP cage carries 2 x 400G). A used cage holds exactly one plug: a
transceiver module or one end of an integrated cable. So media are chosen per cage, not per link:

* Cages joined by links form *components* (connected components of the cage graph). Every link
  of a component runs on one medium: both ports of a twin-port module have the same PMD and
  fibre type (domain-facts §4 "Twin-port OSFP", §7b "Twin-port fibre pairing"), and the far end
  of each link must speak the same PMD, so the rule spreads along the links.
* A component of two cages (all its links between cage A and cage B) can take a straight
  integrated cable; a component of one *hub* cage whose links each go to a different cage with
  only that link can take a splitter (1:2) cable, where the catalog has such a part; every other
  component (ports of one cage going to different far cages, e.g. the rails of a DGX cage to two
  leaves) takes a module in each cage and a fibre per link.
* Options are ranked by the design's policy over the whole component: ``lowest-cost`` = price of
  the parts (modules + fibres, or the cable at its ordered length), then typical power;
  ``lowest-power`` = power then price; ``copper-first`` = copper kinds first; ``fibre-only`` =
  optical kinds only (the candidate list already holds only those). Ties keep catalog order.
* A pinned medium is kept: a component whose pins agree on a medium that fits the plug rules uses
  it for all its links; otherwise the pinned links keep their pin and the others are chosen
  without it (the plant's findings then name the broken rule).

Everything runs on numpy arrays over the rows of whole components, so an edit re-chooses only the
components it touches (:func:`model.engine.cage_choice.choose_per_cage` applies these rules).
Protocol (InfiniBand vs Ethernet) is not modelled: the catalog simply has no NDR part where NVIDIA
sells none (no NDR AOC, no NDR AEC), so no such part can be chosen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from model.catalog.components import Catalog, DeviceType, MediaType
from model.catalog.parts import CablePart, FibrePart, ModulePart, fits, mates, part_words
from model.catalog.ports import port_table
from model.common.arrays import unique_inverse

CAGE_STRIDE = 1 << 12  # cage key = device number * CAGE_STRIDE + cage number on the device
MODULE_KINDS = frozenset({"mmf", "smf"})
COPPER_RANK = frozenset({"dac", "acc", "aec", "utp", "backplane"})
SHAPE_MESH, SHAPE_STRAIGHT, SHAPE_SPLITTER = 0, 1, 2
SHAPE_NAMES = {SHAPE_MESH: "mesh", SHAPE_STRAIGHT: "straight", SHAPE_SPLITTER: "splitter"}


class CageSpec(tuple):
    """(form factor, logical ports, heat sink, family, optics) of a cage: what a plug must match.

    ``family`` is the switch or NIC family behind the cage (``DeviceType.family``, or its port
    group's): a part goes in only where its vendor lists that family (plug rules, PartTables).
    ``optics`` is the optics strategy of the device's tier (``Settings.optics_strategy``):
    "linear" takes a linear-drive (LPO) module where one of the medium fits the cage and a DSP
    module where none does; any other value takes DSP modules only.
    """

    __slots__ = ()

    @property
    def form_factor(self) -> str:
        return self[0]

    @property
    def slots(self) -> int:
        return self[1]

    @property
    def heatsink(self) -> str:
        return self[2]

    @property
    def family(self) -> str:
        return self[3] if len(self) > 3 else ""

    @property
    def optics(self) -> str:
        return self[4] if len(self) > 4 else ""


@lru_cache(maxsize=512)
def _port_cages(
    device_type: DeviceType, breakout_key: tuple[tuple[str, int], ...], optics: str = ""
) -> dict[str, tuple[int, CageSpec, str]]:
    fanouts = dict(breakout_key)
    out: dict[str, tuple[int, CageSpec, str]] = {}
    cage0 = 0
    table = port_table(device_type, fanouts)
    names = list(table)
    pos = 0
    for group in device_type.port_groups:
        fanout = fanouts.get(group.name, 1) if group.breakout(fanouts.get(group.name, 1)) else 1
        heatsink = group.cage_heatsink or ("finned" if device_type.category == "switch" else "flat")
        family = group.family or device_type.family
        spec = CageSpec(
            (group.form_factor, group.ports_per_cage * fanout, heatsink, family, optics)
        )
        for i in range(group.count):
            cage = cage0 + i // group.ports_per_cage
            for _ in range(fanout):
                out[names[pos]] = (cage, spec, f"{group.name} cage {i // group.ports_per_cage + 1}")
                pos += 1
        cage0 += -(-group.count // group.ports_per_cage)
    return out


def port_cages(
    device_type: DeviceType, breakout: dict[str, int] | None = None, optics: str = ""
) -> dict[str, tuple[int, CageSpec, str]]:
    """Per port name: (cage number on the device, the cage's spec, the cage's label);
    ``optics`` the optics strategy of the device's tier (:func:`device_optics`)."""
    return _port_cages(device_type, tuple(sorted((breakout or {}).items())), optics)


def device_optics(settings, role: str) -> str:
    """The optics strategy that shapes a device's cages: "linear" where the design asks it of
    the device's tier (role), else "" (DSP pluggables; a co-packaged switch's own ports take
    its co-packaged engines by their form factor, whatever the setting)."""
    wanted = settings.optics_strategy.get(role, "") if settings.optics_strategy else ""
    return "linear" if wanted == "linear" else ""


def component_labels(cage_a: np.ndarray, cage_b: np.ndarray) -> np.ndarray:
    """Connected-component label of every link of the cage graph (one label per row)."""
    return component_graph(cage_a, cage_b)[0]


def component_graph(
    cage_a: np.ndarray, cage_b: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(component label per link, cage node of each end, number of cages) of the cage graph.

    Labels are cage-node numbers (the smallest node of each component), so they double as
    component numbers in ``0 .. n_nodes - 1`` (:func:`localize` form for all rows).

    Label propagation with pointer jumping on numpy arrays: each round every cage takes the
    smallest label among its links' cages, then follows its label's label.
    """
    n = len(cage_a)
    if not n:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, 0
    n_nodes, inverse = _rank(np.concatenate([cage_a, cage_b]))
    u, v = inverse[:n], inverse[n:]
    label = np.arange(n_nodes, dtype=np.int64)
    while True:
        low = np.minimum(label[u], label[v])
        new = label.copy()
        np.minimum.at(new, u, low)
        np.minimum.at(new, v, low)
        new = new[new]
        new = new[new]
        if np.array_equal(new, label):
            break
        label = new
    return label[u], u, v, n_nodes


def cage_ranks(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct cage keys ascending, rank of each key among them): ``np.unique(keys,
    return_inverse=True)`` (see :func:`_rank`)."""
    count, inverse = _rank(keys)
    nodes = np.empty(count, dtype=keys.dtype)
    nodes[inverse] = keys
    return nodes, inverse


def _rank(keys: np.ndarray) -> tuple[int, np.ndarray]:
    """(number of distinct cage keys, rank of each key among them): ``np.unique``'s inverse.

    Cage keys are device number * CAGE_STRIDE + cage number, and devices have few cages: the
    keys packed as device * (largest cage number + 1) + cage keep their order in a range a
    count fits in, so the ranks come from a running count of the keys present, not a sort of
    786k keys. Keys spread wider than that (negative, or few and far apart) are sorted.
    """
    if len(keys) and keys.min() >= 0:
        device, cage = keys // CAGE_STRIDE, keys % CAGE_STRIDE
        width = int(cage.max()) + 1
        span = (int(device.max()) + 1) * width
        if span <= 4 * len(keys) + 1024:
            packed = device * width + cage
            present = np.bincount(packed, minlength=span) > 0
            rank = np.cumsum(present) - 1
            return int(rank[-1]) + 1, rank[packed]
    nodes, inverse = np.unique(keys, return_inverse=True)
    return len(nodes), inverse.reshape(-1)


@dataclass
class PartTables:
    """The catalog's parts indexed for the engine: by (medium, cage spec) and by cable shape.

    Plug rules: a module is entered for a cage spec only where its form factor, logical ports
    and heat sink match, its vendor supports it in the cage's family (``hosts``) and its
    receptacle mates its medium's fibre (APC with APC, UPC with UPC, same connector); a cable
    only where each end's vendor supports it in that end's cage family. What the rules refuse is
    kept in ``refused`` as a sentence naming both parts, for the plant's findings; the media
    choice never sees a refused part.
    """

    media: list[MediaType]
    specs: list[CageSpec]
    modules: dict[tuple[int, int], ModulePart]  # (medium row, spec row) -> module part
    cables: dict[tuple[int, str, int, str, int], list[CablePart]]  # (m, ffA, pA, ffB, pB)
    fibre_of: dict[int, FibrePart]  # medium row -> the fibre its modules take
    # (medium row, spec row) -> why the module of that shape does not go into that cage
    refused: dict[tuple[int, int], str] = field(default_factory=dict)
    # Set by build(): every module part with its medium row, in catalog order (spec_row enters
    # them for a spec first seen later), and each module part's own fibre. Fields, so that a
    # snapshot's copy (dataclasses.replace) keeps them; not compared.
    medium_modules: list[tuple[int, ModulePart]] = field(
        default_factory=list, repr=False, compare=False
    )
    own_fibre: dict[str, FibrePart | None] = field(default_factory=dict, repr=False, compare=False)
    # module_columns() per (medium row, number of specs): the modules change only when a spec
    # is entered. Not an init field, so a snapshot's copy starts its own.
    _columns: dict[tuple[int, int], tuple[np.ndarray, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @classmethod
    def build(cls, catalog: Catalog, media: Sequence[MediaType]) -> PartTables:
        row = {m.id: i for i, m in enumerate(media)}
        cables: dict[tuple[int, str, int, str, int], list[CablePart]] = {}
        for part in catalog.cable_parts.values():
            if part.medium not in row:
                continue
            key = (
                row[part.medium],
                part.a_form_factor,
                part.a_ports,
                part.b_form_factor,
                part.b_ports,
            )
            cables.setdefault(key, []).append(part)
        for parts in cables.values():
            parts.sort(key=lambda p: p.fanout)
        # The fibre of a medium: the one its modules take whose plug mates their receptacles
        # (the first in catalog order); a module whose receptacle does not mate it is refused.
        fibre_of: dict[int, FibrePart] = {}
        for p in catalog.module_parts.values():
            fibre = catalog.fibre_parts.get(p.fibre)
            if p.medium in row and fibre is not None and mates(p.receptacle, fibre.connector):
                fibre_of.setdefault(row[p.medium], fibre)
        tables = cls(list(media), [], {}, cables, fibre_of)
        tables.medium_modules = [
            (row[p.medium], p) for p in catalog.module_parts.values() if p.medium in row
        ]
        tables.own_fibre = {
            p.id: catalog.fibre_parts.get(p.fibre) for p in catalog.module_parts.values()
        }
        return tables

    def module_refusal(self, medium: int, part: ModulePart, spec: CageSpec) -> str:
        """Why ``part`` may not plug a cage of ``spec`` ("" when it may), naming both parts."""
        name = part_words(part.vendor, part.part_number, part.description)
        if not fits(part.hosts, spec.family):
            return (
                f"{name} is not supported in a {spec.family} cage "
                f"(its vendor lists {', '.join(part.hosts)})"
            )
        own = self.own_fibre.get(part.id)
        fibre = own if own is not None and not mates(part.receptacle, own.connector) else None
        fibre = fibre or self.fibre_of.get(medium)
        if fibre is not None and not mates(part.receptacle, fibre.connector):
            return (
                f"{name} has {part.receptacle} receptacles; fibre "
                f"{part_words(fibre.vendor, fibre.part_number, fibre.description)} has {fibre.connector} plugs, which do not mate"
            )
        return ""

    def cable_fits(self, part: CablePart, hub: CageSpec, leaf: CageSpec) -> bool:
        """Whether each end of ``part`` (A end in ``hub``, B ends in ``leaf``) is supported there."""
        return fits(part.a_hosts, hub.family) and fits(part.b_hosts, leaf.family)

    def fibre_lengths(self, medium: int) -> np.ndarray:
        """Orderable lengths of the fibre of a module medium, up to the medium's reach."""
        part = self.fibre_of.get(medium)
        if part is None:
            return np.zeros(0)
        reach = self.media[medium].reach_m + 1e-9
        return np.asarray([x for x in part.lengths_m if x <= reach], dtype=float)

    def spec_row(self, spec: CageSpec) -> int:
        try:
            return self.specs.index(spec)
        except ValueError:
            self.specs.append(spec)
            s = len(self.specs) - 1
            linear = spec.optics == "linear"
            for m, part in self.medium_modules:
                if (
                    part.form_factor == spec.form_factor
                    and part.ports == spec.slots
                    and part.heatsink in ("any", spec.heatsink)
                    and (part.optics != "linear" or linear)
                ):
                    have = self.modules.get((m, s))
                    # First fitting part in catalog order; under "linear" a linear part
                    # displaces a DSP one of the same medium (the strategy asks for it).
                    if have is not None and not (
                        linear and part.optics == "linear" and have.optics != "linear"
                    ):
                        continue
                    why = self.module_refusal(m, part, spec)
                    if why:
                        self.refused.setdefault((m, s), why)
                    else:
                        self.modules[(m, s)] = part
            return s

    def module(self, medium: int, spec: int) -> ModulePart | None:
        return self.modules.get((medium, spec))

    def module_columns(self, medium: int) -> tuple[np.ndarray, ...]:
        """(price, watts, fibres per port, rated reach) of ``medium``'s module per spec row, read
        only: NaN price, 0 W, 1 fibre and no reach limit (inf) where no module fits the spec.

        Kept, not read from the parts again for every media choice (an optimiser's rack move
        at XL asked each module medium's ~20 specs once per candidate)."""
        key = (medium, len(self.specs))
        got = self._columns.get(key)
        if got is None:
            n = len(self.specs)
            price, watts = np.full(n, np.nan), np.zeros(n)
            fpp, reach = np.ones(n), np.full(n, np.inf)  # a module rated shorter than its medium
            for s in range(n):
                part = self.module(medium, s)
                if part is not None:
                    price[s], watts[s], fpp[s] = part.price_usd, part.power_w, part.fibres_per_port
                    if part.reach_m > 0:
                        reach[s] = part.reach_m
            for column in (price, watts, fpp, reach):
                column.flags.writeable = False
            got = self._columns[key] = (price, watts, fpp, reach)
        return got

    def orderable(self, medium: int, spec_a: int, spec_b: int) -> bool:
        """Whether some part of ``medium`` plugs into cages of these two specs (any shape)."""
        kind = self.media[medium].kind
        if kind == "backplane":
            return True
        if kind in MODULE_KINDS:
            return (
                self.module(medium, spec_a) is not None and self.module(medium, spec_b) is not None
            )
        a, b = self.specs[spec_a], self.specs[spec_b]
        for (m, ffa, pa, ffb, pb), parts in self.cables.items():
            if m != medium:
                continue
            if (ffa, pa, ffb, pb) == (a[0], a[1], b[0], b[1]) and any(
                self.cable_fits(p, a, b) for p in parts
            ):
                return True
            if (ffa, pa, ffb, pb) == (b[0], b[1], a[0], a[1]) and any(
                self.cable_fits(p, b, a) for p in parts
            ):
                return True
        return False

    def cable(self, medium: int, hub: int, leaf: int, leaves: int) -> CablePart | None:
        """The cable part of ``medium`` from a hub cage to ``leaves`` cages of one spec, whose
        ends' vendors support them in those cages."""
        h, f = self.specs[hub], self.specs[leaf]
        for part in self.cables.get((medium, h[0], h[1], f[0], f[1]), ()):
            if (
                part.fanout >= leaves
                and (part.fanout == 1) == (leaves == 1)
                and self.cable_fits(part, h, f)
            ):
                return part
        return None


@dataclass
class CageChoice:
    """Result of :func:`choose_per_cage` for the rows it was given (same order)."""

    medium: np.ndarray  # int32 medium row per link, -1 none
    ordered_m: np.ndarray  # ordered length per link (the assembly's or the fibre's), NaN none
    chosen_by_cage: np.ndarray  # bool: medium set by the per-cage choice (not a pin / fallback)


def localize(
    comp_global: np.ndarray, cage_a: np.ndarray, cage_b: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(component 0..C-1 per link, cage 0..N-1 of each end, N) for a set of rows."""
    n = len(cage_a)
    _, comp = unique_inverse(comp_global)
    count, inv = _rank(np.concatenate([cage_a, cage_b]))
    return comp, inv[:n], inv[n:], count


def component_shapes(
    comp: np.ndarray, ia: np.ndarray, ib: np.ndarray, n_cages: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per component: shape, hub cage, a leaf cage, number of leaves; and each cage's component.

    ``comp`` local component per link (0..C-1), ``ia``/``ib`` local cage per link end.
    """
    n_comp = int(comp.max()) + 1 if len(comp) else 0
    cage_comp = np.zeros(n_cages, dtype=np.int64)
    cage_comp[ia], cage_comp[ib] = comp, comp
    deg = np.bincount(ia, minlength=n_cages) + np.bincount(ib, minlength=n_cages)
    links = np.bincount(comp, minlength=n_comp)
    cages = np.bincount(cage_comp, minlength=n_comp)
    # Hub = the cage of most links (ties: larger cage number); leaf = any other cage.
    index = np.arange(n_cages)
    hub_deg = np.zeros(n_comp, dtype=np.int64)
    np.maximum.at(hub_deg, cage_comp, deg)
    hub = np.full(n_comp, -1, dtype=np.int64)
    top = deg == hub_deg[cage_comp]
    np.maximum.at(hub, cage_comp[top], index[top])
    leaf = np.full(n_comp, -1, dtype=np.int64)
    other = index != hub[cage_comp]
    np.maximum.at(leaf, cage_comp[other], index[other])
    hub_deg = np.where(hub >= 0, deg[np.maximum(hub, 0)], 0)
    self_loop = np.bincount(comp[ia == ib], minlength=n_comp) > 0
    shape = np.full(n_comp, SHAPE_MESH, dtype=np.int8)
    shape[(cages == 2) & ~self_loop] = SHAPE_STRAIGHT
    splitter = (cages == links + 1) & (hub_deg == links) & (links >= 2) & ~self_loop
    shape[splitter] = SHAPE_SPLITTER
    leaves = np.where(shape == SHAPE_SPLITTER, cages - 1, 1)
    return shape, hub, leaf, leaves, cage_comp


@dataclass
class CageView:
    """The cages of a plant's links: what :func:`model.plant.physical_plant.build_plant` reads."""

    cage_a: np.ndarray
    cage_b: np.ndarray
    spec_a: np.ndarray
    spec_b: np.ndarray
    component: np.ndarray
    dev_ids: list[str]
    tables: PartTables
    # (cage node of each A end, of each B end, number of nodes) of all rows, when the plant
    # has them (its component graph ranked them): cage_graph of all rows then ranks nothing
    ranks: tuple[np.ndarray, np.ndarray, int] | None = None


def cage_view(plant) -> CageView:
    """The cage arrays of ``plant``: its own (a ``RoutedLinks``) or computed from the design.

    Any object with ``design``, ``media`` and ``link_ids`` works (tests use stand-in plants).
    """
    if hasattr(plant, "cage_arrays"):  # a RoutedLinks (labels brought up to date)
        return plant.cage_arrays()
    design = plant.design
    tables = PartTables.build(design.catalog, plant.media)
    dev_no: dict[str, int] = {}
    n = len(plant.link_ids)
    out = np.zeros((4, n), dtype=np.int64)
    for r, link_id in enumerate(plant.link_ids):
        link = design.links[link_id]
        for side, end in enumerate((link.a, link.b)):
            device = design.devices[end.device]
            cage, spec, _ = port_cages(
                design.catalog.device_types[device.type],
                device.breakout,
                device_optics(design.settings, device.role),
            )[end.port]
            number = dev_no.setdefault(end.device, len(dev_no))
            out[side, r] = number * CAGE_STRIDE + cage
            out[2 + side, r] = tables.spec_row(spec)
    return CageView(
        out[0], out[1], out[2], out[3], component_labels(out[0], out[1]), list(dev_no), tables
    )
