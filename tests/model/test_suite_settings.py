"""The suite's own settings: Hypothesis's "ci" profile (no wall-clock window in any property
test) is what every test inherits."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.skipif(
    os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci", reason="another profile was asked for"
)


def test_the_ci_profile_has_no_deadline_and_no_too_slow_check():
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
    assert settings.default.print_blob


@settings(max_examples=3)
@given(st.integers())
def _example_property(n):
    pass


def test_a_decorator_naming_only_its_examples_inherits_the_profile():
    """A test module is imported after the conftest loaded the profile, so its decorators take
    what they do not name from the profile (Hypothesis resolves them when the decorator runs)."""
    chosen = _example_property._hypothesis_internal_use_settings
    assert chosen.max_examples == 3 and chosen.deadline is None
    assert HealthCheck.too_slow in chosen.suppress_health_check
