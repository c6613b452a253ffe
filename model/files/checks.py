"""What the loader checks beyond field types and ranges: valid polygons, trays of real length
and size, custom device types whose ports have unique names, and the limits of model/design/limits.py.

Each check returns :class:`LoadProblem` records naming the JSON path, so a refused file lists
every problem at once; a problem tied to one record (a tray, rack, device, link or obstacle)
says which, so the editor can offer to open the file without that record. The checks run on
the parsed document before the design is built: every later stage (tray graph, analysis, BOM,
exports, render) may assume what is checked here.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import TYPE_CHECKING

from model.catalog.components import CatalogError, CatalogFile, DeviceType, builtin_catalog
from model.design import limits
from model.design.hall_checks import (
    LoadProblem,
    check_count,
    check_polygon,
    check_segments,
    check_text,
    check_tray,
)
from model.design.link_entries import pieces_problem, polarity_problem, via_problem

if TYPE_CHECKING:
    from model.files.document import DesignDocument


def check_document(doc: DesignDocument, *, links_plain: bool = False) -> list[LoadProblem]:
    """Every problem of ``doc`` that its types do not already rule out (possibly none).

    ``links_plain``: only where ``model.design.entities.plain_links(doc.links)`` was found true
    (the loader's one pass): no link has a label, a via, a polarity record or recorded pieces,
    so their checks, a pass over the links each, are skipped."""
    problems: list[LoadProblem] = []
    problems += check_text("$.name", doc.name)
    problems += check_polygon("$.hall.outline", doc.hall.outline, "the hall outline")
    problems += check_count("$.hall.obstacles", doc.hall.obstacles, limits.MAX_OBSTACLES)
    for i, obstacle in enumerate(doc.hall.obstacles):
        path = f"$.hall.obstacles[{i}]"
        found = check_polygon(f"{path}.polygon", obstacle.polygon, f"obstacle {obstacle.id!r}")
        found += check_text(f"{path}.name", obstacle.name)
        problems += [p._replace(record=("obstacles", i)) for p in found]
    problems += _check_custom_types(doc.custom_types)
    problems += _check_trays(doc)
    for key, limit in (
        ("racks", limits.MAX_RACKS),
        ("devices", limits.MAX_DEVICES),
        ("links", limits.MAX_LINKS),
    ):
        records = getattr(doc, key)
        problems += check_count(f"$.{key}", records, limit)
        if key == "links" and links_plain:
            continue  # every label is ""
        field = "label" if key == "links" else "name"
        # One pass in C over 400k records; the per-record loop only when one is too long.
        if max(map(len, map(attrgetter(field), records)), default=0) <= limits.MAX_NAME_LENGTH:
            continue
        for i, record in enumerate(records):
            if len(getattr(record, field)) > limits.MAX_NAME_LENGTH:
                problems += [
                    p._replace(record=(key, i))
                    for p in check_text(f"$.{key}[{i}].{field}", getattr(record, field))
                ]
    problems += _check_device_ports(doc)
    if not links_plain:
        problems += _check_link_entries(doc)
    return problems


def _check_trays(doc: DesignDocument) -> list[LoadProblem]:
    problems = check_count("$.trays", doc.trays, limits.MAX_TRAYS)
    for i, tray in enumerate(doc.trays):
        problems += [p._replace(record=("trays", i)) for p in check_tray(f"$.trays[{i}]", tray)]
    problems += check_segments("$.trays", doc.trays)
    return problems


def _check_custom_types(custom: CatalogFile) -> list[LoadProblem]:
    problems: list[LoadProblem] = []
    for key in ("device_types", "rack_types", "media_types"):
        problems += check_count(
            f"$.custom_types.{key}", getattr(custom, key), limits.MAX_CUSTOM_TYPES
        )
    for i, dtype in enumerate(custom.device_types):
        problems += check_device_type(f"$.custom_types.device_types[{i}]", dtype)
    for i, rtype in enumerate(custom.rack_types):
        path = f"$.custom_types.rack_types[{i}]"
        if rtype.height_u > limits.MAX_U_HEIGHT:
            problems.append(
                LoadProblem(f"{path}.height_u", f"more than the limit of {limits.MAX_U_HEIGHT} U")
            )
        problems += check_texts(path, rtype, ("vendor", "model", "notes"))
    for i, medium in enumerate(custom.media_types):
        path = f"$.custom_types.media_types[{i}]"
        for field in ("speeds_gbps", "lane_rates_gbps", "form_factors", "orderable_lengths_m"):
            problems += check_count(
                f"{path}.{field}", getattr(medium, field), limits.MAX_LIST_ITEMS
            )
        problems += check_texts(path, medium, ("name", "netbox_type", "notes"))
    return problems


def check_texts(path: str, record: object, fields: Iterable[str]) -> list[LoadProblem]:
    out: list[LoadProblem] = []
    for field in fields:
        out += check_text(f"{path}.{field}", getattr(record, field), limits.MAX_TEXT_LENGTH)
    return out


def check_device_type(path: str, dtype: DeviceType) -> list[LoadProblem]:
    """Bounded sizes and port names that stay unique (``p`` x 11 beside ``p1`` would give two
    ports ``p11``), with and without every breakout the type offers."""
    problems = check_texts(path, dtype, ("vendor", "model", "notes"))
    if dtype.u_height > limits.MAX_U_HEIGHT:
        problems.append(
            LoadProblem(f"{path}.u_height", f"more than the limit of {limits.MAX_U_HEIGHT} U")
        )
    if dtype.gpus is not None and dtype.gpus.count > limits.MAX_GPUS_PER_DEVICE:
        problems.append(
            LoadProblem(
                f"{path}.gpus.count", f"more than the limit of {limits.MAX_GPUS_PER_DEVICE} GPUs"
            )
        )
    groups = dtype.port_groups
    if len(groups) > limits.MAX_PORT_GROUPS:
        problems.append(
            LoadProblem(
                f"{path}.port_groups", f"more than the limit of {limits.MAX_PORT_GROUPS} groups"
            )
        )
        return problems
    most_ports = 0
    for j, group in enumerate(groups):
        if len(group.breakouts) > limits.MAX_LIST_ITEMS:
            problems.append(
                LoadProblem(
                    f"{path}.port_groups[{j}].breakouts",
                    f"more than the limit of {limits.MAX_LIST_ITEMS} options",
                )
            )
            return problems
        most_ports += group.count * max([1, *(b.fanout for b in group.breakouts)])
    if most_ports > limits.MAX_PORTS_PER_DEVICE:
        problems.append(
            LoadProblem(
                f"{path}.port_groups",
                f"up to {most_ports:,} ports, more than the limit of "
                f"{limits.MAX_PORTS_PER_DEVICE:,} per device",
            )
        )
        return problems
    names: dict[str, int] = {}
    for j, group in enumerate(groups):
        if group.name in names:
            problems.append(
                LoadProblem(f"{path}.port_groups[{j}].name", f"port group {group.name!r} repeats")
            )
            return problems
        names[group.name] = j
    ports: dict[str, str] = {}
    for j, group in enumerate(groups):
        expanded = [f"{group.name}{i}" for i in range(1, group.count + 1)]
        for option in group.breakouts:
            expanded += [
                f"{group.name}{i}/{k}"
                for i in range(1, group.count + 1)
                for k in range(1, option.fanout + 1)
            ]
        for port in expanded:
            other = ports.setdefault(port, group.name)
            if other != group.name:
                problems.append(
                    LoadProblem(
                        f"{path}.port_groups[{j}].name",
                        f"groups {other!r} and {group.name!r} both give a port named {port!r}",
                    )
                )
                return problems
    return problems


def _check_device_ports(doc: DesignDocument) -> list[LoadProblem]:
    """Each placed device within MAX_PORTS_PER_DEVICE once broken out (a custom type's limit is
    checked above; this catches a bundled type broken out past it, should one ever be)."""
    try:
        catalog = builtin_catalog().extended(doc.custom_types)
    except CatalogError:
        return []  # reported by the build step with its own sentence
    problems: list[LoadProblem] = []
    seen: dict[tuple | str, int] = {}
    total = 0
    for i, device in enumerate(doc.devices):
        dtype = catalog.device_types.get(device.type)
        if dtype is None:
            continue
        # a device that breaks out nothing (most of them) is keyed by its type alone
        key = (
            (device.type, tuple(sorted(device.breakout.items())))
            if device.breakout
            else device.type
        )
        count = seen.get(key)
        if count is None:
            count = 0
            for group in dtype.port_groups:
                count += group.count * device.breakout.get(group.name, 1)
            seen[key] = count
        total += count
        if count > limits.MAX_PORTS_PER_DEVICE:
            problems.append(
                LoadProblem(
                    f"$.devices[{i}].breakout",
                    f"{count:,} ports, more than the limit of {limits.MAX_PORTS_PER_DEVICE:,}",
                    ("devices", i),
                )
            )
    if total > limits.MAX_PORTS_TOTAL:
        problems.append(
            LoadProblem(
                "$.devices",
                f"{total:,} ports in all, more than the limit of {limits.MAX_PORTS_TOTAL:,}",
            )
        )
    return problems


def _check_link_entries(doc: DesignDocument) -> list[LoadProblem]:
    """``via``, ``polarity`` and ``as_built_pieces_m`` entries the editor's edit API refuses (a
    panel named twice, a port on a trunk, a cassette's seventh port, pieces that are no channel): refused here too, each with its JSON path
    (:mod:`model.design.link_entries`). Only links that have such entries are visited: a
    generated XL hall has none among its 400k links."""
    problems: list[LoadProblem] = []
    links = doc.links
    # Scanned in C first (~10 ms at XL); the Python loop only when some link has entries.
    if not (
        any(map(attrgetter("via"), links))
        or any(map(attrgetter("polarity"), links))
        or any(map(attrgetter("as_built_pieces_m"), links))
    ):
        return problems
    for i, link in enumerate(links):
        if not (link.via or link.polarity or link.as_built_pieces_m):
            continue
        problem = via_problem(link.via)
        if problem is not None:
            problems.append(
                LoadProblem(f"$.links[{i}].via", f"link {link.id!r}: {problem}", ("links", i))
            )
        problem = pieces_problem(link.as_built_pieces_m, link.via)
        if problem is not None:
            problems.append(
                LoadProblem(
                    f"$.links[{i}].as_built_pieces_m",
                    f"link {link.id!r}: recorded pieces: {problem}",
                    ("links", i),
                )
            )
        for key, value in link.polarity.items():
            problem = polarity_problem(key, value)
            if problem is not None:
                problems.append(
                    LoadProblem(
                        f"$.links[{i}].polarity.{key}",
                        f"link {link.id!r}: {key} = {value!r}: {problem}",
                        ("links", i),
                    )
                )
    return problems
