"""push-netbox from the command line, over HTTP to an in-memory NetBox: plan, write, refusals."""

from __future__ import annotations

import copy
import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cli import run_cli
from model.files.design_file import save_design
from model.outputs.netbox.rest_state import ApiError
from tests.model.netbox_fake_api import FakeNetBox

TOKEN = "0123456789abcdef0123456789abcdef01234567"
LIBRARY_QM9700 = Path(__file__).resolve().parents[1] / "data/devicetype_library_nvidia/QM9700.yaml"


class _Handler(BaseHTTPRequestHandler):
    netbox: FakeNetBox
    page = 7  # small pages, so the client's paging is exercised

    def log_message(self, *args) -> None:  # quiet test output
        pass

    def _answer(self, status: int, body: object) -> None:
        raw = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def _route(self, method: str) -> None:
        if self.headers.get("Authorization") != f"Token {TOKEN}":
            self._answer(403, {"detail": "Invalid token"})
            return
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/api/status/":
            self._answer(200, {"netbox-version": "4.7.3", "plugins": {}})
            return
        kind = url.path.removeprefix("/api/dcim/").strip("/")
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length)) if length else None
        try:
            if method == "GET":
                query = urllib.parse.parse_qs(url.query)
                offset = int(query.pop("offset", ["0"])[0])
                query.pop("limit", None)
                params: dict[str, object] = {
                    k: [int(x) for x in v] if k == "device_type_id" else v[0]
                    for k, v in query.items()
                }
                if "site_id" in params:
                    params["site_id"] = int(str(params["site_id"]))
                found, total = self.netbox.read_page(kind, params, offset, self.page)
                more = offset + self.page < total
                rest = urllib.parse.urlencode({**query, "offset": offset + self.page}, doseq=True)
                nxt = f"http://{self.headers['Host']}{url.path}?{rest}"
                self._answer(200, {"results": found, "next": nxt if more else None})
            elif method == "POST":
                self._answer(201, self.netbox.create(kind, body))
            elif method == "PATCH":
                self._answer(200, self.netbox.update(kind, body))
            else:
                self.netbox.delete(kind, [o["id"] for o in body])
                self._answer(204, None)
        except ApiError as exc:
            self._answer(400, exc.body)

    def do_GET(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")

    def do_PATCH(self) -> None:
        self._route("PATCH")

    def do_DELETE(self) -> None:
        self._route("DELETE")


@pytest.fixture
def server():
    handler = type("Handler", (_Handler,), {"netbox": FakeNetBox()})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", handler.netbox
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def files(tmp_path, pod):
    design = tmp_path / "pod.hall.json"
    save_design(pod, design)
    token = tmp_path / "token"
    token.write_text(TOKEN + "\n")
    return design, token


def test_dry_run_then_push_then_nothing_to_do(server, files, tmp_path, pod, capsys):
    url, netbox = server
    design, token = files
    args = ["push-netbox", str(design), "--url", url, "--token-file", str(token)]
    assert run_cli([*args, "--dry-run"]) == 0
    out = capsys.readouterr()
    assert f"devices: {len(pod.devices)} created" in out.out and "would write" in out.out
    assert "push-netbox: plan:" in out.err  # progress on stderr
    assert netbox.count("devices") == 0
    assert run_cli(args) == 0
    assert netbox.count("devices") == len(pod.devices)
    assert netbox.count("cables") == len(pod.links)
    capsys.readouterr()
    plan_file = tmp_path / "plan.json"
    assert run_cli([*args, "--plan-json", str(plan_file)]) == 0
    plan = json.loads(plan_file.read_text())
    assert plan["devices"]["unchanged"] == len(pod.devices)
    assert all(not p["create"] and not p["change"] and not p["delete"] for p in plan.values())


def test_refused_objects_are_listed_and_exit_1(server, files, capsys):
    url, netbox = server
    netbox.refuse = lambda kind, body: "Bad rack." if kind == "racks" else None
    design, token = files
    code = run_cli(["push-netbox", str(design), "--url", url, "--token-file", str(token)])
    assert code == 1
    err = capsys.readouterr().err
    assert "refused racks" in err and "__all__: Bad rack." in err
    assert "objects refused (listed above)" in err


def test_bad_input_is_one_sentence_exit_2(server, files, tmp_path, capsys):
    url, _ = server
    design, token = files
    base = ["push-netbox", str(design), "--url", url]
    assert run_cli([*base, "--token-file", str(tmp_path / "none")]) == 2
    assert "cannot read the token file" in capsys.readouterr().err
    wrong = tmp_path / "wrong"
    wrong.write_text("not-the-token")
    assert run_cli([*base, "--token-file", str(wrong)]) == 2
    assert "HTTP 403" in capsys.readouterr().err
    assert run_cli([*base, "--token-file", str(token), "--branch", "b1"]) == 2
    assert "no netbox-branching plugin" in capsys.readouterr().err
    assert (
        run_cli(["push-netbox", str(design), "--url", "ftp://x", "--token-file", str(token)]) == 2
    )
    dead = ["push-netbox", str(design), "--url", "http://127.0.0.1:9", "--token-file", str(token)]
    assert run_cli(dead) == 2
    assert "cannot reach NetBox" in capsys.readouterr().err


def test_site_option_names_the_netbox_site(server, files, tmp_path, capsys):
    url, netbox = server
    design, token = files
    plan_file = tmp_path / "plan.json"
    args = [
        "push-netbox",
        str(design),
        "--url",
        url,
        "--token-file",
        str(token),
        "--site",
        "Hall 7",
    ]
    assert run_cli([*args, "--plan-json", str(plan_file)]) == 0
    assert json.loads(plan_file.read_text())["sites"]["create"] == [["hall-7"]]
    (site,) = netbox.db["sites"].values()
    assert site["name"] == "Hall 7"
    assert "site 'Hall 7'" in capsys.readouterr().out


def test_library_types_use_the_type_a_library_loaded_netbox_holds(server, files, pod, tmp_path):
    """--types library into a NetBox holding the devicetype-library's QM9700 (manufacturer
    Nvidia): no second manufacturer or switch type, the held type untouched, every cable on the
    port names export-netbox --types library writes, and a second push plans nothing."""
    import yaml

    from model.outputs.netbox.export import netbox_tables
    from model.outputs.schedule import schedule_rows
    from tests.model.bom_test_helpers import plant_of

    url, netbox = server
    design, token = files
    library = yaml.safe_load(LIBRARY_QM9700.read_text(encoding="utf-8"))
    (maker,) = netbox.create("manufacturers", [{"name": "Nvidia", "slug": "nvidia"}])
    (held,) = netbox.create(
        "device-types",
        [{"manufacturer": maker["id"], "model": "QM9700", "slug": "nvidia-qm9700", "u_height": 1}],
    )
    netbox.create(
        "interface-templates", [dict(i, device_type=held["id"]) for i in library["interfaces"]]
    )
    held_before = copy.deepcopy(netbox.db["device-types"][held["id"]])
    templates_before = copy.deepcopy(netbox.db["interface-templates"])
    args = ["push-netbox", str(design), "--url", url, "--token-file", str(token)]
    plan_file = tmp_path / "plan.json"
    assert run_cli([*args, "--types", "library", "--plan-json", str(plan_file)]) == 0
    assert [m["name"] for m in netbox.db["manufacturers"].values()] == ["Nvidia"]
    switch_types = [t for t in netbox.db["device-types"].values() if "QM9700" in t["model"]]
    # The library's type, unchanged: no "Quantum-2 QM9700" beside it
    assert switch_types == [held_before]
    held_templates = {
        k: v for k, v in netbox.db["interface-templates"].items() if v["device_type"] == held["id"]
    }
    assert held_templates == {k: v for k, v in templates_before.items()}
    leaves = {d["id"] for d in netbox.db["devices"].values() if d["device_type"] == held["id"]}
    assert len(leaves) == sum(1 for d in pod.devices.values() if d.type == "qm9700")
    # The cables' switch ends carry the names export-netbox --types library writes
    plant = plant_of(pod)
    export = netbox_tables(pod, schedule_rows(pod, plant), plant, types="library")
    want = {(r[1], r[3]) for r in export.rows("08_cables")} | {
        (r[5], r[7]) for r in export.rows("08_cables")
    }
    got = set()
    for cable in netbox.db["cables"].values():
        for end in (*cable["a_terminations"], *cable["b_terminations"]):
            port = netbox.db["interfaces"][end["object_id"]]
            got.add((netbox.db["devices"][port["device"]]["name"], port["name"]))
    assert got == want and any(port.startswith("P0.") for _, port in got)
    assert netbox.count("cables") == len(pod.links)
    # Transceivers in cages the library's type has no bay for are left out, and said so
    assert netbox.count("modules") < len(
        netbox_tables(pod, schedule_rows(pod, plant), plant).rows("10_modules")
    )
    assert run_cli([*args, "--types", "library", "--plan-json", str(plan_file)]) == 0
    plan = json.loads(plan_file.read_text())
    assert all(not p["create"] and not p["change"] and not p["delete"] for p in plan.values())


def test_timings_count_the_requests_and_objects_of_each_endpoint(server, files, pod, capsys):
    """--timings: one line per method and endpoint, its requests, objects and seconds, as the
    server saw them (a page of 7 here: a GET of the interfaces is several requests)."""
    url, netbox = server
    design, token = files
    args = ["push-netbox", str(design), "--url", url, "--token-file", str(token), "--timings"]
    assert run_cli(args) == 0
    lines = {
        line.split(": ", 2)[1].removeprefix("HTTP "): line.split(": ", 2)[2]
        for line in capsys.readouterr().err.splitlines()
        if line.startswith("push-netbox: HTTP ")
    }
    posted = [n for method, kind, n in netbox.writes if method == "POST" and kind == "cables"]
    assert lines["POST dcim/cables"].startswith(f"{len(posted)} requests, {len(pod.links)} objects")
    assert lines["POST dcim/devices"].startswith(f"1 requests, {len(pod.devices)} objects")
    reads = lines["GET dcim/interfaces"]
    assert int(reads.split()[0]) >= 2 and "s (longest " in reads
    # Payload sizes a request: a bulk POST sends its list, a GET page brings its objects back
    sent_kb = float(lines["POST dcim/cables"].split(", ")[-1].split(" kB sent")[0])
    assert sent_kb > 0 and reads.endswith("kB received a request")
    assert float(reads.split(" kB sent and ")[1].split(" kB")[0]) > 0


def test_connections_out_of_range_is_refused_with_a_sentence(files, capsys):
    design, token = files
    args = ["push-netbox", str(design), "--url", "http://127.0.0.1:9", "--token-file", str(token)]
    assert run_cli([*args, "--connections", "0"]) == 2
    assert "--connections must be 1 to 16, not 0" in capsys.readouterr().err
