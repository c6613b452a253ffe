"""Mutated ``check-cabling`` reports and ``as-built`` length files for the fuzz suite.

The seeds are correct files for a seed design (every link's two ends as an LLDP-style
neighbour table; every schedule row's label with a length, the structured pod's cords and
trunks too); each mutation returns the bytes of a hostile variant: other encodings (UTF-16 with
and without its mark, UTF-32, Latin-1), other line ends (CR only, mixed), NULs, a cell past
csv's 128 KiB limit, broken quotes, flipped and cut bytes, other delimiters, missing or shuffled
columns, repeated rows, names that differ only in case, lengths that are not numbers
("1.2.3", "nan", "1e309", "12 m"). A case is ``(label, (kind, seed index, bytes))`` with kind
"check-cabling" or "as-built" (what :mod:`tests.fuzz.stages` runs it through).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

REPORT_HEADER = ("local_device", "local_port", "remote_device", "remote_port")
LENGTH_HEADER = ("label", "length_m")


def seed_designs() -> list:
    """The designs the reports describe: the small pod and its cross-connect variant."""
    from tests.builders import small_pod
    from tests.fuzz.mutator import _structured_pod

    return [small_pod(), _structured_pod()]


def report_rows(design) -> list[list[str]]:
    names = {d.id: d.name for d in design.devices.values()}
    rows = []
    for link in design.links.values():
        a, b = link.a, link.b
        rows.append([names[a.device], a.port, names[b.device], b.port])
        rows.append([names[b.device], b.port, names[a.device], a.port])
    return rows


def length_rows(design) -> list[list[str]]:
    from model.engine.routed_links import RoutedLinks
    from model.outputs.schedule import schedule_rows

    plant = RoutedLinks(design)
    return [[r.label, f"{(r.length_m or 1.0) * 1.05:.2f}"] for r in schedule_rows(design, plant)]


def _csv(header, rows, sep: str = ",", end: str = "\n") -> str:
    def cell(text: str) -> str:
        return '"' + text.replace('"', '""') + '"' if any(c in text for c in '",;\r\n') else text

    return end.join(sep.join(cell(c) for c in row) for row in [list(header), *rows]) + end


Mutation = Callable[[random.Random, tuple, list], bytes]


def utf16_with_mark(rng, header, rows) -> bytes:
    return _csv(header, rows).encode("utf-16")


def utf16_without_mark(rng, header, rows) -> bytes:
    return _csv(header, rows).encode(rng.choice(["utf-16-le", "utf-16-be"]))


def utf32(rng, header, rows) -> bytes:
    return _csv(header, rows).encode("utf-32")


def latin1_names(rng, header, rows) -> bytes:
    rows = [list(r) for r in rows]
    rows[rng.randrange(len(rows))][0] += "é"
    return _csv(header, rows).encode("latin-1")


def cr_only(rng, header, rows) -> bytes:
    return _csv(header, rows, end="\r").encode()


def mixed_line_ends(rng, header, rows) -> bytes:
    text = _csv(header, rows)
    return "".join(c if c != "\n" else rng.choice(["\n", "\r\n", "\r"]) for c in text).encode()


def nul_inside(rng, header, rows) -> bytes:
    data = bytearray(_csv(header, rows).encode())
    data.insert(rng.randrange(len(data)), 0)
    return bytes(data)


def huge_cell(rng, header, rows) -> bytes:
    rows = [list(r) for r in rows]
    rows[rng.randrange(len(rows))][rng.randrange(len(header))] = "x" * rng.choice(
        [131_073, 300_000]
    )
    return _csv(header, rows).encode()


def broken_quote(rng, header, rows) -> bytes:
    text = _csv(header, rows)
    at = rng.randrange(len(text))
    return (text[:at] + '"' + text[at:]).encode()


def flip_bytes(rng, header, rows) -> bytes:
    data = bytearray(_csv(header, rows).encode())
    for _ in range(rng.randint(1, 8)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def cut(rng, header, rows) -> bytes:
    data = _csv(header, rows).encode()
    return data[: rng.randrange(len(data))]


def other_delimiter(rng, header, rows) -> bytes:
    return _csv(header, rows, sep=rng.choice([";", "\t", "|", " "])).encode()


def shuffled_columns(rng, header, rows) -> bytes:
    order = list(range(len(header)))
    rng.shuffle(order)
    return _csv([header[i] for i in order], [[r[i] for i in order] for r in rows]).encode()


def missing_column(rng, header, rows) -> bytes:
    drop = rng.randrange(len(header))
    keep = [i for i in range(len(header)) if i != drop]
    return _csv([header[i] for i in keep], [[r[i] for i in keep] for r in rows]).encode()


def header_only(rng, header, rows) -> bytes:
    return rng.choice([_csv(header, []).encode(), b"", b"\n\n", b"\xef\xbb\xbf"])


def repeated_rows(rng, header, rows) -> bytes:
    picked = [rng.choice(rows) for _ in range(rng.randint(1, 20))]
    return _csv(header, rows + picked).encode()


def short_and_long_rows(rng, header, rows) -> bytes:
    rows = [list(r) for r in rows]
    for _ in range(rng.randint(1, 5)):
        row = rows[rng.randrange(len(rows))]
        if row and rng.random() < 0.5:  # a row may be cut twice: then it is empty
            del row[rng.randrange(len(row)) :]
        else:
            row += ["extra"] * rng.randint(1, 100)
    return _csv(header, rows).encode()


def case_only_names(rng, header, rows) -> bytes:
    rows = [[c.upper() if rng.random() < 0.5 else c for c in r] for r in rows]
    return _csv(header, rows).encode()


def bad_lengths(rng, header, rows) -> bytes:
    rows = [list(r) for r in rows]
    bad = ["1.2.3", "nan", "inf", "-1", "0", "1e309", "", "12 m", "1,5", "5" * 5000, "１２"]
    for _ in range(rng.randint(1, 4)):
        rows[rng.randrange(len(rows))][-1] = rng.choice(bad)
    return _csv(header, rows).encode()


def many_rows(rng, header, rows) -> bytes:
    """A file of tens of thousands of rows: bounded time, not a hang."""
    return _csv(header, [rng.choice(rows) for _ in range(rng.choice([20_000, 60_000]))]).encode()


MUTATIONS: list[Mutation] = [
    utf16_with_mark,
    utf16_without_mark,
    utf32,
    latin1_names,
    cr_only,
    mixed_line_ends,
    nul_inside,
    huge_cell,
    broken_quote,
    flip_bytes,
    cut,
    other_delimiter,
    shuffled_columns,
    missing_column,
    header_only,
    repeated_rows,
    short_and_long_rows,
    case_only_names,
    bad_lengths,
    many_rows,
]


def cases(count: int, seed: int = 15) -> Iterator[tuple[str, tuple[str, int, bytes]]]:
    """``count`` hostile reports and length files, reproducibly, half of each kind."""
    rng = random.Random(seed)
    designs = seed_designs()
    seeds = {
        "check-cabling": (REPORT_HEADER, [report_rows(d) for d in designs]),
        "as-built": (LENGTH_HEADER, [length_rows(d) for d in designs]),
    }
    for n in range(count):
        kind = "check-cabling" if n % 2 == 0 else "as-built"
        header, per_design = seeds[kind]
        index = rng.randrange(len(designs))
        mutation = rng.choice(MUTATIONS)
        data = mutation(rng, header, per_design[index])
        yield f"{n}:{kind}:{index}:{mutation.__name__}", (kind, index, data)
