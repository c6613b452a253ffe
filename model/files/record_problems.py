"""The slow path of reading a design file, taken only by a file with a problem: each part and
each record converted on its own, so that every bad one is reported with its JSON path and
the good ones still make a (partial) document (:mod:`model.files.design_file`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from model.design import limits
from model.design.entities import ENTITY_KINDS, Device, Hall, Link, Obstacle, Rack, Tray
from model.files.checks import LoadProblem
from model.files.document import DesignDocument


def record_problems(
    raw: dict[str, Any],
) -> tuple[DesignDocument | None, list[LoadProblem], dict[str, Sequence[int]]]:
    """The slow path: convert each part and each record on its own, so that every bad one is
    reported (with its path) and the good ones still make a (partial) document."""
    problems: list[LoadProblem] = []
    parts: dict[str, Any] = {}
    indices: dict[str, Sequence[int]] = {}
    fields = {f.name: f for f in msgspec.structs.fields(DesignDocument)}
    for key in raw:
        if key not in fields:
            problems.append(LoadProblem(f"$.{key}", "unknown field"))
    for name, field in fields.items():
        if name not in raw:
            if field.required:
                problems.append(LoadProblem(f"$.{name}", "missing (required)"))
            continue
        value = raw[name]
        if name in ENTITY_KINDS:
            record_type = _RECORD_TYPES[name]
            if not isinstance(value, list):
                problems.append(LoadProblem(f"$.{name}", "expected an array"))
                continue
            parts[name], indices[name] = _convert_each(
                value, record_type, name, f"$.{name}", problems
            )
        elif (
            name == "hall" and isinstance(value, dict) and isinstance(value.get("obstacles"), list)
        ):
            obstacles, indices["obstacles"] = _convert_each(
                value["obstacles"], Obstacle, "obstacles", "$.hall.obstacles", problems
            )
            try:
                hall = msgspec.convert({**value, "obstacles": []}, type=Hall)
                parts[name] = msgspec.structs.replace(hall, obstacles=obstacles)
            except msgspec.ValidationError as exc:
                problems.append(validation_problem(exc, "$.hall"))
        else:
            try:
                parts[name] = msgspec.convert(value, type=field.type)
            except msgspec.ValidationError as exc:
                problems.append(validation_problem(exc, f"$.{name}"))
    if any(p.record is None for p in problems) or "hall" not in parts or "name" not in parts:
        return None, problems, indices
    for key in (*ENTITY_KINDS, "obstacles"):
        indices.setdefault(key, [])
    return DesignDocument(**parts), problems, indices


def _convert_each(
    items: list[Any], record_type: Any, kind: str, path: str, problems: list[LoadProblem]
) -> tuple[list[Any], list[int]]:
    """Each item converted on its own: the good ones and their file indices; a problem (with
    its path and its record's kind and index) appended for each bad one."""
    kept: list[Any] = []
    indices: list[int] = []
    for i, item in enumerate(items):
        try:
            kept.append(msgspec.convert(item, type=record_type))
            indices.append(i)
        except msgspec.ValidationError as exc:
            found = validation_problem(exc, f"{path}[{i}]")
            problems.append(found._replace(record=(kind, i)))
    return kept, indices


_RECORD_TYPES = {"trays": Tray, "racks": Rack, "devices": Device, "links": Link}


def deeper_than(node: Any, depth: int) -> str:
    """The JSON path of a value nested deeper than ``depth`` levels, or "" (iterative: a file
    of 100,000 nested arrays must not exhaust the Python stack)."""
    stack = [(node, "$", 1)]
    while stack:
        value, path, level = stack.pop()
        if isinstance(value, dict | list):
            if level > depth:
                return path
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, child in items:
                child_path = f"{path}.{key}" if isinstance(value, dict) else f"{path}[{key}]"
                stack.append((child, child_path, level + 1))
    return ""


def too_deep(path: str) -> LoadProblem:
    return LoadProblem(
        path, f"nested deeper than {limits.MAX_JSON_DEPTH} levels (no design is nested so deep)"
    )


def validation_problem(exc: msgspec.ValidationError, prefix: str = "$") -> LoadProblem:
    message = str(exc)
    json_path = prefix
    if " - at `" in message:
        message, _, tail = message.rpartition(" - at `")
        json_path = prefix + tail.rstrip("`")[1:]  # msgspec's path starts with "$"
    return LoadProblem(json_path, message)
