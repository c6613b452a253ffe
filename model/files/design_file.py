"""Design files (``*.hall.json``): parse -> migrate -> validate -> build, and atomic, stable saves.

A file from a newer Hallwright is refused with a sentence saying so; a malformed file raises
:class:`DesignFileError` naming the file, the JSON path and what was expected. Nothing here ever
writes to the file being read, and a save goes to a temporary file beside the target that
replaces it only once completely written, so a failed save leaves the previous file intact.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec

from model.catalog.components import CatalogError, CatalogFile
from model.design import limits
from model.design.bulk_load import add_loaded_devices, add_loaded_links
from model.design.design import Design, DesignError
from model.design.entities import ENTITY_KINDS, plain_links, share_empty_polarity
from model.files.checks import LoadProblem, check_document
from model.files.document import DesignDocument
from model.files.migrations import MIGRATIONS, Migration
from model.files.record_problems import deeper_than, record_problems, too_deep, validation_problem
from model.runtime.gc_policy import building_design

if TYPE_CHECKING:
    from model.files.file_content import FileContent

FORMAT = "hallwright"
SCHEMA_VERSION = 4
EXTENSION = ".hall.json"


class DesignFileError(Exception):
    """A design file could not be read or written. ``str()`` is a sentence for the user.

    ``problems`` lists every problem found (the first is also ``json_path``/``problem``);
    ``salvageable`` is True when each of them is tied to a record that can be left out, so the
    editor may offer to open the file without those records (see :func:`salvage_design_bytes`).
    """

    def __init__(
        self,
        source: str,
        json_path: str,
        problem: str,
        problems: Sequence[LoadProblem] | None = None,
    ) -> None:
        self.source = source
        self.json_path = json_path
        self.problem = problem
        self.problems = list(problems) if problems else [LoadProblem(json_path, problem)]
        self.salvageable = all(p.record is not None for p in self.problems)
        if len(self.problems) == 1:
            where = f"{source}: {json_path}: " if json_path else f"{source}: "
            super().__init__(where + problem)
        else:
            super().__init__(f"{source}: {describe_problems(self.problems)}")

    @classmethod
    def from_problems(cls, source: str, problems: Sequence[LoadProblem]) -> DesignFileError:
        first = problems[0]
        return cls(source, first.json_path, first.message, problems)


def describe_problems(problems: Sequence[LoadProblem]) -> str:
    """ "N problems:" and one line per problem (at most MAX_REPORTED_PROBLEMS), with its path."""
    shown = problems[: limits.MAX_REPORTED_PROBLEMS]
    lines = [f"{len(problems)} problems:"] + [f"  {p.json_path}: {p.message}" for p in shown]
    if len(problems) > len(shown):
        lines.append(f"  … and {len(problems) - len(shown)} more")
    return "\n".join(lines)


class _Header(msgspec.Struct):
    format: str | None = None
    schema_version: int | None = None


# ------------------------------------------------------------------------------------ reading


def load_design(path: str | os.PathLike[str]) -> Design:
    """Read a design file; raises :class:`DesignFileError` listing every problem found."""
    return read_design_bytes(_read(Path(path)), Path(path).name)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise DesignFileError(path.name, "", f"cannot be read ({exc.strerror or exc})") from None


def read_design_bytes(
    data: bytes,
    source: str = "<design>",
    *,
    migrations: Mapping[int, Migration] = MIGRATIONS,
    current_version: int = SCHEMA_VERSION,
) -> Design:
    """parse -> migrate -> validate -> build; any problem raises :class:`DesignFileError`."""
    with building_design():
        document, problems, _, plain = _parse(data, source, migrations, current_version)
        if problems or document is None:
            raise DesignFileError.from_problems(source, problems)
        # The checks and the build skip the passes over the links that ``plain`` answered.
        problems = check_document(document, links_plain=plain)
        if problems:
            raise DesignFileError.from_problems(source, problems)
        return build_design(document, source, links_plain=plain)


class Salvage(NamedTuple):
    """A design opened without its bad records, and what was left out (each with its path)."""

    design: Design
    dropped: list[LoadProblem]


def salvage_design_bytes(
    data: bytes,
    source: str = "<design>",
    *,
    migrations: Mapping[int, Migration] = MIGRATIONS,
    current_version: int = SCHEMA_VERSION,
) -> Salvage:
    """Build the design from every record that passes, leaving out the others (and what
    depends on them: a dropped rack's devices, a dropped device's links).

    Raises :class:`DesignFileError` when a problem is not tied to a record (the header, the
    hall outline, the settings, the custom types, a limit on the whole file). Only reads.
    """
    with building_design():
        document, problems, indices, _ = _parse(data, source, migrations, current_version)
        if document is None or any(p.record is None for p in problems):
            raise DesignFileError.from_problems(source, problems)
        checked = check_document(document)
        problems += [_renumber(p, indices) for p in checked]
        if any(p.record is None for p in checked):
            raise DesignFileError.from_problems(source, problems)
        skip = {p.record for p in problems}
        obstacles = [
            o
            for i, o in enumerate(document.hall.obstacles)
            if ("obstacles", indices["obstacles"][i]) not in skip
        ]
        document.hall = msgspec.structs.replace(document.hall, obstacles=obstacles)
        for key in ENTITY_KINDS:
            original = indices[key]
            kept = [
                (original[i], r)
                for i, r in enumerate(getattr(document, key))
                if (key, original[i]) not in skip
            ]
            indices[key] = [i for i, _ in kept]
            setattr(document, key, [r for _, r in kept])
        design, built = _build(document, source, indices, keep_going=True)
        return Salvage(design, problems + built)


def _renumber(problem: LoadProblem, indices: dict[str, Sequence[int]]) -> LoadProblem:
    """A problem found on the partial document, with the record's index in the file."""
    if problem.record is None or problem.record[0] not in indices:
        return problem
    key, i = problem.record
    original = indices[key][i]
    section = "hall.obstacles" if key == "obstacles" else key
    prefix = f"$.{section}[{i}]"
    path = f"$.{section}[{original}]" + problem.json_path[len(prefix) :]
    return LoadProblem(path, problem.message, (key, original))


