"""Import Hallwright NetBox exports into a live NetBox through its own bulk-import views.

Runs inside NetBox's environment (``NETBOX_ROOT`` set, the database migrated):
``live_import.py EXPORT_DIR EXPECTED.json [EXPORT_DIR EXPECTED.json ...]``. Each export folder is
one site; they go into the same NetBox one after the other, as a team with several pods would.
Every file is posted like a user's upload (Import -> "Upload file") to NetBox's bulk-import view
with Django's test client, so NetBox's forms, validation and transaction are the ones in use.
Shared objects that an earlier site already created are left out, as the export's README tells
the user to do. Then the database is compared with the design: devices, interfaces, cables,
modules, patch panels and their cabled front/rear ports, cable lengths by label, no free NVLink
port, and cable traces end to end (through both panels for a structured design's links).
Last, each site's lists (sites, racks, devices, cables) are exported the way a user downloads
them ("Export -> All data") into ``EXPORT_DIR.netbox-lists`` for the way back (import-netbox).

``--preload DIR`` first loads the device types of a devicetype-library folder (manufacturer
``Nvidia``, as the library names it), the way a team's NetBox already holds them: then every
row must still import, and each device of a type the NetBox held must use that type (no second
type of Hallwright's naming beside it, no second manufacturer).

Exit 0 when every row imported and every check held; 1 otherwise, with the failures printed.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "netbox.settings")

import django  # noqa: E402

django.setup()

from dcim.models import (  # noqa: E402
    Cable,
    Device,
    DeviceRole,
    DeviceType,
    FrontPort,
    Interface,
    Manufacturer,
    Module,
    ModuleType,
    PowerFeed,
    RearPort,
    Site,
)
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.test import Client  # noqa: E402

URLS = {
    "01_manufacturers": "/dcim/manufacturers/import/",
    "02_device_roles": "/dcim/device-roles/import/",
    "03_device_types": "/dcim/device-types/import/",
    "03_module_types": "/dcim/module-types/import/",
    "04_sites": "/dcim/sites/import/",
    "05_locations": "/dcim/locations/import/",
    "06_racks": "/dcim/racks/import/",
    "07_devices": "/dcim/devices/import/",
    "07_interfaces": "/dcim/interfaces/import/",  # --types-from: ports a held type lacks
    "08_cables": "/dcim/cables/import/",
    "09_backplane_cables": "/dcim/cables/import/",
    "10_modules": "/dcim/modules/import/",
    "11_power_panels": "/dcim/power-panels/import/",
    "12_power_feeds": "/dcim/power-feeds/import/",
    "13_power_cables": "/dcim/cables/import/",
    "14_cooling_sources": "/dcim/cooling-sources/import/",  # NetBox 4.7 (dcim/urls.py)
    "15_cooling_feeds": "/dcim/cooling-feeds/import/",
}
failures: list[str] = []
checks = [0]  # checks made (files imported, counts compared)
timings: list[tuple[str, int, float, str]] = []


def client() -> Client:
    user_model = get_user_model()
    user = user_model.objects.filter(username="hallwright").first()
    if user is None:
        user = user_model.objects.create_superuser("hallwright", "hw@localhost", "unused-pw")
    c = Client()
    c.force_login(user)
    return c


def post(c: Client, url: str, name: str, text: str, fmt: str, rows: int) -> None:
    upload = SimpleUploadedFile(name, text.encode("utf-8"))
    start = time.perf_counter()
    response = c.post(
        url, {"import_method": "upload", "upload_file": upload, "format": fmt, "csv_delimiter": ","}
    )
    seconds = time.perf_counter() - start
    ok = response.status_code == 302
    timings.append((name, rows, seconds, "ok" if ok else "FAILED"))
    print(f"  {name}: {rows} rows in {seconds:.1f} s, {'ok' if ok else 'FAILED'}", flush=True)
    if not ok:
        errors = []
        form = response.context.get("form") if response.context else None
        if form is not None:
            errors = [str(e) for e in form.non_field_errors()] + [
                f"{k}: {v}" for k, v in form.errors.items() if k != "__all__"
            ]
        failures.append(f"{name}: HTTP {response.status_code}: {'; '.join(errors)[:2000]}")


def csv_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8") as handle:
        table = list(csv.reader(handle))
    return table[0], table[1:]


def csv_text(header: list[str], rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def import_shared(c: Client, folder: Path) -> None:
    """Shared objects: only those this NetBox does not hold yet (the README's 'skip')."""
    for stem, model in (("01_manufacturers", Manufacturer), ("02_device_roles", DeviceRole)):
        path = folder / "shared" / f"{stem}.csv"
        header, rows = csv_rows(path)
        name_at = header.index("name")
        missing = [r for r in rows if not model.objects.filter(name=r[name_at]).exists()]
        if missing:
            post(c, URLS[stem], path.name, csv_text(header, missing), "csv", len(missing))
    for path in sorted((folder / "shared" / "03_device_types").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        slug = next(
            line.split(":", 1)[1].strip().strip('"')
            for line in text.splitlines()
            if line.startswith("slug:")
        )
        if not DeviceType.objects.filter(slug=slug).exists():
            post(c, URLS["03_device_types"], path.name, text, "yaml", 1)
    for path in sorted((folder / "shared" / "03_module_types").glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        fields = {
            key: value.strip().strip('"')
            for key, _, value in (line.partition(":") for line in text.splitlines())
            if key in ("manufacturer", "model")
        }
        if not ModuleType.objects.filter(
            manufacturer__name=fields["manufacturer"], model=fields["model"]
        ).exists():
            post(c, URLS["03_module_types"], path.name, text, "yaml", 1)


def preload_library(c: Client, folder: Path) -> None:
    """The devicetype-library's types in ``folder``, imported as a team loads the library."""
    import yaml

    docs = [(p, p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.yaml"))]
    makers = sorted({str(yaml.safe_load(text)["manufacturer"]) for _, text in docs})
    rows = [[m, m.lower().replace(" ", "-")] for m in makers]
    post(c, URLS["01_manufacturers"], "library manufacturers", csv_text(["name", "slug"], rows),
         "csv", len(rows))  # fmt: skip
    for path, text in docs:
        post(c, URLS["03_device_types"], f"library {path.name}", text, "yaml", 1)


def check_library_types(expected: dict) -> None:
    """Each held type used by as many devices as the design has of it, and no second type of
    the same model or second manufacturer of the same slug beside it."""
    site = expected["site"]
    for slug, devices in expected["library_types"]:
        held = DeviceType.objects.filter(slug=slug).first()
        checks[0] += 3
        if held is None:
            failures.append(f"{site}: the held type {slug} is gone")
            continue
        using = Device.objects.filter(site__name=site, device_type=held).count()
        if using != devices:
            failures.append(f"{site}: {using} devices of the held type {slug}, {devices} expected")
        twins = DeviceType.objects.filter(model__icontains=held.model).exclude(pk=held.pk)
        if twins.exists():
            failures.append(
                f"{site}: a second type beside {slug}: {list(twins.values_list('slug', flat=True))}"
            )
        makers = Manufacturer.objects.filter(slug=held.manufacturer.slug).count()
        named = Manufacturer.objects.filter(name__iexact=held.manufacturer.name).count()
        if (makers, named) != (1, 1):
            failures.append(f"{site}: manufacturer {held.manufacturer.name} twice")
    if expected["library_types"]:
        print(f"{site}: library types {expected['library_types']} used, none duplicated")


def import_site(c: Client, folder: Path) -> None:
    for path in sorted((folder / "site").glob("*.csv")):
        stem = next(s for s in URLS if path.stem.startswith(s))
        text = path.read_text(encoding="utf-8")
        post(c, URLS[stem], path.name, text, "csv", text.count("\n") - 1)


def check_site(expected: dict) -> None:
    site = expected["site"]
    devices = Device.objects.filter(site__name=site)
    interfaces = Interface.objects.filter(device__site__name=site)
    cables = Cable.objects.filter(terminations___site__name=site).distinct()
    got = {
        "devices": devices.count(),
        "interfaces": interfaces.count(),
        "cables": cables.count(),
        "cabled_ports": interfaces.filter(cable__isnull=False).count(),
        "modules": Module.objects.filter(device__site__name=site).count(),
        # Traced: a feed counts when its cable reaches a PDU's power port in one of its racks.
        "power_feeds": PowerFeed.objects.filter(
            power_panel__site__name=site,
            cable__isnull=False,
            rack__isnull=False,
        ).count(),
        "patch_panels": devices.filter(role__slug="patch-panel").count(),
        "cabled_front_ports": FrontPort.objects.filter(
            device__site__name=site, cable__isnull=False
        ).count(),
        "cabled_rear_ports": RearPort.objects.filter(
            device__site__name=site, cable__isnull=False
        ).count(),
    }
    checks[0] += len(got) + 2 + len(expected["traces"])  # counts, NVLink, lengths, traces
    for key, value in got.items():
        if value != expected[key]:
            failures.append(f"{site}: {key} {value} in NetBox, {expected[key]} in the design")
    free_nvlink = interfaces.filter(name__startswith="nvl", cable__isnull=True).count()
    if free_nvlink:
        failures.append(f"{site}: {free_nvlink} NVLink ports show as free")
    wrong = 0
    held: dict[str, list] = {}
    for label, length in cables.values_list("label", "length"):
        held.setdefault(label, []).append(None if length is None else float(length))
    for label in held.keys() | expected["lengths"].keys():
        want = expected["lengths"].get(label, [])
        have = sorted(held.get(label, []), key=lambda x: (x is not None, x or 0))
        if len(want) != len(have):
            wrong += abs(len(want) - len(have))
            continue
        for w, h in zip(want, have, strict=True):
            if (w is None) != (h is None) or (w is not None and abs(float(w) - h) > 0.005):
                wrong += 1
    if wrong:
        failures.append(f"{site}: {wrong} cables whose length differs from the design's")
    traced = 0
    for want in expected["traces"]:
        traced += _trace(site, want)
    print(f"{site}: {got} ; {free_nvlink} free NVLink ports ; {traced} traces end to end")


def _trace(site: str, want: dict) -> int:
    """1 when the A end's cable path reaches the B end (through front and rear ports if asked)."""
    (a_dev, a_port), (b_dev, b_port) = want["from"], want["to"]
    iface = Interface.objects.filter(device__site__name=site, device__name=a_dev, name=a_port)
    iface = iface.first()
    path = iface._path if iface is not None else None
    where = f"{site}: trace from {a_dev} {a_port}"
    if path is None or not path.is_complete:
        failures.append(f"{where} is incomplete (expected to reach {b_dev} {b_port})")
        return 0
    ends = [(getattr(o, "device", None) and o.device.name, o.name) for o in path.destinations]
    if ends != [(b_dev, b_port)]:
        failures.append(f"{where} reaches {ends}, expected {b_dev} {b_port}")
        return 0
    kinds = {type(o).__name__ for hop in path.path_objects for o in hop}
    if want["through_panels"] and not {"FrontPort", "RearPort"} <= kinds:
        failures.append(f"{where} does not run through patch-panel front and rear ports")
        return 0
    return 1


LISTS = {  # NetBox's list views, exported as "All data" (CSV), as a user downloads them
    "netbox_sites.csv": ("/dcim/sites/", "id"),
    "netbox_racks.csv": ("/dcim/racks/", "site_id"),
    "netbox_devices.csv": ("/dcim/devices/", "site_id"),
    "netbox_cables.csv": ("/dcim/cables/", "site_id"),
}


def export_lists(c: Client, site_name: str, folder: Path) -> None:
    """The site's lists as NetBox exports them, for ``main.py import-netbox`` (the way back)."""
    site = Site.objects.get(name=site_name)
    folder.mkdir(parents=True, exist_ok=True)
    for name, (url, key) in LISTS.items():
        response = c.get(url, {key: site.pk, "export": ""})
        checks[0] += 1
        if response.status_code != 200:
            failures.append(f"{site_name}: exporting {url} answered HTTP {response.status_code}")
            continue
        (folder / name).write_bytes(response.content)


def main(argv: list[str]) -> int:
    preload = None
    if argv[:1] == ["--preload"]:
        preload, argv = Path(argv[1]), argv[2:]
    if len(argv) < 2 or len(argv) % 2:
        print(
            "usage: live_import.py [--preload LIBRARY_DIR] EXPORT_DIR EXPECTED.json "
            "[EXPORT_DIR EXPECTED.json ...]"
        )
        return 2
    c = client()
    if preload is not None:
        preload_library(c, preload)
    pairs = [
        (Path(argv[i]), json.loads(Path(argv[i + 1]).read_text())) for i in range(0, len(argv), 2)
    ]
    total = time.perf_counter()
    for folder, _ in pairs:
        import_shared(c, folder)
        import_site(c, folder)
    for folder, expected in pairs:
        check_site(expected)
        check_library_types(expected)
        export_lists(c, expected["site"], folder.with_name(folder.name + ".netbox-lists"))
    print(f"{'file':40} {'rows':>6} {'seconds':>8} {'s/row':>7}  result")
    for name, rows, seconds, result in timings:
        per_row = seconds / rows if rows else 0.0
        print(f"{name:40} {rows:6d} {seconds:8.1f} {per_row:7.3f}  {result}")
    rows = sum(t[1] for t in timings)
    failed = sum(t[1] for t in timings if t[3] != "ok")
    print(
        f"{len(timings)} files, {rows} rows, {failed} rows in failed files, "
        f"{time.perf_counter() - total:.0f} s"
    )
    for failure in failures:
        print("FAIL", failure)
    made = checks[0] + len(timings)
    print(f"netbox: {made - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
