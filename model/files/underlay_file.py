"""The underlay's file: read a DXF's lines per layer (ezdxf), hash a drawing's content, resolve
its recorded path beside the design file and say whether it is still there and unchanged.

Why ezdxf: building plans come as DXF, a format with dozens of entity kinds (polylines with
bulges, blocks inserted many times, arcs, splines); ezdxf is the maintained pure-Python reader
that flattens all of them into straight segments, which is what the plan draws and snaps to.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import msgspec
import numpy as np

from model.design.entities import Underlay
from model.design.underlay import DEFAULT_DXF_UNIT_M, DXF_UNIT_M

MAX_DXF_BYTES = 200 * 1024 * 1024  # a whole campus in DXF stays under this
MAX_SEGMENTS = 2_000_000  # ~64 MB of float64 segments; more is not a hall's drawing
CHORD_M = 0.005  # arcs and splines become segments at most 5 mm off the curve
_CURVES = frozenset({"LINE", "LWPOLYLINE", "POLYLINE", "ARC", "CIRCLE", "ELLIPSE", "SPLINE"})


class UnderlayError(ValueError):
    """A drawing could not be read; ``str()`` is a sentence for the user."""


def check_size(path: str | os.PathLike[str], max_bytes: int, what: str) -> None:
    """Refuse, with a sentence naming the file, one that cannot be read or is over ``max_bytes``
    (``what``: "a drawing", "a PDF"), before a reader is given it."""
    name = Path(path).name
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise UnderlayError(f"{name} cannot be read ({exc.strerror or exc})") from None
    if size > max_bytes:
        raise UnderlayError(
            f"{name} is {size / 1e6:.0f} MB; {what} of at most {max_bytes / 1024**2:.0f} MB is read"
        )


@dataclass(frozen=True)
class DxfDrawing:
    """A DXF's lines: ``segments`` (n x 4, drawing units, y up), ``layer_of`` (n, index into
    ``layers``), the layers that hold lines, the drawing's unit code ($INSUNITS) and extent."""

    segments: np.ndarray
    layer_of: np.ndarray
    layers: tuple[str, ...]
    units: int
    extent: tuple[float, float, float, float]  # u_min, v_min, u_max, v_max

    def shown(self, layers: tuple[str, ...]) -> np.ndarray:
        """The segments of ``layers`` (all when empty)."""
        if not layers:
            return self.segments
        wanted = [i for i, name in enumerate(self.layers) if name in set(layers)]
        return self.segments[np.isin(self.layer_of, wanted)]


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file's bytes (hex); raises UnderlayError with a sentence."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError as exc:
        raise UnderlayError(f"{Path(path).name} cannot be read ({exc.strerror or exc})") from None
    return digest.hexdigest()


def read_dxf(path: str | os.PathLike[str]) -> DxfDrawing:
    """Every line, polyline, arc, circle, ellipse and spline of the model space (blocks
    exploded) as straight segments; raises UnderlayError naming the file and the problem."""
    import ezdxf
    from ezdxf import path as dxf_path

    name = Path(path).name
    check_size(path, MAX_DXF_BYTES, "a drawing")
    # A drawing comes from anywhere: whatever a damaged file makes the reader raise (ezdxf's
    # own errors, but also StopIteration, OverflowError, KeyError seen on truncated or
    # corrupted files) is the user's sentence, never a traceback.
    try:
        doc = ezdxf.readfile(path)
    except ezdxf.DXFStructureError as exc:
        raise UnderlayError(f"{name} is not a readable DXF drawing ({exc})") from None
    except Exception as exc:  # noqa: BLE001 - see above
        raise UnderlayError(f"{name} cannot be read as a DXF drawing ({_words(exc)})") from None
    units = int(doc.header.get("$INSUNITS", 0) or 0)
    chord = CHORD_M / DXF_UNIT_M.get(units, DEFAULT_DXF_UNIT_M)  # in drawing units
    pieces: list[np.ndarray] = []
    layer_names: dict[str, int] = {}
    layer_parts: list[np.ndarray] = []
    count = 0
    try:
        for entity, layer in _flat_entities(doc.modelspace()):
            kind = entity.dxftype()
            if kind not in _CURVES:
                continue
            vertices = _straight_vertices(entity, kind)
            if vertices is None:  # curves (arcs, bulges, splines): flattened to chords
                vertices = np.array(
                    [(v.x, v.y) for v in dxf_path.make_path(entity).flattening(chord)],
                    dtype=float,
                )
            if len(vertices) < 2:
                continue
            segs = np.hstack([vertices[:-1], vertices[1:]])
            segs = segs[np.isfinite(segs).all(axis=1)]
            count += len(segs)
            if count > MAX_SEGMENTS:
                raise UnderlayError(
                    f"{name} has more than {MAX_SEGMENTS:,} line segments; export only the "
                    "floor's layers"
                )
            pieces.append(segs)
            index = layer_names.setdefault(layer, len(layer_names))
            layer_parts.append(np.full(len(segs), index, dtype=np.int32))
    except UnderlayError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged entity: a sentence (see above)
        raise UnderlayError(f"{name}: an entity could not be read ({_words(exc)})") from None
    if not pieces:
        raise UnderlayError(f"{name} holds no lines, polylines, arcs or circles to draw")
    segments = np.concatenate(pieces)
    extent = (
        float(min(segments[:, 0].min(), segments[:, 2].min())),
        float(min(segments[:, 1].min(), segments[:, 3].min())),
        float(max(segments[:, 0].max(), segments[:, 2].max())),
        float(max(segments[:, 1].max(), segments[:, 3].max())),
    )
    return DxfDrawing(segments, np.concatenate(layer_parts), tuple(layer_names), units, extent)


