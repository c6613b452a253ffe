"""quick_init keeps a frozen dataclass what it was, only faster to make."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from model.channels import Channel, Element
from model.quick_init import quick_init
from model.structured_layout import Cord, Trunk, TrunkLeg


@pytest.mark.parametrize("cls", [Element, Channel, Cord, Trunk, TrunkLeg])
def test_the_init_takes_the_fields_and_defaults_in_order(cls):
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
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


def test_refuses_a_default_factory():
    @dataclasses.dataclass(frozen=True)
    class WithList:
        items: list = dataclasses.field(default_factory=list)

    with pytest.raises(TypeError):
        quick_init(WithList)