def parse_document(
    data: bytes,
    source: str = "<design>",
    *,
    migrations: Mapping[int, Migration] = MIGRATIONS,
    current_version: int = SCHEMA_VERSION,
) -> DesignDocument:
    """Parse and migrate to the current schema; validates types and ranges, not references."""
    document, problems, _, _ = _parse(data, source, migrations, current_version)
    if problems or document is None:
        raise DesignFileError.from_problems(source, problems)
    return document


def _parse(
    data: bytes, source: str, migrations: Mapping[int, Migration], current_version: int
) -> tuple[DesignDocument | None, list[LoadProblem], dict[str, Sequence[int]], bool]:
    """(document, problems, file index of each record kept, whether its links are plain:
    ``model.design.entities.plain_links``), each link without a polarity record holding the
    shared empty one (a file's ``"polarity": {}`` too, so that it is left out on save as it
    always was: see ``model.design.entities.NO_POLARITY``)."""
    document, problems, indices = _decode(data, source, migrations, current_version)
    plain = document is not None and plain_links(document.links)
    if document is not None and not plain:
        document.links = share_empty_polarity(document.links)
    return document, problems, indices, plain


def _decode(
    data: bytes, source: str, migrations: Mapping[int, Migration], current_version: int
) -> tuple[DesignDocument | None, list[LoadProblem], dict[str, Sequence[int]]]:
    """:func:`_parse` but the polarity records. The fast path decodes straight into the
    document; only a file with a problem takes the slow path that finds them all."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]  # Windows editors add one; it carries no meaning
    # A file of the current version (every file the editor and the generators write) is decoded
    # once, straight into the document: the header's own decode below scans the whole text too
    # (~23 ms of every command at XL). A document that decodes is of the right format (a
    # Literal field); any other version or any problem takes the checks below, as before.
    try:
        document = msgspec.json.decode(data, type=DesignDocument)
        if document.schema_version == current_version:
            return document, [], _identity_indices(document)
    except (msgspec.DecodeError, RecursionError):
        pass
    try:
        header = msgspec.json.decode(data, type=_Header)
    except msgspec.ValidationError as exc:
        return None, [validation_problem(exc)], {}
    except msgspec.DecodeError as exc:
        return None, [LoadProblem("$", f"is not valid JSON ({exc})")], {}
    except RecursionError:
        return None, [too_deep("$")], {}
    version = _checked_version(header, current_version)
    if isinstance(version, LoadProblem):
        return None, [version], {}
    # A current-version file reaching here did not decode above: the slow path below says
    # what is wrong, and where.
    try:
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        return None, [LoadProblem("$", f"is not valid JSON ({exc})")], {}
    except RecursionError:
        return None, [too_deep("$")], {}
    for step in range(version, current_version):
        if step not in migrations:
            gap = f"no migration from version {step} to {step + 1}"
            return None, [LoadProblem("$.schema_version", gap)], {}
        raw = migrations[step](raw)
        raw["schema_version"] = step + 1
    try:
        document = msgspec.convert(raw, type=DesignDocument)
        return document, [], _identity_indices(document)
    except (msgspec.ValidationError, RecursionError):
        pass
    # Only a file with a problem walks its whole tree (iteratively, before any recursive code).
    deep = deeper_than(raw, limits.MAX_JSON_DEPTH)
    if deep:
        return None, [too_deep(deep)], {}
    return record_problems(raw)


def _checked_version(header: _Header, current_version: int) -> int | LoadProblem:
    """The file's schema version, or what is wrong with its format or version."""
    if header.format != FORMAT:
        problem = f'expected "{FORMAT}" (this is not a Hallwright design file)'
        return LoadProblem("$.format", problem)
    version = header.schema_version
    if version is None:
        return LoadProblem("$.schema_version", "missing; expected an integer version")
    if version > current_version:
        problem = (
            f"the file is schema version {version}, newer than this Hallwright understands "
            f"(up to {current_version}); open it with a newer Hallwright"
        )
        return LoadProblem("$.schema_version", problem)
    if version < 1:
        return LoadProblem("$.schema_version", f"expected 1 or more, got {version}")
    return version


