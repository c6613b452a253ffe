"""The objects a push writes through NetBox's REST API, by type and natural key, from the export.

:func:`desired_objects` turns one export (:class:`~model.outputs.netbox.export.NetBoxTables`)
into the REST objects it stands for, in NetBox's dependency order (``KINDS``): manufacturers,
roles, device and module types with their component templates (a patch panel's rear and front
ports, each front port mapped to its rear port and position), site, location, racks, devices,
modules, cables. Each object has a natural key, the way a second push finds it again (slug, name
within its site, a cable by its two ends), and the REST fields it sets; a field naming another
object holds a :class:`Ref` (type, key) that the push resolves to that object's id.

Devices carry no asset tag: REST creates a module by its device's id, so the placeholder tags
the CSV import needed are not written. Cable terminations are create-only (``create_only``):
a cable whose ends differ is another cable (its key is its ends).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from model.outputs.netbox.export import LOCATION_NAME, NetBoxTables
from model.outputs.netbox.modules import MODULES_STEM
from model.outputs.netbox.names import slugify

# (REST endpoint under /api/dcim/, global or within the pushed site), in dependency order.
KINDS = (
    ("manufacturers", False),
    ("device-roles", False),
    ("device-types", False),
    ("module-types", False),
    ("interface-templates", False),
    ("module-bay-templates", False),
    ("power-port-templates", False),
    ("rear-port-templates", False),
    ("front-port-templates", False),  # after the rear ports they map to
    ("sites", False),
    ("locations", True),
    ("racks", True),
    ("devices", True),
    ("modules", True),
    ("cables", True),
)
SITE_SCOPED = frozenset(kind for kind, scoped in KINDS if scoped)
TEMPLATE_KINDS = {
    "interface-templates": "interfaces",
    "module-bay-templates": "module-bays",
    "power-port-templates": "power-ports",
    "rear-port-templates": "rear-ports",
    "front-port-templates": "front-ports",
}
# A cable end's NetBox type (the export's side_a_type) -> the REST kind of its port
PORT_KINDS = {
    "dcim.interface": "interfaces",
    "dcim.frontport": "front-ports",
    "dcim.rearport": "rear-ports",
}
CABLE_STEMS = ("08_cables", "09_backplane_cables")


@dataclass(frozen=True)
class Ref:
    """A field naming another object: its REST type and natural key."""

    kind: str
    key: tuple


@dataclass(frozen=True)
class Termination:
    """One end of a cable: the port's NetBox object type and the port (a :class:`Ref`)."""

    object_type: str
    port: Ref


@dataclass
class Desired:
    """One object as the design wants it: REST fields compared on every push, and fields only
    sent when it is created."""

    fields: dict[str, object]
    create_only: dict[str, object] = field(default_factory=dict)


class PushRefused(ValueError):
    """A design the REST push cannot write (one sentence for the user)."""


def desired_objects(export: NetBoxTables) -> dict[str, dict[tuple, Desired]]:
    """Kind -> natural key -> :class:`Desired`, for every kind of ``KINDS`` (see the module
    docstring). A structured design's patch panels are devices whose types have rear and front
    port templates, a front port mapped to its rear port and position (``rear_ports``, NetBox
    4.5's port mappings); cords end on front ports, trunk legs on rear ports. A cable end of
    any other kind is refused."""
    other = {
        kind
        for stem in CABLE_STEMS
        if stem in export.tables
        for row in export.rows(stem)
        for kind in (row[2], row[6])
        if kind not in PORT_KINDS
    }
    if other:
        raise PushRefused(
            f"push-netbox writes cables between interfaces and panel ports, not {sorted(other)}: "
            "use export-netbox for this design"
        )
    out: dict[str, dict[tuple, Desired]] = {kind: {} for kind, _ in KINDS}
    for name, slug in export.rows("01_manufacturers"):
        out["manufacturers"][(slug,)] = Desired({"name": name, "slug": slug})
    for name, slug, color in export.rows("02_device_roles"):
        out["device-roles"][(slug,)] = Desired({"name": name, "slug": slug, "color": color})
    type_slug = {}
    # The PDU and power-shelf types of a hall with a facility (model.outputs.netbox.power) are
    # written beside the catalog's: their devices stand in the racks without a U position.
    docs = [v.document() for v in export.device_types] + [d for _, d in export.power_types]
    for doc in docs:
        slug = str(doc["slug"])
        vendor = slugify(str(doc["manufacturer"]))
        type_slug[(doc["manufacturer"], doc["model"])] = slug
        scalars = {k: v for k, v in doc.items() if not isinstance(v, list)}
        scalars["manufacturer"] = Ref("manufacturers", (vendor,))
        out["device-types"][(slug,)] = Desired(scalars)
        maps = _rear_ports_of(slug, doc.get("port-mappings", []))
        for kind, doc_key in TEMPLATE_KINDS.items():
            for item in doc.get(doc_key, []):  # type: ignore[attr-defined]
                fields = dict(item, device_type=Ref("device-types", (slug,)))
                if kind == "front-port-templates":  # mapped by rear_ports (NetBox 4.5+)
                    fields.pop("rear_port", None)
                    fields.pop("rear_port_position", None)
                    fields["rear_ports"] = maps.get(item["name"], [])
                out[kind][(slug, item["name"])] = Desired(fields)
    module_type_key = {}
    for mtype in export.module_types:
        doc = mtype.document()  # its manufacturer as named (the library's under --types library)
        vendor = slugify(str(doc["manufacturer"]))
        module_type_key[mtype.model] = (vendor, mtype.model)
        fields = dict(doc, manufacturer=Ref("manufacturers", (vendor,)))
        out["module-types"][(vendor, mtype.model)] = Desired(fields)
    site_fields = dict(
        zip(export.tables["04_sites"].header, export.rows("04_sites")[0], strict=True)
    )
    site_fields.pop("tenant", None)  # a tenant is an object of its own, not pushed
    site_slug = site_fields["slug"]
    site_ref = Ref("sites", (site_slug,))
    out["sites"][(site_slug,)] = Desired(site_fields)
    location_ref = Ref("locations", (site_slug, slugify(LOCATION_NAME)))
    for _, name, slug, loc_status in export.rows("05_locations"):
        out["locations"][(site_slug, slug)] = Desired(
            {"site": site_ref, "name": name, "slug": slug, "status": loc_status}
        )
    rack_header = export.tables["06_racks"].header
    for row in export.rows("06_racks"):
        fields = dict(zip(rack_header, row, strict=True))
        fields.update(site=site_ref, location=location_ref)
        out["racks"][(site_slug, fields["name"])] = Desired(fields)
    _add_devices(export, out, site_slug, type_slug)
    _add_modules(export, out, site_slug, module_type_key)
    _add_cables(export, out, site_slug)
    return out


