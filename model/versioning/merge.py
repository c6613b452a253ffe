"""Three-way merge of design files by object id: two engineers' edits joined, real conflicts listed.

Git calls a merge driver with the common ancestor (BASE), our version (OURS) and theirs
(THEIRS). A design file is a set of records with stable ids, so the merge works on records, not
on text lines: each tray, rack, device and link (and each custom type) is matched by id, and
within a record each field is merged on its own, so that one engineer moving rack A01 and the
other re-pinning a link's medium, or one changing a link's medium and the other its length
override, merge cleanly. A *conflict* is a field both sides changed to different values, a
record one side deleted and the other changed, or an id both sides added with different
content. The merged design must also load: two links added on the same free port, or two racks
moved onto the same tiles, are refused by the loader and reported as conflicts of those
records. Where a conflict remains the merge keeps OURS' value, so the written file is still a
design the editor opens, and the conflict list says what to look at.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from model.files.checks import check_document
from model.files.design_file import DesignFileError, build_design, design_to_bytes, parse_document
from model.files.document import DesignDocument
from model.files.file_content import FileContent

RECORD_SECTIONS = ("trays", "racks", "devices", "links")
_ABSENT = object()  # a field left at its default is omitted from the file: "absent" is a value


@dataclass(frozen=True)
class Conflict:
    """One object both sides changed incompatibly (``field``: None for the whole record)."""

    kind: str  # "racks", "links", "settings", "custom_types.device_types", ...
    id: str
    field: str | None
    reason: str
    base: Any = None
    ours: Any = None
    theirs: Any = None

    def sentence(self) -> str:
        where = f"{self.kind} {self.id}" if self.id else self.kind
        if self.field:
            where += f" field {self.field}"
        values = ""
        if self.field:
            values = (
                f" (base {_show(self.base)}, ours {_show(self.ours)}, theirs {_show(self.theirs)})"
            )
        return f"{where}: {self.reason}{values}"

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "id": self.id,
            "field": self.field,
            "reason": self.reason,
            "base": self.base,
            "ours": self.ours,
            "theirs": self.theirs,
        }


@dataclass
class MergeResult:
    """The merged file's bytes, the conflicts (empty: a clean merge) and what each side brought."""

    data: bytes
    conflicts: list[Conflict]
    from_theirs: dict[str, int] = field(default_factory=dict)  # section -> records taken

    @property
    def clean(self) -> bool:
        return not self.conflicts


def _show(value: Any) -> str:
    if value is _ABSENT or value is None:
        return "unset"
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= 60 else text[:57] + "..."


def _plain(value: Any) -> Any:
    return msgspec.to_builtins(value)


def _merge_fields(kind: str, oid: str, base: dict, ours: dict, theirs: dict) -> tuple[dict, list]:
    """Field by field: a side that left a field as in base takes the other side's value."""
    merged: dict = {}
    conflicts: list[Conflict] = []
    for name in [
        *ours,
        *(k for k in theirs if k not in ours),
        *(k for k in base if k not in ours and k not in theirs),
    ]:
        b, o, t = base.get(name, _ABSENT), ours.get(name, _ABSENT), theirs.get(name, _ABSENT)
        if o == t or t == b:
            value = o
        elif o == b:
            value = t
        else:
            value = o
            conflicts.append(
                Conflict(kind, oid, name, "changed on both sides", _val(b), _val(o), _val(t))
            )
        if value is not _ABSENT:
            merged[name] = value
    return merged, conflicts


def _val(value: Any) -> Any:
    return None if value is _ABSENT else value


def _merge_keyed(
    kind: str, base: list[dict], ours: list[dict], theirs: list[dict], key=lambda r: r["id"]
) -> tuple[list[dict], list[Conflict], int]:
    """(merged records: OURS' order, then what THEIRS added; conflicts; records taken from
    THEIRS) of one id-keyed section."""
    by_base = {key(r): r for r in base}
    by_ours = {key(r): r for r in ours}
    by_theirs = {key(r): r for r in theirs}
    order = list(by_ours) + [k for k in by_theirs if k not in by_ours]
    merged: list[dict] = []
    conflicts: list[Conflict] = []
    taken = 0
    for oid in order:
        b, o, t = by_base.get(oid), by_ours.get(oid), by_theirs.get(oid)
        if o == t or t == b:
            result = o
        elif o == b:
            result, taken = t, taken + 1
        elif b is None:
            result = o
            conflicts.append(
                Conflict(kind, str(oid), None, "added on both sides with different content")
            )
        elif o is None or t is None:
            result = o if o is not None else None
            side = "ours" if o is None else "theirs"
            conflicts.append(
                Conflict(kind, str(oid), None, f"deleted in {side}, changed in the other")
            )
            if result is None:  # ours deleted it: keep it deleted, as ours says
                continue
        else:
            result, found = _merge_fields(kind, str(oid), b, o, t)
            conflicts += found
            taken += result != o
        if result is not None:
            merged.append(result)
    return merged, conflicts, taken


