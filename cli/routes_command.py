"""``main.py routes FILE``: each link's routed length in pieces, ordered length, medium and why.

The report is built column by column (:func:`route_report`): the route words and the reasons
come from the plant's arrays for all links at once (:meth:`CablePlant.route_descriptions`,
:meth:`CablePlant.reasons`), each distinct choice explained once, so the time grows with the
number of distinct routes and choices, not with a search per link.
"""

from __future__ import annotations

import argparse
import re
import sys

import numpy as np

from cli import load_or_refuse
from cli.export_common import add_policy_argument
from cli.progress import Progress
from model.cabling import CablePlant
from model.design import Design


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(name, help="print each link's routed length, medium and reason")
    parser.add_argument("file", help="a .hall.json design file")
    add_policy_argument(parser)


def run(args: argparse.Namespace) -> int:
    progress = Progress("routes")
    design = load_or_refuse(args.file)
    progress.step("loaded")
    plant = CablePlant(design, args.policy)
    progress.step("routed")
    text = route_report(design, plant)
    progress.step("explained")
    sys.stdout.write(text)
    sys.stdout.flush()
    progress.done()
    return 0


def route_report(design: Design, plant: CablePlant) -> str:
    """The whole ``routes`` report: four or five lines per link in natural id order, then the
    plant's findings (routing, media and plugs)."""
    from model.plant import build_plant

    ids = natural_sorted(plant.link_ids)
    rows = np.fromiter(map(plant.index.__getitem__, ids), np.int64, len(ids))
    links = list(map(design.links.__getitem__, ids))
    speed = _memo(plant.speed_gbps[rows].tolist(), lambda v: f"{v:g}G")
    routes = plant.route_descriptions(rows)
    length, routed = plant.length_m[rows], plant.routed_m[rows]
    typed = _memo(length.tolist(), lambda v: f"  length  {v:.2f} m (measured or typed)\n")
    differs = (length != routed).tolist()
    names = [m.id for m in plant.media] + ["none"]
    media = plant.medium_index[rows]
    medium = [names[m] for m in np.where(media < 0, -1, media).tolist()]
    ordered = _memo(plant.ordered_m[rows].tolist(), lambda v: "-" if v != v else f"{v:g} m")
    reasons = plant.reasons(rows)
    lines = [
        f"{lid}: {link.a.device} {link.a.port} -> {link.b.device} {link.b.port}, {sp}\n"
        f"  route   {route}\n"
        f"{typed_line if differ else ''}"
        f"  medium  {med}, ordered {order}\n"
        f"  reason  {why}\n"
        for lid, link, sp, route, typed_line, differ, med, order, why in zip(
            ids, links, speed, routes, typed, differs, medium, ordered, reasons, strict=True
        )
    ]
    for finding in [*plant.findings(), *build_plant(plant).findings]:
        lines.append(f"{finding.severity.upper()} {finding.code}: {finding.message}\n")
    return "".join(lines)


def _memo(values: list, fmt) -> list[str]:
    """``fmt(v)`` of each value, worked out once per distinct value."""
    memo: dict = {}
    out = []
    for v in values:
        text = memo.get(v)
        if text is None:
            text = memo[v] = fmt(v)
        out.append(text)
    return out


_DIGITS = re.compile(r"(\d+)")
_DIGIT_CHARS = "0123456789"


def natural_sorted(ids: list[str]) -> list[str]:
    """``ids`` in natural order (``l-2`` before ``l-10``): by :func:`_natural`, with a fast path
    for the usual ids, a prefix without digits and a number at the end."""
    stems = [i.rstrip(_DIGIT_CHARS) for i in ids]
    if _DIGITS.search("".join(stems)) or not all(stems):
        return sorted(ids, key=_natural)
    keys = [
        (stem, int(i[len(stem) :]), "") if len(stem) < len(i) else (i,)
        for stem, i in zip(stems, ids, strict=True)
    ]
    return [ids[k] for k in sorted(range(len(ids)), key=keys.__getitem__)]  # stable, as sorted()


def _natural(text: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in _DIGITS.split(text))
