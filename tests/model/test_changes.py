"""Change events: one typed event per edit with every id it touched, self-ending subscriptions,
and a failing listener that neither stops the others nor undoes the edit."""

from __future__ import annotations

import gc
import logging

import msgspec

from model.design.changes import Change, ChangeKind
from tests.builders import small_pod


def test_deleting_a_rack_is_one_event_naming_the_rack_its_devices_and_links():
    design = small_pod()
    seen: list[Change] = []
    design.subscribe(seen.append)
    links = design.links_of_racks(["r1"])
    design.delete(["r1"])
    assert len(seen) == 1
    change = seen[0]
    assert change.ids(ChangeKind.RACKS_REMOVED) == ("r1",)
    assert set(change.ids(ChangeKind.DEVICES_REMOVED)) == {"a1", "a2"}
    assert set(change.ids(ChangeKind.LINKS_REMOVED)) == links
    assert change.kinds == {
        ChangeKind.RACKS_REMOVED,
        ChangeKind.DEVICES_REMOVED,
        ChangeKind.LINKS_REMOVED,
    }


def test_undoing_a_delete_is_one_event_and_an_update_that_moves_is_one_event():
    design = small_pod()
    removed = design.delete(["r1"])
    seen: list[Change] = []
    design.subscribe(seen.append)
    design.restore(removed)
    assert len(seen) == 1 and ChangeKind.LINKS_ADDED in seen[0]
    moved = msgspec.structs.replace(design.racks["r2"], x=design.racks["r2"].x + 1.0, name="Z9")
    design.update_racks([moved])
    assert len(seen) == 2
    assert seen[1].kinds == {ChangeKind.RACKS_CHANGED, ChangeKind.RACKS_MOVED}


def test_a_batch_gathers_several_edits_into_one_change():
    design = small_pod()
    seen: list[Change] = []
    design.subscribe(seen.append)
    with design.batch():
        design.move_racks({"r1": (4.0, 3.0)})
        design.rotate_racks({"r2": 90})
        design.set_name("Renamed")
        assert seen == []  # nothing is announced before the edit is complete
    assert len(seen) == 1
    assert seen[0].ids(ChangeKind.RACKS_MOVED) == ("r1", "r2")
    assert ChangeKind.NAME_CHANGED in seen[0]


def test_a_closed_subscription_hears_nothing_more():
    design = small_pod()
    seen: list[Change] = []
    with design.subscribe(seen.append) as subscription:
        design.move_racks({"r1": (4.0, 3.0)})
    assert not subscription.active
    design.move_racks({"r1": (5.0, 3.0)})
    subscription.close()  # closing twice is harmless
    assert len(seen) == 1


class _View:
    def __init__(self, design, heard):
        self.heard = heard
        self.subscription = design.subscribe(self.on_change)

    def on_change(self, change):
        self.heard.append(change)


def test_a_listener_whose_object_is_gone_unsubscribes_itself():
    design = small_pod()
    heard: list[Change] = []
    view = _View(design, heard)
    design.move_racks({"r1": (4.0, 3.0)})
    subscription = view.subscription
    del view
    gc.collect()
    design.move_racks({"r1": (5.0, 3.0)})
    assert len(heard) == 1
    assert not subscription.active
    assert design._changes.listener_count == 0


def test_a_failing_listener_is_logged_and_the_others_still_hear(caplog, listener_errors):
    design = small_pod()
    before: list[Change] = []
    after: list[Change] = []
    design.subscribe(before.append)

    def broken(change):
        raise RuntimeError("view is broken")

    design.subscribe(broken)
    design.subscribe(after.append)
    with caplog.at_level(logging.ERROR, logger="model.design.changes"):
        design.move_racks({"r1": (4.0, 3.0)})
    assert len(before) == len(after) == 1
    assert design.racks["r1"].x == 4.0  # the edit stands
    assert "view is broken" in caplog.text
    assert listener_errors.take() == 1  # seen by the suite's guard, expected here
