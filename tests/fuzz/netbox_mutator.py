"""Mutated ``import-netbox`` folders for the fuzz suite.

The seed is NetBox 4.7.3's own list exports of a 16-node pod (tests/data/netbox_export: sites,
racks, devices, cables). Each mutation returns the folder's files (name -> bytes) with one
hostile change: a cell replaced by a value NetBox would never write but a hand-edited or
foreign export may hold (``1.2.3``, a 5,000-digit number, ``nan``, ``1e309``, a negative or
textual position, ``1.2.3mm`` widths, NUL, markup, a formula, a 200 KiB cell), a file blown up
to 20,001 racks or 100,000 cables, a second site whose slug collides with the first, a file in
another encoding or cut mid-row, a column dropped or shuffled, a file missing, rows repeated.
A case is ``(label, ("import-netbox", 0, files))`` (what :mod:`tests.fuzz.stages` runs).
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Callable, Iterator
from pathlib import Path

SEED_FOLDER = Path(__file__).resolve().parents[1] / "data" / "netbox_export"
FILES = ("netbox_sites.csv", "netbox_racks.csv", "netbox_devices.csv", "netbox_cables.csv")
HOSTILE_CELLS = (
    "1.2.3",
    "9" * 5000,
    "nan",
    "inf",
    "1e309",
    "-1",
    "0",
    "top",
    "1.2.3mm",
    "48U U",
    "\x00",
    "<b>x</b><img src='/dev/zero'>",
    '=HYPERLINK("http://x")',
    "\x00=1+1",
    "A" * 200_000,
    "",
    " ",
    "Ａ０１",  # full-width look-alike of A01
)

Files = dict[str, bytes]
Mutation = Callable[[random.Random, Files], Files]


def seed_files() -> Files:
    return {name: (SEED_FOLDER / name).read_bytes() for name in FILES}


def _table(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def _bytes(rows: list[list[str]]) -> bytes:
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().encode("utf-8")


def hostile_cell(rng: random.Random, files: Files) -> Files:
    name = rng.choice(FILES)
    rows = _table(files[name])
    row = rng.randrange(1, len(rows))
    col = rng.randrange(len(rows[0]))
    while len(rows[row]) <= col:
        rows[row].append("")
    rows[row][col] = rng.choice(HOSTILE_CELLS)
    return files | {name: _bytes(rows)}


def many_racks(rng: random.Random, files: Files) -> Files:
    rows = _table(files["netbox_racks.csv"])
    template = rows[1]
    extra = [[f"Z{i:05d}", *template[1:]] for i in range(20_001)]
    return files | {"netbox_racks.csv": _bytes([rows[0], *rows[1:], *extra])}


def many_cables(rng: random.Random, files: Files) -> Files:
    rows = _table(files["netbox_cables.csv"])
    body = rows[1:]
    extra = [body[i % len(body)] for i in range(100_000)]
    return files | {"netbox_cables.csv": _bytes([rows[0], *extra])}


def colliding_site(rng: random.Random, files: Files) -> Files:
    """A second site whose name differs only in case and punctuation (slug ``pod-a-dgx-h100``
    too), holding a copy of the first site's racks and devices."""
    sites = _table(files["netbox_sites.csv"])
    twin = list(sites[1])
    twin[0] = sites[1][0].upper().replace("(", "[").replace(")", "]")
    out = dict(files)
    out["netbox_sites.csv"] = _bytes([*sites, twin])
    for name in ("netbox_racks.csv", "netbox_devices.csv"):
        rows = _table(files[name])
        site = rows[0].index("Site")
        copies = [[*r[:site], twin[0], *r[site + 1 :]] for r in rows[1:]]
        out[name] = _bytes([*rows, *copies])
    return out


def other_encoding(rng: random.Random, files: Files) -> Files:
    name = rng.choice(FILES)
    # A non-ASCII name first, so the 8-bit encodings differ from the UTF-8 seed too.
    text = files[name].decode("utf-8-sig").replace("\n", "\nÜ", 1)
    encoding = rng.choice(["utf-16", "utf-16-le", "utf-32", "latin-1", "cp1252"])
    return files | {name: text.encode(encoding, errors="replace")}


def cut_short(rng: random.Random, files: Files) -> Files:
    name = rng.choice(FILES)
    data = files[name]
    return files | {name: data[: rng.randrange(1, max(len(data) - 1, 2))]}


def drop_column(rng: random.Random, files: Files) -> Files:
    name = rng.choice(FILES)
    rows = _table(files[name])
    col = rng.randrange(len(rows[0]))
    return files | {name: _bytes([r[:col] + r[col + 1 :] for r in rows])}


def shuffle_columns(rng: random.Random, files: Files) -> Files:
    name = rng.choice(FILES)
    rows = _table(files[name])
    order = list(range(len(rows[0])))
    rng.shuffle(order)
    return files | {name: _bytes([[r[i] if i < len(r) else "" for i in order] for r in rows])}


def missing_file(rng: random.Random, files: Files) -> Files:
    name = rng.choice(FILES)
    return {k: v for k, v in files.items() if k != name}


def repeated_rows(rng: random.Random, files: Files) -> Files:
    name = rng.choice(FILES[1:])
    rows = _table(files[name])
    return files | {name: _bytes([rows[0], *rows[1:], *rows[1:]])}


def flipped_bytes(rng: random.Random, files: Files) -> Files:
    name = rng.choice(FILES)
    data = bytearray(files[name])
    for _ in range(rng.randint(1, 20)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return files | {name: bytes(data)}


MUTATIONS: tuple[Mutation, ...] = (
    hostile_cell,
    many_racks,
    many_cables,
    colliding_site,
    other_encoding,
    cut_short,
    drop_column,
    shuffle_columns,
    missing_file,
    repeated_rows,
    flipped_bytes,
)
# How often each is drawn: single hostile cells are where hand edits go wrong, so most cases.
WEIGHTS = (12, 1, 1, 2, 2, 2, 2, 1, 1, 1, 3)


def cases(count: int, seed: int = 15) -> Iterator[tuple[str, tuple[str, int, Files]]]:
    """``count`` hostile folders, reproducibly; the first of each mutation comes early."""
    rng = random.Random(seed)
    files = seed_files()
    for i in range(count):
        mutation = MUTATIONS[i] if i < len(MUTATIONS) else rng.choices(MUTATIONS, WEIGHTS)[0]
        yield f"netbox#{i}:{mutation.__name__}", ("import-netbox", 0, mutation(rng, files))