def _words(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _straight_vertices(entity: Any, kind: str) -> np.ndarray | None:
    """The vertices of a LINE or a bulge-free, untilted LWPOLYLINE read directly (most of a
    building drawing; ezdxf's general path takes ~10x longer); None for anything curved."""
    if kind == "LINE":
        start, end = entity.dxf.start, entity.dxf.end
        return np.array([(start[0], start[1]), (end[0], end[1])], dtype=float)
    if kind == "LWPOLYLINE" and tuple(entity.dxf.get("extrusion", (0, 0, 1))) == (0, 0, 1):
        points = entity.get_points("xyb")
        if any(b for _x, _y, b in points):
            return None
        vertices = [(x, y) for x, y, _b in points]
        if entity.closed and vertices:
            vertices.append(vertices[0])
        return np.array(vertices, dtype=float).reshape(-1, 2)
    return None


def _flat_entities(space: Iterable[Any], depth: int = 0) -> Iterator[tuple[Any, str]]:
    """(entity, layer) of a layout with INSERTs (blocks) exploded, nested up to 8 deep; an
    entity on layer "0" inside a block takes the INSERT's layer, as CAD programs draw it."""
    for entity in space:
        layer = entity.dxf.get("layer", "0")
        if entity.dxftype() == "INSERT":
            if depth >= 8:
                continue
            for inner, inner_layer in _flat_entities(entity.virtual_entities(), depth + 1):
                yield inner, layer if inner_layer == "0" else inner_layer
        else:
            yield entity, layer


class UnderlayState(Enum):
    """What became of the drawing a design recorded."""

    OK = "ok"
    MISSING = "missing"
    CHANGED = "changed"


def resolve_path(underlay: Underlay, design_folder: Path | None) -> Path:
    """The drawing's file: its recorded path, taken from the design file's folder if relative."""
    recorded = Path(underlay.path)
    if recorded.is_absolute() or design_folder is None:
        return recorded
    return design_folder / recorded


def recorded_path(drawing: Path, design_folder: Path | None) -> str:
    """How a design records ``drawing``: relative to the design's folder where it can be
    (the two travel together), else absolute; always with forward slashes."""
    drawing = drawing.resolve()
    if design_folder is not None:
        try:
            return os.path.relpath(drawing, design_folder.resolve()).replace(os.sep, "/")
        except ValueError:  # another drive (Windows): no relative path exists
            pass
    return drawing.as_posix()


def rebased(underlay: Underlay, old_folder: Path | None, new_folder: Path | None) -> Underlay:
    """The record of the same drawing for a design file now in ``new_folder`` (Save As)."""
    where = resolve_path(underlay, old_folder)
    if not where.is_absolute():
        return underlay  # relative to nothing known: leave it as the user's file says
    path = recorded_path(where, new_folder)
    return underlay if path == underlay.path else msgspec.structs.replace(underlay, path=path)


def underlay_state(underlay: Underlay, design_folder: Path | None) -> tuple[UnderlayState, str]:
    """Whether the recorded drawing is there and unchanged, with a sentence for the user."""
    where = resolve_path(underlay, design_folder)
    try:
        found = where.is_file()
    except OSError:  # a name too long for the file system, a permission: not there for us
        found = False
    if not found:
        return UnderlayState.MISSING, (
            f"The underlay drawing {underlay.path} is missing (looked for {where}); the plan "
            "is shown without it. Import it again to place it."
        )
    try:
        digest = file_sha256(where)
    except UnderlayError as exc:
        return UnderlayState.MISSING, f"The underlay drawing cannot be read: {exc}"
    if digest != underlay.sha256:
        return UnderlayState.CHANGED, (
            f"The underlay drawing {underlay.path} has changed since it was placed (its "
            "content differs): check its scale and position against the plan."
        )
    return UnderlayState.OK, f"Underlay {underlay.path}"
