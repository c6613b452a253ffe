"""Every figure of the catalog can be checked from the repository: each key a ``source`` field
names, in any catalog file (now or added later), resolves in resources/catalog/sources.json to
the figure it supports, the document's title and its address."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from model.catalog.components import SOURCES_FILE, catalog_files

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
