"""A one-shot analysis (``analyze``: no edit follows) counts the plugs of its optics without
the kept tally an edited design recounts from (model/analysis/optics_plugs.PlugTally); its
figures are those of an analyzer that follows the design and keeps the tally."""

from __future__ import annotations

import pytest

from model.analysis.analyzer import Analyzer
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from tests.builders import copper_pod, small_pod
from tests.model.zoned_halls import zoned_fat_tree_file


def _zoned(tmp_path_factory):
    return load_design(zoned_fat_tree_file(tmp_path_factory))


@pytest.mark.parametrize("make", [small_pod, copper_pod, _zoned])
def test_one_shot_optics_equal_the_kept_tallys(make, tmp_path_factory):
    design = make(tmp_path_factory) if make is _zoned else make()
    one_shot = Analyzer(design, RoutedLinks(design), subscribe=False, refresh_plant=False)
    following = Analyzer(design, RoutedLinks(design))
    try:
        report = one_shot.report()
        kept = following.report()
        assert one_shot._plugs is None and following._plugs is not None
        assert report.optics == kept.optics and report.optics
        assert report.to_json() == kept.to_json()
    finally:
        following.close()
