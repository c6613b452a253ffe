"""push-netbox against a live NetBox: a pod pushed, pushed again unchanged, one rack moved, traces.

Runs in Hallwright's environment, against the NetBox ``run_live_import.sh`` serves on loopback:
``live_push.py URL TOKEN_FILE DESIGN WORKDIR``. When NetBox already holds the design's site
(``run_live_import.sh`` imported the same design's library-named CSV files into it), the first
push must find every object and plan nothing: CSV import and push agree; the dry run plans a
site of another name. Steps, each checked through NetBox's REST API:

0. the NetBox holds the devicetype-library's NVIDIA types first (manufacturer ``Nvidia``, the
   vendored QM9700 with its interface and module-bay templates, written through REST), and the
   pod is pushed with ``--types library`` throughout;
1. ``--dry-run`` plans the whole site and writes nothing (the manufacturer and the switch type
   NetBox holds are used as they are);
2. the push writes it (exit 0, nothing refused): devices, cables and modules as many as the
   design has (less the transceivers whose cage the held type has no bay for), each switch on
   the library's type, which is unchanged, and no second switch type or manufacturer;
3. a second push plans nothing (no create, change or delete of any type): idempotent;
4. one server rack moved 3 m along the row and pushed: the plan changes the lengths of exactly
   the cables whose ordered length changed (all of them ending in that rack), that rack's
   comments (its floor position) and nothing else; NetBox then holds the new lengths;
5. cable traces: every cable of the moved rack and a sample of the others, traced from the A
   interface through NetBox's ``/trace/`` endpoint, end on the design's B interface;
6. ``import-netbox --url`` reads the site back over REST: the same devices, links, rack ids,
   floor positions and rotations (the moved rack where it now stands) and trays, exit 0;
7. a cross-connect pod with patch panels pushed as its own site with Hallwright's own type
   names: nothing refused, idempotent, every link traced by NetBox from its A interface through
   both panels to its B interface;
8. ``--branch`` on a NetBox without the netbox-branching plugin exits 2 with a sentence.

Exit 0 when every check held; 1 otherwise, with the failures printed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from model.engine.routed_links import RoutedLinks  # noqa: E402
from model.files.design_file import load_design, save_design  # noqa: E402
from model.outputs.netbox.export import netbox_schedule, netbox_tables  # noqa: E402
from model.outputs.netbox.rest_client import RestClient  # noqa: E402
from model.outputs.netbox.rest_objects import desired_objects  # noqa: E402

failures: list[str] = []
checks = [0]


def check(ok: bool, what: str) -> None:
    checks[0] += 1
    if not ok:
        failures.append(what)
        print("FAIL", what, flush=True)


LIBRARY = REPO / "tests" / "data" / "devicetype_library_nvidia"
TEMPLATES = {  # the library file's key -> its REST template type
    "interfaces": "interface-templates",
    "module-bays": "module-bay-templates",
    "console-ports": "console-port-templates",
}


def desired_of(path: Path, types: str = "hallwright"):
    design = load_design(path)
    plant = RoutedLinks(design)
    tables = netbox_tables(design, netbox_schedule(design, plant), plant, None, types)
    return design, desired_objects(tables)


def load_library(api: RestClient) -> dict[str, dict]:
    """The vendored devicetype-library types written into NetBox as a team loads the library
    (manufacturer Nvidia, each type with its templates); slug -> the library's document."""
    import yaml

    if not api.read_all("manufacturers", {"slug": "nvidia"}):
        api.create("manufacturers", [{"name": "Nvidia", "slug": "nvidia"}])
    (maker,) = api.read_all("manufacturers", {"slug": "nvidia"})
    docs = {}
    for path in sorted(LIBRARY.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        docs[doc["slug"]] = doc
        if api.read_all("device-types", {"slug": doc["slug"]}):
            continue
        scalars = {k: v for k, v in doc.items() if not isinstance(v, list)}
        (dtype,) = api.create("device-types", [dict(scalars, manufacturer=maker["id"])])
        for key, kind in TEMPLATES.items():
            items = [dict(item, device_type=dtype["id"]) for item in doc.get(key, [])]
            if items:
                api.create(kind, items)
    return docs


def push(url: str, token: Path, design: Path, work: Path, *extra: str) -> tuple[int, dict, str]:
    plan_file = work / "plan.json"
    plan_file.unlink(missing_ok=True)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(REPO / "main.py"), "push-netbox", str(design), "--url", url,
         "--token-file", str(token), "--plan-json", str(plan_file), "--timings", *extra],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    print(f"push-netbox {' '.join(extra) or '(write)'}: exit {done.returncode}, {seconds:.0f} s")
    print(done.stdout, end="")
    # Where the push spent its time: requests, objects and seconds per endpoint
    print(
        "".join(
            f"  {line[12:]}\n"
            for line in done.stderr.splitlines()
            if line.startswith("push-netbox: HTTP ")
        ),
        end="",
    )
    refused = [line for line in done.stderr.splitlines() if not line.startswith("push-netbox:")]
    if refused:
        print("\n".join(refused[:20]))
    plan = json.loads(plan_file.read_text()) if plan_file.exists() else {}
    return done.returncode, plan, done.stderr


