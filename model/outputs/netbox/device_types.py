"""NetBox device types from the catalog: variants, interface and cable types, and their YAML.

A NetBox device type fixes its interfaces (templates), so one catalog type can become several
NetBox types: one per breakout (``SN5600 (p 2x400G)`` has ports ``p1/1``, ``p1/2``...) and one per
link layer of its ports. InfiniBand or Ethernet is a property of the product for switches
(NVIDIA's *Quantum* family is InfiniBand, everything else here Ethernet); a server's ConnectX
ports run the protocol of the fabric they are cabled to, so a server port group is InfiniBand
when one of its links lands on an InfiniBand switch (``DGX H100 (nic InfiniBand)``).

InfiniBand interfaces are typed by lane rate as NetBox's ``InterfaceTypeChoices`` does (HDR 50G,
NDR 100G, XDR 200G per lane); Ethernet by speed and form factor. Every device type is written as
a devicetype-library YAML document (``interfaces``, ``module-bays`` = one per pluggable cage,
``power-ports`` = one aggregate port with the catalog's maximum and typical draw), which NetBox's
Device Types -> Import (YAML) takes as it is.

Choices where the catalog is silent: ``is_full_depth`` when the device is deeper than 0.5 m (it
then reaches both rack faces of a ~1 m rail depth); ``airflow`` front-to-rear for every powered
device (racks stand front to the cold aisle, ports at the rear as the catalog's ``ports_face``
says), ``passive`` for unpowered ones (patch panels).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache

import msgspec

from model.catalog.components import (
    DeviceType,
    GpuSpec,
    MediaType,
    NonNegFloat,
    PositiveFloat,
)
from model.catalog.ports import PortInfo, port_table
from model.outputs.netbox.names import (
    DESCRIPTION_MAX,
    MODEL_NAME_MAX,
    SLUG_MAX,
    fit_name,
    interface_name,
    slugify,
    suffix_alike_slugs,
)
from model.outputs.netbox.panels import panel_port_templates

FULL_DEPTH_MIN_M = 0.5
INFINIBAND = "infiniband"
ETHERNET = "ethernet"

# (speed Gb/s, form factor) -> NetBox Ethernet interface type; anything else is "other".
ETHERNET_TYPES = {
    (1, "RJ45"): "1000base-t",
    (10, "RJ45"): "10gbase-t",
    (100, "QSFP28"): "100gbase-x-qsfp28",
    (100, "QSFP112"): "100gbase-x-qsfp28",
    (200, "QSFP56"): "200gbase-x-qsfp56",
    (200, "QSFP112"): "200gbase-x-qsfp56",
    (200, "QSFP-DD"): "200gbase-x-qsfpdd",
    (400, "QSFP112"): "400gbase-x-qsfp112",
    (400, "QSFP-DD"): "400gbase-x-qsfpdd",
    (400, "OSFP"): "400gbase-x-osfp",
    (800, "OSFP"): "800gbase-x-osfp",
    (800, "OSFP224"): "800gbase-x-osfp",
    (800, "QSFP-DD800"): "800gbase-x-qsfpdd",
    (1600, "OSFP"): "1.6tbase-x-osfp1600",
    (1600, "OSFP224"): "1.6tbase-x-osfp1600",
}
# (lanes, lane rate Gb/s) -> NetBox InfiniBand type. NetBox's InterfaceTypeChoices
# (netbox-community/netbox, netbox/dcim/choices.py) has an "InfiniBand 1X" group labelled per
# lane ("NDR (100 Gbps)") and, from v4.6.9, an "InfiniBand 4X" group ("NDR 4X (400 Gbps)",
# "XDR 4X (800 Gbps)"): a 400G NDR port is infiniband-ndr-4x. No 2X group exists, so a split
# 2-lane port (NDR200) is "other" rather than a type of the wrong speed.
INFINIBAND_TYPES = {
    (1, 25): "infiniband-edr",
    (1, 50): "infiniband-hdr",
    (1, 100): "infiniband-ndr",
    (1, 200): "infiniband-xdr",
    (4, 25): "infiniband-edr-4x",
    (4, 50): "infiniband-hdr-4x",
    (4, 100): "infiniband-ndr-4x",
    (4, 200): "infiniband-xdr-4x",
}
# Form factors that are a pluggable cage (a module bay for a transceiver or a cable end).
CAGE_FORM_FACTORS = frozenset(
    {"OSFP", "OSFP224", "QSFP28", "QSFP56", "QSFP112", "QSFP-DD", "QSFP-DD800", "SFP28", "SFP56"}
)
# What NetBox's cable "type" cannot tell apart (AEC and LACC are both dac-active) goes first in
# the cable's description.
CABLE_KIND_TEXT = {
    "dac": "Passive DAC",
    "acc": "LACC (linear active copper, no DSP)",
    "aec": "AEC (active electrical cable, retimed)",
    "aoc": "AOC",
    "mmf": "Multimode optics",
    "smf": "Single-mode optics",
    "utp": "Twisted pair",
    "backplane": "Rack backplane (comes with the rack, not ordered)",
}


def is_infiniband_switch(dtype: DeviceType) -> bool:
    """True for InfiniBand switches: NVIDIA's Quantum family (Spectrum is Ethernet)."""
    return dtype.category == "switch" and "quantum" in dtype.model.casefold()


