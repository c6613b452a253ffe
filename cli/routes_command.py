"""``main.py routes FILE``: each link's routed length in pieces, ordered length, medium and why.

The report is built column by column (:func:`report_columns`): the route words and the reasons
come from the plant's arrays for all links at once (:meth:`RoutedLinks.route_word_columns`,
:func:`model.engine.reason_words.reason_word_columns`), every figure and choice worded once per
distinct value and fancy-indexed into place as pieces (:mod:`model.common.text_columns`); the pieces
are joined a few thousand links at a time and written, so the time grows with the number of
distinct values plus one ``join`` over the pieces, not with string formatting per link.
"""

from __future__ import annotations

import argparse
import re
import sys
from operator import attrgetter

import numpy as np

from cli import load_or_refuse
from cli.export_common import add_policy_argument
from cli.process_exit import is_own_process, keep_until_exit, no_collection_until_exit
from cli.progress import Progress
from model.common.text_columns import codes, fixed, formatted, join_chunks, lookup
from model.design.design import Design
from model.engine.cages import CAGE_STRIDE, cage_view
from model.engine.reason_words import reason_word_columns
from model.engine.routed_links import RoutedLinks
from model.runtime.forked_call import ForkedCall
from model.structured.layout import StructuredLayout, structured_layout, uses_structured


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(name, help="print each link's routed length, medium and reason")
    parser.add_argument("file", help="a .hall.json design file")
    add_policy_argument(parser)


def run(args: argparse.Namespace) -> int:
    no_collection_until_exit()  # one load, route and report, then the exit
    progress = Progress("routes")
    design = load_or_refuse(args.file)
    progress.step("loaded")
    plant = RoutedLinks(design, args.policy)
    keep_until_exit(plant)  # as its design: left to main.py's exit, not freed one by one
    progress.step("routed")
    # A structured design's findings, printed last, are found in a forked child
    # (model/runtime/forked_call.py) while this process words and writes the links' lines: the
    # structured layout they read is ~2 s CPU of a zoned XL run, the lines ~1.3 s, and neither
    # reads what the other makes. A direct design's findings (~0.2 s at XL) are not worth the
    # fork's copy-on-write faults (~0.4 s CPU at XL). Without a fork (a direct design, tests,
    # one core) they are found here once the lines are written, as before.
    fork = is_own_process() and uses_structured(design)
    with ForkedCall(lambda: plant_findings_text(plant), fork) as findings:
        n, columns = report_columns(design, plant)
        progress.step("explained")
        for text in join_chunks(n, columns):
            sys.stdout.write(text)
        sys.stdout.write(findings.result())
    sys.stdout.flush()
    progress.done()
    return 0


def route_report(design: Design, plant: RoutedLinks) -> str:
    """The whole ``routes`` report: four or five lines per link in natural id order, then the
    plant's findings (routing, media and plugs)."""
    return "".join(join_chunks(*report_columns(design, plant))) + findings_text(plant)


