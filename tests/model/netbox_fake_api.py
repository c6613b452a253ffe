"""An in-memory NetBox for the push tests: REST objects with ids, nested as NetBox returns them.

It answers the calls of ``model.outputs.netbox.rest_state.Api`` the way NetBox 4 does where the
push depends on it: a foreign key comes back as a nested object (id, name, slug), a choice as
``{"value", "label"}``, a cable's ends as terminations naming their interface and device; a
device gets its interfaces and module bays from its type's templates; a duplicate natural key
or an object ``refuse`` picks is refused with HTTP 400 and the whole bulk request is undone.
"""

from __future__ import annotations

import copy
import functools
import threading

from model.outputs.netbox.rest_state import KEYS, ApiError

FOREIGN = {
    "manufacturer": "manufacturers",
    "device_type": "device-types",
    "role": "device-roles",
    "site": "sites",
    "location": "locations",
    "rack": "racks",
    "device": "devices",
    "module_bay": "module-bays",
    "module_type": "module-types",
}
CHOICES = ("status", "airflow", "face", "length_unit", "type", "form_factor", "outer_unit")
# A cable termination's object type -> the kind holding its port
PORT_OF = {
    "dcim.interface": "interfaces",
    "dcim.frontport": "front-ports",
    "dcim.rearport": "rear-ports",
}
COMPONENTS = {
    "interface-templates": "interfaces",
    "module-bay-templates": "module-bays",
    "front-port-templates": "front-ports",
    "rear-port-templates": "rear-ports",
}


def _locked(method):
    """One call at a time: the push sends a kind's requests from several threads, and NetBox
    runs each request as one transaction (a refused bulk create is undone whole)."""

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        with self.lock:
            return method(self, *args, **kwargs)

    return call