def totals(plan: dict) -> dict[str, tuple[int, int, int]]:
    return {
        k: (len(p["create"]), len(p["change"]), len(p["delete"]))
        for k, p in plan.items()
        if p["create"] or p["change"] or p["delete"]
    }


def main(argv: list[str]) -> int:
    url, token_file, design_path, work = argv[0], Path(argv[1]), Path(argv[2]), Path(argv[3])
    api = RestClient(url, token_file.read_text().strip())
    design, desired = desired_of(design_path, "library")
    (site_slug,) = next(iter(desired["sites"]))

    # A NetBox holding the devicetype-library's types (manufacturer Nvidia): the push must use
    # them as they are, not rename, change or duplicate them.
    library = load_library(api)
    held_before = {slug: api.read_all("device-types", {"slug": slug})[0] for slug in library}
    makers_before = {m["slug"]: m["name"] for m in api.read_all("manufacturers", {})}

    lib = ("--types", "library")
    # The site NetBox's bulk import wrote from the same design's CSV files (run_live_import.sh
    # pushes onto it): the push must find every object and plan nothing. The dry run then
    # plans a site of another name, which NetBox does not hold.
    imported = bool(api.read_all("sites", {"slug": site_slug}))
    dry_name = f"{design.name} (dry run)"
    dry = ("--site", dry_name) if imported else ()
    code, plan, _ = push(url, token_file, design_path, work, *lib, *dry, "--dry-run")
    check(code == 0, f"dry run exit {code}")
    check(
        len(plan.get("devices", {}).get("create", [])) == len(design.devices),
        "dry run plans every device",
    )
    dry_slug = plan.get("sites", {}).get("create", [[site_slug]])[0][0]
    check(not api.read_all("sites", {"slug": dry_slug}), "dry run wrote the site")

    code, plan, _ = push(url, token_file, design_path, work, *lib)
    check(code == 0, f"first push exit {code}")
    if imported:
        check(totals(plan) == {}, f"push onto the CSV-imported site plans {totals(plan)}")
    (site,) = api.read_all("sites", {"slug": site_slug}) or [None]
    site_id = site["id"] if site else -1
    # Transceivers in a cage the held type has no bay for are left out (said so by the push)
    bays = {s: {b["name"] for b in doc.get("module-bays", [])} for s, doc in library.items()}
    type_of = {k: d.fields["device_type"].key[0] for k, d in desired["devices"].items()}
    left_out = sum(
        1 for k, m in desired["modules"].items()
        if type_of[m.fields["device"].key] in bays and k[-1] not in bays[type_of[m.fields["device"].key]]
    )  # fmt: skip
    want = {k: len(desired[k]) for k in ("racks", "devices", "cables")}
    want["modules"] = len(desired["modules"]) - left_out
    for kind, count in want.items():
        held = len(api.read_all(kind, {"site_id": site_id}))
        check(held == count, f"{kind}: NetBox holds {held}, design {count}")
    check_held_types(api, held_before, type_of, site_id)

    makers = api.read_all("manufacturers", {})
    check(
        all(makers_before.get(m["slug"], m["name"]) == m["name"] for m in makers)
        and len([m for m in makers if m["slug"] == "nvidia"]) == 1,
        f"manufacturers renamed or duplicated: {makers_before} -> {makers}",
    )

    if not imported:  # pushed onto the CSV-imported site, the first push was the second
        code, plan, _ = push(url, token_file, design_path, work, *lib)
        check(code == 0 and totals(plan) == {}, f"second push plans nothing: {totals(plan)}")

    # One server rack moved 3 m along the row.
    rack = sorted(
        (r for r in design.racks.values() if any(
            d.rack == r.id and d.role == "gpu-server" for d in design.devices.values())),
        key=lambda r: r.name,
    )[-1]  # fmt: skip
    design.move_racks({rack.id: (rack.x + 3.0, rack.y)})
    moved_path = work / "moved.hall.json"
    save_design(design, moved_path)
    _, moved = desired_of(moved_path, "library")
    want_changed = {
        key for key, obj in moved["cables"].items()
        if obj.fields["length"] != desired["cables"][key].fields["length"]
    }  # fmt: skip
    code, plan, _ = push(url, token_file, moved_path, work, *lib)
    check(code == 0, f"push of the moved rack exit {code}")
    changed = {tuple(map(_tuple, c["key"])) for c in plan["cables"]["change"]}
    other = {k: v for k, v in totals(plan).items() if k != "cables"}
    # The rack changes too: its floor position is in its comments (model/outputs/netbox/floor_record)
    check(other == {"racks": (0, 1, 0)}, f"moving rack {rack.name} changed other objects: {other}")
    rack_fields = [(c["key"][-1], c["fields"]) for c in plan["racks"]["change"]]
    check(rack_fields == [(rack.name, ["comments"])], f"rack changes {rack_fields}")
    check(totals(plan).get("cables", (0, 0, 0))[::2] == (0, 0), "cables created or deleted")
    check(
        changed == want_changed and changed,
        f"cables changed {len(changed)}, lengths changed {len(want_changed)}",
    )
    in_rack = {d.name for d in design.devices.values() if d.rack == rack.id}
    check(all(a[0] in in_rack or b[0] in in_rack for _, a, b in changed), "a cable outside")
    fields = {f for c in plan["cables"]["change"] for f in c["fields"]}
    check(fields == {"length"}, f"changed cable fields {fields}")
    print(f"rack {rack.name} moved 3 m: {len(changed)} cable lengths changed, nothing else")

    # Traces through NetBox's own path tracing.
    cables = api.read_all("cables", {"site_id": site_id})
    by_key = {}
    for c in cables:
        a, b = (t["object"] for t in (c["a_terminations"][0], c["b_terminations"][0]))
        ends = sorted(((a["device"]["name"], a["name"]), (b["device"]["name"], b["name"])))
        by_key[(site_slug, *ends)] = (c, a)
    lengths_ok = all(
        abs(float(by_key[k][0]["length"]) - moved["cables"][k].fields["length"]) < 0.01
        for k in want_changed
    )
    check(lengths_ok, "NetBox holds the moved rack's new cable lengths")
    sample = sorted(want_changed) + sorted(by_key)[:: max(1, len(by_key) // 50)]
    traced = 0
    for key in sample:
        cable, a = by_key[key]
        path = api.call("GET", f"dcim/interfaces/{a['id']}/trace/")
        assert isinstance(path, list)
        near, _cable, far = path[-1]
        ends = sorted(
            [
                (near[0]["device"]["name"], near[0]["name"]),
                (far[0]["device"]["name"], far[0]["name"]),
            ]
        )
        check([tuple(e) for e in ends] == list(key[1:]), f"trace of {key}: {ends}")
        traced += 1
    print(f"{traced} cable traces checked through /api/dcim/interfaces/<id>/trace/")

    pull_back(url, token_file, moved_path, desired["sites"][(site_slug,)].fields["name"], work)
    push_panels(url, token_file, api, work)

    code, _, err = push(url, token_file, design_path, work, "--branch", "review", "--dry-run")
    check(code == 2 and "no netbox-branching plugin" in err, f"--branch without plugin: {err!r}")

    for failure in failures:
        print("FAIL", failure)
    print(f"push-netbox: {checks[0] - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


def check_held_types(api: RestClient, before: dict, type_of: dict, site_id: int) -> None:
    """Each library type NetBox held: unchanged, the only type of its model, and every device
    the design has of it on it."""
    for slug, old in before.items():
        (now,) = api.read_all("device-types", {"slug": slug}) or [None]
        # Everything NetBox says of the type but its use (device_count) and the time it says so
        differ = sorted(
            k for k, v in old.items()
            if k not in ("device_count", "last_updated") and (now or {}).get(k) != v
        )  # fmt: skip
        check(not differ, f"the held type {slug} was changed by the push: {differ}")
        twins = [t["slug"] for t in api.read_all("device-types", {"model__ic": old["model"]})]
        check(twins == [slug], f"a second type beside the held {slug}: {twins}")
        on_it = len(api.read_all("devices", {"site_id": site_id, "device_type_id": old["id"]}))
        want = sum(1 for t in type_of.values() if t == slug)
        check(on_it == want > 0, f"{on_it} devices on the held {slug}, the design has {want}")
    print(f"held library types {sorted(before)} used as they are, none duplicated")


def push_panels(url: str, token: Path, api: RestClient, work: Path) -> None:
    """A cross-connect pod (patch panels: front/rear ports, trunk legs as rear-port cables)
    pushed as a site of its own: exit 0, nothing refused, a second push plans nothing, and
    every link traced by NetBox from its A interface through the panels to its B interface."""
    from model.generators.generate import generate
    from model.structured.layout import place_panels, set_cabling

    design = generate("rail-optimized", nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8)
    set_cabling(design, "cross-connect")
    place_panels(design)
    design.name = "Hallwright panels pod"
    path = work / "panels.hall.json"
    save_design(design, path)
    _, desired = desired_of(path)
    code, plan, err = push(url, token, path, work)
    check(code == 0, f"push of the cross-connect pod exit {code}: {err[-500:]}")
    code, plan, _ = push(url, token, path, work)
    check(code == 0 and totals(plan) == {}, f"second panel push plans nothing: {totals(plan)}")
    (site_slug,) = next(iter(desired["sites"]))
    (site,) = api.read_all("sites", {"slug": site_slug}) or [None]
    if site is None:
        check(False, "the panel pod's site is not in NetBox")
        return
    interfaces = {
        (i["device"]["name"], i["name"]): i["id"]
        for i in api.read_all("interfaces", {"site_id": site["id"], "fields": "id,name,device"})
    }
    name = {d.id: d.name for d in design.devices.values()}
    traced = 0
    for link in sorted(design.links.values(), key=lambda k: k.id):
        a = interfaces.get((name[link.a.device], link.a.port))
        if a is None:
            check(False, f"panel pod: no interface {link.a.port} of {name[link.a.device]}")
            continue
        path_ = api.call("GET", f"dcim/interfaces/{a}/trace/")
        assert isinstance(path_, list)
        far = path_[-1][2] if path_ and path_[-1][2] else []
        got = (far[0]["device"]["name"], far[0]["name"]) if far else None
        check(got == (name[link.b.device], link.b.port), f"panel trace of {link.id}: {got}")
        traced += 1
    print(f"panel pod: {traced} links traced through their panels by NetBox")


def pull_back(url: str, token: Path, design_path: Path, site: str, work: Path) -> None:
    """import-netbox --url reads back what the pushes wrote: every device (name, type, U),
    every link (by its ends' names) and every rack (id, floor position, rotation: the moved
    rack where it was moved to), and exit 0 (nothing left out)."""
    back = work / "pulled.hall.json"
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(REPO / "main.py"), "import-netbox", "--url", url, "--token-file",
         str(token), "--site", site, "-o", str(back), "--lists-to", str(work / "pulled-lists")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    print(f"import-netbox --url: exit {done.returncode}, {seconds:.0f} s")
    print(done.stdout[-2000:], done.stderr[-2000:], sep="", end="")
    check(done.returncode == 0, f"import-netbox --url exit {done.returncode}")
    if not back.exists():
        return
    design, came = load_design(design_path), load_design(back)

    def ends(d):
        name = {x.id: x.name for x in d.devices.values()}
        return {
            frozenset([(name[k.a.device], k.a.port), (name[k.b.device], k.b.port)])
            for k in d.links.values()
        }

    check(
        {(d.name, d.type, d.u) for d in came.devices.values()}
        == {(d.name, d.type, d.u) for d in design.devices.values()},
        "import-netbox --url: the devices (name, type, U) differ",
    )
    check(ends(came) == ends(design), "import-netbox --url: the links differ")
    check(
        {(r.name, r.id, r.x, r.y, r.rotation) for r in came.racks.values()}
        == {
            (r.name, r.id, round(r.x, 3), round(r.y, 3), r.rotation) for r in design.racks.values()
        },
        "import-netbox --url: the racks' ids, positions or rotations differ",
    )
    check(came.trays == design.trays, "import-netbox --url: the trays differ")


def _tuple(value):
    return tuple(value) if isinstance(value, list) else value


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
