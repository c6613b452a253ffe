"""As-built findings: the cabling check's problems and measured lengths as findings, with fabrics."""

from __future__ import annotations

import msgspec

from model.asbuilt.cabling_check import check_cabling
from model.asbuilt.findings import cabling_findings, finding_fabrics, length_findings
from model.engine.routed_links import RoutedLinks
from tests.builders import small_pod


def _row(line, a, b):
    return line, dict(
        zip(("local_device", "local_port", "remote_device", "remote_port"), a + b, strict=True)
    )


def test_an_unexpected_cable_is_a_finding_on_its_device():
    design = small_pod()
    # a1's nic1 is linked (l-1); leaf1 p40 is a port the design leaves free
    rows = check_cabling(
        design,
        [
            _row(1, ("a1", "nic1"), ("leaf1", "p1")),
            _row(2, ("leaf1", "p40"), ("b2", "nic8")),
        ],
    )
    findings = cabling_findings(design, rows)
    codes = [f.code for f in findings]
    assert "CABLING_UNEXPECTED" in codes
    unexpected = next(f for f in findings if f.code == "CABLING_UNEXPECTED")
    assert unexpected.objects == ("leaf1",)
    assert "leaf1 p40" in unexpected.message and "line 2" in unexpected.message
    # b2 nic8 (l-32) is seen on leaf1 p40: miswired; every other link but l-1 is missing
    miswired = [f.objects for f in findings if f.code == "CABLING_MISWIRED"]
    assert miswired == [("l-32",)]
    missing = [f for f in findings if f.code == "CABLING_MISSING"]
    assert len(missing) == len(design.links) - 2
    assert ("l-1",) not in [f.objects for f in missing]
    assert finding_fabrics(design, [unexpected, missing[0]]) == ["compute", "compute"]


def test_a_measured_length_beyond_the_estimates_slack_is_a_deviation():
    design = small_pod()
    plant = RoutedLinks(design)
    plant.refresh()
    estimate = float(plant.routed_m[plant.index["l-1"]])
    slack = 2 * design.settings.slack_per_end_m + estimate * design.settings.slack_pct / 100
    design.update_links(
        [
            msgspec.structs.replace(design.links["l-1"], as_built_m=estimate + slack + 0.5),
            msgspec.structs.replace(design.links["l-2"], as_built_m=estimate + slack - 0.1),
        ]
    )
    plant.refresh()
    findings = length_findings(design, plant)
    assert [f.objects for f in findings] == [("l-1",)]
    assert "LENGTH_DEVIATION" == findings[0].code
    assert f"{estimate + slack + 0.5:.1f} m" in findings[0].message


def test_a_few_link_findings_get_the_same_fabrics_as_every_link_at_once(monkeypatch):
    """One link at a time (a few findings) and all links at once give the same fabrics."""
    from model.asbuilt import findings as findings_module
    from model.common.findings import Finding
    from tests.benchmarks.workloads import build

    design = build("S", "all")
    named = [
        Finding(code="X", severity="warning", message="m", objects=(link_id,))
        for link_id in design.links
    ]
    few = finding_fabrics(design, named)  # S: fewer links than the threshold
    assert len(named) <= findings_module.FEW_LINK_FINDINGS
    monkeypatch.setattr(findings_module, "FEW_LINK_FINDINGS", 0)
    assert finding_fabrics(design, named) == few
    assert len(set(few)) > 1  # more than one fabric compared, not only "compute"


def test_no_measured_length_in_the_plant_means_no_deviation_and_no_walk():
    """length_findings answers from the plant's as-built column when no row has one: that
    column is each link's as_built_m (NaN for none) after edits setting and clearing it."""
    design = small_pod()
    plant = RoutedLinks(design)
    plant.refresh()

    def column_follows() -> bool:
        want = [design.links[i].as_built_m for i in plant.link_ids]
        got = plant._as_built.tolist()
        return all((w is None and g != g) or w == g for w, g in zip(want, got, strict=True))

    assert column_follows() and length_findings(design, plant) == []
    far = msgspec.structs.replace(design.links["l-3"], as_built_m=500.0)
    design.update_links([far])
    plant.refresh()
    assert column_follows()
    assert [f.objects for f in length_findings(design, plant)] == [("l-3",)]
    design.update_links([msgspec.structs.replace(far, as_built_m=None)])
    plant.refresh()
    assert column_follows() and length_findings(design, plant) == []

    class Unwalked(dict):
        def values(self):
            raise AssertionError("every link walked though none was measured")

    design_links = design.links  # not walked at all (393k links at XL, every analysis)
    try:
        design.links = Unwalked(design_links)
        assert length_findings(design, plant) == []
    finally:
        design.links = design_links