class FakeNetBox:
    def __init__(self, refuse=lambda kind, body: None) -> None:
        self.lock = threading.RLock()
        self.db: dict[str, dict[int, dict]] = {kind: {} for kind in KEYS}
        self.next_id = 1
        self.refuse = refuse  # (kind, body) -> an error text, or None to accept
        self.writes: list[tuple[str, str, int]] = []  # (method, kind, objects)

    # ---------------------------------------------------------------- views
    def _nested(self, kind: str, obj_id: int) -> dict:
        raw = self.db[kind][obj_id]
        out = {"id": obj_id}
        for name in ("name", "slug", "model"):
            if name in raw:
                out[name] = raw[name]
        if kind in ("interfaces", "module-bays", "front-ports", "rear-ports"):
            out["device"] = self._nested("devices", raw["device"])
        return out

    def view(self, kind: str, raw: dict) -> dict:
        out = dict(raw)
        for name, value in raw.items():
            if name in FOREIGN and isinstance(value, int):
                out[name] = self._nested(FOREIGN[name], value)
            elif name in CHOICES and isinstance(value, str) and value:
                out[name] = {"value": value, "label": value.title()}
            elif name.endswith("_terminations"):
                out[name] = [
                    dict(t, object=self._nested(PORT_OF[t["object_type"]], t["object_id"]))
                    for t in value
                ]
        return out

    def _site_of(self, kind: str, raw: dict) -> int | None:
        if "site" in raw:
            return raw["site"]
        if "device" in raw:
            return self.db["devices"][raw["device"]]["site"]
        if kind == "cables":
            end = raw["a_terminations"][0]
            port = self.db[PORT_OF[end["object_type"]]][end["object_id"]]
            return self.db["devices"][port["device"]]["site"]
        return None

    @_locked
    def read_all(self, endpoint: str, params: dict) -> list[dict]:
        return [self.view(endpoint, raw) for raw in self._matching(endpoint, params)]

    @_locked
    def read_page(
        self, endpoint: str, params: dict, offset: int, count: int
    ) -> tuple[list[dict], int]:
        """One page of ``read_all``'s list and the list's length: only the page's objects are
        viewed (a page of 7 viewed the whole list, ~600 times for an 8-node pod's push)."""
        found = self._matching(endpoint, params)
        return [self.view(endpoint, raw) for raw in found[offset : offset + count]], len(found)

    def _matching(self, endpoint: str, params: dict) -> list[dict]:
        out = []
        for raw in self.db[endpoint].values():
            if "site_id" in params and self._site_of(endpoint, raw) != params["site_id"]:
                continue
            if "slug" in params and raw.get("slug") != params["slug"]:
                continue
            if (
                "device_type_id" in params
                and raw.get("device_type") not in params["device_type_id"]
            ):
                continue
            out.append(raw)
        return out

    # ---------------------------------------------------------------- writes
    def _check(self, kind: str, raw: dict, taken: set) -> None:
        error = self.refuse(kind, raw)
        if error is None:
            key = KEYS[kind](self._site_slug(raw), self.view(kind, raw))
            if key in taken:
                error = f"{kind} with this key already exists."
            taken.add(key)
        if error is not None:
            raise ApiError(400, error, [{"__all__": [error]}])

    def _site_slug(self, raw: dict) -> str:
        site = raw.get("site")
        return self.db["sites"][site]["slug"] if isinstance(site, int) else "?"

    @_locked
    def create(self, endpoint: str, objects: list[dict]) -> list[dict]:
        saved = copy.deepcopy((self.db, self.next_id))
        out = []
        try:
            for body in objects:
                taken = {
                    KEYS[endpoint](self._site_slug(r), self.view(endpoint, r))
                    for r in self.db[endpoint].values()
                }
                self._check(endpoint, body, taken)
                out.append(self._add(endpoint, dict(body)))
        except ApiError:
            self.db, self.next_id = saved  # NetBox's bulk request is one transaction
            raise
        self.writes.append(("POST", endpoint, len(objects)))
        return out

    def _add(self, kind: str, raw: dict) -> dict:
        raw["id"] = self.next_id
        self.next_id += 1
        self.db[kind][raw["id"]] = raw
        if kind == "devices":
            for tkind, component in COMPONENTS.items():
                for t in self.db[tkind].values():
                    if t["device_type"] == raw["device_type"]:
                        made = {"device": raw["id"], "name": t["name"]}
                        if "type" in t:  # an interface's type, as NetBox copies it
                            made["type"] = t["type"]
                        self._add(component, made)
        return self.view(kind, raw)

    @_locked
    def update(self, endpoint: str, objects: list[dict]) -> list[dict]:
        for body in objects:
            error = self.refuse(endpoint, body)
            if error is not None:
                raise ApiError(400, error, [{"__all__": [error]}])
        for body in objects:
            self.db[endpoint][body["id"]].update(body)
        self.writes.append(("PATCH", endpoint, len(objects)))
        return [self.view(endpoint, self.db[endpoint][b["id"]]) for b in objects]

    @_locked
    def delete(self, endpoint: str, ids: list[int]) -> None:
        for i in ids:
            self._drop(endpoint, i)
        self.writes.append(("DELETE", endpoint, len(ids)))

    def _drop(self, kind: str, obj_id: int) -> None:
        """Delete with NetBox's cascade: a device takes its components, modules and cables."""
        del self.db[kind][obj_id]
        if kind == "devices":
            for component in ("interfaces", "module-bays", "modules", "front-ports", "rear-ports"):
                for i, raw in list(self.db[component].items()):
                    if raw["device"] == obj_id:
                        self._drop(component, i)
        elif kind in PORT_OF.values():
            for i, raw in list(self.db["cables"].items()):
                ends = raw["a_terminations"] + raw["b_terminations"]
                if any(
                    PORT_OF[t["object_type"]] == kind and t["object_id"] == obj_id for t in ends
                ):
                    del self.db["cables"][i]

    def count(self, kind: str) -> int:
        return len(self.db[kind])
