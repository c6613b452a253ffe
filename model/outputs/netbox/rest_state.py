"""What a NetBox already holds, read through its REST API and keyed as the push keys its objects.

:func:`fetch_kind` lists one REST type (``model.outputs.netbox.rest_objects.KINDS``, or the
lookups ``interfaces`` and ``module-bays`` that devices get from their types) and keys every
object by the natural key :mod:`~model.outputs.netbox.rest_objects` gives the design's: a
second push finds what the first one wrote, and an object another team created under the same
slug or name is matched, not duplicated. Site-scoped types are read for the pushed site only.
Values are compared the way NetBox returns them: a nested object by its id, a choice by its
value, ``""`` as no value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol


class ApiError(Exception):
    """A request NetBox refused or could not answer: its HTTP status and its error text."""

    def __init__(self, status: int, text: str, body: object = None):
        super().__init__(f"HTTP {status}: {text}")
        self.status = status
        self.text = text
        self.body = body  # the decoded JSON error, a list for a refused bulk request


class Api(Protocol):
    """The few REST calls a push makes (``model.outputs.netbox.rest_client`` over HTTP; a fake
    in the tests). Endpoints are relative to ``/api/dcim/``."""

    def read_all(self, endpoint: str, params: dict[str, object]) -> list[dict]: ...

    def create(self, endpoint: str, objects: list[dict]) -> list[dict]: ...

    def update(self, endpoint: str, objects: list[dict]) -> list[dict]: ...

    def delete(self, endpoint: str, ids: list[int]) -> None: ...


def _slug(obj: dict | None) -> str:
    return obj["slug"] if obj else ""


def _name(obj: dict | None) -> str:
    return obj["name"] if obj else ""


CABLE_END_TYPES = ("dcim.interface", "dcim.frontport", "dcim.rearport")


def _end(site: str, terminations: list[dict]) -> tuple[str, str] | None:
    """The (device, port) of a cable end that is one interface, front or rear port; None for
    anything else."""
    if len(terminations) != 1 or terminations[0].get("object_type") not in CABLE_END_TYPES:
        return None
    port = terminations[0].get("object") or {}
    return (_name(port.get("device")), port.get("name", ""))


def _cable_key(site: str, obj: dict) -> tuple | None:
    a, b = _end(site, obj["a_terminations"]), _end(site, obj["b_terminations"])
    if a is None or b is None:
        return ("other cable", obj["id"])  # never a design cable's key: deleted if in the site
    return (site, *sorted((a, b)))


# kind -> natural key of a REST object (``site`` is the pushed site's slug)
KEYS: dict[str, Callable[[str, dict], tuple | None]] = {
    "manufacturers": lambda s, o: (o["slug"],),
    "device-roles": lambda s, o: (o["slug"],),
    "device-types": lambda s, o: (o["slug"],),
    "module-types": lambda s, o: (_slug(o["manufacturer"]), o["model"]),
    "interface-templates": lambda s, o: (
        (_slug(o["device_type"]), o["name"]) if o.get("device_type") else None
    ),
    "module-bay-templates": lambda s, o: (
        (_slug(o["device_type"]), o["name"]) if o.get("device_type") else None
    ),
    "power-port-templates": lambda s, o: (
        (_slug(o["device_type"]), o["name"]) if o.get("device_type") else None
    ),
    "rear-port-templates": lambda s, o: (
        (_slug(o["device_type"]), o["name"]) if o.get("device_type") else None
    ),
    "front-port-templates": lambda s, o: (
        (_slug(o["device_type"]), o["name"]) if o.get("device_type") else None
    ),
    "sites": lambda s, o: (o["slug"],),
    "locations": lambda s, o: (s, o["slug"]),
    "racks": lambda s, o: (s, o["name"]),
    "devices": lambda s, o: (s, o["name"]) if o.get("name") else ("unnamed device", o["id"]),
    "modules": lambda s, o: (s, _name(o["device"]), _name(o["module_bay"])),
    "cables": _cable_key,
    "interfaces": lambda s, o: (s, _name(o["device"]), o["name"]),
    "front-ports": lambda s, o: (s, _name(o["device"]), o["name"]),
    "rear-ports": lambda s, o: (s, _name(o["device"]), o["name"]),
    "module-bays": lambda s, o: (s, _name(o["device"]), o["name"]),
}


# Device components a push looks up by device and name (modules' bays, cables' ends)
DEVICE_PORTS = ("interfaces", "module-bays", "front-ports", "rear-ports")


@dataclass
class Existing:
    """The objects of one kind NetBox holds: natural key -> id and -> the REST object."""

    ids: dict[tuple, int] = field(default_factory=dict)
    objects: dict[tuple, dict] = field(default_factory=dict)

    def add(self, key: tuple, obj: dict) -> None:
        self.ids[key] = obj["id"]
        self.objects[key] = obj


def plain(value: object) -> object:
    """A REST value as the push compares it: a nested object as its id, a choice as its value,
    ``""`` as None."""
    if isinstance(value, dict):
        if "id" in value:
            return value["id"]
        if "value" in value:
            return value["value"]
    if value == "":
        return None
    return value


def fetch_kind(
    api: Api, kind: str, site_slug: str, site_id: int | None, type_ids: Iterable[int] = ()
) -> Existing:
    """The objects of ``kind`` NetBox holds that the push could match: site-scoped kinds in
    the site ``site_id`` (none while the site does not exist), templates of the device types
    ``type_ids``, the site by its slug, other global kinds all."""
    from model.outputs.netbox.rest_objects import SITE_SCOPED

    out = Existing()
    pages: list[list[dict]] = []
    if kind in DEVICE_PORTS:
        if site_id is None:
            return out
        # Looked up by device and name only: NetBox's dynamic ``fields`` (4.0+) skip the rest
        # (a full interface page of 1,000 is ~1.4 MB).
        pages.append(api.read_all(kind, {"site_id": site_id, "fields": "id,name,device"}))
    elif kind in SITE_SCOPED:
        if site_id is None:
            return out
        pages.append(api.read_all(kind, {"site_id": site_id}))
    elif kind.endswith("-templates"):
        ids = sorted(set(type_ids))
        for start in range(0, len(ids), 50):  # a URL of 50 ids stays well under limits
            pages.append(api.read_all(kind, {"device_type_id": ids[start : start + 50]}))
    elif kind == "sites":
        pages.append(api.read_all(kind, {"slug": site_slug}))
    else:
        pages.append(api.read_all(kind, {}))
    key_of = KEYS[kind]
    for page in pages:
        for obj in page:
            key = key_of(site_slug, obj)
            if key is not None:
                out.add(key, obj)
    return out
