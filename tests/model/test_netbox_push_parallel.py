"""push-netbox's requests side by side: a kind's over several connections, kinds in order."""

from __future__ import annotations

import threading
import time

import pytest

from model.generators.generate import generate
from model.outputs.netbox.export import netbox_tables
from model.outputs.netbox.rest_objects import KINDS, desired_objects
from model.outputs.netbox.rest_push import push
from model.outputs.netbox.rest_send import send_kind
from model.outputs.netbox.rest_state import ApiError
from model.outputs.schedule import schedule_rows
from model.structured.layout import place_panels, set_cabling
from tests.model.bom_test_helpers import plant_of
from tests.model.netbox_fake_api import FakeNetBox

ORDER = {kind: i for i, (kind, _) in enumerate(KINDS)}


class SlowNetBox(FakeNetBox):
    """A NetBox whose writes take ``delay_s`` outside the store's lock (as NetBox's workers
    work side by side), recording each write request: (kind, start, end, panel cable)."""

    def __init__(self, delay_s: float = 0.01, fail_at: tuple[str, int] | None = None) -> None:
        super().__init__()
        self.delay_s = delay_s
        self.fail_at = fail_at  # (kind, n): the n-th request of kind answers HTTP 500
        self.requests: list[tuple[str, float, float, bool]] = []
        self._count: dict[str, int] = {}
        self._record = threading.Lock()

    def _timed(self, write, kind: str, objects: list[dict]) -> list[dict]:
        with self._record:
            self._count[kind] = n = self._count.get(kind, 0) + 1
        start = time.perf_counter()
        time.sleep(self.delay_s)
        if self.fail_at == (kind, n):
            raise ApiError(500, "Internal Server Error")
        out = write(kind, objects)
        panel = any(
            end["object_type"] != "dcim.interface"
            for body in objects
            for end in body.get("a_terminations", []) + body.get("b_terminations", [])
        )
        with self._record:
            self.requests.append((kind, start, time.perf_counter(), panel))
        return out

    def create(self, endpoint: str, objects: list[dict]) -> list[dict]:
        return self._timed(super().create, endpoint, objects)


def _desired(design):
    plant = plant_of(design)
    return desired_objects(netbox_tables(design, schedule_rows(design, plant), plant))


def _most_in_flight(requests) -> int:
    events = sorted([(s, 1) for _, s, _, _ in requests] + [(e, -1) for _, _, e, _ in requests])
    most = now = 0
    for _, step in events:
        now += step
        most = max(most, now)
    return most


def _pod(cabling: str = "direct"):
    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    if cabling != "direct":
        set_cabling(design, cabling)
        place_panels(design)
    return design


def test_a_kind_s_requests_go_side_by_side_and_kinds_stay_in_dependency_order():
    """With 4 connections the cables (interface to interface) of a pod are sent up to 4
    requests at a time, its modules one at a time (SERIAL_KINDS); no request of a kind starts before every request of the kinds
    before it (types, devices, modules, cables) has been answered; the result is the
    sequential push's, and pushing again plans nothing."""
    design = _pod()
    desired = _desired(design)
    api = SlowNetBox()
    result = push(api, desired, connections=4)
    assert not result.refused
    by_kind: dict[str, list] = {}
    for request in api.requests:
        by_kind.setdefault(request[0], []).append(request)
    assert 1 < _most_in_flight(by_kind["cables"]) <= 4
    assert len(by_kind["modules"]) > 1 and _most_in_flight(by_kind["modules"]) == 1
    for kind, requests in by_kind.items():
        earlier = [r for k, rs in by_kind.items() if ORDER[k] < ORDER[kind] for r in rs]
        first_start = min(s for _, s, _, _ in requests)
        assert all(end <= first_start for _, _, end, _ in earlier), kind
    sequential = FakeNetBox()
    push(sequential, desired, connections=1)
    for kind, _ in KINDS:
        assert api.count(kind) == sequential.count(kind), kind
    again = push(api, desired, connections=4)
    assert all(not p.create and not p.change and not p.delete for p in again.plan.values())


def test_cables_through_panels_are_sent_one_request_at_a_time():
    """A cross-connect pod's cords and trunk legs end on panel ports: NetBox traces a path
    through the panel when a cable is saved, so those requests are never in flight together
    (the interface-to-interface kinds still are)."""
    design = _pod("cross-connect")
    desired = _desired(design)
    api = SlowNetBox()
    assert not push(api, desired, connections=4).refused
    panel_cables = [r for r in api.requests if r[0] == "cables" and r[3]]
    assert len(panel_cables) > 1 and _most_in_flight(panel_cables) == 1
    assert api.count("cables") == len(desired["cables"])