def _identity_indices(document: DesignDocument) -> dict[str, Sequence[int]]:
    """Each record's index in the file: its own (ranges, read only on a refusal: lists of
    the 463k links' indices, made twice per load, cost ~30 ms at XL for nothing)."""
    indices: dict[str, Sequence[int]] = {
        key: range(len(getattr(document, key))) for key in ENTITY_KINDS
    }
    indices["obstacles"] = range(len(document.hall.obstacles))
    return indices


def build_design(
    document: DesignDocument,
    source: str = "<design>",
    *,
    bulk: bool = True,
    links_plain: bool = False,
) -> Design:
    """Check references (unique ids, racks, types, ports) and build the Design; raises
    :class:`DesignFileError` listing every record that does not fit. ``bulk=False`` adds the
    devices and links through the edit API's ``add_devices`` and ``add_links`` (the reference
    the tests compare the bulk path of :mod:`model.design.bulk_load` with). ``links_plain``:
    only where ``plain_links(document.links)`` was found true (see ``add_loaded_links``)."""
    design, problems = _build(
        document,
        source,
        _identity_indices(document),
        keep_going=False,
        bulk=bulk,
        links_plain=links_plain,
    )
    if problems:
        raise DesignFileError.from_problems(source, problems)
    return design


def _build(
    document: DesignDocument,
    source: str,
    indices: dict[str, Sequence[int]],
    *,
    keep_going: bool,
    bulk: bool = True,
    links_plain: bool = False,
) -> tuple[Design, list[LoadProblem]]:
    """The design and the records it refused. Without ``keep_going`` the records after a
    refused section are not added (the design is thrown away), but every bad record of that
    section is still reported. With ``bulk`` the devices and links are first tried with the whole-set
    checks of :mod:`model.design.bulk_load`; any refusal falls to the one-at-a-time path below, which
    words it, so a bad file's messages do not depend on ``bulk``."""
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
    problems: list[LoadProblem] = []
    for key, method in (
        ("trays", design.add_trays),
        ("racks", design.add_racks),
        ("devices", design.add_devices),
        ("links", design.add_links),
    ):
        records = getattr(document, key)
        try:
            if bulk and key == "links":
                add_loaded_links(design, records, plain=links_plain)
            elif bulk and key == "devices":
                add_loaded_devices(design, records)
            else:
                method(records, fields_checked=True)  # the decoder just enforced the ranges
            continue
        except DesignError:
            pass
        # Slow path, errors only: add one record at a time to find every bad one.
        for position, record in enumerate(records):
            try:
                method([record], fields_checked=True)
            except DesignError as exc:
                index = indices[key][position]
                problems.append(LoadProblem(f"$.{key}[{index}]", str(exc), (key, index)))
        if not keep_going:
            break
    design.revision = 0
    return design, problems


# ------------------------------------------------------------------------------------ writing


def design_to_bytes(design: Design | FileContent) -> bytes:
    """The file content of a design: stable order, one record per line, so that diffs are small.

    Reads only the fields of :class:`~model.files.file_content.FileContent`, which a thread other than the
    editing one encodes instead of the live design."""
    return b"".join(design_pieces(design))


