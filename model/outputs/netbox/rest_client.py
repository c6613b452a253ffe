"""NetBox's REST API over HTTP (the standard library's urllib): lists, bulk create, update, delete.

Paging follows NetBox's ``next`` links at ``PAGE`` objects a page (NetBox's default
``MAX_PAGE_SIZE`` is 1,000). A token starting ``nbt_`` is a v2 token (``Bearer``), any other a
v1 token (``Token``). With a branch, every request carries ``X-NetBox-Branch`` with the
branch's schema id, which is how the netbox-branching plugin routes it into the branch
(netbox-branching docs, "REST API": the header names the branch by ``schema_id``).
No third-party client is needed: pynetbox wraps these same calls, and its bulk create and
update are the same POST / PATCH of a list.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from model.outputs.netbox.rest_state import ApiError

PAGE = 1000
TIMEOUT_S = 300  # one bulk request of CHUNK cables can take tens of seconds on a busy NetBox


class RestClient:
    """Calls to one NetBox (``url`` its root, e.g. ``http://netbox.example:8000``)."""

    def __init__(self, url: str, token: str, branch_schema: str | None = None) -> None:
        self.root = url.rstrip("/")
        keyword = "Bearer" if token.startswith("nbt_") else "Token"
        self.headers = {
            "Authorization": f"{keyword} {token}",
            "Accept": "application/json",
            "Content-Type": "application/json",
        }
        if branch_schema:
            self.headers["X-NetBox-Branch"] = branch_schema
        self.requests = 0
        # (method, endpoint) -> [requests, objects sent or read, seconds waited, bytes sent,
        # bytes received, longest request s]: where a push spends its time (``push-netbox
        # --timings``); on loopback the wait is NetBox's time. A push calls from several
        # threads (model.outputs.netbox.rest_send): the counts are kept under a lock.
        self.tally: dict[tuple[str, str], list[float]] = {}
        self._lock = threading.Lock()

    def call(self, method: str, path: str, body: object = None) -> object:
        """One request to ``path`` (from ``/api/``); the decoded JSON answer (None if empty)."""
        url = path if path.startswith("http") else f"{self.root}/api/{path}"
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(url, data=data, method=method, headers=self.headers)
        start_s = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:
                raw = answer.read()
            decoded = json.loads(raw) if raw else None
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            self._count(method, url, body, None, start_s, len(data or b""), len(raw))
            try:
                decoded = json.loads(raw)
            except ValueError:
                decoded = None
            text = raw.decode("utf-8", "replace")[:500] if decoded is None else json.dumps(decoded)
            raise ApiError(exc.code, text, decoded) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ApiError(0, f"cannot reach NetBox at {self.root}: {reason}") from None
        self._count(method, url, body, decoded, start_s, len(data or b""), len(raw))
        return decoded

    def _count(
        self,
        method: str,
        url: str,
        body: object,
        answer: object,
        start_s: float,
        sent_b: int,
        received_b: int,
    ) -> None:
        seconds = time.perf_counter() - start_s
        endpoint = urllib.parse.urlsplit(url).path.split("/api/", 1)[-1].strip("/")
        endpoint = "/".join(p for p in endpoint.split("/") if not p.isdigit())
        if isinstance(body, list):
            count = len(body)
        elif isinstance(answer, dict) and isinstance(answer.get("results"), list):
            count = len(answer["results"])
        else:
            count = 1
        with self._lock:
            self.requests += 1
            row = self.tally.setdefault((method, endpoint), [0, 0, 0.0, 0, 0, 0.0])
            row[0] += 1
            row[1] += count
            row[2] += seconds
            row[3] += sent_b
            row[4] += received_b
            row[5] = max(row[5], seconds)

    def tally_lines(self) -> list[str]:
        """One line per (method, endpoint): requests, objects, objects a request, seconds
        waited (summed over requests in flight together), the longest request, the kB sent
        and received a request."""
        rows = sorted(self.tally.items(), key=lambda item: -item[1][2])
        return [
            f"{method} {endpoint}: {int(n)} requests, {int(objs)} objects "
            f"({objs / n:.0f} a request), {seconds:.1f} s (longest {longest_s:.1f} s), "
            f"{sent_b / n / 1000:.1f} kB sent and {got_b / n / 1000:.1f} kB received a request"
            for (method, endpoint), (n, objs, seconds, sent_b, got_b, longest_s) in rows
        ]

    def read_all(self, endpoint: str, params: dict[str, object]) -> list[dict]:
        query = urllib.parse.urlencode({**params, "limit": PAGE}, doseq=True)
        url: str | None = f"dcim/{endpoint}/?{query}"
        out: list[dict] = []
        while url:
            page = self.call("GET", url)
            assert isinstance(page, dict)
            out.extend(page["results"])
            url = page.get("next")
        return out

    def create(self, endpoint: str, objects: list[dict]) -> list[dict]:
        return _as_list(self.call("POST", f"dcim/{endpoint}/", objects))

    def update(self, endpoint: str, objects: list[dict]) -> list[dict]:
        return _as_list(self.call("PATCH", f"dcim/{endpoint}/", objects))

    def delete(self, endpoint: str, ids: list[int]) -> None:
        self.call("DELETE", f"dcim/{endpoint}/", [{"id": i} for i in ids])

    def status(self) -> dict:
        """NetBox's ``/api/status/`` (its version and installed plugins)."""
        answer = self.call("GET", "status/")
        return answer if isinstance(answer, dict) else {}

    def branch_schema(self, name: str) -> str:
        """The schema id of the netbox-branching branch ``name``; a clear ApiError when the
        plugin is not installed or holds no such branch."""
        plugins = self.status().get("plugins") or {}
        if "netbox_branching" not in plugins:
            raise ApiError(
                0,
                f"the NetBox at {self.root} has no netbox-branching plugin "
                f"(installed plugins: {', '.join(plugins) or 'none'}): --branch needs it",
            )
        query = urllib.parse.urlencode({"name": name})
        found = self.call("GET", f"plugins/branching/branches/?{query}")
        results = found.get("results", []) if isinstance(found, dict) else []
        if not results:
            raise ApiError(0, f"NetBox holds no branch named {name!r}: create it first")
        branch = results[0]
        status = plain_status(branch.get("status"))
        if status != "ready":
            raise ApiError(0, f"the branch {name!r} is {status}, not ready")
        return str(branch["schema_id"])


def plain_status(value: object) -> str:
    return str(value.get("value")) if isinstance(value, dict) else str(value)


def _as_list(answer: object) -> list[dict]:
    if isinstance(answer, list):
        return answer
    return [answer] if isinstance(answer, dict) else []
