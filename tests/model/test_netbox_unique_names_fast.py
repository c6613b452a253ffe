"""``unique_names`` keeps a fitting name without fitting it again and returns early when no two
names are alike: the same names as fitting every one (the plain rule, below)."""

from __future__ import annotations

import random

import pytest

from model.outputs.netbox.names import fit_name, unique_names


def _plain(items, limit):
    fitted = [(i, fit_name(n, limit) or fit_name(i, limit), q) for i, n, q in items]
    folded = [n.casefold() for _, n, _ in fitted]
    if len(set(folded)) == len(folded):
        return {i: n for i, n, _ in fitted}
    return None  # collisions: the rule past fitting is the same code path in both


@pytest.mark.parametrize("seed", range(5))
def test_fitting_names_kept_and_the_others_fitted_as_before(seed):
    rng = random.Random(seed)
    odd = ["", " ", " lead", "trail ", "x" * 64, "y" * 65, "\tTab", "é" * 70]
    items = [(f"id{k}", rng.choice(odd) + str(k) if k % 3 else f"dev{k}", "R1") for k in range(60)]
    items += [(f"e{k}", name, "") for k, name in enumerate(odd)]
    got = unique_names(items, 64)
    plain = _plain(items, 64)
    if plain is not None:
        assert got == plain
    assert len({n.casefold() for n in got.values()}) == len(items)
    assert all(0 < len(n) <= 64 and n == n.strip() for n in got.values())


def test_names_alike_ignoring_case_are_still_told_apart():
    got = unique_names([("a", "SPINE02", "R1"), ("b", "spine02", "R2"), ("c", " x ", "")], 64)
    assert got == {"a": "R1-SPINE02", "b": "R2-spine02", "c": "x"}
