"""import-netbox --url: a site read back through NetBox's REST API (pages of 7, ``next`` links)
from an in-process HTTP server, after push-netbox wrote it there."""

from __future__ import annotations

import csv
import threading
from http.server import ThreadingHTTPServer

import pytest

from cli import run_cli
from model.files.design_file import load_design, save_design
from model.generators.generate import generate
from tests.cli.test_push_netbox_cli import TOKEN, _Handler
from tests.model.netbox_fake_api import FakeNetBox


def _serve(page: int):
    handler = type("Handler", (_Handler,), {"netbox": FakeNetBox(), "page": page})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def server():
    """NetBox's lists in pages of 7, so the client's paging is exercised."""
    yield from _serve(page=7)


@pytest.fixture
def server_whole_lists():
    """NetBox's lists in pages of 1,000 (NetBox's own maximum), for a test of what comes back
    rather than of paging: a page of 7 re-read the fake's whole list per request, ~600
    requests and 5 s of CPU for an 8-node hall whose paging the test above checks already."""
    yield from _serve(page=1000)


def _ends(design) -> set[frozenset]:
    name = {d.id: d.name for d in design.devices.values()}
    return {
        frozenset([(name[k.a.device], k.a.port), (name[k.b.device], k.b.port)])
        for k in design.links.values()
    }


def test_a_pushed_pod_comes_back_over_rest(server, tmp_path, capsys):
    url, handler = server
    pod = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    design = tmp_path / "pod.hall.json"
    save_design(pod, design)
    token = tmp_path / "token"
    token.write_text(TOKEN + "\n")
    auth = ["--url", url, "--token-file", str(token)]
    assert run_cli(["push-netbox", str(design), *auth]) == 0
    requests = {"n": 0}
    original = handler._route

    def counting(self, method):
        requests["n"] += 1
        original(self, method)

    handler._route = counting
    back = tmp_path / "back.hall.json"
    lists = tmp_path / "lists"
    capsys.readouterr()
    argv = ["import-netbox", "-o", str(back), *auth, "--lists-to", str(lists)]
    assert run_cli(argv) == 0, capsys.readouterr()
    came = load_design(back)
    assert _ends(came) == _ends(pod)
    assert {(d.name, d.id, d.type, d.u) for d in came.devices.values()} == {
        (d.name, d.id, d.type, d.u) for d in pod.devices.values()
    }
    assert {(r.name, r.id, r.x, r.y, r.rotation) for r in came.racks.values()} == {
        (r.name, r.id, round(r.x, 3), round(r.y, 3), r.rotation) for r in pod.racks.values()
    }
    assert came.trays == pod.trays
    # Paged: more GET requests than kinds read (sites, racks, device types, devices, cables)
    assert requests["n"] > 5 + len(pod.links) // 7
    with (lists / "netbox_cables.csv").open(encoding="utf-8") as handle:
        assert sum(1 for _ in csv.DictReader(handle)) == len(pod.links)


def test_rest_refusals_are_one_sentence_exit_2(server, tmp_path, capsys):
    url, _ = server
    token = tmp_path / "token"
    token.write_text(TOKEN)
    out = str(tmp_path / "x.hall.json")
    cases = [
        (["--url", url], "--url needs --token-file"),
        (["--url", url, "--token-file", str(token)], "NetBox holds no site"),
        (["--url", url, "--token-file", str(token), "--site", "Nowhere"], "no site named"),
        ([str(tmp_path), "--url", url, "--token-file", str(token)], "give a folder"),
        ([str(tmp_path), "--lists-to", str(tmp_path)], "go with --url"),
        (["--url", "http://127.0.0.1:9", "--token-file", str(token)], "cannot reach NetBox"),
    ]
    for extra, message in cases:
        assert run_cli(["import-netbox", "-o", out, *extra]) == 2, extra
        assert message in capsys.readouterr().err, extra
    bad = tmp_path / "bad-token"
    bad.write_text("not a token\n")
    assert run_cli(["import-netbox", "-o", out, "--url", url, "--token-file", str(bad)]) == 2


def test_a_pushed_b300_hall_keeps_its_power_lines_over_rest(server_whole_lists, tmp_path):
    """push-netbox writes a rack's PDUs as devices without a U position and its facility
    record in the comments; import-netbox --url brings the BOM's power and cooling lines back."""
    from model.facility.parts import facility_items

    url, _ = server_whole_lists
    hall = generate(
        "rail-optimized", nodes=8, node_type="dgx-b300", switch="q3400", su_nodes=8, facility="yes"
    )
    design = tmp_path / "b300.hall.json"
    save_design(hall, design)
    token = tmp_path / "token"
    token.write_text(TOKEN + "\n")
    auth = ["--url", url, "--token-file", str(token)]
    assert run_cli(["push-netbox", str(design), *auth]) == 0
    back = tmp_path / "back.hall.json"
    assert run_cli(["import-netbox", *auth, "--site", hall.name, "-o", str(back)]) == 0

    def lines(d):
        return [(p.part_id, p.quantity, p.unit_price_usd) for p in facility_items(d)]

    assert any(p[0] == "rack-pdu-3ph-415v" for p in lines(hall))
    assert lines(load_design(back)) == lines(hall)
