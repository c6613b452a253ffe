"""Export writers: pure functions of rows -> file bytes, written atomically.

Every writer builds the file's content in memory (whole, or piece by piece as it is written:
the big CSV files) and hands it to ``model.files.design_file.write_atomic``: a regular file is
replaced through a temporary file beside it, so a failed export never leaves a half file and
never damages an older export of the same name; ``-`` is standard output; a device or FIFO is
written through, never replaced; a folder or socket is refused with a sentence.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from model.files.design_file import DesignFileError, write_atomic
from model.files.output_file import STDOUT


class ExportError(Exception):
    """An export could not be written; ``str()`` is a sentence for the user."""


def write_file(path: str | Path, data: bytes | Iterable[bytes]) -> None:
    """Write ``data`` (bytes, or pieces of bytes written as they come) to ``path`` as
    :func:`~model.files.design_file.write_atomic` does; raises :class:`ExportError`."""
    if str(path) != STDOUT:
        path = Path(path)
        if path.is_dir():
            raise ExportError(f"{path} is a folder, not a file name; nothing was written")
        if not path.parent.is_dir():
            raise ExportError(f"cannot write {path.name}: the folder {path.parent} does not exist")
    try:
        write_atomic(Path(path), data)
    except DesignFileError as exc:
        raise ExportError(str(exc)) from None


__all__ = ["ExportError", "write_file"]
