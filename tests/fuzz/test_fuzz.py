"""The fuzz suite in ``make test``: a few hundred mutated files (fixed seed) through validate
and every later stage, and mutated check-cabling reports and as-built length files through
their readers, each within a time and memory bound (``make fuzz`` runs 5,000 and 2,000)."""

from __future__ import annotations

import pytest

from tests.fuzz import mutator, netbox_mutator, report_mutator
from tests.fuzz.stages import run_cases

CASES = 200
SEED = 15


@pytest.mark.slow
def test_every_mutated_file_is_refused_with_a_path_or_survives_every_stage():
    summary = run_cases(
        mutator.cases(CASES, SEED), timeout_s=60.0, memory_mb=3072, render_width_px=200
    )
    counts = summary.counts()
    assert not summary.failures(), summary.text()
    assert counts["ok"] >= 10 and counts["refused"] >= 50, summary.text()  # both paths exercised


@pytest.mark.parametrize(
    "mutation", mutator.STRUCTURAL + mutator.SEMANTIC, ids=lambda m: m.__name__
)
def test_each_mutation_yields_a_file(mutation):
    import copy
    import random

    seed_doc = mutator.base_designs()[0][1]
    data = mutation(random.Random(1), copy.deepcopy(seed_doc))
    assert isinstance(data, bytes) and data != mutator._dump(seed_doc)  # it did change the file


REPORT_CASES = 120


@pytest.mark.slow
def test_every_mutated_report_and_length_file_is_refused_with_a_sentence_or_read():
    summary = run_cases(report_mutator.cases(REPORT_CASES, SEED), timeout_s=60.0, memory_mb=3072)
    counts = summary.counts()
    assert not summary.failures(), summary.text()
    assert counts["ok"] >= 10 and counts["refused"] >= 10, summary.text()


@pytest.mark.parametrize("mutation", report_mutator.MUTATIONS, ids=lambda m: m.__name__)
def test_each_report_mutation_changes_the_file(mutation):
    import random

    header, rows = report_mutator.REPORT_HEADER, [["a", "p1", "b", "p2"], ["b", "p2", "a", "p1"]]
    data = mutation(random.Random(1), header, rows)
    assert isinstance(data, bytes) and data != report_mutator._csv(header, rows).encode()


# Each mutation once (the first cases run them in order), then a draw: the 20,001-rack and the
# 100,000-cable folders are among them, so this bounds the big inputs too.
NETBOX_CASES = 14


@pytest.mark.slow
def test_every_mutated_netbox_folder_is_refused_with_a_sentence_or_imported_whole():
    summary = run_cases(netbox_mutator.cases(NETBOX_CASES, SEED), timeout_s=120.0, memory_mb=3072)
    counts = summary.counts()
    assert not summary.failures(), summary.text()
    assert counts["ok"] >= 3 and counts["refused"] >= 3, summary.text()


@pytest.mark.parametrize("mutation", netbox_mutator.MUTATIONS, ids=lambda m: m.__name__)
def test_each_netbox_mutation_changes_the_folder(mutation):
    import random

    files = netbox_mutator.seed_files()
    assert mutation(random.Random(1), files) != files
