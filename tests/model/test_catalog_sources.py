"""Every figure of the catalog can be checked from the repository: each key a ``source`` field
names, in any catalog file (now or added later), resolves in resources/catalog/sources.json to
the figure it supports, the document's title and its address; and each key an entry cites is on
the project's list of known sources, with every "estimate" explained in the entry's notes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

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


# Source keys of the Sources table in domain-facts.md (kept here because that file is not part of
# the repository). Every catalog entry's ``source`` is a ", "-joined list of these or "estimate".
ALLOWED_SOURCES = frozenset(
    {
        # Documents of domain-facts §9 (and NVIDIA pages found since) it links without a key:
        # the project's own keys, in resources/catalog/sources.json
        "NV-MMA4Z00-NS",
        "NV-MMS4X00-NS",
        "NV-RA-VR",
        "WHEELER-CX9",
        # Issue 39, optics strategy: co-packaged switches and linear optics (domain-facts §1c, §9)
        "TPU-CPO",
        "CPO-TABLE",
        "XSONIC-SN6",
        "CHINACRYO-1.6T",
        "NV-BCM-PSHELF",
        # The DGX H100 SuperPOD RA's Table 7 (its major components, 4 SU), issue 39
        "NV-SP-H100-T7",
        "STH-THULTRA",
        # Issue 39: the Vera Rubin POD's rack types, Kyber / Rubin Ultra, the Q3200 (§9)
        "NV-VR-POD",
        "NEXTFIN-VR-POD",
        "ITDAILY-BF4",
        "TOMS-KYBER",
        "SEMI-GTC26",
        "NV-XDR-UM",
        "TV-VR-PT5",
        # Issue 39, AMD MI355X and Helios (domain-facts §9)
        "REG-MI355X",
        "INFOSUNRISE-MI355X",
        "AMD-POLLARA",
        "REG-HELIOS",
        "AA-HELIOS",
        "ATG-UALOE",
        "UALINK-FAQ",
        "UEC-1.0",
        "ETN-ORW-HELIOS",
        "META-ORV3-HPR",
        "100GM-1.6T",
        "AA-NVL72",
        "ACC-MSA",
        "ACHOENIX-SYS",
        "AICP-OSFP224",
        "AIIDX-NVL",
        "AIIM-FF",
        "ASCENT-400SR8",
        "ASCENT-LR4",
        "ASTERA-CMP",
        "AXIOM-LPO",
        "CD-CPO",
        "CDIG-TH5",
        "CHIPCRAFT-TH5",
        "CMIS-IDS",
        "CONT-NVL72",
        "CREDO-NEWS",
        "CTX-800STD",
        "CTX-TCO25",
        "CW-SITE",
        "DGXH100-UG",
        "EE-TH6",
        "ENCONNEX",
        "EPIUM-GB300",
        "FACTRYZE",
        "FACTRYZE-NVL",
        "FG-DGX",
        "FIBRECROSS",
        "FLUX-400AOC",
        "FM-200G",
        "FM-GB200",
        "FS-CWDM4",
        "GB-TH6",
        "H3C-CABLE",
        "HEATHER-TILE",
        "HTF-QSFP",
        "HYT-100G",
        "IEEE-3BJ",
        "IEEE-3CD",
        "INTROL-GB300",
        "INTROL-NVL72",
        "KUAISOU-RA",
        "LEVIATHAN",
        "LINKALL-DR4P",
        "LPO-MSA",
        "LUX-TCO",
        "MC-QSFP28",
        "MLC-GB200",
        "NAND-ARISTA",
        "NBC-CPO",
        "NETBOX-IF",
        "NEWSUNN-100G",
        "NV-100G-OV",
        "NV-BASEPOD",
        "NV-CABLEFAQ",
        "NV-CABLEFAQ-DEF",
        "NV-CONN",
        "NV-DAC-LACC",
        "NV-DGXB200-UG",
        "NV-MC-NVLINK",
        "NV-MCP1650",
        "NV-MCP4Y10",
        "NV-MCP7Y00-ORD",
        "NV-MCP7Y10",
        "NV-MCP7Y60",
        "NV-MFS1S50",
        "NV-MMA1Z00",
        "NV-MMA4Z00-400",
        "NV-MMA4Z00-NST",
        "NV-MMS4X00-400",
        "NV-MMS4X00-NM",
        "NV-MMS4X00-NST",
        "NV-MMS4X00-SPEC",
        "NV-MMS4X50",
        "NV-NVLINK-PAGE",
        "NV-PORTPWR",
        "NV-QM97-IF",
        "NV-QM97-RAIL",
        "NV-SN4000-CI",
        "NV-SN5000-IF",
        "NV-SP-B200",
        "NV-SP-B300",
        "NV-SP-B300XDR",
        "NV-SP-DCD-NET",
        "NV-SP-GB200",
        "NV-SP-H100",
        "NV-STRUCT",
        "NV-XCVR-100G",
        "NV-XDR-LIST",
        "OCN-FF",
        "ORACLE-CMA",
        "PARTICLE-CPO",
        "PROBSEE-SN5600",
        "PROF-TIA",
        "QX800-NOTE",
        "REGANTIH",
        "RUIJIE-CABLE",
        "SC-DGXH100",
        "SCHN-WP156",
        "SCRIBD-RF",
        "SETLOOP-NVL72",
        "SHKE",
        "SNIA-QA",
        "STH-TH6",
        "TARLUZ-800",
        "TB-NVL",
        "TI-TH5",
        "TIA-400SR8",
        "TIA-800DR8",
        "TSCOM-400SR8",
        "TT-ARISTA",
        "TT-FLOOR",
        "UBY-2XFR4",
        "UBY-400DR4",
        "UNANS-DGX",
        "UNANS-H100",
        "UPTIME-NEWS",
        "VITEX-100G",
        "VITEX-800",
        "XATAKA-NVL72",
        "YD-800AEC",
        "YD-AOCDAC",
        "YOBI-Q2",
        "YOBI-TH5",
        # Sourced in resources/catalog/sources.json (issue 14), not yet rows of domain-facts.
        "LINUX-MLXPLAT-SN5610",
        "NV-ERA-NVL72",
        "NV-NETOP-MP",
        "estimate",
    }
)


@pytest.fixture(scope="module")
def cat():
    return builtin_catalog()


def _all_entries(cat):
    return [*cat.device_types.values(), *cat.rack_types.values(), *cat.media_types.values()]


# ---------------------------------------------------------------- provenance


def test_every_source_key_is_known(cat):
    for entry in _all_entries(cat):
        keys = entry.source.split(", ")
        assert keys and all(keys), entry.id
        unknown = [k for k in keys if k not in ALLOWED_SOURCES]
        assert not unknown, f"{entry.id}: unknown source keys {unknown}"
        assert len(set(keys)) == len(keys), f"{entry.id}: repeated source key"


def test_estimates_are_explained(cat):
    for entry in _all_entries(cat):
        if "estimate" in entry.source.split(", "):
            assert "estimate" in entry.notes.lower(), f"{entry.id}: says estimate, notes do not"