def design_pieces(design: Design | FileContent, chunk: int = 4096) -> Iterator[bytes]:
    """:func:`design_to_bytes` in pieces of at most ``chunk`` records.

    Why: a thread encoding a design holds the GIL for the whole of each C call, and the GUI
    thread waits that long. Joining 393k encoded links in one call held it ~20-30 ms, sorting
    their ids by a (length, id) tuple each ~45 ms (~630 ms for ids out of order); in pieces
    and with the ids grouped by length, no step of the encode holds it past ~15 ms."""
    encode = msgspec.json.encode
    yield b"".join(
        [
            b'{\n"format": "hallwright",\n',
            b'"schema_version": ' + str(SCHEMA_VERSION).encode() + b",\n",
            b'"name": ' + encode(design.name) + b",\n",
            b'"settings": ' + encode(design.settings) + b",\n",
            b'"hall": ' + encode(design.hall) + b",\n",
            b'"custom_types": ' + _encode_custom(design.custom_types) + b",\n",
        ]
    )
    sections: tuple[tuple[str, Mapping[str, Any]], ...] = (
        ("trays", design.trays),
        ("racks", design.racks),
        ("devices", design.devices),
        ("links", design.links),
    )
    for i, (key, table) in enumerate(sections):
        ids = _in_record_order(table)
        yield b'"' + key.encode() + b'": [' + (b"\n" if ids else b"")
        for start in range(0, len(ids), chunk):
            if start:
                yield b",\n"
            yield b",\n".join(
                [encode(table[object_id]) for object_id in ids[start : start + chunk]]
            )
        yield (b"\n]" if ids else b"]") + (b",\n" if i < len(sections) - 1 else b"\n")
    yield b"}\n"


def _in_record_order(table: Mapping[str, object]) -> list[str]:
    """The ids of ``table``, shorter ids first, then alphabetical: "l-2" before "l-10" without a
    slow natural sort. Grouped by length and each group sorted as strings, not by a key tuple
    per id (see :func:`design_pieces`)."""
    by_length: dict[int, list[str]] = {}
    for object_id in table:
        by_length.setdefault(len(object_id), []).append(object_id)
    ordered: list[str] = []
    for length in sorted(by_length):
        ordered += sorted(by_length[length])
    return ordered


def _encode_custom(custom: CatalogFile) -> bytes:
    if not (custom.device_types or custom.rack_types or custom.media_types):
        return b"{}"
    plain = msgspec.to_builtins(custom)
    # A device or port group of no particular family (the plug rules' default), and a device
    # with no part number, is written as before the field existed, so files that do not use it stay readable by earlier versions.
    for device in plain.get("device_types", ()):
        if device.get("family") == "":
            del device["family"]
        if device.get("part_number") == "":
            del device["part_number"]
        for group in device.get("port_groups", ()):
            if group.get("family") == "":
                del group["family"]
    return msgspec.json.format(msgspec.json.encode(plain), indent=1).replace(b"\n", b"\n ")


def save_design(
    design: Design, path: str | os.PathLike[str], *, overwrite_read_only: bool = False
) -> None:
    """Write atomically: a temporary file beside the target, flushed and synced, then renamed."""
    write_atomic(Path(path), design_to_bytes(design), overwrite_read_only=overwrite_read_only)


class ReadOnlyFileError(DesignFileError):
    """The target exists and is read-only; saving again with ``overwrite_read_only`` replaces
    it (the editor asks the user first)."""


def write_atomic(
    path: Path, data: bytes | Iterable[bytes], *, overwrite_read_only: bool = False
) -> None:
    """Replace ``path`` with ``data`` or leave it untouched; raises DesignFileError on failure.

    ``data`` may be pieces of bytes (an iterable), written as they are made: a file of 100 MB
    then never sits in memory whole. An error while they are made leaves ``path`` untouched too.

    What ``path`` names decides how (:mod:`model.files.output_file`): a regular file or a new
    name is replaced atomically, ``-`` is standard output, a character device or FIFO is
    written through, a folder or socket is refused. A symbolic link is followed: its target
    gets the new content and the link stays a link. A read-only target is refused
    (:class:`ReadOnlyFileError`) unless ``overwrite_read_only``.
    """
    # Imported here: only a save needs it (and tempfile), never a command that only reads.
    from model.files.output_file import OutputRefused, output_target, write_output

    try:
        target = output_target(path)
    except OutputRefused as exc:
        raise DesignFileError(str(exc.path), "", exc.problem) from None
    if target.kind == "file" and not overwrite_read_only and _read_only(target.path):
        raise ReadOnlyFileError(
            target.path.name,
            "",
            "is read-only; it was not replaced (save under another name, or "
            "confirm that the read-only file should be replaced)",
        )
    try:
        write_output(target, data)
    except OSError as exc:
        after = "the previous file is unchanged" if target.kind == "file" else "it is incomplete"
        raise DesignFileError(
            target.path.name, "", f"could not be saved ({exc.strerror or exc}); {after}"
        ) from None


def _read_only(path: Path) -> bool:
    """True for an existing file without write permission (mode bits, so root sees it too)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not mode & 0o222 or not os.access(path, os.W_OK)
