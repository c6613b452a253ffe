"""Orderable parts: transceiver modules, integrated cables, fibres and tray products.

A *medium* (``MediaType``) is what a link runs on (a PMD such as 400G SR4, or a cable family
such as 400G passive DAC). A *part* is what a purchaser orders and an installer plugs:

* ``ModulePart``: a transceiver for one cage of one kind: form factor, the cage's logical
  ports (``ports``: 2 for an NVIDIA twin-port OSFP module used as 2 x 400G, 1 for a single-port
  QSFP112 module) and heat sink (``finned`` for switch cages, ``flat`` for server cages, ``any``).
  Twin-port module power is the same in every configuration (domain-facts §2), so a module's
  power does not depend on how many of its ports are used.
* ``CablePart``: an integrated cable (DAC, ACC/LACC, AEC, AOC, UTP) of one shape: its A end
  plugs one cage of ``a_ports`` logical ports, and its ``fanout`` far ends each plug one cage of
  ``b_ports`` ports (fanout 1 = straight, 2 = 1:2 splitter). Lengths are the orderable ones;
  the longest is the part's reach (a 26AWG DAC splitter reaches 3 m where the straight DAC
  reaches 2 m, §1b/§7a). Price = ``price_usd + price_per_m_usd x length`` (grows with length).
* ``FibrePart``: a fibre assembly joining module ports (MPO-12/APC straight or 1:2 splitter,
  LC duplex), by orderable length, price growing with length.
* ``LaserSourcePart``: an external laser source module of a co-packaged (CPO) switch.
* ``TrayProduct``: a cable-tray product of a standard width, price per metre; wide runs are
  banks of parallel trays of a standard width, not one tray of arbitrary width.
* ``FacilityPart``: what the hall's power and cooling records are bought as (rack PDUs, power
  shelves, busway tap-off units, CDUs, CRAHs, rack manifolds): one part per kind; a unit rated
  in kW (CDU, CRAH) is priced ``price_usd + price_per_kw_usd x`` its capacity.

``part_number`` may contain ``{len}``: the length code (``N{metres:03d}`` style, see
:func:`part_number_for`). Part numbers that domain-facts does not give are marked by a
``source`` containing ``estimate`` and start with ``EST-`` so a purchaser can see which lines to
confirm with a vendor.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

_Id = Annotated[str, Meta(min_length=1, max_length=200)]
_Watts = Annotated[float, Meta(ge=0, le=1e5)]
_Usd = Annotated[float, Meta(ge=0, le=1e9)]
_Metres = Annotated[float, Meta(gt=0, le=1e5)]
_Count = Annotated[int, Meta(ge=1, le=64)]
Heatsink = Literal["finned", "flat", "any"]
# How a part makes light (domain-facts §1c, §9): "dsp" a retimed pluggable; "linear" a linear-drive
# pluggable (LPO, no DSP: about half the power, the host's SerDes drives it); "co-packaged" the
# optical engine of a co-packaged (CPO) switch port: no module is bought or plugged, the port
# takes a fibre and its light comes from the switch's external laser sources.
Optics = Literal["dsp", "linear", "co-packaged"]
# Optical connectors of module receptacles and fibre plugs: an angle-polished (APC) plug only
# mates an APC receptacle and a flat-polished (UPC) one only UPC (domain-facts §9: NVIDIA's
# MPO-12/APC fibres do not mate flat-polished receptacles); MPO-12, MPO-16, MMC and LC only
# mate their own kind.
Connector = Literal["MPO-12/APC", "MPO-12/UPC", "MPO-16/APC", "MPO-16/UPC", "MMC-12", "LC duplex"]


class ModulePart(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: _Id
    medium: _Id
    part_number: _Id
    vendor: str
    description: str
    form_factor: _Id
    ports: _Count
    heatsink: Heatsink = "any"
    fibres_per_port: _Count = 1
    fibre: _Id  # the FibrePart its optical ports take (both ports the same type, §7b)
    # The connector of its optical ports ("": not declared, so not checked: a design's own part)
    receptacle: Connector | Literal[""] = ""
    # The device families (switch or NIC families, DeviceType.family) its vendor supports it
    # in; empty = any MSA cage (a vendor-neutral part). Plug rules: :func:`fits`.
    hosts: tuple[str, ...] = ()
    # Reach the vendor rates this part for, when shorter than its medium's (0: the medium's)
    reach_m: Annotated[float, Meta(ge=0, le=1e5)] = 0.0
    optics: Optics = "dsp"
    power_w: _Watts
    power_w_max: _Watts
    price_usd: _Usd
    source: _Id  # keys of resources/catalog/sources.json, or "estimate"
    notes: str = ""  # what each source supports, in words


class LaserSourcePart(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An external laser source (ELS) module of a co-packaged switch: ordered, plugged into the
    switch's front panel, powered, and a unit that fails (its ``lasers`` are what the
    reliability forecast counts). A switch type names its part and how many it takes."""

    id: _Id
    part_number: _Id
    vendor: str
    description: str
    lasers: _Count
    power_w: _Watts
    power_w_max: _Watts
    price_usd: _Usd
    source: _Id  # keys of resources/catalog/sources.json, or "estimate"
    notes: str = ""  # what each source supports, in words


