"""The column-wise ``routes`` report equals a plain per-link report (issue #13).

The reference words each link on its own, in the most direct way: ``route(link_id).describe()``,
``reason(link_id)`` and the natural sort by tuples. The report under test words each distinct
value once and joins pieces (:mod:`model.common.text_columns`). They run on generated fabrics with all
networks, under every cabling style and media policy, and on designs edited so that the rare
lines appear: typed and measured lengths, pinned media that do not fit, ids out of order.
"""

from __future__ import annotations

import io
import random

import msgspec
import numpy as np
import pytest

from cli.routes_command import _natural, natural_order, route_report
from model.common.text_columns import formatted, join_chunks
from model.design.design import Design
from model.engine.cage_labels import cage_labels
from model.engine.cage_words import cage_label_pieces
from model.engine.cages import cage_view
from model.engine.media import POLICIES
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.plant.physical_plant import build_plant

FABRICS = {
    "rail-all": (
        "rail-optimized",
        dict(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32),
    ),
    "leaf-spine-all": ("leaf-spine", dict(nodes=24, node_type="hgx-h100-8x400", switch="sn5600")),
    "fat-tree-all": ("fat-tree", dict(k=4)),
    "nvl72-all": ("nvl72", dict(racks=2)),
}


@pytest.fixture(
    scope="module",
    params=[(f, c) for f in sorted(FABRICS) for c in ("direct", "cross-connect", "zones")],
    ids=lambda p: f"{p[0]}-{p[1]}",
)
def fabric(request) -> Design:
    name, cabling = request.param
    template, params = FABRICS[name]
    return apply_cabling(generate(template, fabrics="all", **params), cabling)


def _reference_report(design: Design, plant: RoutedLinks) -> str:
    out = io.StringIO()
    for link_id in sorted(plant.link_ids, key=_natural):
        link = design.links[link_id]
        row = plant.index[link_id]
        medium = plant.medium(link_id)
        ordered = plant.ordered_m[row]
        ordered_text = "-" if ordered != ordered else f"{ordered:g} m"
        print(
            f"{link_id}: {link.a.device} {link.a.port} -> {link.b.device} {link.b.port}, "
            f"{plant.speed_gbps[row]:g}G",
            file=out,
        )
        print(f"  route   {plant.route(link_id).describe()}", file=out)
        if plant.length_m[row] != plant.routed_m[row]:
            print(f"  length  {plant.length_m[row]:.2f} m (measured or typed)", file=out)
        print(f"  medium  {medium.id if medium else 'none'}, ordered {ordered_text}", file=out)
        print(f"  reason  {plant.reason(link_id)}", file=out)
    for finding in [*plant.findings(), *build_plant(plant).findings]:
        print(f"{finding.severity.upper()} {finding.code}: {finding.message}", file=out)
    return out.getvalue()


@pytest.mark.parametrize("policy", POLICIES)
def test_report_equals_the_per_link_report(fabric, policy):
    plant = RoutedLinks(fabric, policy)
    assert route_report(fabric, plant) == _reference_report(fabric, plant)


def _edited(design: Design, seed: int) -> Design:
    """``design`` with typed and measured lengths, pinned media (some that do not fit), its
    links renamed in a shuffled order with ids of several shapes and, for odd seeds, half its
    trays gone."""
    rng = random.Random(seed)
    media = [m.id for m in RoutedLinks(design).media]
    links = list(design.links.values())
    changed = []
    for link in rng.sample(links, len(links) // 5):
        pick = rng.random()
        if pick < 0.3:
            link = msgspec.structs.replace(link, length_override_m=round(rng.uniform(0.5, 60), 3))
        elif pick < 0.5:
            link = msgspec.structs.replace(link, as_built_m=round(rng.uniform(0.5, 60), 2))
        else:
            link = msgspec.structs.replace(link, medium=rng.choice(media))
        changed.append(link)
    design.update_links(changed)
    links = list(design.links.values())
    rng.shuffle(links)
    shapes = ["l-{}", "link{}", "x-{:03d}", "{}-b", "a{}b{}", "L-{}"]
    renamed = []
    for k, link in enumerate(links):
        shape = rng.choice(shapes)
        renamed.append(msgspec.structs.replace(link, id=shape.format(k, k % 7)))
    design.remove_links([link.id for link in links])
    design.add_links(renamed)
    if seed % 2:  # some racks off the trays: routed on the floor
        trays = sorted(design.trays)
        design.remove_trays(trays[: max(1, len(trays) // 2)])
    return design


@pytest.mark.parametrize("seed", range(3))
def test_report_of_edited_designs_equals_the_per_link_report(seed):
    template, params = FABRICS[sorted(FABRICS)[seed % len(FABRICS)]]
    design = _edited(
        apply_cabling(generate(template, fabrics="all", **params), "cross-connect"), seed
    )
    for policy in POLICIES:
        plant = RoutedLinks(design, policy)
        assert route_report(design, plant) == _reference_report(design, plant)


def test_cage_label_pieces_join_to_the_cage_labels(fabric):
    plant = RoutedLinks(fabric)
    view = cage_view(plant)
    keys = np.unique(np.concatenate([view.cage_a, view.cage_b]))
    left, right = cage_label_pieces(plant, view.dev_ids, keys)
    assert [a + b for a, b in zip(left, right, strict=True)] == cage_labels(
        plant, view.dev_ids, keys
    )


@pytest.mark.parametrize("seed", range(200))
def test_natural_order_is_the_stable_sort_by_natural_keys(seed):
    rng = random.Random(seed)
    stems = rng.sample(
        ["l-", "link", "a", "B-", "é-", "x1-", "", "z z", "٣", "l-0"], rng.randint(1, 4)
    )
    ids = []
    for _ in range(rng.randint(0, 40)):
        number = rng.choice(["", "0", "07", str(rng.randint(0, 10 ** rng.randint(1, 21)))])
        ids.append(rng.choice(stems) + number + rng.choice(["", "", "", "-x"]))
    order = natural_order(ids)
    assert [ids[k] for k in order] == sorted(ids, key=_natural)


def test_natural_order_of_many_usual_ids():
    ids = [f"l-{k}" for k in range(5000)] + [f"b-{k:02d}" for k in range(300)] + ["l-", "b"]
    random.Random(1).shuffle(ids)
    assert [ids[k] for k in natural_order(ids)] == sorted(ids, key=_natural)


def test_formatted_words_each_value_as_a_call_per_value_would():
    values = np.array([1.005, -0.0, 0.0, np.nan, 2.5, 1.005, -0.0, np.inf])
    calls = []

    def words(v):
        calls.append(v)
        return f"{v:.2f}"

    assert formatted(values, words).tolist() == [f"{v:.2f}" for v in values.tolist()]
    assert len(calls) <= 7  # once per distinct value (and once for the negative zeros)


def test_join_chunks_is_the_rows_joined_in_order():
    columns = [
        "<",
        np.array(["a", "b", "c", "d", "e"], dtype=object),
        [str(k) for k in range(5)],
        ">\n",
    ]
    text = "".join(join_chunks(5, columns, rows_per_chunk=2))
    assert text == "".join(f"<{c}{k}>\n" for k, c in enumerate("abcde"))
