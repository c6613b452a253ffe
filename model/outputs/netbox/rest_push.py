"""A design pushed into NetBox through its REST API: the plan (created / changed / deleted per
type) and its writing in dependency order, with every refused object reported.

:func:`push` reads what NetBox holds (``model.outputs.netbox.rest_state``), compares it with
what the design wants (``model.outputs.netbox.rest_objects``) and, unless it is a dry run,
writes the difference: objects of the pushed site that the design no longer has are deleted
first (cables before the devices they end on), then each type in ``KINDS`` order is read
again, compared, and its new objects POSTed and its changed fields PATCHed as lists (NetBox's
bulk endpoints, ``CHUNK`` objects a request). Re-running it changes nothing: every object is
found again by its natural key. NetBox refuses a bulk request as a whole; its objects are then
sent one by one, so each refusal is reported with NetBox's own error text and the others are
written. An object whose referenced object is missing (refused above) is refused too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from model.outputs.netbox.rest_objects import (
    KINDS,
    PORT_KINDS,
    SITE_SCOPED,
    Desired,
    Ref,
    Termination,
)
from model.outputs.netbox.rest_state import Api, ApiError, Existing, fetch_kind, plain

CHUNK = 200
# Shared objects found by slug are used as they are, never changed: a NetBox that holds the
# devicetype-library's types names the manufacturer "Nvidia" (slug nvidia), and a push must not
# rename it to the catalog's "NVIDIA" under the other team's devices.
MATCH_ONLY = frozenset({"manufacturers", "device-roles"})
_MISSING = object()  # a reference to an object NetBox does not hold (yet)


@dataclass
class KindPlan:
    """What a push does to one REST type: keys created, changed (with the fields), deleted."""

    create: list[tuple] = field(default_factory=list)
    change: dict[tuple, list[str]] = field(default_factory=dict)
    delete: list[tuple] = field(default_factory=list)
    unchanged: int = 0


@dataclass
class Refusal:
    kind: str
    key: tuple
    error: str


@dataclass
class PushResult:
    plan: dict[str, KindPlan]
    refused: list[Refusal] = field(default_factory=list)
    written: bool = False

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
        return lines


def _same(want: object, have: object) -> bool:
    if want is _MISSING:
        return False
    want, have = plain(want), plain(have)
    if isinstance(want, float | int) and isinstance(have, float | int):
        return round(float(want), 2) == round(float(have), 2)
    return want == have


class _Pusher:
    def __init__(self, api: Api, desired: dict[str, dict[tuple, Desired]], progress) -> None:
        self.api = api
        self.desired = desired
        self.progress = progress
        (self.site_slug,) = next(iter(desired["sites"]))
        self.held: dict[str, Existing] = {}
        self.refused: list[Refusal] = []

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
            if kind in MATCH_ONLY:
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

    def send(self, kind: str, method: Callable, items: list[tuple[tuple, dict]]) -> list[dict]:
        """Send ``items`` (key, body) in chunks; a refused chunk is sent object by object."""
        done = []
        for start in range(0, len(items), CHUNK):
            chunk = items[start : start + CHUNK]
            try:
                done.extend(method(kind, [body for _, body in chunk]))
            except ApiError as exc:
                if exc.status != 400:
                    raise
                for key, body in chunk:
                    try:
                        done.extend(method(kind, [body]))
                    except ApiError as one:
                        if one.status != 400:
                            raise
                        self.refused.append(Refusal(kind, key, _error_text(one)))
            self.progress(f"{kind}: {min(start + CHUNK, len(items))} of {len(items)} sent")
        return done

    def apply(self, plans: dict[str, KindPlan]) -> None:
        for kind, _ in reversed(KINDS):
            doomed = [self.held[kind].ids[k] for k in plans[kind].delete]
            for start in range(0, len(doomed), CHUNK):
                self.api.delete(kind, doomed[start : start + CHUNK])
            if doomed:
                self.progress(f"{kind}: {len(doomed)} deleted")
        for kind, _ in KINDS:
            if kind == "modules":
                self.read("module-bays")
            elif kind == "cables":
                for ports in PORT_KINDS.values():
                    self.read(ports)
            held = self.read(kind)
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
                self.read(kind)  # the new ids, for the kinds that refer to these


def _has_missing(value: object) -> bool:
    if value is _MISSING:
        return True
    if isinstance(value, list):
        return any(map(_has_missing, value))
    if isinstance(value, dict):
        return any(map(_has_missing, value.values()))
    return False


def _error_text(exc: ApiError) -> str:
    body = exc.body
    if isinstance(body, list) and len(body) == 1:
        body = body[0]
    if isinstance(body, dict):
        return "; ".join(
            f"{k}: {' '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in body.items()
        )
    return exc.text if body is None else json.dumps(body)


def push(
    api: Api,
    desired: dict[str, dict[tuple, Desired]],
    dry_run: bool = False,
    progress: Callable[[str], None] = lambda _: None,
) -> PushResult:
    """Plan the push of ``desired`` into the NetBox behind ``api``; write it unless ``dry_run``
    (see the module docstring). The plan is the one made before anything is written."""
    pusher = _Pusher(api, desired, progress)
    for kind in ("sites", "device-types", "module-bays", *PORT_KINDS.values()):
        pusher.read(kind)
    plans = {}
    for kind, _ in KINDS:
        if kind not in pusher.held:
            pusher.read(kind)
        plans[kind] = pusher.plan_kind(kind)
    progress("plan: " + "; ".join(PushResult(plans).summary_lines()))
    result = PushResult(plans)
    if not dry_run:
        pusher.apply(plans)
        result.written = True
    result.refused = pusher.refused
    return result
