"""#43's "Done when" on the platforms the generated-design grid (test_generated_valid.py) leaves
out: a hall of one scalable unit of each, cross-connected and zoned with every network, saved,
loaded and analysed as ``generate`` then ``analyze --json`` would, has no finding at all.

The whole space (every platform, 1 SU to L, compute alone and every network) is the audit
script ``tests/benchmarks/structured_audit.py``; this is its fast subset (~0.5 s a case).
"""

from __future__ import annotations

import pytest

from tests.benchmarks.structured_audit import CASES, audit

SUBSET = (
    "dgx-b300-1su",
    "mi355x-th5-1su",
    "mi355x-th6-1su",
    "gb300-1su",
    "vera-rubin-1su",
    "kyber-1rack",
    "helios-1rack",
)


@pytest.mark.parametrize("cabling", ["cross-connect", "zones"])
@pytest.mark.parametrize("name", SUBSET)
def test_one_su_of_each_platform_structured_opens_with_no_finding(name, cabling):
    (case,) = [c for c in CASES if c.name == name]
    row = audit(case, cabling, "all")
    assert not row.refused, row.refused
    assert row.links > 0
    assert row.findings == {}, row.findings