class CablePart(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: _Id
    medium: _Id
    part_number: _Id
    vendor: str
    description: str
    a_form_factor: _Id
    a_ports: _Count
    b_form_factor: _Id
    b_ports: _Count
    fanout: _Count = 1
    # Device families each end is supported in (empty = any cage), as ModulePart.hosts
    a_hosts: tuple[str, ...] = ()
    b_hosts: tuple[str, ...] = ()
    lengths_m: tuple[_Metres, ...]
    power_a_w: _Watts = 0.0
    power_a_w_max: _Watts = 0.0
    power_b_w: _Watts = 0.0
    power_b_w_max: _Watts = 0.0
    price_usd: _Usd
    price_per_m_usd: _Usd
    source: _Id  # keys of resources/catalog/sources.json, or "estimate"
    notes: str = ""  # what each source supports, in words

    @property
    def reach_m(self) -> float:
        return max(self.lengths_m)

    def price_at(self, length_m: float) -> float:
        return self.price_usd + self.price_per_m_usd * length_m


class FibrePart(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: _Id
    mode: Literal["mmf", "smf"]
    connector: Connector
    splitter: bool = False
    part_number: _Id
    vendor: str
    description: str
    lengths_m: tuple[_Metres, ...]
    price_usd: _Usd
    price_per_m_usd: _Usd
    source: _Id  # keys of resources/catalog/sources.json, or "estimate"
    notes: str = ""  # what each source supports, in words

    def price_at(self, length_m: float) -> float:
        return self.price_usd + self.price_per_m_usd * length_m


class TrayProduct(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: _Id
    part_number: _Id
    vendor: str
    description: str
    width_m: _Metres
    depth_m: _Metres
    price_per_m_usd: _Usd
    length_m: _Metres = 3.0  # one orderable straight section
    source: _Id  # keys of resources/catalog/sources.json, or "estimate"
    notes: str = ""  # what each source supports, in words


def fits(hosts: tuple[str, ...], family: str) -> bool:
    """Whether a part (end) its vendor supports in ``hosts`` may go into a cage of ``family``.

    A vendor-neutral part (no hosts) fits any cage; a cage of no declared family (a design's
    own device type) takes any part, there being nothing to check it against."""
    return not hosts or not family or family in hosts


def mates(receptacle: str, plug: str) -> bool:
    """Whether a fibre plug mates a module receptacle: same connector and same polish
    (APC with APC, UPC with UPC); an undeclared receptacle ("") is not checked."""
    return not receptacle or receptacle == plug


def vendor_neutral_fibre(module: ModulePart, own: FibrePart | None) -> FibrePart | None:
    """The fibre a link on ``module`` takes instead of its medium's (NVIDIA's, where NVIDIA
    sells one), or None: a module of another vendor that names a mating fibre of its own, not
    NVIDIA's, takes that one, since a Tomahawk or AMD cage takes no NVIDIA part (the plug
    rules) and neither does the fibre or patch cord on its module (issue 39). ``own``: the
    module's own fibre part (``module.fibre`` in the catalog)."""
    if module.vendor == "NVIDIA" or own is None or own.vendor == "NVIDIA":
        return None
    return own if mates(module.receptacle, own.connector) else None


def length_code(length_m: float) -> str:
    """NVIDIA LinkX length code: 0.5 m -> ``00A``, 1 m -> ``001``, 1.5 m -> ``01A``, 30 m -> ``030``."""
    whole = int(length_m + 1e-9)
    half = length_m - whole > 0.25
    return f"{whole:02d}A" if half else f"{whole:03d}"


def part_number_for(pattern: str, length_m: float | None) -> str:
    """The part number of one length of a part (``{len}`` replaced by the length code); ""
    for a NaN length: no length of the part is long enough, so there is no part to name (the
    layout reports it, CORD_NOT_ORDERABLE / TRUNK_NOT_ORDERABLE)."""
    if "{len}" not in pattern or length_m is None:
        return pattern
    if length_m != length_m:
        return ""
    return pattern.replace("{len}", length_code(length_m))


QUOTE = "quote"  # the part number of a line whose vendor publishes none: ask for a quote


def orderable_number(part_number: str) -> str:
    """The part number a purchaser may order by: the catalog's, unless it is an estimate
    (``EST-`` prefix: no published number) or missing, which reads ``quote``."""
    if not part_number or part_number.startswith("EST-"):
        return QUOTE
    return part_number


def row_number(part_number: str) -> str:
    """The part number a cabling schedule row (sheet, CSV) or the editor shows: the BOM line's
    (:func:`orderable_number`), so a purchaser, an installer and the editor read the same
    number for the same part; "" stays "": the row has no part there (an integrated cable's end
    takes no module; no length of the part is long enough, which the layout reports)."""
    return orderable_number(part_number) if part_number else ""


def part_words(vendor: str, part_number: str, description: str) -> str:
    """A part named in a sentence (a refusal, a finding) as the BOM lists it: vendor and
    orderable number, or, for an EST- estimate, what it is and "(quote)": "quote" alone would
    not say which part the sentence means, and the estimate is no number to order by."""
    number = orderable_number(part_number)
    return f"{vendor} {number}" if number != QUOTE else f"{vendor} {description} ({QUOTE})"


FacilityKind = Literal[
    "rack-pdu", "power-shelf", "rack-dc-feed", "busway-tap", "cdu", "crah", "rack-manifold"
]


# Facility parts that stand in a rack as NetBox devices (model/outputs/netbox/power.py)
NETBOX_DEVICE_KINDS = frozenset({"rack-pdu", "power-shelf", "rack-dc-feed"})


class FacilityPart(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: _Id
    kind: FacilityKind
    part_number: _Id
    vendor: str
    description: str
    price_usd: _Usd = 0.0
    price_per_kw_usd: _Usd = 0.0
    source: _Id  # keys of resources/catalog/sources.json, or "estimate"
    notes: str = ""
    # The product's model as a NetBox device type names it (a PDU, power shelf or DC feed is a
    # device in the rack there). Every built-in part of those kinds (``NETBOX_DEVICE_KINDS``)
    # has one; a design's own part written before the field existed may not: see netbox_model.
    model: str = ""

    @property
    def netbox_model(self) -> str:
        """The NetBox device type's model: ``model``, else the first clause of the description
        (how NetBox types were named before parts carried a model, so a design file's own
        part without one keeps its type's name)."""
        return self.model.strip() or self.description.split(",")[0].split(" (")[0].strip()
