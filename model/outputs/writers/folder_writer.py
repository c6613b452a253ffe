"""Replace a whole export folder atomically: a full disk leaves the previous folder complete.

Every file is written into a new folder beside the target (``.NAME.hallwright-XXXXXXXX.new``),
all of them synced at once, which then takes the old folder's place. On Linux the two names
are exchanged in one step (``renameat2(RENAME_EXCHANGE)``), so the target is at every
moment the complete previous export or the complete new one. Where the system cannot exchange,
two renames do it (the old folder moves aside as ``.NAME.hallwright-XXXXXXXX.old``, the new
one moves in); a process killed between them leaves the target missing, and the next export
of that folder puts the old one back first. Each write locks its temporary folders, and the
next export removes those no live process holds: a killed export leaves no litter behind.

A symbolic link to a folder is followed: the folder it points at is replaced, the link stays.

A folder holding anything the export does not write (other files, other folders) is refused
rather than replaced: replacing it would delete the user's files.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import shutil
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Collection, Iterable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path

from model.files.output_file import lock, remove_stale_siblings, sync_folder, temp_prefix
from model.outputs.writers import ExportError

# Files of exports written by earlier Hallwright versions (flat NN_name.csv and a README):
# replacing them is what the user asked for.
_OLD_EXPORT_FILE = re.compile(r"(00_README\.txt|\d\d_[\w-]+\.csv)")
_WRITERS = 8  # threads syncing or unlinking files where that is one call per file (disk waits)
_FILE_WRITERS = 2  # threads creating and writing the files while the next ones are made
_IN_FLIGHT = 8  # files made and not yet written, at most


def replace_folder(
    directory: Path, files: Iterable[tuple[str, bytes]], what: str, ours: Collection[str]
) -> list[Path]:
    """Make ``directory`` hold exactly ``files`` ((relative path, bytes) pairs, made as they are
    taken: each is written while the next is made); returns the paths. ``ours`` names what may
    be at the top of ``directory`` (files and folders the export writes): anything else there
    is the user's, and the folder is refused before anything is written. Raises
    :class:`ExportError` with a sentence; on failure ``directory`` is as it was."""
    directory = Path(directory)
    if directory.is_symlink():
        directory = Path(os.path.realpath(directory))
    if os.path.lexists(directory) and not directory.is_dir():
        raise ExportError(f"{directory} is not a folder; nothing was written")
    recover(directory)
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
    staging_fd = -1
    try:
        staging = Path(
            tempfile.mkdtemp(
                prefix=temp_prefix(directory.name), suffix=".new", dir=directory.parent
            )
        )
        staging_fd = os.open(staging, os.O_RDONLY)
        lock(staging_fd)  # held until the folder is in place: no other export removes it
        written = _write_all(staging, staging_fd, files)
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
        if staging_fd >= 0:
            os.close(staging_fd)
    return [directory / relative for relative in written]


def _write_all(staging: Path, staging_fd: int, files: Iterable[tuple[str, bytes]]) -> list[str]:
    """Write every file into ``staging`` as it is made, then make them all durable at once
    (:func:`_sync_all`); returns their relative paths. Each file is handed to a writer thread
    as soon as it is made, and at most ``_IN_FLIGHT`` wait for theirs, so memory holds a few
    files, not the folder; the first error is raised here, after the writes under way end.
    Why threads: creating a file costs the kernel ~0.4 ms on our VMs (3,400 files of a zoned
    XL export: ~1.4 s), time in which ``open`` releases the interpreter lock; a writer thread
    pays it while this thread makes the next file. ``staging_fd`` is the folder opened before
    any file was written: ``syncfs`` reports the write-back errors of its file system since
    that descriptor was opened."""
    root = os.fspath(staging)
    folders = {root}
    written: list[str] = []
    pending: deque[Future] = deque()
    last_write: dict[str, Future] = {}  # a path given twice: its last bytes win, as in one thread
    with ThreadPoolExecutor(max_workers=_FILE_WRITERS) as pool:
        try:
            for relative, data in files:
                while pending and pending[0].done():  # a failed write stops the export now
                    pending.popleft().result()
                path = os.path.join(root, relative)
                folder = os.path.dirname(path)
                if folder not in folders:  # made here, before any file in it is handed over
                    os.makedirs(folder, exist_ok=True)
                    folders.add(folder)
                earlier = last_write.get(path)
                if earlier is not None:
                    earlier.result()
                last_write[path] = future = pool.submit(_write_file, path, data)
                pending.append(future)
                written.append(relative)
                while len(pending) > _IN_FLIGHT:
                    pending.popleft().result()
            for future in pending:
                future.result()
        except Exception:
            # The first error is the one to report: a write that failed before a later file
            # could not be made (the disk full, then a table that could not be made from it).
            wait(pending)
            for future in pending:
                failed = future.exception()
                if failed is not None:
                    raise failed from None
            raise
    _sync_all(staging_fd, [os.path.join(root, relative) for relative in written], folders)
    return written


def _write_file(path: str, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)


def _sync_all(staging_fd: int, paths: list[str], folders: Collection[str]) -> None:
    """Every file and folder of the staging folder on the disk before it is swapped in.

    Why one call: an fsync per file made the file system commit its journal once per file
    (~2,100 commits for an XL export, with threads to overlap the waits). On Linux, ``syncfs``
    writes the staging folder's file system back in one pass and one commit, and fails (the
    export with it) if any write-back failed. It also writes what other programs left dirty on
    that file system, so on a disk busy with other writes it may wait longer, but it never
    syncs less than the files written here. Where there is no ``syncfs``, each file and folder
    is synced on its own, by a few threads: fsync waits on the disk with the GIL released.
    Raises OSError."""
    if _SYNCFS is not None:
        try:
            _SYNCFS(staging_fd)
            return
        except OSError as exc:
            if exc.errno != errno.ENOSYS:  # a kernel without the call: sync file by file
                raise
    with ThreadPoolExecutor(max_workers=_WRITERS) as pool:
        for _ in pool.map(_fsync, [*paths, *folders]):
            pass


def _fsync(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _syncfs() -> Callable[[int], None] | None:
    """``syncfs(fd)`` of libc (Linux, glibc 2.14 and later) raising OSError, or None."""
    if not sys.platform.startswith("linux") or not _reports_writeback_errors(os.uname().release):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None
    function.argtypes = (ctypes.c_int,)
    function.restype = ctypes.c_int

    def syncfs(fd: int) -> None:
        if function(fd) != 0:
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code))

    return syncfs


def _reports_writeback_errors(release: str) -> bool:
    """Whether a Linux kernel of ``release`` ("6.1.0-18-amd64") makes ``syncfs`` fail when a
    write-back failed: from 5.8 (commit 735e4ae5ba28, "vfs: track per-sb writeback errors and
    report them to syncfs"); before, it failed only for a bad descriptor, so an EIO would be
    lost and a damaged export swapped in over the good one: there every file is fsynced."""
    parts = release.split(".")
    try:
        major, minor = int(parts[0]), int("".join(c for c in parts[1][:3] if c.isdigit()) or 0)
    except (IndexError, ValueError):
        return False
    return (major, minor) >= (5, 8)


_SYNCFS = _syncfs()


def recover(directory: Path) -> None:
    """Undo what a killed export of ``directory`` left: an old folder moved aside goes back
    when the target is missing (killed between the two renames), else is removed; new folders
    never swapped in are removed. Folders a live export holds (locked) are left alone."""

    def restore_or_remove(old: Path) -> None:
        if not os.path.lexists(directory):
            os.rename(old, directory)
        else:
            _remove_tree(old)

    remove_stale_siblings(directory.parent, directory.name, ".old", restore_or_remove)
    remove_stale_siblings(directory.parent, directory.name, ".new", _remove_tree)


def _swap_in(staging: Path, directory: Path) -> None:
    """Put ``staging`` in ``directory``'s place; the previous folder is removed."""
    if not os.path.lexists(directory):
        os.rename(staging, directory)
    elif exchange(staging, directory):
        # ``staging`` now names the previous export: the target was complete at every moment
        _remove_tree(staging)
    else:
        _swap_by_two_renames(staging, directory)
    sync_folder(directory.parent)


def _swap_by_two_renames(staging: Path, directory: Path) -> None:
    """The swap where names cannot be exchanged: the old folder moves aside (locked, so that
    no other export takes it for a dead one's), the new one moves in, the old one goes. A kill
    between the renames is repaired by the next export (:func:`recover`)."""
    old = Path(
        tempfile.mkdtemp(prefix=temp_prefix(directory.name), suffix=".old", dir=directory.parent)
    )
    os.rmdir(old)
    old_fd = os.open(directory, os.O_RDONLY)
    try:
        lock(old_fd)
        os.rename(directory, old)
        try:
            second_rename(staging, directory)
        except OSError:
            os.rename(old, directory)
            raise
    finally:
        os.close(old_fd)
    _remove_tree(old)


def second_rename(staging: Path, directory: Path) -> None:
    """The new folder moves into the target's name (a function of its own so that a test can
    fail it, as a kill between the two renames would)."""
    os.rename(staging, directory)


_RENAME_EXCHANGE = 2  # linux/fs.h
_AT_FDCWD = -100


def _renameat2():
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2  # glibc 2.28 and later
    except (OSError, AttributeError):
        return None
    function.argtypes = (
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    )
    function.restype = ctypes.c_int
    return function


_EXCHANGE = _renameat2() if os.name == "posix" else None


def exchange(first: Path, second: Path) -> bool:
    """Swap the names of two existing paths in one step; False where the system cannot (no
    ``renameat2``, or a file system without RENAME_EXCHANGE): then nothing was done."""
    if _EXCHANGE is None:
        return False
    if _EXCHANGE(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE):
        code = ctypes.get_errno()
        if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
            return False
        raise OSError(code, os.strerror(code), str(second))
    return True


def _remove_tree(folder: Path) -> None:
    """Delete the previous export (best effort, as ``shutil.rmtree(ignore_errors=True)``), its
    files by a few threads: unlinking a file whose blocks were synced waits on the file
    system's journal (1-5 ms a file on a busy disk), so the ~1,800 files of an XL export took
    2-6 s one after the other and ~0.2 s side by side."""
    if os.path.islink(folder):  # never the files a link points at
        os.unlink(folder)
        return
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
