"""The 4-SU DGX H100 SuperPOD example as a purchaser gets it, power at typical and max, CLI."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from openpyxl import load_workbook

from cli import run_cli
from model.analysis import analyze
from model.engine.media import POLICIES
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.outputs.bom import bom_lines, bom_totals, export_findings, summary_rows
from model.outputs.bom_files import write_bom_xlsx
from model.outputs.schedule import schedule_rows
from model.plant.physical_plant import build_plant
from tests.builders import device, empty_hall, link, rack

ROOT = Path(__file__).resolve().parents[2]
SUPERPOD = ROOT / "resources" / "examples" / "superpod-4su.hall.json"


@pytest.fixture(scope="module")
def superpod():
    return load_design(SUPERPOD)


@pytest.mark.parametrize("policy", POLICIES)
def test_superpod_4su_has_no_invalid_cage_and_a_bom_to_order_from(superpod, policy):
    plant = RoutedLinks(superpod, policy)
    report = analyze(superpod, plant)
    assert report.plant["cages"]["invalid"] == 0
    assert report.plant["cages"]["used"] == 128 * 4 + 48 * 32  # every DGX and switch cage
    assert not [w for w in report.warnings if w.severity == "error"]
    lines = bom_lines(superpod, plant)
    media_ids = set(superpod.catalog.media_types)
    for ln in lines:
        assert ln.part_number not in media_ids and ln.vendor and ln.quantity > 0
    assert bom_totals(lines).price_usd == pytest.approx(report.cost_usd["total"])
    modules = sum(ln.quantity for ln in lines if ln.category == "Modules")
    assert modules == report.plant["modules"]["total"] == report.transceivers
    # No NDR AOC, AEC or other part that does not exist at 100G/lane in a twin-port cage.
    assert not {"aoc", "aec"} & set(report.plant["cables"]["by_kind"])


def test_superpod_modules_are_finned_on_switches_and_flat_on_dgx(superpod):
    phys = build_plant(RoutedLinks(superpod))
    by_part = {i.part_number: i.quantity for i in phys.of("module")}
    assert by_part["980-9I51A-00NS00"] == 128 * 4  # flat, DGX H100 cages
    assert by_part["980-9I510-00NS00"] == 48 * 32  # finned, QM9700 cages


def test_xlsx_totals_are_formulas(superpod, tmp_path):
    plant = RoutedLinks(superpod)
    lines = bom_lines(superpod, plant)
    findings = export_findings(superpod, plant)
    out = tmp_path / "bom.xlsx"
    write_bom_xlsx(
        out,
        summary_rows(superpod, plant, lines, findings),
        lines,
        schedule_rows(superpod, plant),
        findings,
    )
    sheet = load_workbook(out)["BOM"]
    header = [c.value for c in sheet[1]]
    qty, total = header.index("Quantity") + 1, header.index("Total price (USD, indicative)") + 1
    unit = header.index("Unit price (USD, indicative)") + 1
    from openpyxl.utils import get_column_letter as col

    assert sheet.cell(2, total).value == f"={col(qty)}2*{col(unit)}2"
    last = sheet.max_row
    assert sheet.cell(last, total).value == f"=SUM({col(total)}2:{col(total)}{last - 1})"
    assert header.index("Spares") >= 0 and "Part number" in header and "Vendor" in header


def test_max_power_roll_up_by_hand():
    """One DGX H100 and one QM9700 in a rack; nic1 -> p1, nic2 -> p3: a split DGX cage."""
    design = empty_hall()
    rack(design, "r1", 2.0, 3.0)
    device(design, "s", "r1", 2, "dgx-h100")
    device(design, "l", "r1", 40, "qm9700")
    link(design, "x", ("s", "nic1"), ("l", "p1"), length_override_m=3.0)
    link(design, "y", ("s", "nic2"), ("l", "p3"), length_override_m=3.0)
    report = analyze(design, RoutedLinks(design))
    # Modules: 1 flat twin-port SR4 on the DGX cage, 2 finned on the leaf (cages 1 and 2):
    # 15 W typical, 17 W max each (NV-MMA4Z00-NST).
    assert report.power_w["transceivers"] == pytest.approx(3 * 15)
    assert report.power_w_max["transceivers"] == pytest.approx(3 * 17)
    assert report.power_w_max["servers"] == 10200 and report.power_w["servers"] == 8000
    assert report.power_w_max["switches"] == 747
    typical, maximum, budget = report.rack_power_w["r1"]
    assert typical == pytest.approx(8000 + 747 + 45)
    assert maximum == pytest.approx(10200 + 747 + 51)
    assert report.power_w_max["total"] == pytest.approx(maximum)
    j = report.to_json()
    assert set(j["power_w"]) == set(j["power_w_max"])


def test_rack_over_power_is_an_error_at_max():
    design = empty_hall()
    rack(design, "r1", 2.0, 3.0)
    for n in range(4):
        device(design, f"s{n}", "r1", 2 + 8 * n, "dgx-h100")
    device(design, "l", "r1", 40, "qm9700")
    for n in range(4):
        link(design, f"x{n}", (f"s{n}", "nic1"), ("l", f"p{2 * n + 1}"), length_override_m=3.0)
    # 4 x 8.0 kW typical = 32 kW; 4 x 10.2 kW max = 40.8 kW + switch + optics > 40 kW budget.
    design.update_racks([msgspec.structs.replace(design.racks["r1"], power_budget_kw=40.0)])
    report = analyze(design, RoutedLinks(design))
    over = [w for w in report.warnings if w.code == "RACK_OVER_POWER"]
    assert [w.severity for w in over] == ["error"]
    assert "maximum" in over[0].message


def test_gb200_nvl72_rack_power_per_domain_facts():
    design = load_design(ROOT / "resources" / "examples" / "nvl72-su.hall.json")
    report = analyze(design, RoutedLinks(design))
    nvl = [v for r, v in report.rack_power_w.items() if design.racks[r].type == "rack-nvl72"]
    assert nvl
    for typical, maximum, budget in nvl:
        assert 115_000 <= typical <= 125_000  # ~120 kW per rack (§6a, INTROL-NVL72)
        assert typical < maximum <= budget == 132_000  # 132 kW power-shelf output


def test_cli_policy_overrides_the_design_for_one_run(capsys, tmp_path):
    assert run_cli(["analyze", str(SUPERPOD), "--json", "--policy", "fibre-only"]) == 0
    fibre = json.loads(capsys.readouterr().out)
    assert fibre["plant"]["cages"]["invalid"] == 0
    assert set(fibre["links"]["by_kind"]) - {"mmf", "smf", "aoc"} <= {
        k for k, v in fibre["links"]["by_kind"].items() if not v
    }
    out = tmp_path / "s.csv"
    assert run_cli(["schedule", str(SUPERPOD), "-o", str(out), "--policy", "lowest-power"]) == 0
    header = out.read_text().splitlines()[0].split(",")
    assert {"cable_id", "a_cage", "b_cage", "a_module", "b_module", "part"} <= set(header)
    assert (
        run_cli(["bom", str(SUPERPOD), "-o", str(tmp_path / "b.csv"), "--policy", "copper-first"])
        == 0
    )
    assert run_cli(["routes", str(SUPERPOD), "--policy", "lowest-cost"]) == 0
    assert "per cage: cage" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        run_cli(["analyze", str(SUPERPOD), "--policy", "cheapest"])
    assert exc.value.code == 2
