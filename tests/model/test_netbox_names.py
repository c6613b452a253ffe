"""NetBox names: shortening is deterministic, within the limit and unique ignoring case."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from model.outputs.netbox.names import fit_name, slugify, unique_names

_text = st.text(alphabet=st.sampled_from("abcXYZ-_019 é"), min_size=0, max_size=90)


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(_text, min_size=1, max_size=30),
    qualifiers=st.lists(st.sampled_from(["", "R1", "r1", "A" * 70]), min_size=30, max_size=30),
    limit=st.sampled_from([8, 20, 64, 100]),
)
def test_unique_names_are_within_the_limit_unique_ignoring_case_and_deterministic(
    names, qualifiers, limit
):
    items = [(f"id{i}", name, qualifiers[i]) for i, name in enumerate(names)]
    out = unique_names(items, limit)
    assert set(out) == {object_id for object_id, _, _ in items}
    assert all(0 < len(name) <= limit for name in out.values())
    assert len({name.casefold() for name in out.values()}) == len(out)
    assert unique_names(items, limit) == out
    # a name that was already unique (ignoring case) and fits is kept as it is
    folded = [n.strip().casefold() for n in names]
    for object_id, name, _ in items:
        if (
            name.strip()
            and len(name.strip()) <= limit
            and folded.count(name.strip().casefold()) == 1
        ):
            assert out[object_id] == name.strip()


def test_case_twins_and_long_names():
    out = unique_names([("a", "SPINE02", "R1"), ("b", "spine02", "R2")], 64)
    assert out == {"a": "R1-SPINE02", "b": "R2-spine02"}
    long = "x" * 72
    fitted = fit_name(long, 64)
    assert len(fitted) == 64 and fitted.startswith("x" * 55 + "~")
    assert fit_name(long, 64) == fitted != fit_name("x" * 71 + "y", 64)


@given(st.text(max_size=300))
def test_slugs_are_netbox_slugs(text):
    slug = slugify(text)
    assert 0 < len(slug) <= 100
    assert all(c in "abcdefghijklmnopqrstuvwxyz0123456789-_" for c in slug)


def test_slug_examples():
    assert slugify("SuperPOD Hall #1 (B200)") == "superpod-hall-1-b200"
    assert slugify("!!!") == "x"
    assert slugify("a" * 300) != slugify("a" * 299) and len(slugify("a" * 300)) == 100