def _custom_key(record: dict) -> str:
    for name in ("id", "part_number", "part"):
        if name in record:
            return str(record[name])
    return msgspec.json.encode(record).decode()


def merge_plain(
    base: dict, ours: dict, theirs: dict
) -> tuple[dict, list[Conflict], dict[str, int]]:
    """The merge of three plain (``msgspec.to_builtins``) documents of the current schema."""
    conflicts: list[Conflict] = []
    taken: dict[str, int] = {}
    out = dict(ours)
    top, conflicts = _merge_fields(
        "design", "", {"name": base["name"]}, {"name": ours["name"]}, {"name": theirs["name"]}
    )
    out["name"] = top["name"]
    settings, found = _merge_fields(
        "settings",
        "",
        base.get("settings", {}),
        ours.get("settings", {}),
        theirs.get("settings", {}),
    )
    out["settings"], conflicts = settings, conflicts + found
    # The hall's obstacles are records with ids too: two engineers placing a column each merge.
    halls = [dict(side.get("hall", {})) for side in (base, ours, theirs)]
    obstacles, found, n = _merge_keyed("obstacles", *(h.pop("obstacles", []) for h in halls))
    hall, more = _merge_fields("hall", "", *halls)
    if obstacles:
        hall["obstacles"] = obstacles
    out["hall"], conflicts = hall, conflicts + found + more
    if n:
        taken["obstacles"] = n
    custom: dict = {}
    groups = [
        *ours.get("custom_types", {}),
        *(k for k in theirs.get("custom_types", {}) if k not in ours.get("custom_types", {})),
    ]
    for group in groups:
        records, found, n = _merge_keyed(
            f"custom_types.{group}",
            base.get("custom_types", {}).get(group, []),
            ours.get("custom_types", {}).get(group, []),
            theirs.get("custom_types", {}).get(group, []),
            key=_custom_key,
        )
        custom[group], conflicts = records, conflicts + found
        if n:
            taken[f"custom_types.{group}"] = n
    out["custom_types"] = custom
    for section in RECORD_SECTIONS:
        records, found, n = _merge_keyed(
            section, base.get(section, []), ours.get(section, []), theirs.get(section, [])
        )
        out[section], conflicts = records, conflicts + found
        if n:
            taken[section] = n
    return out, conflicts, taken


def _document_bytes(doc: DesignDocument) -> bytes:
    """A document that does not build, in the file's own layout (one record per line)."""
    return design_to_bytes(
        FileContent(
            0,
            doc.name,
            doc.settings,
            doc.hall,
            doc.custom_types,
            {r.id: r for r in doc.trays},
            {r.id: r for r in doc.racks},
            {r.id: r for r in doc.devices},
            {r.id: r for r in doc.links},
        )
    )


def merge_designs(
    base: bytes, ours: bytes, theirs: bytes, names=("BASE", "OURS", "THEIRS")
) -> MergeResult:
    """Merge THEIRS' changes since BASE into OURS; raises DesignFileError if a file is unreadable.

    Every file is migrated to the current schema first, so a merge across a version bump
    compares like with like; the result is written in the current schema."""
    docs = [
        parse_document(data, name) for data, name in zip((base, ours, theirs), names, strict=True)
    ]
    plain = [_plain(d) for d in docs]
    merged, conflicts, taken = merge_plain(*plain)
    document = msgspec.convert(merged, type=DesignDocument)
    problems = check_document(document)
    try:
        if problems:
            raise DesignFileError.from_problems("merge", problems)
        data = design_to_bytes(build_design(document, "merge"))
    except DesignFileError as exc:
        data = _document_bytes(document)
        for problem in exc.problems:
            if problem.record is not None:
                section, index = problem.record
                records = merged[section] if section in merged else merged["hall"].get(section, [])
                oid = records[index]["id"] if index < len(records) else "?"
                conflicts.append(
                    Conflict(section, oid, None, f"the merged design refuses it: {problem.message}")
                )
            else:
                conflicts.append(
                    Conflict("design", "", None, f"{problem.json_path}: {problem.message}")
                )
    return MergeResult(data, conflicts, taken)
