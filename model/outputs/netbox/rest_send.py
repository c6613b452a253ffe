"""One kind's bulk requests to NetBox: sized by NetBox's time per object, a few in flight at once.

NetBox's REST bulk create and update (a list POSTed or PATCHed to a kind's endpoint) is one
transaction whose time is NetBox's work per object (a device instantiates its 25-65
components, a cable traces its path), not the HTTP round trip: measured against NetBox 4.7.3
on a loaded 2-core machine, 5.4 s a device, 0.6 s a cable, 0.5 s a module. So each request is
sized to take about ``REQUEST_S`` at the rate seen for its kind (inside the 120 s timeout of
NetBox's documented gunicorn setup however slow each object is), and the objects of one kind,
which do not refer to each other, go over ``connections`` requests side by side: a NetBox
served by several workers (its documented deployment: gunicorn, 2n+1 workers) then works on
them on every core it has. Kinds stay in dependency order: the caller sends one kind at a time.

Requests side by side meet in PostgreSQL: NetBox keeps counters on a parent's row (a device
type's ``device_count`` and template counts) and updates them in each object's transaction, so
two requests holding devices of two types in opposite orders deadlocked (measured: HTTP 500
"deadlock detected" on the 5th devices request of a 64-node pod, 3 workers). Each kind's objects
are therefore sent ordered by the row they lock (``LOCKED_ROW``): a device or a template locks
one such row, so every transaction takes those locks in one order. A module locks two: its
type's ``module_count`` and its device's component counts, and no single order covers both
once a request spans two module types (A holds [W/dev5, X/dev1], B [X/dev2, Y/dev5]: A waits
on B's X, B on A's dev5). Modules (``SERIAL_KINDS``) therefore go one request at a time:
little is lost, as NetBox already serialises the modules of one type on its counter row and a
pod's transceivers are of a few types. A deadlock PostgreSQL still reports (another client
writing the same rows) undid that request whole: it is sent again, up to ``DEADLOCK_TRIES``.

A bulk request NetBox refuses (HTTP 400) is undone by NetBox as a whole; its objects are then
sent one by one, so each refusal is reported with NetBox's own text and the others are written.
Any other failure stops the kind: requests in flight finish, none is started, and the first
error is raised.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

from model.outputs.netbox.rest_state import ApiError

CHUNK = 200  # objects a request at most
# Seconds a write request should take: each request stays well inside the timeouts in front of
# a NetBox (its gunicorn's default 120 s, our TIMEOUT_S) however slow each object is. Measured
# against NetBox 4.7.3 on a loaded 2-core machine: a device with 25-65 components took 5.4 s
# to create, so a chunk of 200 devices would take ~18 min; a cable 0.6 s, a module 0.5 s.
REQUEST_S = 20.0
FIRST_CHUNK = 10  # objects in a kind's first request, before its time per object is known
CONNECTIONS = 4  # requests in flight at most (push-netbox --connections)
# kind -> the field naming the row whose counter NetBox updates for each object of the kind
# (utilities.counters in NetBox 4.7: DeviceType.device_count and its *_template_count fields,
# ModuleType.module_count: modules ordered by device still deadlocked on module types, 3 times
# in a 64-node push).
LOCKED_ROW = {
    "devices": "device_type",
    "modules": "module_type",
    "interface-templates": "device_type",
    "module-bay-templates": "device_type",
    "power-port-templates": "device_type",
    "rear-port-templates": "device_type",
    "front-port-templates": "device_type",
}
DEADLOCK_TRIES = 3
# Kinds whose object locks two counter rows of two kinds (see the module docstring): one
# request at a time whatever ``connections`` says.
SERIAL_KINDS = frozenset({"modules"})


@dataclass
class Refusal:
    kind: str
    key: tuple
    error: str


def next_chunk(sent: int, seconds: float) -> int:
    """Objects in the next request after ``sent`` took ``seconds``: as many as take about
    ``REQUEST_S`` at that rate, at most twice as many as before (a fast first request of a
    kind does not jump to a chunk that times out), 1 to ``CHUNK``."""
    per_object_s = max(seconds, 1e-3) / max(sent, 1)
    return max(1, min(CHUNK, 2 * sent, int(REQUEST_S / per_object_s)))


def _error_text(exc: ApiError) -> str:
    body = exc.body
    if isinstance(body, list) and len(body) == 1:
        body = body[0]
    if isinstance(body, dict):
        return "; ".join(
            f"{k}: {' '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in body.items()
        )
    return exc.text if body is None else json.dumps(body)


Method = Callable[[str, list[dict]], list[dict]]


def in_lock_order(kind: str, items: list[tuple[tuple, dict]]) -> list[tuple[tuple, dict]]:
    """``items`` ordered by the row each locks (``LOCKED_ROW``), else as they are."""
    field = LOCKED_ROW.get(kind)
    if field is None:
        return items
    return sorted(items, key=lambda item: str(item[1].get(field)))


def _call(kind: str, method: Method, bodies: list[dict]) -> None:
    """One request, sent again when PostgreSQL undid it to break a deadlock."""
    for attempt in range(1, DEADLOCK_TRIES + 1):
        try:
            method(kind, bodies)
            return
        except ApiError as exc:
            if (
                exc.status != 500
                or "deadlock detected" not in exc.text
                or attempt == DEADLOCK_TRIES
            ):
                raise
            time.sleep(0.5 * attempt)


def _one_request(
    kind: str, method: Method, chunk: list[tuple[tuple, dict]]
) -> tuple[int, float, list[Refusal]]:
    """Send ``chunk`` as one bulk request, or object by object when NetBox refuses it; the
    objects sent, the seconds it took and the refusals."""
    began_s = time.perf_counter()
    refused = []
    try:
        _call(kind, method, [body for _, body in chunk])
    except ApiError as exc:
        if exc.status != 400:
            raise
        for key, body in chunk:
            try:
                _call(kind, method, [body])
            except ApiError as one:
                if one.status != 400:
                    raise
                refused.append(Refusal(kind, key, _error_text(one)))
    return len(chunk), time.perf_counter() - began_s, refused


def send_kind(
    kind: str,
    method: Method,
    items: list[tuple[tuple, dict]],
    connections: int = CONNECTIONS,
    progress: Callable[[str], None] = lambda _: None,
) -> list[Refusal]:
    """Send ``items`` (key, body) of one kind: the first ``FIRST_CHUNK`` alone (the kind's
    rate is not known yet), then up to ``connections`` requests in flight, each sized by
    :func:`next_chunk` on the last one answered and no larger than an even share of what was
    left after the first (a small kind still spreads over the connections); a kind of
    ``SERIAL_KINDS`` one request at a time. The refusals."""
    refused: list[Refusal] = []
    if kind in SERIAL_KINDS:
        connections = 1
    items = in_lock_order(kind, items)
    start, size, sent = 0, min(FIRST_CHUNK, CHUNK), 0
    share = CHUNK
    failure: BaseException | None = None
    in_flight: set[Future] = set()
    with ThreadPoolExecutor(max(1, connections), thread_name_prefix="netbox") as pool:
        while in_flight or (start < len(items) and failure is None):
            # One request until the kind's rate is known, then ``connections``
            room = (max(1, connections) if sent else 1) - len(in_flight)
            while room > 0 and start < len(items) and failure is None:
                chunk = items[start : start + min(size, share)]
                in_flight.add(pool.submit(_one_request, kind, method, chunk))
                start += len(chunk)
                room -= 1
            finished, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in finished:
                try:
                    count, seconds, refusals = future.result()
                except BaseException as exc:  # raised below, once the others have finished
                    failure = failure or exc
                    continue
                refused.extend(refusals)
                if not sent:
                    share = max(1, -(-(len(items) - start) // max(1, connections)))
                sent += count
                size = next_chunk(count, seconds)
                progress(f"{kind}: {sent} of {len(items)} sent")
    if failure is not None:
        raise failure
    return refused
