"""Design files (``*.hall.json``): parse -> migrate -> validate -> build, and atomic, stable saves.

A file from a newer Hallwright is refused with a sentence saying so; a malformed file raises
:class:`DesignFileError` naming the file, the JSON path and what was expected. Nothing here ever
writes to the file being read, and a save goes to a temporary file beside the target that
replaces it only once completely written, so a failed save leaves the previous file intact.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

import msgspec

from model.catalog import CatalogError, CatalogFile
from model.design import Design, DesignError
from model.entities import Device, Hall, Link, Rack, Settings, Tray
from model.gc_policy import building_design

FORMAT = "hallwright"
SCHEMA_VERSION = 2
EXTENSION = ".hall.json"

Migration = Callable[[dict[str, Any]], dict[str, Any]]

# v1 -> v2 (fabric membership): a v1 design knew only the compute fabric (plus NVLink
# scale-up), so its switches are pinned to the fabric their role meant then; links stay derived.
_V1_SWITCH_FABRIC = {
    "leaf": "compute",
    "spine": "compute",
    "core": "compute",
    "switch": "compute",
    "nvlink-switch": "scale-up",
    "management": "oob",
}


def _v1_to_v2(raw: dict[str, Any]) -> dict[str, Any]:
    """Give every v1 switch an explicit ``fabric`` (v2 adds optional ``fabric`` to devices and links)."""
    devices = raw.get("devices")
    if isinstance(devices, list):
        for device in devices:
            if isinstance(device, dict) and "fabric" not in device:
                role = device.get("role")
                fabric = _V1_SWITCH_FABRIC.get(role) if isinstance(role, str) else None
                if fabric is not None:
                    device["fabric"] = fabric
    return raw


# MIGRATIONS[n] turns a version-n document (plain JSON values) into a version n+1 document.
MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2}


class DesignFileError(Exception):
    """A design file could not be read or written. ``str()`` is a sentence for the user."""

    def __init__(self, source: str, json_path: str, problem: str) -> None:
        self.source = source
        self.json_path = json_path
        self.problem = problem
        where = f"{source}: {json_path}: " if json_path else f"{source}: "
        super().__init__(where + problem)


class _Header(msgspec.Struct):
    format: str | None = None
    schema_version: int | None = None


class DesignDocument(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The on-disk layout of the current schema version."""

    format: Literal["hallwright"]
    schema_version: int
    name: str
    hall: Hall
    settings: Settings = Settings()
    custom_types: CatalogFile = msgspec.field(default_factory=CatalogFile)
    trays: list[Tray] = []
    racks: list[Rack] = []
    devices: list[Device] = []
    links: list[Link] = []


# ------------------------------------------------------------------------------------ reading


