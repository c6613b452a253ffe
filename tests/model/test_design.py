"""The edit API validates, refuses cleanly (changing nothing) and names what changed."""

from __future__ import annotations

import msgspec
import pytest

from model.design.changes import Change, ChangeKind
from model.design.design import DesignError
from model.design.entities import Device, Link, PortRef
from model.files.design_file import design_to_bytes
from tests.builders import device, link, rack, small_pod


def record_changes(design):
    seen: list[Change] = []
    design.subscribe(seen.append)
    return seen


def test_small_pod_counts(pod):
    assert len(pod.racks) == 3 and len(pod.devices) == 6 and len(pod.links) == 32
    assert pod.gpu_count() == 32


def test_gpu_count_follows_every_device_edit_and_undo(pod):
    def counted():
        return sum(pod.device_type(d).gpu_count for d in pod.devices.values())

    assert pod.gpu_count() == counted() == 32
    kept = pod._gpu_total
    pod.move_racks({"r1": (4.0, 3.0)})  # no device edit: the count is not taken again
    assert pod.gpu_count() == 32 and pod._gpu_total is kept
    device(pod, "a3", "r1", 22, "dgx-h100")  # 8 more GPUs
    assert pod.gpu_count() == counted() == 40
    pod.revision = 0  # as a load or a generator leaves it: the count must not go stale
    removed = pod.remove_devices(["a1", "a3"])
    assert pod.gpu_count() == counted() == 24
    pod.restore(removed)
    assert pod.gpu_count() == counted() == 40
    pod.update_devices([msgspec.structs.replace(pod.devices["leaf1"], name="spine-ish")])
    assert pod.gpu_count() == counted() == 40
    pod.remove_racks(["r2"])  # its two DGX go with it
    assert pod.gpu_count() == counted() == 24


def test_move_racks_emits_racks_moved(pod):
    seen = record_changes(pod)
    pod.move_racks({"r1": (4.0, 3.0)})
    assert seen == [Change.of(ChangeKind.RACKS_MOVED, ("r1",))]
    assert (pod.racks["r1"].x, pod.racks["r1"].y) == (4.0, 3.0)


def test_setter_that_changes_nothing_emits_nothing(pod):
    seen = record_changes(pod)
    pod.move_racks({"r1": (pod.racks["r1"].x, pod.racks["r1"].y)})
    pod.rotate_racks({"r1": 0})
    assert seen == []


def test_u_collision_is_refused_and_changes_nothing(pod):
    before = design_to_bytes(pod)
    with pytest.raises(DesignError, match="collides with 'a1'"):
        device(pod, "x1", "r1", 5, "dgx-h100")  # a1 spans U2-U9
    assert design_to_bytes(pod) == before


def test_port_used_twice_is_refused(pod):
    with pytest.raises(DesignError, match="already used by 'l-1'"):
        link(pod, "dup", ("a1", "nic1"), ("leaf1", "p60"))


def test_same_port_twice_in_one_batch_is_refused(pod):
    device(pod, "x1", "r1", 30, "qm9700")
    links = [
        Link(id="n1", a=PortRef("x1", "p1"), b=PortRef("leaf1", "p60")),
        Link(id="n2", a=PortRef("x1", "p1"), b=PortRef("leaf1", "p61")),
    ]
    with pytest.raises(DesignError, match="already used"):
        pod.add_links(links)
    assert "n1" not in pod.links


def test_a_batch_of_links_is_refused_at_its_first_problem_in_order(pod):
    """add_links checks a batch with set operations and walks it in order only once one
    fails: the message is still the first problem's, whatever kind the later ones are."""
    device(pod, "x1", "r1", 30, "qm9700")
    before = design_to_bytes(pod)
    good = Link(id="nb1", a=PortRef("x1", "p1"), b=PortRef("leaf1", "p60"))
    medium = Link(id="nb2", a=PortRef("x1", "p2"), b=PortRef("leaf1", "p61"), medium="no-such")
    ghost = Link(id="nb3", a=PortRef("ghost", "p1"), b=PortRef("leaf1", "p62"))
    used = Link(id="nb4", a=PortRef("x1", "p3"), b=PortRef("leaf1", "p60"))
    for batch, first in [
        ([good, medium, ghost], "link 'nb2': unknown medium 'no-such'"),
        ([good, ghost, medium], "link 'nb3': no device 'ghost'"),
        ([good, used, medium], "link 'nb4': port 'p60' of 'leaf1' is already used by"),
    ]:
        with pytest.raises(DesignError, match=first):
            pod.add_links(batch)
        assert design_to_bytes(pod) == before


