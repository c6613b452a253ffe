"""The suite's own settings: Hypothesis's "ci" profile (no wall-clock window in any property
test) is what every test inherits, and designs built in a test are not settled."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ci_profile_only = pytest.mark.skipif(
    os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci", reason="another profile was asked for"
)


@ci_profile_only
def test_the_ci_profile_has_no_deadline_and_no_too_slow_check():
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
    assert settings.default.print_blob


@settings(max_examples=3)
@given(st.integers())
def _example_property(n):
    pass


@ci_profile_only
def test_a_decorator_naming_only_its_examples_inherits_the_profile():
    """A test module is imported after the conftest loaded the profile, so its decorators take
    what they do not name from the profile (Hypothesis resolves them when the decorator runs)."""
    chosen = _example_property._hypothesis_internal_use_settings
    assert chosen.max_examples == 3 and chosen.deadline is None
    assert HealthCheck.too_slow in chosen.suppress_health_check


def test_a_design_built_in_a_test_is_not_settled(tmp_path):
    """design_settling (tests/conftest.py): no freeze and no full collection per design."""
    import gc

    from model.files.design_file import read_design_bytes, save_design
    from tests.builders import small_pod

    gc.unfreeze()
    save_design(small_pod(), tmp_path / "pod.hall.json")
    read_design_bytes((tmp_path / "pod.hall.json").read_bytes(), "pod.hall.json")
    assert gc.get_freeze_count() == 0


@pytest.fixture(scope="module")
def frozen_after_a_module_fixture_built_a_design(tmp_path_factory) -> int:
    """A module fixture is set up before the test's own fixtures (design_settling's)."""
    import gc

    from model.files.design_file import read_design_bytes, save_design
    from tests.builders import small_pod

    path = tmp_path_factory.mktemp("module") / "pod.hall.json"
    save_design(small_pod(), path)
    gc.unfreeze()
    read_design_bytes(path.read_bytes(), "pod.hall.json")
    return gc.get_freeze_count()


def test_a_design_built_by_a_module_fixture_is_not_settled(
    frozen_after_a_module_fixture_built_a_design,
):
    assert frozen_after_a_module_fixture_built_a_design == 0


@pytest.mark.real_gc_settle
def test_a_test_marked_real_gc_settle_gets_the_policy(tmp_path):
    import gc

    from model.files.design_file import read_design_bytes, save_design
    from tests.builders import small_pod

    save_design(small_pod(), tmp_path / "pod.hall.json")
    try:
        read_design_bytes((tmp_path / "pod.hall.json").read_bytes(), "pod.hall.json")
        assert gc.get_freeze_count() > 0  # built on the main thread: settled at once
    finally:
        gc.unfreeze()
