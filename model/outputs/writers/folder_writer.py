"""Replace a whole export folder atomically: a full disk leaves the previous folder complete.

Every file is written (and synced) into a new folder beside the target, which then takes the
old folder's place by two renames (the old one moves aside, the new one moves in, the old one
goes; if the second rename fails the old one comes back). So the target is at every moment
either the complete previous export or the complete new one, never a mix of two designs.

A folder holding anything the export does not write (other files, other folders) is refused
rather than replaced: replacing it would delete the user's files.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections import deque
from collections.abc import Collection, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from model.outputs.writers import ExportError

# Files of exports written by earlier Hallwright versions (flat NN_name.csv and a README):
# replacing them is what the user asked for.
_OLD_EXPORT_FILE = re.compile(r"(00_README\.txt|\d\d_[\w-]+\.csv)")
_WRITERS = 8  # threads writing and syncing the files (their time is spent waiting on the disk)
_IN_FLIGHT = 4 * _WRITERS  # files made and not yet written, at most


def replace_folder(
    directory: Path, files: Iterable[tuple[str, bytes]], what: str, ours: Collection[str]
) -> list[Path]:
    """Make ``directory`` hold exactly ``files`` ((relative path, bytes) pairs, made as they are
    taken: each is written while the next is made); returns the paths. ``ours`` names what may
    be at the top of ``directory`` (files and folders the export writes): anything else there
    is the user's, and the folder is refused before anything is written. Raises
    :class:`ExportError` with a sentence; on failure ``directory`` is as it was."""
    directory = Path(directory)
    if directory.is_dir():
        foreign = sorted(
            p.name
            for p in directory.iterdir()
            if p.name not in ours and not (p.is_file() and _OLD_EXPORT_FILE.fullmatch(p.name))
        )
        if foreign:
            shown = ", ".join(foreign[:3]) + (" …" if len(foreign) > 3 else "")
            raise ExportError(
                f"{directory} holds files that are not a {what} ({shown}); "
                "choose a new or empty folder, nothing was written"
            )
    staging = None
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
        written = _write_all(staging, files)
        os.chmod(staging, 0o777 & ~_umask())  # mkdtemp makes it owner-only
        _swap_in(staging, directory)
        staging = None
    except OSError as exc:
        raise ExportError(
            f"could not write the {what} to {directory} ({exc.strerror or exc}); "
            "the previous export is unchanged"
        ) from None
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
    return [directory / relative for relative in written]


def _write_all(staging: Path, files: Iterable[tuple[str, bytes]]) -> list[Path]:
    """Write and sync every file into ``staging``; returns their relative paths. A few threads write and sync: fsync waits on the disk with the GIL released,
    so the ~1,800 files of an XL export overlap their waits with each other and with the
    making of the next files here. At most ``_IN_FLIGHT`` files wait to be written, so memory
    holds a few files, not the folder. Every file is synced before this returns; the first
    error is raised here (the files still queued are dropped)."""
    folders: set[Path] = set()
    written: list[Path] = []
    pending: deque[Future] = deque()
    with ThreadPoolExecutor(max_workers=_WRITERS) as pool:
        try:
            for relative, data in files:
                path = staging / relative
                if path.parent not in folders:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    folders.add(path.parent)
                if len(pending) >= _IN_FLIGHT:
                    pending.popleft().result()
                pending.append(pool.submit(_write_synced, path, data))
                written.append(Path(relative))
            while pending:
                pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()
    return written


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _swap_in(staging: Path, directory: Path) -> None:
    if not directory.exists():
        os.rename(staging, directory)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{directory.name}.old.", dir=directory.parent))
    os.rmdir(old)
    os.rename(directory, old)
    try:
        os.rename(staging, directory)
    except OSError:
        os.rename(old, directory)
        raise
    _remove_tree(old)


def _remove_tree(folder: Path) -> None:
    """Delete the previous export (best effort, as ``shutil.rmtree(ignore_errors=True)``), its
    files by a few threads: unlinking a file whose blocks were synced waits on the file
    system's journal (1-5 ms a file on a busy disk), so the ~1,800 files of an XL export took
    2-6 s one after the other and ~0.2 s side by side."""
    files = [Path(root, name) for root, _dirs, names in os.walk(folder) for name in names]
    with ThreadPoolExecutor(max_workers=_WRITERS) as pool:
        for _ in pool.map(_unlink_quietly, files):
            pass
    shutil.rmtree(folder, ignore_errors=True)


def _unlink_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass  # left to rmtree, which ignores what it cannot remove


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