def test_a_batch_of_links_is_indexed_by_port_and_device(pod):
    device(pod, "x1", "r1", 30, "qm9700")
    seen = record_changes(pod)
    pod.add_links(
        [
            Link(id="nb1", a=PortRef("x1", "p1"), b=PortRef("leaf1", "p60")),
            Link(id="nb2", a=PortRef("x1", "p2"), b=PortRef("leaf1", "p61")),
        ]
    )
    assert list(pod.links)[-2:] == ["nb1", "nb2"]
    assert pod.link_at_port("x1", "p2") == "nb2" and pod.link_at_port("leaf1", "p60") == "nb1"
    assert {"nb1", "nb2"} <= pod.links_of_device("leaf1")
    assert pod.links_of_device("x1") == {"nb1", "nb2"}
    assert [c.parts for c in seen] == [{ChangeKind.LINKS_ADDED: ("nb1", "nb2")}]


def test_link_to_missing_device_or_port_is_refused(pod):
    with pytest.raises(DesignError, match="no device 'ghost'"):
        link(pod, "x", ("ghost", "nic1"), ("leaf1", "p60"))
    with pytest.raises(DesignError, match="has no port 'nic9'"):
        link(pod, "x", ("a1", "nic9"), ("leaf1", "p60"))


def test_duplicate_id_is_refused(pod):
    with pytest.raises(DesignError, match="already used"):
        rack(pod, "a1", 9.0, 3.0)  # a device already has id a1


def test_overlapping_racks_are_allowed(pod):
    rack(pod, "r9", pod.racks["r1"].x, pod.racks["r1"].y)  # the analysis warns instead
    assert "r9" in pod.racks


def test_remove_rack_cascades_and_restore_puts_everything_back(pod):
    before = design_to_bytes(pod)
    seen = record_changes(pod)
    removed = pod.remove_racks(["r1"])
    assert {d.id for d in removed.devices} == {"a1", "a2"}
    assert len(removed.links) == 16 and len(pod.links) == 16
    (change,) = seen  # one edit, one event, with every id it took out
    assert list(change.parts) == [
        ChangeKind.LINKS_REMOVED,
        ChangeKind.DEVICES_REMOVED,
        ChangeKind.RACKS_REMOVED,
    ]
    assert set(change.ids(ChangeKind.DEVICES_REMOVED)) == {"a1", "a2"}
    assert len(change.ids(ChangeKind.LINKS_REMOVED)) == 16
    assert pod.link_at_port("leaf1", "p1") is None
    pod.restore(removed)
    assert design_to_bytes(pod) == before
    assert pod.link_at_port("leaf1", "p1") == "l-1"


def test_move_device_checks_collisions(pod):
    with pytest.raises(DesignError, match="collides"):
        pod.move_devices({"a2": ("r1", 8)})
    pod.move_devices({"a2": ("r2", 30)})
    assert pod.devices["a2"].rack == "r2" and pod.devices_in_rack("r1")[0].id == "a1"


def test_swapping_two_devices_in_one_move_is_allowed(pod):
    pod.move_devices({"a1": ("r1", 12), "a2": ("r1", 2)})
    assert pod.devices["a1"].u == 12 and pod.devices["a2"].u == 2


def test_breakout_ports(pod):
    device(pod, "eth", "r1", 30, "sn5600", role="leaf", breakout={"p": 2})
    ports = pod.ports("eth")
    assert "p1/2" in ports and ports["p1/2"].speed_gbps == 400
    assert sum(1 for i in ports.values() if i.role == "compute") == 128


def test_breakout_that_would_orphan_a_link_is_refused(pod):
    device(pod, "eth", "r1", 30, "sn5600", role="leaf", breakout={"p": 2})
    link(pod, "x", ("eth", "p1/1"), ("leaf1", "p60"))
    old = pod.devices["eth"]
    new = Device(id=old.id, name=old.name, type=old.type, rack=old.rack, u=old.u, role=old.role)
    with pytest.raises(DesignError, match="would no longer exist"):
        pod.update_devices([new])


def test_invalid_breakout_is_refused(pod):
    with pytest.raises(DesignError, match="cannot break out 3 ways"):
        device(pod, "eth", "r1", 30, "sn5600", breakout={"p": 3})


def test_free_ports_and_new_id(pod):
    assert pod.free_ports("a1", "compute") == []
    assert len(pod.free_ports("leaf1", "compute")) == 64 - 16
    new = pod.new_id("l")
    assert new not in pod.links and new.startswith("l-")


def test_delete_mixed_selection(pod):
    removed = pod.delete(["t-row", "a1", "l-20"])
    assert "t-row" not in pod.trays and "a1" not in pod.devices and "l-20" not in pod.links
    assert len(removed.links) == 9


def test_renaming_a_rack_to_a_name_a_later_rack_holds_is_refused():
    # Regression: the name check kept only the first holder of each name in table order, so
    # renaming an earlier rack to a later rack's name (any case) slipped through.
    design = small_pod()
    first, later = sorted(design.racks)[0], sorted(design.racks)[-1]
    design.update_racks([msgspec.structs.replace(design.racks[later], name="X5")])
    with pytest.raises(DesignError, match="already called X5"):
        design.update_racks([msgspec.structs.replace(design.racks[first], name="x5")])
    assert design.racks[first].name != "x5"