def report_columns(design: Design, plant: RoutedLinks) -> tuple[int, list]:
    """The links' part of the report as columns of pieces (:mod:`model.common.text_columns`), one row
    per link in natural id order: every figure worded once per distinct value (speed, lengths,
    medium, ordered length, choice), ids, devices, ports and cage labels taken as they are."""
    rows = natural_order(plant.link_ids)  # row r of the plant's arrays is link_ids[r]
    ids = lookup(plant.link_ids, rows)
    links = list(map(design.links.__getitem__, ids.tolist()))
    # The devices from the plant's cage keys (device number * CAGE_STRIDE + cage), the ports
    # from the links
    view = cage_view(plant)
    device_a = lookup(view.dev_ids, view.cage_a[rows] // CAGE_STRIDE)
    device_b = lookup(view.dev_ids, view.cage_b[rows] // CAGE_STRIDE)
    length, routed = plant.length_m[rows], plant.routed_m[rows]
    typed = np.full(len(rows), "  medium  ", dtype=object)
    differs = np.flatnonzero(length != routed)
    typed[differs] = fixed(length[differs], 2, "  length  ", " m (measured or typed)\n  medium  ")
    media = plant.medium_index[rows]
    names = [m.id for m in plant.media] + ["none"]
    columns = [
        ids,
        ": ",
        device_a,
        " ",
        list(map(_A_PORT, links)),
        " -> ",
        device_b,
        " ",
        list(map(_B_PORT, links)),
        formatted(plant.speed_gbps[rows], lambda v: f", {v:g}G\n  route   "),
        *plant.route_word_columns(rows, end="\n"),
        typed,
        lookup(names, np.where(media < 0, -1, media)),
        formatted(
            plant.ordered_m[rows],
            lambda v: ", ordered -\n  reason  " if v != v else f", ordered {v:g} m\n  reason  ",
        ),
        *reason_word_columns(plant, rows, end="\n"),
    ]
    return len(rows), columns


def plant_findings_text(plant: RoutedLinks) -> str:
    """:func:`findings_text` with ``plant``'s findings-only structured layout (no channel rows:
    nothing here prints them), kept to the exit with the plant when this is ``main.py``'s
    process: freeing its records one by one was ~0.2 s of a zoned XL run."""
    design = plant.design
    layout = structured_layout(plant, findings_only=True) if uses_structured(design) else None
    keep_until_exit(layout)
    return findings_text(plant, layout)


def findings_text(plant: RoutedLinks, layout: StructuredLayout | None = None) -> str:
    """The report's last lines: the plant's findings (routing, media and plugs). ``layout``:
    ``plant``'s structured layout when the caller has it."""
    from model.plant.physical_plant import plant_findings

    return "".join(
        f"{finding.severity.upper()} {finding.code}: {finding.message}\n"
        for finding in [*plant.findings(), *plant_findings(plant, layout)]
    )


_A_PORT, _B_PORT = attrgetter("a.port"), attrgetter("b.port")
_DIGITS = re.compile(r"(\d+)")


def natural_sorted(ids: list[str]) -> list[str]:
    """``ids`` in natural order (``l-2`` before ``l-10``): by :func:`_natural`, stable."""
    return lookup(ids, natural_order(ids)).tolist()


def natural_order(ids: list[str]) -> np.ndarray:
    """Positions of ``ids`` in natural order (the stable sort by :func:`_natural`).

    The usual ids, an ASCII prefix without digits and a number at the end, are sorted by (prefix,
    number) from their characters as a numpy array (an id that is its prefix alone comes first,
    as its shorter key does); any other id set takes the sort by :func:`_natural`.
    """
    n = len(ids)
    text = np.array(ids, dtype=str)
    width = text.dtype.itemsize // 4
    if not n or not width or "\x00" in "".join(ids):
        return _sorted_order(ids)  # empty, or NULs numpy would drop at the end of an id
    lengths = np.strings.str_len(text).astype(np.int64)
    chars = text.view(np.uint32).reshape(n, width)
    position = np.arange(width)
    inside = position < lengths[:, None]
    digit = (chars >= 48) & (chars <= 57)
    # The number at the end: the digits from a position to the end of the id (padding counts)
    tail = np.logical_and.accumulate((digit | ~inside)[:, ::-1], axis=1)[:, ::-1] & inside
    stem_length = lengths - tail.sum(axis=1)
    stem = position < stem_length[:, None]
    if (
        not stem_length.all()
        or (stem & (digit | (chars > 127))).any()  # a digit (maybe a non-ASCII one) in a prefix
        or int((lengths - stem_length).max()) > 18  # beyond int64
    ):
        return _sorted_order(ids)
    number = np.zeros(n, dtype=np.int64)
    for p in range(width):  # the digits read left to right
        number = np.where(tail[:, p], number * 10 + chars[:, p].astype(np.int64) - 48, number)
    number[stem_length == lengths] = -1
    prefix = np.where(stem, chars, 0)
    if (prefix == prefix[0]).all():
        return np.argsort(number, kind="stable")
    prefix_code = codes(np.ascontiguousarray(prefix).view(f"<U{width}").reshape(-1))[1]
    return np.lexsort((number, prefix_code))


def _sorted_order(ids: list[str]) -> np.ndarray:
    order = sorted(range(len(ids)), key=lambda k: _natural(ids[k]))
    return np.array(order, dtype=np.int64)


def _natural(text: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in _DIGITS.split(text))
