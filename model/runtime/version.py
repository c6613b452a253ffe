"""Hallwright's version: the one in pyproject.toml (or the installed package's metadata)."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def version() -> str:
    try:
        return metadata.version("hallwright")
    except metadata.PackageNotFoundError:
        pass
    try:
        return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"
