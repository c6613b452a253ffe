"""Write pytest's assertion-rewritten bytecode of every test module once, before ``make test``'s
pytest runs, so each xdist worker reads it instead of rewriting every module again.

Why: pytest rewrites a test module's asserts (for its failure explanations) when it imports the
module, and caches the result in ``__pycache__`` only when bytecode may be written. The
project's shells set PYTHONDONTWRITEBYTECODE, so every worker of every run rewrote all ~280
modules: ~5.4 of the ~9.4 s CPU a worker spends collecting the model tests (4.0 s with the
cache), and each of ``make test``'s two runs has a worker per core. Written here once (the
modules split over the cores), the workers only read it: pytest reads its cache whatever
PYTHONDONTWRITEBYTECODE says, and checks each file's source hash, so a stale entry is rewritten.

This uses pytest's own rewriting (``_pytest.assertion.rewrite``, not a public API): if that is
not there, it says so and writes nothing (the workers then rewrite, as before). Files: pytest's
default ``python_files`` (``test_*.py``, ``*_test.py``) and ``conftest.py``, under tests/.
"""

from __future__ import annotations

import sys
import tomllib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PATTERNS = ("test_*.py", "*_test.py", "conftest.py")


def modules_to_rewrite(root: Path = TESTS) -> list[Path]:
    """Every file under ``root`` pytest rewrites as a test module or conftest, sorted."""
    return sorted({path for pattern in PATTERNS for path in root.rglob(pattern)})


def rewrite(path: Path) -> bool:
    """Rewrite one module and write pytest's cached bytecode beside it, as an import under
    pytest would (config None: the assertion-pass hook off, as in pyproject.toml)."""
    from _pytest.assertion import rewrite as pytest_rewrite

    cache_dir = pytest_rewrite.get_cache_dir(path)
    pyc = cache_dir / (path.name[:-3] + pytest_rewrite.PYC_TAIL)
    if pytest_rewrite._read_pyc(path, pyc) is not None:
        return False  # up to date
    if not pytest_rewrite.try_makedirs(cache_dir):
        return False
    source_hash, code = pytest_rewrite._rewrite_test(path, None)
    state = type("State", (), {"trace": staticmethod(lambda message: None)})()
    return pytest_rewrite._write_pyc(state, code, source_hash, pyc)


def _pass_hook_enabled() -> bool:
    """pyproject.toml turns on pytest's assertion-pass hook: modules rewritten without a config
    would then lack it, so nothing is written."""
    project = tomllib.loads((TESTS.parent / "pyproject.toml").read_text())
    ini = project.get("tool", {}).get("pytest", {}).get("ini_options", {})
    return bool(ini.get("enable_assertion_pass_hook", False))


def main() -> int:
    try:
        from _pytest.assertion import rewrite as pytest_rewrite  # noqa: F401
    except ImportError:
        print("rewrite_asserts: this pytest has no _pytest.assertion.rewrite; nothing written")
        return 0
    if _pass_hook_enabled():
        print("rewrite_asserts: enable_assertion_pass_hook is on; nothing written")
        return 0
    paths = modules_to_rewrite()
    with ProcessPoolExecutor() as pool:  # one process per core
        written = sum(pool.map(rewrite, paths, chunksize=8))
    print(f"rewrite_asserts: {written} of {len(paths)} test modules rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
