"""Shared test set-up: headless Qt, and small designs built through the model's edit API."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from tests.builders import small_pod  # noqa: E402


@pytest.fixture
def pod():
    """Two server racks with 2 DGX H100 each and a network rack with 2 QM9700 leaves, cabled."""
    return small_pod()
