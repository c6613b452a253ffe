"""The order of a channel's ends (``ChannelColumns.end_key``, by which the legs of a path are
laid) from the loader's port codes is the one read from the links themselves."""

from __future__ import annotations

import numpy as np
import pytest

import model.structured.channel_groups as channel_groups
from model.design.bulk_load import loaded_link_codes
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.structured.channels import plant_fibres
from tests.model.zoned_halls import zoned_fat_tree_file


@pytest.fixture(scope="module")
def zoned(tmp_path_factory):
    return zoned_fat_tree_file(tmp_path_factory)


def _end_key(plant) -> np.ndarray:
    _, columns, _ = channel_groups.group_channels(plant, plant_fibres(plant), {}, [])
    return columns.end_key


def test_end_key_from_the_loaders_codes_is_the_links_own(zoned, monkeypatch):
    plant = RoutedLinks(load_design(zoned))
    codes = loaded_link_codes(plant.design)
    assert codes is not None
    # The codes number ports in order of first use, not of names: the ranks must re-sort them.
    assert codes.port_names != sorted(codes.port_names)
    with monkeypatch.context() as patched:  # the links' ports are not read on this path
        patched.setattr(channel_groups, "_PORT_A", None)
        from_codes = _end_key(plant)
    monkeypatch.setattr(channel_groups, "loaded_link_codes", lambda design: None)
    from_links = _end_key(plant)
    assert len(from_links) > 0
    # The keys' order and equalities are what the legs read (the numbers themselves may
    # differ: the codes and the links count different ports): the same dense ranks.
    assert np.array_equal(_ranks(from_codes), _ranks(from_links))


def _ranks(key: np.ndarray) -> np.ndarray:
    """Each key's place among the distinct keys (equal keys, equal places)."""
    return np.unique(key, return_inverse=True)[1].reshape(-1)
