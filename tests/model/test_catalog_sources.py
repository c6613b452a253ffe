"""Every figure of the catalog can be checked from the repository: each key a ``source`` field
names, in any catalog file (now or added later), resolves in resources/catalog/sources.json to
the figure it supports, the document's title and its address; and each key an entry cites is on
the project's list of known sources, with every "estimate" explained in the entry's notes."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from msgspec.structs import replace

from model.catalog.components import SOURCES_FILE, builtin_catalog, catalog_files

NOT_A_DOCUMENT = "estimate"  # engineering judgement, said so instead of citing


def source_fields(node, path: str = "$") -> Iterator[tuple[str, str]]:
    """(JSON path, value) of every ``source`` field at any depth of a catalog file."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "source" and isinstance(value, str):
                yield f"{path}.source", value
            else:
                yield from source_fields(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from source_fields(value, f"{path}[{i}]")


def unresolved_keys(files: list[Path], sources: dict) -> list[str]:
    """'file: path: key' for each cited key the sources file does not hold."""
    missing = []
    for file in files:
        for path, value in source_fields(json.loads(file.read_text(encoding="utf-8"))):
            for key in (k.strip() for k in value.split(",")):
                if key and key != NOT_A_DOCUMENT and key not in sources:
                    missing.append(f"{file.name}: {path}: {key}")
    return missing


def load_sources() -> dict:
    return json.loads(SOURCES_FILE.read_text(encoding="utf-8"))["sources"]


def test_every_catalog_source_key_resolves():
    files = catalog_files()
    assert len(files) >= 3  # devices, media, racks at least
    assert sum(1 for f in files for _ in source_fields(json.loads(f.read_text()))) > 50
    assert unresolved_keys(files, load_sources()) == []


def test_every_source_gives_its_figure_title_and_address():
    for key, entry in load_sources().items():
        assert entry["figure"].strip() and entry["title"].strip(), key
        url = entry["url"]
        if url is None:
            assert entry["note"].strip(), f"{key}: no address and no note saying why"
        else:
            assert url.startswith(("https://", "http://")) and " " not in url, key


def test_an_unknown_key_in_a_new_catalog_file_is_reported(tmp_path):
    new = tmp_path / "switches.json"
    new.write_text(
        json.dumps({"device_types": [{"id": "x", "ports": [{"source": "NV-DAC-LACC, NO-SUCH"}]}]})
    )
    assert unresolved_keys([new], load_sources()) == [
        "switches.json: $.device_types[0].ports[0].source: NO-SUCH"
    ]


def known_source_keys() -> frozenset[str]:
    """The keys an entry may cite: those resources/catalog/sources.json holds, and "estimate".

    Derived, not listed by hand: a hand list duplicated sources.json (and kept 29 keys no entry
    cited and sources.json did not hold, which the resolving test above would have refused)."""
    return frozenset(load_sources()) | {NOT_A_DOCUMENT}


def source_key_problems(entries, known: frozenset[str]) -> list[str]:
    """'id: why' for each entry whose ``source`` is not a ", "-joined list of distinct known keys."""
    problems = []
    for entry in entries:
        keys = entry.source.split(", ")
        if not all(keys):
            problems.append(f"{entry.id}: empty source key in {entry.source!r}")
        unknown = [k for k in keys if k and k not in known]
        if unknown:
            problems.append(f"{entry.id}: unknown source keys {unknown}")
        if len(set(keys)) != len(keys):
            problems.append(f"{entry.id}: repeated source key")
    return problems


@pytest.fixture(scope="module")
def cat():
    return builtin_catalog()


def _all_entries(cat):
    return [*cat.device_types.values(), *cat.rack_types.values(), *cat.media_types.values()]


# ---------------------------------------------------------------- provenance


def test_every_source_key_is_known(cat):
    known = known_source_keys()
    assert len(known) > 100 and "NV-DAC-LACC" in known and NOT_A_DOCUMENT in known
    assert source_key_problems(_all_entries(cat), known) == []


def test_an_unknown_repeated_or_empty_key_is_reported(cat):
    """The check above can fail: a copy of a real entry citing a key sources.json lacks."""
    entry = cat.media_types[next(iter(cat.media_types))]
    bad = [
        replace(entry, id="unknown", source=f"{entry.source}, NO-SUCH-KEY"),
        replace(entry, id="repeated", source=f"{entry.source}, {entry.source.split(', ')[0]}"),
        replace(entry, id="empty", source=f"{entry.source}, "),
    ]
    assert source_key_problems(bad, known_source_keys()) == [
        "unknown: unknown source keys ['NO-SUCH-KEY']",
        "repeated: repeated source key",
        f"empty: empty source key in {entry.source + ', '!r}",
    ]


def test_estimates_are_explained(cat):
    for entry in _all_entries(cat):
        if "estimate" in entry.source.split(", "):
            assert "estimate" in entry.notes.lower(), f"{entry.id}: says estimate, notes do not"


def test_every_nvidia_source_the_generators_cite_resolves():
    """The generators cite NVIDIA documents by key in their comments (NV-SP-GB200 for the
    converged fabric was cited and not in sources.json): each resolves."""
    root = Path(__file__).resolve().parents[2] / "model" / "generators"
    cited = {
        key
        for path in root.glob("*.py")
        for key in re.findall(r"\bNV-[A-Z0-9]+(?:-[A-Z0-9]+)*\b", path.read_text(encoding="utf-8"))
    }
    assert "NV-SP-GB200" in cited
    assert sorted(cited - set(load_sources())) == []
