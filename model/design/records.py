"""The design's edit records: its error, what a removal took out, and the checks edits share.

Split out of :mod:`model.design.design` with the queries (:mod:`model.design.queries`) and the link
edits (:mod:`model.design.links`); :class:`~model.design.design.Design` is assembled from them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import ParamSpec, Protocol, TypeVar, cast

import msgspec

from model.design.entities import Device, Link, Rack, Tray
from model.design.record_checks import fit_record


class DesignError(ValueError):
    """An edit or a file that would make the design inconsistent; the message says why."""


@dataclass
class Removed:
    """Everything one removal took out of the design, so that it can be put back (undo)."""

    trays: list[Tray] = field(default_factory=list)
    racks: list[Rack] = field(default_factory=list)
    devices: list[Device] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)


R = TypeVar("R", bound=msgspec.Struct)
P = ParamSpec("P")
T = TypeVar("T")


class _Batching(Protocol):
    """What :func:`one_change` needs of the design whose method it wraps."""

    def batch(self) -> AbstractContextManager[object]: ...


def one_change(method: Callable[P, T]) -> Callable[P, T]:
    """An edit that calls other edits (a cascade, an undo) is still announced as one Change."""

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        design = cast(_Batching, args[0])  # a method's self: the Design
        with design.batch():
            return method(*args, **kwargs)

    return wrapper


def placement(rack: Rack) -> tuple[float, float, int, float, float]:
    """What decides where a rack's ports are: changing it means the rack moved."""
    return (rack.x, rack.y, rack.rotation, rack.width_m, rack.depth_m)


def merge_removed(a: Removed, b: Removed) -> Removed:
    return Removed(a.trays + b.trays, a.racks + b.racks, a.devices + b.devices, a.links + b.links)


def fit_fields(records: Iterable[R], what: str) -> list[R]:
    """The records as the file loader reads them back; refuse one it would refuse (see
    ``model.design.record_checks``)."""
    out: list[R] = []
    for record in records:
        fitted, problem = fit_record(record)
        if problem or fitted is None:
            label = getattr(record, "name", "") or getattr(record, "id", "")
            raise DesignError(f"{what} {label!r}: {problem}" if label else f"{what}: {problem}")
        out.append(fitted)
    return out


def check_polyline(tray: Tray) -> None:
    if len(tray.points) < 2:
        raise DesignError(f"tray {tray.name or tray.id!r} needs at least 2 points")
