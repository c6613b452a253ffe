"""Export writers: pure functions of rows -> file bytes, written atomically.

Every writer builds the file's content in memory (whole, or piece by piece as it is written:
the big CSV files) and replaces the target through a temporary file beside it
(``model.files.design_file.write_atomic``), so a failed export never leaves a half file and never damages
an older export of the same name.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from model.files.design_file import DesignFileError, write_atomic


class ExportError(Exception):
    """An export could not be written; ``str()`` is a sentence for the user."""


def write_file(path: str | Path, data: bytes | Iterable[bytes]) -> None:
    """Replace ``path`` with ``data`` (bytes, or pieces of bytes written as they come)
    atomically; raises :class:`ExportError` on failure."""
    path = Path(path)
    if path.is_dir():
        raise ExportError(f"{path} is a directory, not a file name")
    if not path.parent.is_dir():
        raise ExportError(f"cannot write {path.name}: the folder {path.parent} does not exist")
    try:
        write_atomic(path, data)
    except DesignFileError as exc:
        raise ExportError(str(exc)) from None


__all__ = ["ExportError", "write_file"]
