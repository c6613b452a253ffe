"""A panel edit chooses again the media of the links routed by hand via that panel (``Link.via``),
with their cage partners: a link's patch points count the panels it names that exist as
structured panels, so retyping a panel (an MPO panel made an LC patch panel of no structured
part), moving, removing or putting one back changes those links' channels though no link was
edited. The live plant after each refresh equals a plant built from scratch."""

from __future__ import annotations

import random

import msgspec
import numpy as np

from model.analysis.analyzer import analyze
from model.design.design import DesignError
from model.design.structured_edit import panel_types, remove_panels, restore_panels, route_via
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from tests.model.test_structured_relay import EditorWorker

# Not a structured panel: a link's via naming a panel retyped to it no longer counts it.
LC_PANEL = "patch-panel-48lc"
MPO_PANEL = "panel-mpo-1u-72"


def _zoned_hall():
    """2 SUs of 16 DGX H100 on QM9700, cabled in zones: 512 links of 400G multimode optics,
    20 MPO panels (a channel through three panels takes single-mode: NV-STRUCT allows two)."""
    return apply_cabling(
        generate("rail-optimized", nodes=32, su_nodes=16, node_type="dgx-h100", switch="qm9700"),
        "zones",
    )


def _media(plant: RoutedLinks) -> dict[str, str | None]:
    media = plant.media
    return {
        link_id: media[m].id if m >= 0 else None
        for link_id, m in zip(plant.link_ids, plant.medium_index.tolist(), strict=True)
    }


def _assert_plant_is_fresh(design, live: RoutedLinks) -> None:
    fresh = RoutedLinks(design)
    assert sorted(live.link_ids) == sorted(fresh.link_ids)
    order = np.array([fresh.index[link_id] for link_id in live.link_ids], dtype=np.int64)
    for name in ("medium_index", "ordered_m", "length_m", "routed_m", "status"):
        np.testing.assert_array_equal(getattr(live, name), getattr(fresh, name)[order], name)


def test_retyping_a_via_panel_chooses_its_links_and_their_cage_partners_again():
    """The reviewer's case (#panelmedia): a link via three MPO panels takes DR4; one of them
    made an LC patch panel leaves two, and SR4 fits again, for the link and its cage partner
    (a twin-port cage holds one module), though neither link ends at the panel."""
    design = _zoned_hall()
    panels = sorted(d.id for d in design.devices.values() if d.type == MPO_PANEL)
    link_id = sorted(design.links)[0]
    route_via(design, link_id, panels[:3])
    live = RoutedLinks(design)
    live.refresh()
    before = _media(live)
    assert before[link_id] == "dr4-400g"
    partners = [lid for lid, m in before.items() if m == "dr4-400g" and lid != link_id]
    assert partners  # the far or near cage's other link moves with it
    design.update_devices([msgspec.structs.replace(design.devices[panels[1]], type=LC_PANEL)])
    changed = live.refresh()
    after = _media(live)
    assert after[link_id] == "sr4-400g"
    assert all(after[lid] == "sr4-400g" for lid in partners)
    assert {link_id, *partners} <= changed
    _assert_plant_is_fresh(design, live)
    assert analyze(design, live).to_json() == analyze(design, RoutedLinks(design)).to_json()


def test_random_panel_edits_leave_the_live_plant_as_a_fresh_one():
    """Retype, move, delete (by hand, the via kept naming it; or as the editor removes panels)
    and undo of panels that links are routed via: after every refresh, the live plant's media,
    ordered and routed lengths equal a fresh plant's."""
    rng = random.Random(20261207)
    design = _zoned_hall()
    live = RoutedLinks(design)
    panels = sorted(d.id for d in design.devices.values() if d.type in panel_types(design))
    for link_id in rng.sample(sorted(design.links), 60):
        route_via(design, link_id, rng.sample(panels, rng.choice([1, 2, 3, 3])))
    live.refresh()
    _assert_plant_is_fresh(design, live)
    undo: list = []
    done = flipped = 0
    for _ in range(60):
        kind = rng.choice(["type", "type", "move", "delete", "remove", "undo", "undo"])
        present = sorted(p for p in panels if p in design.devices)
        panel = rng.choice(present) if present else None
        seen = _media(live)
        try:
            if kind == "undo" or panel is None:
                if not undo:
                    continue
                undo.pop()()
            elif kind == "type":
                old = design.devices[panel]
                new_type = rng.choice([t for t in (LC_PANEL, MPO_PANEL) if t != old.type])
                design.update_devices([msgspec.structs.replace(old, type=new_type)])
                undo.append(lambda old=old: design.update_devices([old]))
            elif kind == "move":
                old = design.devices[panel]
                rack = rng.choice(sorted(design.racks))
                design.move_devices({panel: (rack, rng.randint(30, 42))})
                undo.append(lambda old=old: design.move_devices({old.id: (old.rack, old.u)}))
            elif kind == "delete":
                removed = design.delete([panel])  # the vias keep naming it: put back, it counts
                undo.append(lambda removed=removed: design.restore(removed))
            else:
                removal = remove_panels(design, [panel])
                undo.append(lambda removal=removal: restore_panels(design, removal))
        except DesignError:
            continue  # a move onto a taken U, say: refused, nothing changed
        if rng.random() < 0.3:
            continue  # applied with the next edit: several panel edits in one refresh
        live.refresh()
        _assert_plant_is_fresh(design, live)
        done += 1
        flipped += _media(live) != seen
    live.refresh()
    _assert_plant_is_fresh(design, live)
    assert analyze(design, live).to_json() == analyze(design, RoutedLinks(design)).to_json()
    assert done >= 20 and flipped >= 5  # the edits exercised what the test is about


def test_the_editors_report_after_retyping_a_via_panel_equals_a_fresh_one():
    """The editor's analysis worker (a snapshot per edit, ``Analyzer.advance``) reports the
    media chosen again: the transceivers' power and cost of a fresh analysis, then of the
    analysis before the edit once it is undone."""
    design = _zoned_hall()
    panels = sorted(d.id for d in design.devices.values() if d.type == MPO_PANEL)
    for link_id in sorted(design.links)[:8]:
        route_via(design, link_id, panels[:3])
    worker = EditorWorker(design)
    try:
        first = worker.advance().to_json()
        old = design.devices[panels[2]]
        design.update_devices([msgspec.structs.replace(old, type=LC_PANEL)])
        report = worker.advance().to_json()
        assert report != first
        assert report == analyze(design, RoutedLinks(design)).to_json()
        design.update_devices([old])
        assert worker.advance().to_json() == first
    finally:
        worker.close()
