"""tests/rewrite_asserts.py writes the assertion-rewritten bytecode pytest's workers read back."""

from __future__ import annotations

import pytest
from _pytest.assertion import rewrite as pytest_rewrite

from tests.rewrite_asserts import TESTS, modules_to_rewrite, rewrite

SOURCE = "def check(x):\n    assert x + 1 == 4\n"


def _cached_code(path):
    pyc = pytest_rewrite.get_cache_dir(path) / (path.name[:-3] + pytest_rewrite.PYC_TAIL)
    return pytest_rewrite._read_pyc(path, pyc)


def test_the_modules_are_the_ones_pytest_rewrites():
    found = set(modules_to_rewrite())
    assert TESTS / "conftest.py" in found and TESTS / "gui" / "conftest.py" in found
    assert TESTS / "model" / "test_rewrite_asserts.py" in found
    assert TESTS / "builders.py" not in found and TESTS / "rewrite_asserts.py" not in found


def test_the_cached_module_explains_a_failing_assert_and_is_redone_when_edited(tmp_path):
    path = tmp_path / "test_sample.py"
    path.write_text(SOURCE)
    assert _cached_code(path) is None
    assert rewrite(path) is True
    code = _cached_code(path)
    assert code is not None  # what pytest's import reads instead of rewriting
    namespace: dict = {}
    exec(code, namespace)
    namespace["check"](3)
    with pytest.raises(AssertionError, match=r"assert \(2 \+ 1\) == 4"):
        namespace["check"](2)  # pytest's explanation, not a bare AssertionError
    assert rewrite(path) is False  # up to date: nothing written
    path.write_text(SOURCE.replace("4", "5"))
    assert _cached_code(path) is None  # the source hash no longer matches
    assert rewrite(path) is True
