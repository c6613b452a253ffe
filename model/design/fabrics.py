"""Fabric membership: which network (compute, storage, in-band, OOB, scale-up) a switch or link is in.

A DGX SuperPOD is several networks side by side (domain-facts §8c): the compute fabric, a storage
fabric, in-band management Ethernet, out-of-band (BMC) management, and NVLink scale-up. Every
switch and every link belongs to exactly one of them. The rules, one source for the analysis,
the BOM and the editor's layers:

* A switch's fabric is ``Device.fabric`` when set; otherwise its role decides: an NVLink switch is
  ``scale-up``, a ``management`` switch is ``oob``, every other switch ``compute`` (what a v1
  design, which knew only the compute fabric, meant). Servers and appliances have no fabric of
  their own: their ports reach several.
* A link's fabric is ``Link.fabric`` when set (pinned by the user); otherwise, in this order: a
  scale-up port at either end makes it ``scale-up``; a switch's data port (any role but
  ``management``) makes it that switch's fabric — a cable is in the network of the switch port it
  plugs into, so a UFM appliance's port cabled to a compute leaf is in the compute fabric; a
  ``management`` port (a BMC, a switch's own management port) makes it ``oob``; otherwise the
  port role of its A end (compute, storage, frontend = in-band).

:func:`link_fabric_codes` applies the rules to arrays (the analysis' topology, 400k links);
:func:`link_fabric` and :func:`device_fabric` to one object (the editor), through the same code.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter

import numpy as np

from model.design.bulk_load import loaded_link_codes
from model.design.design import Design
from model.design.entities import FABRICS, Device, Link

FABRIC_CODE = {name: i for i, name in enumerate(FABRICS)}
COMPUTE, STORAGE, INBAND, OOB, SCALE_UP = (FABRIC_CODE[f] for f in FABRICS)
NO_FABRIC = -1
FABRIC_LABELS = {
    "compute": "Compute",
    "storage": "Storage",
    "inband": "In-band management",
    "oob": "Out-of-band management",
    "scale-up": "Scale-up (NVLink)",
}

PORT_ROLES = ("compute", "storage", "frontend", "management", "scale-up")
PORT_ROLE_CODE = {name: i for i, name in enumerate(PORT_ROLES)}
_MANAGEMENT_PORT = PORT_ROLE_CODE["management"]
_SCALE_UP_PORT = PORT_ROLE_CODE["scale-up"]
# Fabric of a link between two non-switch ports, by the A end's port role.
_ROLE_FABRIC = np.array([COMPUTE, STORAGE, INBAND, OOB, SCALE_UP], dtype=np.int8)

SWITCH_CATEGORIES = frozenset({"switch", "nvlink-switch"})
_FABRIC = attrgetter("fabric")


def device_fabric_code(design: Design, device: Device) -> int:
    """The fabric code of a switch (explicit or by role); :data:`NO_FABRIC` for other devices."""
    dtype = design.catalog.device_types[device.type]
    if dtype.category not in SWITCH_CATEGORIES:
        return NO_FABRIC
    if device.fabric is not None:
        return FABRIC_CODE[device.fabric]
    if dtype.category == "nvlink-switch" or device.role == "nvlink-switch":
        return SCALE_UP
    if device.role == "management":
        return OOB
    return COMPUTE


def device_fabric(design: Design, device: Device | str) -> str | None:
    """The fabric a switch is in, None for servers, appliances and panels (they span fabrics)."""
    if isinstance(device, str):
        device = design.devices[device]
    code = device_fabric_code(design, device)
    return None if code == NO_FABRIC else FABRICS[code]


def link_fabric_codes(
    explicit: np.ndarray,
    role_a: np.ndarray,
    role_b: np.ndarray,
    fabric_a: np.ndarray,
    fabric_b: np.ndarray,
) -> np.ndarray:
    """Fabric code per link from its ends (the module docstring's rules, in order).

    ``explicit`` = pinned fabric code or -1; ``role_*`` = port role codes (:data:`PORT_ROLES`);
    ``fabric_*`` = the end device's fabric code (-1 when it is not a switch).
    """
    out = _ROLE_FABRIC[role_a].copy()
    management = (role_a == _MANAGEMENT_PORT) | (role_b == _MANAGEMENT_PORT)
    out[management] = OOB
    data_b = (fabric_b >= 0) & (role_b != _MANAGEMENT_PORT)
    out[data_b] = fabric_b[data_b]
    data_a = (fabric_a >= 0) & (role_a != _MANAGEMENT_PORT)
    out[data_a] = fabric_a[data_a]
    scale_up = (role_a == _SCALE_UP_PORT) | (role_b == _SCALE_UP_PORT)
    out[scale_up] = SCALE_UP
    pinned = explicit >= 0
    out[pinned] = explicit[pinned]
    return out.astype(np.int8)


def explicit_codes(links: Iterable[Link], count: int) -> np.ndarray:
    """Pinned fabric code per link (-1 = derived)."""
    pinned = list(map(_FABRIC, links))
    if not any(pinned):  # the usual case, judged in C: no link pins its fabric
        return np.full(count, NO_FABRIC, dtype=np.int8)
    code: dict[str | None, int] = {None: NO_FABRIC}
    code.update(FABRIC_CODE)
    return np.fromiter(map(code.__getitem__, pinned), np.int8, count)


def link_fabric(design: Design, link: Link | str) -> str:
    """The fabric of one link (the same rules as the analysis, through the same function)."""
    if isinstance(link, str):
        link = design.links[link]
    roles, fabrics = [], []
    for end in (link.a, link.b):
        device = design.devices[end.device]
        roles.append(PORT_ROLE_CODE[design.ports(device)[end.port].role])
        fabrics.append(device_fabric_code(design, device))
    code = link_fabric_codes(
        np.array([FABRIC_CODE[link.fabric] if link.fabric else NO_FABRIC], dtype=np.int8),
        np.array([roles[0]], dtype=np.int8),
        np.array([roles[1]], dtype=np.int8),
        np.array([fabrics[0]], dtype=np.int8),
        np.array([fabrics[1]], dtype=np.int8),
    )
    return FABRICS[int(code[0])]


def design_link_fabrics(design: Design) -> np.ndarray:
    """Fabric code of every link of ``design``, in ``design.links`` order (vectorized rules).

    The ends' port roles are read through one role table per device type (``design.ports`` is
    one table per type and breakout) with C-level maps over the links: no Python code per link.
    """
    links = list(design.links.values())
    m = len(links)
    devices = design.devices
    codes = loaded_link_codes(design)
    if codes is not None and codes.device_ids == list(devices):
        return _loaded_link_fabrics(design, links, codes)
    dev_code = {d.id: device_fabric_code(design, d) for d in devices.values()}
    by_table: dict[int, tuple[dict, dict[str, int]]] = {}  # id(port table) -> (it, roles)
    role_table: dict[str, dict[str, int]] = {}  # device id -> port name -> role code
    for device in devices.values():
        table = design.ports(device)
        known = by_table.get(id(table))
        if known is None:
            roles = {port: PORT_ROLE_CODE[info.role] for port, info in table.items()}
            known = by_table[id(table)] = (table, roles)
        role_table[device.id] = known[1]
    arrays = []
    for side in ("a", "b"):
        ends = list(map(attrgetter(side), links))
        ids = list(map(attrgetter("device"), ends))
        ports = map(attrgetter("port"), ends)
        tables = map(role_table.__getitem__, ids)
        role = np.fromiter(map(dict.__getitem__, tables, ports), np.int8, m)
        fabric = np.fromiter(map(dev_code.__getitem__, ids), np.int8, m)
        arrays.append((role, fabric))
    (role_a, fabric_a), (role_b, fabric_b) = arrays
    return link_fabric_codes(explicit_codes(links, m), role_a, role_b, fabric_a, fabric_b)


def _loaded_link_fabrics(design: Design, links: list[Link], codes) -> np.ndarray:
    """:func:`design_link_fabrics` of a design unedited since its load, from the loader's end
    codes (:class:`model.design.bulk_load.LoadedLinkCodes`): each distinct (port table, port) pair is
    looked up once and the ends gathered by numpy, rather than 786k ends read from records."""
    tables: dict[int, int] = {}  # id(port table) -> its number
    role_maps: list[dict[str, int]] = []
    dev_table = np.empty(len(design.devices), dtype=np.int64)
    dev_fabric = np.empty(len(design.devices), dtype=np.int8)
    for i, device in enumerate(design.devices.values()):
        table = design.ports(device)
        t = tables.get(id(table))
        if t is None:
            t = tables[id(table)] = len(role_maps)
            role_maps.append({port: PORT_ROLE_CODE[info.role] for port, info in table.items()})
        dev_table[i] = t
        dev_fabric[i] = device_fabric_code(design, device)
    m, ports, names = codes.link_count, len(codes.port_names), codes.port_names
    arrays = []
    for half in (slice(0, m), slice(m, 2 * m)):
        dev = np.asarray(codes.device[half], dtype=np.int64)
        pair, where = np.unique(dev_table[dev] * ports + codes.port[half], return_inverse=True)
        pair_role = np.array(
            [role_maps[k // ports][names[k % ports]] for k in pair.tolist()], dtype=np.int8
        )
        arrays.append((pair_role[where.reshape(-1)], dev_fabric[dev]))
    (role_a, fabric_a), (role_b, fabric_b) = arrays
    return link_fabric_codes(explicit_codes(links, m), role_a, role_b, fabric_a, fabric_b)


def link_fabric_map(design: Design) -> dict[str, str]:
    """Link id -> fabric name for every link."""
    codes = design_link_fabrics(design).tolist()
    return dict(zip(design.links, map(FABRICS.__getitem__, codes), strict=True))


def plant_fabric_rows(
    design: Design, plant, codes: np.ndarray | None = None
) -> tuple[list[str], np.ndarray]:
    """:func:`link_fabric_map` as ``build_plant``'s ``fabric_rows``: (fabric names, name index
    per plant row), the same split without a dict of every link id.

    ``codes``: the fabric code of every link in ``design.links`` order where the caller has it
    already (the analysis topology's ``fabric``, which applies the same rules to the same
    ends): ~0.2 s at 393k links not spent twice."""
    codes = design_link_fabrics(design) if codes is None else np.asarray(codes)
    if list(plant.link_ids) != list(design.links):
        position = {link_id: i for i, link_id in enumerate(design.links)}
        codes = codes[np.fromiter(map(position.__getitem__, plant.link_ids), np.int64)]
    return list(FABRICS), codes.astype(np.int64)


def links_by_fabric(design: Design) -> dict[str, list[str]]:
    """Link ids per fabric (every fabric present as a key, in :data:`FABRICS` order)."""
    out: dict[str, list[str]] = {f: [] for f in FABRICS}
    for link_id, fabric in link_fabric_map(design).items():
        out[fabric].append(link_id)
    return out


def rack_fabrics(design: Design, fabric_of: dict[str, str]) -> dict[str, set[str]]:
    """Rack id -> the fabrics it takes part in: its switches' fabrics and its devices' links'.

    ``fabric_of`` is :func:`link_fabric_map`. A rack is drawn in a fabric's layer when that
    fabric is in its set (servers' racks are in every fabric their ports are cabled to).
    """
    out: dict[str, set[str]] = {r: set() for r in design.racks}
    for device in design.devices.values():
        own = device_fabric(design, device)
        if own is not None:
            out[device.rack].add(own)
    for link_id, link in design.links.items():
        fabric = fabric_of[link_id]
        out[design.devices[link.a.device].rack].add(fabric)
        out[design.devices[link.b.device].rack].add(fabric)
    return out


def fabrics_in_use(design: Design) -> list[str]:
    """The fabrics that have at least one switch or link, in :data:`FABRICS` order."""
    used = {device_fabric(design, d) for d in design.devices.values()}
    used |= {FABRICS[c] for c in set(design_link_fabrics(design).tolist())}
    return [f for f in FABRICS if f in used]


__all__ = [
    "FABRICS",
    "FABRIC_CODE",
    "FABRIC_LABELS",
    "NO_FABRIC",
    "PORT_ROLES",
    "device_fabric",
    "design_link_fabrics",
    "device_fabric_code",
    "explicit_codes",
    "fabrics_in_use",
    "link_fabric",
    "link_fabric_codes",
    "link_fabric_map",
    "plant_fabric_rows",
    "links_by_fabric",
    "rack_fabrics",
]
