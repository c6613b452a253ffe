"""A design pushed into NetBox through its REST API: the plan (created / changed / deleted per
type) and its writing in dependency order, with every refused object reported.

:func:`push` reads what NetBox holds (``model.outputs.netbox.rest_state``), compares it with
what the design wants (``model.outputs.netbox.rest_objects``) and, unless it is a dry run,
writes the difference: objects of the pushed site that the design no longer has are deleted
first (cables before the devices they end on), then each type in ``KINDS`` order is read
again, compared, and its new objects POSTed and its changed fields PATCHed as lists (NetBox's
bulk endpoints, sized by NetBox's time per object and a few requests of one kind side by side:
``model.outputs.netbox.rest_send``). Re-running it changes nothing: every object is found again
by its natural key. Each object NetBox refuses is reported with NetBox's own error text and the
others are written. An object whose referenced object is missing (refused above) is refused too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from model.outputs.netbox.rest_objects import (
    KINDS,
    PORT_KINDS,
    SITE_SCOPED,
    TEMPLATE_KINDS,
    Desired,
    Ref,
    Termination,
)
from model.outputs.netbox.rest_send import (  # noqa: F401  (sizing re-exported for callers)
    CHUNK,
    CONNECTIONS,
    FIRST_CHUNK,
    REQUEST_S,
    Refusal,
    next_chunk,
    send_kind,
)
from model.outputs.netbox.rest_state import Api, Existing, fetch_kind, plain

# Shared objects found by slug are used as they are, never changed: a NetBox that holds the
# devicetype-library's types names the manufacturer "Nvidia" (slug nvidia), and a push must not
# rename it to the catalog's "NVIDIA" under the other team's devices.
MATCH_ONLY = frozenset({"manufacturers", "device-roles"})
# With the devicetype-library's names (``push-netbox --types library``) a device or module type
# the NetBox already holds is the library's (loaded by the team): used as it is, its fields and
# templates never changed, as ``export-netbox --types library`` leaves a held type out.
HELD_TYPE_KINDS = ("device-types", "module-types")
_MISSING = object()  # a reference to an object NetBox does not hold (yet)
UNREFERENCED = frozenset({"modules", "cables"})  # no field of another kind names one


@dataclass
class KindPlan:
    """What a push does to one REST type: keys created, changed (with the fields), deleted."""

    create: list[tuple] = field(default_factory=list)
    change: dict[tuple, list[str]] = field(default_factory=dict)
    delete: list[tuple] = field(default_factory=list)
    unchanged: int = 0


@dataclass
class PushResult:
    plan: dict[str, KindPlan]
    refused: list[Refusal] = field(default_factory=list)
    written: bool = False
    held_types: list[tuple] = field(default_factory=list)  # device types used as NetBox holds
    left_out: list[tuple] = field(default_factory=list)  # modules whose bay a held type lacks

    def plan_json(self) -> dict:
        """The plan as JSON: per type, the keys created, changed and deleted."""
        return {
            kind: {
                "create": [list(k) for k in p.create],
                "change": [{"key": list(k), "fields": f} for k, f in p.change.items()],
                "delete": [list(k) for k in p.delete],
                "unchanged": p.unchanged,
            }
            for kind, p in self.plan.items()
        }

    def summary_lines(self) -> list[str]:
        lines = []
        for kind, p in self.plan.items():
            if p.create or p.change or p.delete or p.unchanged:
                lines.append(
                    f"{kind}: {len(p.create)} created, {len(p.change)} changed, "
                    f"{len(p.delete)} deleted, {p.unchanged} unchanged"
                )
        if self.held_types:
            lines.append(
                f"{len(self.held_types)} device types NetBox holds used as they are "
                f"({', '.join(k[0] for k in self.held_types)}): fields and templates untouched"
            )
        if self.left_out:
            lines.append(
                f"{len(self.left_out)} transceiver modules left out: the held type has no bay "
                "for their cage (they stay in the BOM)"
            )
        return lines


def _same(want: object, have: object) -> bool:
    if want is _MISSING:
        return False
    want, have = plain(want), plain(have)
    if isinstance(want, float | int) and isinstance(have, float | int):
        return round(float(want), 2) == round(float(have), 2)
    return want == have


class _Pusher:
    def __init__(
        self, api: Api, desired: dict[str, dict[tuple, Desired]], progress, connections: int
    ) -> None:
        self.api = api
        self.connections = connections
        self.desired = desired
        self.progress = progress
        (self.site_slug,) = next(iter(desired["sites"]))
        self.held: dict[str, Existing] = {}
        self.refused: list[Refusal] = []
        self.match_only: set[tuple[str, tuple]] = set()  # (kind, key): held types

    @property
    def site_id(self) -> int | None:
        return self.held["sites"].ids.get((self.site_slug,)) if "sites" in self.held else None

    def read(self, kind: str) -> Existing:
        types = self.held.get("device-types", Existing()).ids
        wanted = [types[k] for k in self.desired["device-types"] if k in types]
        self.held[kind] = fetch_kind(self.api, kind, self.site_slug, self.site_id, wanted)
        return self.held[kind]

    def resolve(self, value: object) -> object:
        if isinstance(value, Ref):
            held = self.held.get(value.kind)
            return held.ids.get(value.key, _MISSING) if held else _MISSING
        if isinstance(value, Termination):
            return {"object_type": value.object_type, "object_id": self.resolve(value.port)}
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if isinstance(value, dict):  # a front port template's rear_ports entry
            return {k: self.resolve(v) for k, v in value.items()}
        return value

    def plan_kind(self, kind: str) -> KindPlan:
        plan = KindPlan()
        held = self.held[kind]
        for key, want in self.desired[kind].items():
            have = held.objects.get(key)
            if have is None:
                plan.create.append(key)
                continue
            if kind in MATCH_ONLY or (kind, key) in self.match_only:
                plan.unchanged += 1
                continue
            changed = [f for f, v in want.fields.items() if not _same(self.resolve(v), have.get(f))]
            if changed:
                plan.change[key] = changed
            else:
                plan.unchanged += 1
        if kind in SITE_SCOPED:
            plan.delete = [k for k in held.ids if k not in self.desired[kind]]
        return plan

    def body(self, kind: str, key: tuple, fields: dict[str, object]) -> dict | None:
        out = {}
        for name, value in fields.items():
            resolved = self.resolve(value)
            if _has_missing(resolved):
                self.refused.append(
                    Refusal(kind, key, f"its {name} is not in NetBox (refused or missing)")
                )
                return None
            out[name] = resolved
        return out

    def send(self, kind: str, method: Callable, items: list[tuple[tuple, dict]]) -> None:
        """Send ``items`` (key, body) over ``connections`` requests side by side
        (``model.outputs.netbox.rest_send``), but a cable with an end on a panel's front or
        rear port one request at a time: NetBox traces a path through a panel when a cable
        is saved, and a cord's path saved beside the trunk it runs on in another transaction
        would not see that trunk."""
        direct: list[tuple[tuple, dict]] = []
        through_panels: list[tuple[tuple, dict]] = []
        for item in items:
            panel = kind == "cables" and not _interfaces_only(self.desired[kind][item[0]])
            (through_panels if panel else direct).append(item)
        for group, connections in ((direct, self.connections), (through_panels, 1)):
            if group:
                self.refused += send_kind(kind, method, group, connections, self.progress)

    def delete(self, plans: dict[str, KindPlan]) -> bool:
        """Delete what ``plans`` delete, dependents first; whether anything was deleted."""
        deleted = False
        for kind, _ in reversed(KINDS):
            doomed = [self.held[kind].ids[k] for k in plans[kind].delete]
            for start in range(0, len(doomed), CHUNK):
                self.api.delete(kind, doomed[start : start + CHUNK])
            if doomed:
                deleted = True
                self.progress(f"{kind}: {len(doomed)} deleted")
        return deleted

    def apply(self, plans: dict[str, KindPlan]) -> None:
        """Write ``plans``. A kind is read again only when this push may have changed what the
        plan read: after a delete (NetBox cascades a device's to its cables and modules), a
        device's ports and bays after devices were written, a kind's new ids after it was
        written when a later kind refers to it. A site's cables were read three times, 100 of
        the 144 s a moved rack's push of a 64-node pod took."""
        deleted = self.delete(plans)
        written: set[str] = set()
        for kind, _ in KINDS:
            ports_moved = deleted or "devices" in written
            if kind == "modules" and ports_moved:
                self.read("module-bays")
            elif kind == "cables" and ports_moved:
                for ports in PORT_KINDS.values():
                    self.read(ports)
            held = self.read(kind) if deleted else self.held[kind]
            plan = self.plan_kind(kind)
            wanted = self.desired[kind]
            new = []
            for key in plan.create:
                body = self.body(kind, key, {**wanted[key].fields, **wanted[key].create_only})
                if body is not None:
                    new.append((key, body))
            patches = []
            for key, names in plan.change.items():
                body = self.body(kind, key, {n: wanted[key].fields[n] for n in names})
                if body is not None:
                    patches.append((key, {"id": held.ids[key], **body}))
            if new:
                self.send(kind, self.api.create, new)
            if patches:
                self.send(kind, self.api.update, patches)
            if new or patches:
                written.add(kind)
                if kind not in UNREFERENCED:
                    self.read(kind)  # the new ids, for the kinds that refer to these


def _use_held_types(pusher: _Pusher) -> tuple[list[tuple], list[tuple]]:
    """Mark the device and module types NetBox holds as match-only, drop the templates of the
    held device types from what the push writes, and the modules whose bay a held type lacks
    (a transceiver in a cage the library's type does not model). Returns the held device types
    and the modules left out."""
    desired = pusher.desired = {kind: dict(objs) for kind, objs in pusher.desired.items()}
    pusher.read("module-types")
    pusher.read("module-bay-templates")
    held = {
        kind: sorted(k for k in desired[kind] if k in pusher.held[kind].ids)
        for kind in HELD_TYPE_KINDS
    }
    pusher.match_only = {(kind, k) for kind, keys in held.items() for k in keys}
    held_slugs = {k[0] for k in held["device-types"]}
    for kind in TEMPLATE_KINDS:
        desired[kind] = {k: v for k, v in desired[kind].items() if k[0] not in held_slugs}
    bays: dict[str, set[str]] = {}
    for slug, bay in pusher.held["module-bay-templates"].ids:
        bays.setdefault(slug, set()).add(bay)
    left_out = []
    type_of = {
        key: ref.key[0]
        for key, device in desired["devices"].items()
        if isinstance(ref := device.fields["device_type"], Ref)
    }
    held_modules = {("module-types", k) for k in held["module-types"]}
    for key, want in list(desired["modules"].items()):
        device_ref = want.fields["device"]
        slug = type_of.get(device_ref.key) if isinstance(device_ref, Ref) else None
        if slug in held_slugs and key[-1] not in bays.get(str(slug), set()):
            del desired["modules"][key]
            left_out.append(key)
        elif (
            isinstance(mtype := want.fields["module_type"], Ref)
            and ("module-types", mtype.key) in held_modules
        ):  # the team's type may have templates: NetBox replicates them as it would by hand
            desired["modules"][key] = Desired(want.fields)
    return held["device-types"], left_out


def _has_missing(value: object) -> bool:
    if value is _MISSING:
        return True
    if isinstance(value, list):
        return any(map(_has_missing, value))
    if isinstance(value, dict):
        return any(map(_has_missing, value.values()))
    return False


def _interfaces_only(want: Desired) -> bool:
    """Whether a cable (by its create-only terminations) runs interface to interface."""
    ends: list[object] = []
    for side in ("a_terminations", "b_terminations"):
        value = want.create_only.get(side, [])
        ends += value if isinstance(value, list) else [value]
    return all(isinstance(end, Termination) and end.object_type == "dcim.interface" for end in ends)


def push(
    api: Api,
    desired: dict[str, dict[tuple, Desired]],
    dry_run: bool = False,
    progress: Callable[[str], None] = lambda _: None,
    keep_held_types: bool = False,
    connections: int = CONNECTIONS,
) -> PushResult:
    """Plan the push of ``desired`` into the NetBox behind ``api``; write it unless ``dry_run``
    (see the module docstring). The plan is the one made before anything is written.
    ``keep_held_types``: the device and module types NetBox holds are used as they are
    (``HELD_TYPE_KINDS``). ``connections``: a kind's requests in flight at once (``send``)."""
    pusher = _Pusher(api, desired, progress, connections)
    for kind in ("sites", "device-types", "module-bays", *PORT_KINDS.values()):
        pusher.read(kind)
    held_types: list[tuple] = []
    left_out: list[tuple] = []
    if keep_held_types:
        held_types, left_out = _use_held_types(pusher)
    plans = {}
    for kind, _ in KINDS:
        if kind not in pusher.held:
            pusher.read(kind)
        plans[kind] = pusher.plan_kind(kind)
    progress("plan: " + "; ".join(PushResult(plans).summary_lines()))
    result = PushResult(plans, held_types=held_types, left_out=left_out)
    if not dry_run:
        pusher.apply(plans)
        result.written = True
    result.refused = pusher.refused
    return result