def test_a_failed_request_stops_its_kind_and_the_push_with_netbox_s_error():
    """HTTP 500 on the 3rd devices request: the requests in flight finish, no other is
    started, no later kind is written, and the push raises the server's error (the CLI's
    'NetBox refused a request' sentence)."""
    design = _pod()
    api = SlowNetBox(fail_at=("devices", 3))
    with pytest.raises(ApiError, match="500"):
        push(api, _desired(design), connections=4)
    kinds = {r[0] for r in api.requests}
    assert "devices" in kinds and not kinds & {"modules", "cables"}


def test_a_kind_s_requests_are_sized_then_spread_over_the_connections():
    """The first request is FIRST_CHUNK alone; then none is larger than an even share of what
    was left, so 50 objects answered fast go as 10, then four of 10."""
    sizes: list[int] = []
    lock = threading.Lock()

    def method(kind: str, objects: list[dict]) -> list[dict]:
        with lock:
            sizes.append(len(objects))
        return objects

    items = [((i,), {"n": i}) for i in range(50)]
    assert send_kind("racks", method, items, connections=4) == []
    assert sizes == [10, 10, 10, 10, 10]


def test_devices_go_in_the_order_of_the_type_row_they_lock():
    """NetBox bumps a device type's device_count in each device's transaction: two requests
    holding two types in opposite orders deadlocked in PostgreSQL (a 64-node pod, 3 workers).
    Every request now holds its devices ordered by type, so the locks come in one order."""
    design = _pod()
    api = SlowNetBox()
    posted: list[list[int]] = []
    create = api.create

    def recording(endpoint, objects):
        if endpoint == "devices":
            posted.append([o["device_type"] for o in objects])
        return create(endpoint, objects)

    api.create = recording  # type: ignore[method-assign]
    push(api, _desired(design), connections=4)
    types = [t for request in posted for t in request]
    assert len(set(types)) > 1 and all(r == sorted(r, key=str) for r in posted)
    assert types == sorted(types, key=str)


def test_a_request_postgresql_undid_for_a_deadlock_is_sent_again():
    calls: list[int] = []

    def method(kind: str, objects: list[dict]) -> list[dict]:
        calls.append(len(objects))
        if len(calls) == 1:
            raise ApiError(500, '{"error": "deadlock detected\\nDETAIL: Process 1 waits"}')
        return objects

    items = [((i,), {"device_type": 1}) for i in range(5)]
    assert send_kind("devices", method, items, connections=2) == []
    assert calls == [5, 5]


def test_modules_go_in_the_order_of_their_module_type():
    """ModuleType.module_count is NetBox's counter for modules: ordered by device, a 64-node
    push still deadlocked on the two module types (PostgreSQL log), 3 times."""
    design = _pod()
    api = SlowNetBox()
    posted: list[int] = []
    create = api.create

    def recording(endpoint, objects):
        if endpoint == "modules":
            posted.extend(o["module_type"] for o in objects)
        return create(endpoint, objects)

    api.create = recording  # type: ignore[method-assign]
    push(api, _desired(design), connections=4)
    assert len(set(posted)) > 1 and posted == sorted(posted, key=str)


def test_module_requests_are_never_in_flight_together():
    """A module locks its type's counter row and its device's: a request spanning two module
    types has no single lock order with another (A [W/dev5, X/dev1], B [X/dev2, Y/dev5]), so
    with 4 connections the module requests (created, then changed on a second push) never
    overlap, while the devices' still do."""
    design = _pod()
    desired = _desired(design)
    api = SlowNetBox()
    assert not push(api, desired, connections=4).refused
    modules = [r for r in api.requests if r[0] == "modules"]
    devices = [r for r in api.requests if r[0] == "devices"]
    assert len(modules) > 1 and _most_in_flight(modules) == 1
    assert _most_in_flight(devices) > 1
    assert api.count("modules") == len(desired["modules"])


def test_send_kind_keeps_one_module_request_in_flight_at_a_time():
    """send_kind itself: 60 modules over 4 connections, answered slowly, never overlap."""
    now = 0
    most = 0
    lock = threading.Lock()

    def method(kind: str, objects: list[dict]) -> list[dict]:
        nonlocal now, most
        with lock:
            now += 1
            most = max(most, now)
        time.sleep(0.005)
        with lock:
            now -= 1
        return objects

    items = [((i,), {"module_type": i % 3, "device": i}) for i in range(60)]
    assert send_kind("modules", method, items, connections=4) == []
    assert most == 1
    assert send_kind("cables", method, items, connections=4) == [] and most > 1
