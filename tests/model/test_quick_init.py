"""quick_init keeps a frozen dataclass what it was, only faster to make."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from model.runtime.quick_init import quick_init
from model.structured.channel_table import Cord
from model.structured.channels import Channel, Element
from model.structured.layout import Trunk, TrunkLeg


@pytest.mark.parametrize("cls", [Element, Channel, Cord, Trunk, TrunkLeg])
def test_the_init_takes_the_fields_and_defaults_in_order(cls):
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = [f for f in dataclasses.fields(cls) if f.init]
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields
    ]


def test_an_instance_behaves_as_the_dataclass_made_it():
    e = Element("cord", "l-1:cord-a", "", 3.0, "B")
    assert e == Element(kind="cord", object_id="l-1:cord-a", length_m=3.0, polarity="B")
    assert hash(e) == hash(Element("cord", "l-1:cord-a", "", 3.0, "B"))
    assert (e.port, e.reverse, e.part) == (1, False, "")
    assert repr(e).startswith("Element(kind='cord', object_id='l-1:cord-a'")
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.port = 2  # type: ignore[misc]
    assert dataclasses.replace(e, port=4).port == 4
    with pytest.raises(TypeError):
        Element("cord")  # type: ignore[call-arg]


def test_post_init_still_runs():
    panel = Element("panel", "pp1", "panel-mpo-1u-72")
    channel = Channel(
        "l-1", "sr4-400g", "mmf", "MPO-12/APC", (Element("cord", "c", "", 2.5), panel)
    )
    assert (channel.panels, channel.length_m) == (1, 2.5)
    assert dataclasses.replace(channel, elements=(panel,)).length_m == 0.0
    assert channel.style == "1-panel"


def test_instances_are_slotted_and_pickle():
    panel = Element("panel", "pp1", "panel-mpo-1u-72")
    channel = Channel(
        "l-1", "sr4-400g", "mmf", "MPO-12/APC", (Element("cord", "c", "", 2.5), panel)
    )
    assert not hasattr(panel, "__dict__") and not hasattr(channel, "__dict__")
    again = pickle.loads(pickle.dumps(channel))
    assert again == channel and (again.panels, again.length_m) == (1, 2.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        channel.panels = 3  # type: ignore[misc]


def test_refuses_a_class_without_slots():
    @dataclasses.dataclass(frozen=True)
    class Plain:
        x: int

    with pytest.raises(TypeError, match="slots"):
        quick_init(Plain)


def test_refuses_an_init_false_field_without_post_init():
    @dataclasses.dataclass(frozen=True, slots=True)
    class Derived:
        x: int
        y: int = dataclasses.field(default=0, init=False)

    with pytest.raises(TypeError, match="__post_init__"):
        quick_init(Derived)


def test_refuses_a_default_factory():
    @dataclasses.dataclass(frozen=True, slots=True)
    class WithList:
        items: list = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError):
        quick_init(WithList)