def load_design(path: str | os.PathLike[str]) -> Design:
    """Read a design file; raises :class:`DesignFileError` for any problem."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DesignFileError(path.name, "", f"cannot be read ({exc.strerror or exc})") from None
    return read_design_bytes(data, path.name)


def read_design_bytes(
    data: bytes,
    source: str = "<design>",
    *,
    migrations: Mapping[int, Migration] = MIGRATIONS,
    current_version: int = SCHEMA_VERSION,
) -> Design:
    with building_design():
        document = parse_document(
            data, source, migrations=migrations, current_version=current_version
        )
        return build_design(document, source)


def parse_document(
    data: bytes,
    source: str = "<design>",
    *,
    migrations: Mapping[int, Migration] = MIGRATIONS,
    current_version: int = SCHEMA_VERSION,
) -> DesignDocument:
    """Parse and migrate to the current schema; validates types and ranges, not references."""
    try:
        header = msgspec.json.decode(data, type=_Header)
    except msgspec.DecodeError as exc:
        raise DesignFileError(source, "", f"is not valid JSON ({exc})") from None
    except msgspec.ValidationError as exc:
        raise _validation_error(source, exc) from None
    if header.format != FORMAT:
        raise DesignFileError(
            source, "$.format", f'expected "{FORMAT}" (this is not a Hallwright design file)'
        )
    version = header.schema_version
    if version is None:
        raise DesignFileError(source, "$.schema_version", "missing; expected an integer version")
    if version > current_version:
        raise DesignFileError(
            source,
            "$.schema_version",
            f"the file is schema version {version}, newer than this Hallwright understands "
            f"(up to {current_version}); open it with a newer Hallwright",
        )
    if version < 1:
        raise DesignFileError(source, "$.schema_version", f"expected 1 or more, got {version}")
    try:
        if version == current_version:
            return msgspec.json.decode(data, type=DesignDocument)
        raw = msgspec.json.decode(data)
        for step in range(version, current_version):
            if step not in migrations:
                raise DesignFileError(
                    source, "$.schema_version", f"no migration from version {step} to {step + 1}"
                )
            raw = migrations[step](raw)
            raw["schema_version"] = step + 1
        return msgspec.convert(raw, type=DesignDocument)
    except msgspec.ValidationError as exc:
        raise _validation_error(source, exc) from None
    except msgspec.DecodeError as exc:
        raise DesignFileError(source, "", f"is not valid JSON ({exc})") from None


def build_design(document: DesignDocument, source: str = "<design>") -> Design:
    """Check references (unique ids, racks, types, ports) and build the Design."""
    try:
        design = Design(
            document.hall,
            name=document.name,
            settings=document.settings,
            custom_types=document.custom_types,
        )
    except CatalogError as exc:
        raise DesignFileError(source, "$.custom_types", str(exc)) from None
    try:
        design.set_hall(document.hall)
    except DesignError as exc:
        raise DesignFileError(source, "$.hall", str(exc)) from None
    for key, method in (
        ("trays", design.add_trays),
        ("racks", design.add_racks),
        ("devices", design.add_devices),
        ("links", design.add_links),
    ):
        records = getattr(document, key)
        try:
            method(records, fields_checked=True)  # the decoder just enforced the ranges
        except DesignError:
            # Slow path, errors only: add one record at a time to find the first bad one.
            for index, record in enumerate(records):
                try:
                    method([record], fields_checked=True)
                except DesignError as exc:
                    raise DesignFileError(source, f"$.{key}[{index}]", str(exc)) from None
            raise
    design.revision = 0
    return design


def _validation_error(source: str, exc: msgspec.ValidationError) -> DesignFileError:
    message = str(exc)
    json_path = "$"
    if " - at `" in message:
        message, _, tail = message.rpartition(" - at `")
        json_path = tail.rstrip("`")
    return DesignFileError(source, json_path, message)


# ------------------------------------------------------------------------------------ writing


def _record_order(object_id: str) -> tuple[int, str]:
    # Shorter ids first, then alphabetical: "l-2" before "l-10" without a slow natural sort.
    return (len(object_id), object_id)


def design_to_bytes(design: Design) -> bytes:
    """The file content of a design: stable order, one record per line, so that diffs are small."""
    encode = msgspec.json.encode
    parts = [
        b'{\n"format": "hallwright",\n',
        b'"schema_version": ' + str(SCHEMA_VERSION).encode() + b",\n",
        b'"name": ' + encode(design.name) + b",\n",
        b'"settings": ' + encode(design.settings) + b",\n",
        b'"hall": ' + encode(design.hall) + b",\n",
        b'"custom_types": ' + _encode_custom(design.custom_types) + b",\n",
    ]
    sections = (
        ("trays", design.trays),
        ("racks", design.racks),
        ("devices", design.devices),
        ("links", design.links),
    )
    for i, (key, table) in enumerate(sections):
        ids = sorted(table, key=_record_order)
        body = b",\n".join(encode(table[object_id]) for object_id in ids)
        parts.append(b'"' + key.encode() + b'": [' + (b"\n" + body + b"\n" if ids else b"") + b"]")
        parts.append(b",\n" if i < len(sections) - 1 else b"\n")
    parts.append(b"}\n")
    return b"".join(parts)


def _encode_custom(custom: CatalogFile) -> bytes:
    if not (custom.device_types or custom.rack_types or custom.media_types):
        return b"{}"
    return msgspec.json.format(msgspec.json.encode(custom), indent=1).replace(b"\n", b"\n ")


def save_design(design: Design, path: str | os.PathLike[str]) -> None:
    """Write atomically: a temporary file beside the target, flushed and synced, then renamed."""
    write_atomic(Path(path), design_to_bytes(design))


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` or leave it untouched; raises DesignFileError on failure."""
    directory = path.parent if str(path.parent) else Path(".")
    tmp_name = None
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp creates owner-only files; give the result the mode the user would expect:
        # the old file's, or what the umask allows for a new one.
        os.chmod(tmp_name, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask())
        os.replace(tmp_name, path)
        tmp_name = None
    except OSError as exc:
        raise DesignFileError(
            path.name,
            "",
            f"could not be saved ({exc.strerror or exc}); the previous file is unchanged",
        ) from None
    finally:
        if tmp_name is not None:
            try:
                os.unlink(tmp_name)
            except OSError:
                pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