def interface_type(info: PortInfo, layer: str) -> str:
    """NetBox interface type of a port running ``layer`` (``infiniband`` or ``ethernet``)."""
    if layer == INFINIBAND and info.form_factor != "RJ45":
        return INFINIBAND_TYPES.get((info.lanes, round(info.lane_rate_gbps)), "other")
    return ETHERNET_TYPES.get((round(info.speed_gbps), info.form_factor), "other")


@lru_cache(maxsize=256)
def cable_description(medium: MediaType) -> str:
    kind = CABLE_KIND_TEXT.get(medium.kind, medium.kind)
    return fit_name(f"{kind}: {medium.name} [{medium.id}]", DESCRIPTION_MAX)


class TypeVariant:
    """One NetBox device type: a catalog type with a breakout and per-group link layers."""

    def __init__(self, dtype: DeviceType, breakout: dict[str, int], ib_groups: Iterable[str]):
        self.dtype = dtype
        self.breakout = dict(sorted(breakout.items()))
        self.ib_groups = tuple(sorted(ib_groups))
        self.key = (dtype.id, tuple(self.breakout.items()), self.ib_groups)
        self.slug_suffix = ""  # set by distinct_slugs when another type slugs alike
        # A type of the design's own (not the catalog's): its comments carry what NetBox has no
        # field for (TYPE_MARK), so import-netbox gets its power and GPUs back
        self.custom = False

    @property
    def model(self) -> str:
        parts = []
        for group_name, fanout in self.breakout.items():
            group = self.dtype.port_group(group_name)
            option = group.breakout(fanout) if group else None
            speed = f"{option.speed_gbps:g}G" if option else ""
            parts.append(f"{group_name} {fanout}x{speed}")
        if not is_infiniband_switch(self.dtype):
            parts.extend(f"{g} InfiniBand" for g in self.ib_groups)
        name = self.dtype.model + (f" ({', '.join(parts)})" if parts else "")
        return fit_name(name, MODEL_NAME_MAX)

    @property
    def slug(self) -> str:
        if self.slug_suffix:
            return slugify(f"{self.dtype.vendor}-{self.model}", SLUG_MAX - 9) + self.slug_suffix
        return slugify(f"{self.dtype.vendor}-{self.model}")

    def layer(self, group: str) -> str:
        return INFINIBAND if group in self.ib_groups else ETHERNET

    def interfaces(self) -> list[dict[str, object]]:
        out = []
        for port, info in port_table(self.dtype, self.breakout).items():
            row: dict[str, object] = {
                "name": interface_name(port),
                "type": interface_type(info, self.layer(info.group)),
                "mgmt_only": info.role == "management",
            }
            if info.form_factor == "nvlink-backplane":
                row["description"] = "NVLink scale-up port on the rack backplane"
            out.append(row)
        return out

    def module_bays(self) -> list[dict[str, object]]:
        bays: list[dict[str, object]] = []
        for group in self.dtype.port_groups:
            if group.form_factor not in CAGE_FORM_FACTORS:
                continue
            per_cage = group.ports_per_cage
            for cage in range(1, group.count // per_cage + 1):
                first = (cage - 1) * per_cage + 1
                ports = [f"{group.name}{first + k}" for k in range(per_cage)]
                bays.append(
                    {
                        "name": f"{group.name} cage {cage}",
                        "position": str(cage),
                        "label": fit_name(" + ".join(ports), 64),
                        "description": f"{group.form_factor} cage",
                    }
                )
        return bays

    def power_ports(self) -> list[dict[str, object]]:
        max_w = round(self.dtype.power_max_w)
        if max_w < 1:
            return []
        typical_w = min(round(self.dtype.power_typical_w), max_w)
        port: dict[str, object] = {"name": "PSU", "maximum_draw": max_w}
        if typical_w >= 1:
            port["allocated_draw"] = typical_w
        port["description"] = "All supplies together (the catalog lists no PSU count)"
        return [port]

    @property
    def is_full_depth(self) -> bool:
        return self.dtype.depth_m > FULL_DEPTH_MIN_M

    @property
    def airflow(self) -> str:
        return "front-to-rear" if self.dtype.power_max_w > 0 else "passive"

    def document(self) -> dict[str, object]:
        doc: dict[str, object] = {
            "manufacturer": self.dtype.vendor,
            "model": self.model,
            "slug": self.slug,
            "u_height": self.dtype.u_height,
            "is_full_depth": self.is_full_depth,
            "airflow": self.airflow,
            "description": fit_name(f"Hallwright {self.dtype.id}", DESCRIPTION_MAX),
            "comments": f"Depth {self.dtype.depth_m * 1000:.0f} mm. Sources: {self.dtype.source}"
            + (f"\n{type_record(self.dtype)}" if self.custom else ""),
        }
        for key, items in (
            ("interfaces", self.interfaces()),
            ("module-bays", self.module_bays()),
            ("power-ports", self.power_ports()),
        ):
            if items:
                doc[key] = items
        if self.dtype.category == "patch-panel":  # structured panels: front/rear ports
            rear, front, maps = panel_port_templates(self.dtype.id)
            for key, items in (
                ("rear-ports", rear),
                ("front-ports", front),
                ("port-mappings", maps),
            ):
                if items:
                    doc[key] = items
        return doc


TYPE_MARK = "Hallwright type: "


class TypeRecord(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """What a custom device type's NetBox comments carry beside its templates: NetBox has a
    power port's draw but import-netbox reads a type from its interfaces, and no field holds
    a depth in metres or the GPUs (``DeviceType.gpus``) the analysis counts. Its fields carry
    the catalog's ranges, so a comment edited to a negative power or a zero depth is refused
    when read instead of giving a design file that then fails to load."""

    power_typical_w: NonNegFloat
    power_max_w: NonNegFloat
    depth_m: PositiveFloat
    gpus: GpuSpec | None = None


def type_record(dtype: DeviceType) -> str:
    """The comment line of a custom type: ``Hallwright type: {"power_typical_w": ...}``."""
    record = TypeRecord(
        power_typical_w=dtype.power_typical_w,
        power_max_w=dtype.power_max_w,
        depth_m=dtype.depth_m,
        gpus=dtype.gpus,
    )
    return TYPE_MARK + msgspec.json.encode(record).decode("utf-8")


def parse_type_record(comments: str) -> TypeRecord | None:
    """The record of a type's comments (its ``TYPE_MARK`` line); None when there is none.
    A line edited into something else (out of a field's range, a maximum power below the
    typical) is an error: a ValueError naming the field, in msgspec's words where it has them.
    The checks of a whole type (``model.files.checks``) are the importer's."""
    line = type_record_line(comments)
    if line is None:
        return None
    try:
        record = msgspec.json.decode(line[len(TYPE_MARK) :], type=TypeRecord)
    except msgspec.DecodeError as exc:  # ValidationError is a DecodeError
        raise ValueError(f"its comment line {TYPE_MARK.strip()!r} ...: {exc}") from None
    if record.power_max_w < record.power_typical_w:
        raise ValueError(
            f"its comment line {TYPE_MARK.strip()!r} ...: power_max_w {record.power_max_w:g} W "
            f"is below power_typical_w {record.power_typical_w:g} W - at `$.power_max_w`"
        )
    return record


def type_record_line(comments: str) -> str | None:
    """The ``TYPE_MARK`` line of a type's comments, None when they have none: all of the
    comments import-netbox reads (``import-netbox --url`` writes only this line)."""
    for line in (comments or "").splitlines():
        if line.startswith(TYPE_MARK):
            return line
    return None


def distinct_slugs(variants: Iterable[TypeVariant]) -> None:
    """Suffixes for variants that slug alike (:func:`~model.outputs.netbox.names.suffix_alike_slugs`,
    by their key): two custom types "Acme X1" and "acme-x1" slug alike, and one of them was lost."""
    suffix_alike_slugs(variants, lambda variant: repr(variant.key))


def yaml_document(doc: dict[str, object]) -> str:
    """A YAML document (block style) of a mapping of scalars and lists of flat mappings.

    Scalars are written as JSON, which YAML reads unchanged, so no quoting rule is guessed.
    """
    lines = ["---"]
    for key, value in doc.items():
        if isinstance(value, list):
            lines.append(f"{key}:")
            for item in value:
                first = True
                for k, v in item.items():
                    lines.append(f"{'  - ' if first else '    '}{k}: {json.dumps(v)}")
                    first = False
        else:
            lines.append(f"{key}: {json.dumps(value)}")
    return "\n".join(lines) + "\n"
