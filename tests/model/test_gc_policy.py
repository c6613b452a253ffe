"""model.gc_policy.collector_paused: the collector off inside, back as it was after."""

from __future__ import annotations

import gc

import pytest

from model.gc_policy import collector_paused


@pytest.fixture
def collector_state():
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def test_the_collector_is_off_inside_and_on_again_after_even_when_the_block_fails(
    collector_state,
):
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: still off when the inner one ends
            pass
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("export failed")
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off(collector_state):
    gc.disable()  # as in the editor, which collects on its own timer
    with collector_paused():
        pass
    assert not gc.isenabled()
