"""The structured layout's bulk records (msgspec Structs): made positionally or by name with their
defaults, frozen, equal and hashed by value, picklable, outside the collector, and a channel's
panels and length always those of its elements."""

from __future__ import annotations

import gc
import inspect
import pickle

import msgspec
import pytest

from model.structured.channel_table import Cord
from model.structured.channels import Channel, Element, LossBudget, direct_channel
from model.structured.layout import Trunk, TrunkLeg

RECORDS = [Element, Channel, Cord, Trunk, TrunkLeg, LossBudget]


@pytest.mark.parametrize("cls", RECORDS)
def test_each_record_is_a_frozen_untracked_struct_without_a_dict(cls):
    config = cls.__struct_config__
    assert issubclass(cls, msgspec.Struct)
    assert config.frozen and not config.gc
    assert "__dict__" not in dir(cls)


def test_an_element_takes_its_fields_in_order_with_their_defaults():
    e = Element("cord", "l-1:cord-a", "", 3.0, "B")
    assert e == Element(kind="cord", object_id="l-1:cord-a", length_m=3.0, polarity="B")
    assert hash(e) == hash(Element("cord", "l-1:cord-a", "", 3.0, "B"))
    assert (e.part, e.port, e.reverse) == ("", 1, False)
    assert e != Element("cord", "l-1:cord-a", "", 3.0, "B", port=2)
    assert repr(e).startswith("Element(kind='cord', object_id='l-1:cord-a'")
    params = list(inspect.signature(Element).parameters)
    assert params == ["kind", "object_id", "part", "length_m", "polarity", "port", "reverse"]
    with pytest.raises(TypeError):
        Element("cord")  # type: ignore[call-arg]


def test_a_record_refuses_a_field_assigned_afterwards():
    e = Element("cord", "c")
    with pytest.raises(AttributeError):
        e.port = 2  # type: ignore[misc]
    assert msgspec.structs.replace(e, port=4).port == 4 and e.port == 1


def test_a_channel_s_panels_and_length_are_its_elements_whatever_is_passed():
    panel = Element("panel", "pp1", "panel-mpo-1u-72")
    cord = Element("cord", "c", "", 2.5)
    channel = Channel("l-1", "sr4-400g", "mmf", "MPO-12/APC", (cord, panel, cord))
    assert (channel.panels, channel.length_m, channel.style) == (1, 5.0, "1-panel")
    forced = Channel("l-1", "sr4-400g", "mmf", "MPO-12/APC", (cord, panel, cord), 7, 99.0)
    assert (forced.panels, forced.length_m) == (1, 5.0) and forced == channel
    fewer = msgspec.structs.replace(channel, elements=(cord,))
    assert (fewer.panels, fewer.length_m, fewer.style) == (0, 2.5, "direct")
    with pytest.raises(AttributeError):
        channel.panels = 3  # type: ignore[misc]


def test_records_pickle_and_stay_outside_the_collector():
    """Pickled to the sweep's Dask workers and the forked call's parent; gc=False: millions of
    them at zoned XL are never walked by a collection."""
    channel = direct_channel("l-1", "sr4-400g", "mmf", "MPO-12/APC", 12.0)
    again = pickle.loads(pickle.dumps(channel))
    assert again == channel and (again.panels, again.length_m) == (0, 12.0)
    trunk = Trunk("t-1", "trunk-mpo12", "r1", "r2", 30.0, 30.0, ("l-1", "l-2"))
    assert pickle.loads(pickle.dumps(trunk)) == trunk and trunk.legs == 1
    cord = Cord("l-1", "a", "fibre-mpo12", 3.0, 3.0)
    assert not any(map(gc.is_tracked, (channel, channel.elements[0], trunk, cord)))


def test_the_positional_fields_are_in_the_order_the_layout_passes_them():
    """The layout makes cords, legs and loss budgets positionally (channel_table, layout,
    channels.loss_budget): a field moved in a record would put a length where a part goes."""
    assert Cord.__struct_fields__[:5] == ("link_id", "end", "fibre_part", "length_m", "ordered_m")
    assert TrunkLeg.__struct_fields__ == ("links", "holders", "trunks", "cassettes")
    assert LossBudget.__struct_fields__ == (
        "loss_db",
        "fibre_db",
        "connectors_db",
        "mated_pairs",
        "limit_db",
        "margin_db",
        "reach_m",
        "max_panels",
    )
    cord = Cord("l-1", "b", "fibre-mpo12", 3.0, 5.0)
    assert (cord.end, cord.fibre_part, cord.length_m, cord.ordered_m, cord.quantity) == (
        "b",
        "fibre-mpo12",
        3.0,
        5.0,
        1,
    )