def _rear_ports_of(slug: str, mappings) -> dict[str, list[dict[str, object]]]:
    """Front port name -> its ``rear_ports`` as NetBox 4.5's REST API takes them (position on
    the front port, the rear port template, the position on the rear port)."""
    out: dict[str, list[dict[str, object]]] = {}
    for m in mappings:
        out.setdefault(m["front_port"], []).append(
            {
                "position": m["front_port_position"],
                "rear_port": Ref("rear-port-templates", (slug, m["rear_port"])),
                "rear_port_position": m["rear_port_position"],
            }
        )
    return out


def _add_devices(export, out, site_slug: str, type_slug: dict) -> None:
    header = export.tables["07_devices"].header
    for row in export.rows("07_devices"):
        r = dict(zip(header, row, strict=True))
        positioned = r["position"] not in ("", None)
        out["devices"][(site_slug, r["name"])] = Desired(
            {
                "name": r["name"],
                "role": Ref("device-roles", (slugify(r["role"]),)),
                "device_type": Ref(
                    "device-types", (type_slug[(r["manufacturer"], r["device_type"])],)
                ),
                "status": r["status"],
                "site": Ref("sites", (site_slug,)),
                "location": Ref("locations", (site_slug, slugify(LOCATION_NAME))),
                "rack": Ref("racks", (site_slug, r["rack"])) if r["rack"] else None,
                "position": r["position"] if positioned else None,
                "face": r["face"] if positioned else None,
                "airflow": r["airflow"] or None,
                "description": r["description"],
            }
        )


def _add_modules(export, out, site_slug: str, module_type_key: dict) -> None:
    if MODULES_STEM not in export.tables:
        return
    header = export.tables["07_devices"].header
    tag_at, name_at = header.index("asset_tag"), header.index("name")
    device_of_tag = {row[tag_at]: row[name_at] for row in export.rows("07_devices")}
    for tag, bay, model, status, description in export.rows(MODULES_STEM):
        device = device_of_tag[tag]
        out["modules"][(site_slug, device, bay)] = Desired(
            {
                "device": Ref("devices", (site_slug, device)),
                "module_bay": Ref("module-bays", (site_slug, device, bay)),
                "module_type": Ref("module-types", module_type_key[model]),
                "status": status,
                "description": description,
            },
            # Hallwright's module types have no component templates (a transceiver's port is
            # its device's interface: model.outputs.netbox.modules), so there is nothing to
            # replicate; NetBox would still look for templates of nine component kinds and the
            # device's components of each, twice (~38 queries a module: 128 modules took 71.7 s
            # of a loaded test NetBox, 13.9 s without). A held type keeps NetBox's default.
            {"replicate_components": False},
        )


def cable_key(site_slug: str, a: tuple[str, str], b: tuple[str, str]) -> tuple:
    """A cable's natural key: its site and its two (device, port) ends, in either order."""
    return (site_slug, *sorted((a, b)))


def _add_cables(export, out, site_slug: str) -> None:
    for stem in CABLE_STEMS:
        if stem not in export.tables:
            continue
        for row in export.rows(stem):
            _, a_dev, a_type, a_port, _, b_dev, b_type, b_port, ctype, status, label, length = row[
                :12
            ]
            unit, desc = row[12:14]
            a, b = (a_dev, a_port), (b_dev, b_port)
            out["cables"][cable_key(site_slug, a, b)] = Desired(
                {
                    "type": ctype or None,
                    "status": status,
                    "label": label,
                    "length": length,
                    "length_unit": unit or None,
                    "description": desc,
                },
                {
                    "a_terminations": [
                        Termination(a_type, Ref(PORT_KINDS[a_type], (site_slug, *a)))
                    ],
                    "b_terminations": [
                        Termination(b_type, Ref(PORT_KINDS[b_type], (site_slug, *b)))
                    ],
                },
            )
