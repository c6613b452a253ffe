"""The structured-cabling outputs stay byte for byte what they were before the zones path was
made fast (layout, schedule segments, NetBox panels, channel budgets).

The digests were taken from the code before that work (commit 2f523dc) on the same generated
designs: a zoned fat-tree, a cross-connect rail-optimized hall, zoned NVL72 racks (LC duplex
cassettes) and an end-of-row zoned leaf-spine. A changed digest is a changed output: find which
file changed, and change a digest only for a deliberate fix.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from cli import run_cli

DESIGNS = {
    "ft8z": ["fat-tree", "--k", "8", "--switch", "qm9700", "--cabling", "zones"],
    "ro256x": [
        *("rail-optimized", "--nodes", "256", "--node-type", "hgx-h100-8x400"),
        *("--switch", "sn5600", "--su-nodes", "64", "--cabling", "cross-connect"),
    ],
    "nv16z": ["nvl72", "--racks", "16", "--cabling", "zones"],
    "ls128eor": [
        *("leaf-spine", "--nodes", "128", "--node-type", "dgx-h100", "--switch", "qm9700"),
        *("--placement", "end-of-row", "--cabling", "zones"),
    ],
}
# (schedule CSV, BOM CSV, analyze --json, NetBox folder) SHA-256 of the code before
# (analyze --json: again since issue 37's collectives from link loads).
EXPECTED = {
    "ft8z": (
        "a0492f583142f00f4aefc68f1cf9842f29be30f92a24f59ca93667d4b7f5fee5",
        "93dacb1544b8f8902ac8ecb65aa5f254b527fbd03de3c06cd04da15ddf9afaf6",
        "a8fe6371a511b6ceb89b0d99f29e499f73ded89e3018727c5fe0c878a1bdffab",
        "4ebc44e3cf1175641df8f1e6e6aa7cc5e6bbdff77821844f820737bcbea24978",
    ),
    "ro256x": (
        "6032106d79a2d31fe1b0d54ced4a2b3c01f8af8e4bc1cd91fff18bdde0778162",
        "01bc26695b03783175c5fd43486d590468c4c9bcf828259fc34a5c7166c8ed8d",
        "9cc937b6c04ff0e3a6e53efb3fa4fe02665573337e3291812c92ae646e3cb2bb",
        "c8a3047c97c9c1a593258cc8ddd6df5271a8cf17394ee8ccf7794b648d1cce0a",
    ),
    "nv16z": (
        "3b883eb9e8036287ad1d3dc61459b15a759874993c06f276541a0ade4cc23b17",
        "7f7a2e1019b31cd242b97678a449bfa54c9db83967845d42aea6e7b88fb95fc9",
        "de84fb0ae9c573ff5a5b4a1bab1f79e24218065d7d1a2645428327b7773e474f",
        "ab015bf4b652a764b0c57b79c4741d17069fad8c2145a9c366388a1b3a7e4e76",
    ),
    "ls128eor": (
        "9ae406afa2ed9583bb97a390a25c140bb38898d98a49ff7d1d6342d47ad45fd1",
        "d3eeef3bbf0e2712b1fa35c932723a84b6df0132c0297e7b96faba1a62aac2d7",
        "59de9f67e8bca8d01c6f2e31ae277257b6dacd054fb1a7c5700e7083ece8e0e7",
        "65089d45ab62c5ff7356310a8efda6627e9ab328df84fcab83cc7d4596556b8f",
    ),
}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _folder_sha(folder: Path) -> str:
    """As ``find . -type f | sort | xargs sha256sum | sha256sum`` prints it."""
    lines = [
        f"{_sha(p.read_bytes())}  ./{p.relative_to(folder).as_posix()}\n"
        for p in sorted(folder.rglob("*"), key=lambda p: "./" + p.relative_to(folder).as_posix())
        if p.is_file()
    ]
    return _sha("".join(lines).encode())


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_outputs_are_those_of_the_code_before(name, tmp_path, capsys):
    design = tmp_path / f"{name}.hwd"
    assert run_cli(["generate", *DESIGNS[name], "-o", str(design)]) == 0
    assert run_cli(["schedule", str(design), "-o", str(tmp_path / "s.csv")]) == 0
    assert run_cli(["bom", str(design), "-o", str(tmp_path / "b.csv")]) == 0
    assert run_cli(["export-netbox", str(design), "-o", str(tmp_path / "netbox")]) == 0
    capsys.readouterr()
    run_cli(["analyze", "--json", str(design)])
    report = capsys.readouterr().out.encode()
    got = (
        _sha((tmp_path / "s.csv").read_bytes()),
        _sha((tmp_path / "b.csv").read_bytes()),
        _sha(report),
        _folder_sha(tmp_path / "netbox"),
    )
    assert got == EXPECTED[name]
