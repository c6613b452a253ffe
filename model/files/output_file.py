"""Where an output may go: regular files replaced atomically, devices and pipes written through.

Every file Hallwright writes (designs, autosaves, exports, pictures) goes through
:func:`output_target` and :func:`write_output`:

- a regular file or a new name is replaced atomically: the bytes go to a temporary file beside
  it (``.NAME.hallwright-XXXXXXXX.tmp``), synced, then renamed over it;
- ``-`` is standard output;
- a character device (``/dev/null``, a terminal) or a FIFO is written *through*: opened and
  written, never renamed over (a rename would replace ``/dev/null`` with a plain file);
- a directory, a socket, a block device, or a symbolic link to one is refused with a sentence;
- a symbolic link to a regular file (or to a new name) writes its target; the link stays.

A save killed half-way leaves its temporary file; each temporary file is locked
(``flock``) by the process writing it, so the next write of the same target removes the ones
no live process holds (:func:`remove_stale_siblings`).
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # Windows: no flock; stale temporary files are judged by age instead
    fcntl = None

STDOUT = "-"
TEMP_MARK = ".hallwright-"  # in every temporary name: what the next write may remove
_RANDOM = r"[a-z0-9_]{8}"  # tempfile's random part
_UNLOCKED_STALE_S = 3600.0  # without flock: a temporary file this old is a dead write's


class OutputRefused(Exception):
    """The path names something that is not a file Hallwright may write; ``str()`` says what
    (``path`` and ``problem``: the same sentence in two parts)."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path} {problem}")
        self.path = path
        self.problem = problem


class OutputTarget(NamedTuple):
    """Where the bytes go: ``kind`` is "file" (replace atomically), "stream" (a character
    device or FIFO, written through) or "stdout"; ``path`` is the link's target for a link."""

    kind: str
    path: Path


def output_target(path: str | os.PathLike[str]) -> OutputTarget:
    """The target of an output named ``path``, or :class:`OutputRefused` with a sentence."""
    if os.fspath(path) == STDOUT:
        return OutputTarget("stdout", Path(STDOUT))
    path = Path(path)
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return OutputTarget("file", path)
    except OSError as exc:
        raise OutputRefused(path, f"cannot be examined ({exc.strerror or exc})") from None
    if stat.S_ISREG(mode):
        return OutputTarget("file", path)
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return OutputTarget("stream", path)
    kind = (
        "a folder"
        if stat.S_ISDIR(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "a block device"
        if stat.S_ISBLK(mode)
        else "not a regular file"
    )
    raise OutputRefused(path, f"is {kind}, not a file name; nothing was written")


def write_output(target: OutputTarget, data: bytes | Iterable[bytes]) -> None:
    """Write ``data`` (bytes, or pieces of bytes written as they are made) to ``target``.
    Raises OSError; a "file" target is then as it was."""
    pieces: Iterable[bytes] = (
        [bytes(data)]
        if isinstance(data, (bytearray, memoryview))
        else ([data] if isinstance(data, bytes) else data)
    )
    if target.kind == "stdout":
        out = sys.stdout.buffer
        for piece in pieces:
            out.write(piece)
        out.flush()
    elif target.kind == "stream":
        _write_through(target.path, pieces)
    else:
        _replace_atomically(target.path, pieces)


def _write_through(path: Path, pieces: Iterable[bytes]) -> None:
    """Open an existing device or FIFO and write into it (no create, no truncate, no rename)."""
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(fd, "wb") as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):  # replaced since it was looked at
            raise OSError(f"{path} changed while it was opened")
        for piece in pieces:
            handle.write(piece)


def _replace_atomically(path: Path, pieces: Iterable[bytes]) -> None:
    directory = path.parent if str(path.parent) else Path(".")
    remove_stale_siblings(directory, path.name, ".tmp", _unlink)
    tmp_name = None
    try:
        fd, tmp_name = _locked_temp_file(directory, path.name)
        with os.fdopen(fd, "wb") as handle:
            for piece in pieces:
                handle.write(piece)
            handle.flush()
            os.fsync(handle.fileno())
            # mkstemp creates owner-only files; give the result the mode the user would expect:
            # the old file's, or what the umask allows for a new one.
            os.chmod(tmp_name, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~umask())
            os.replace(tmp_name, path)  # while the lock is held: no cleaner takes it meanwhile
            tmp_name = None
        sync_folder(directory)
    finally:
        if tmp_name is not None:
            _unlink(Path(tmp_name))


def _locked_temp_file(directory: Path, name: str) -> tuple[int, str]:
    """A new temporary file beside ``name``, open and locked. A cleaner of another write may
    take a file between its creation and its lock: then it is gone, and another is made."""
    for _ in range(5):
        fd, tmp_name = tempfile.mkstemp(prefix=temp_prefix(name), suffix=".tmp", dir=directory)
        if fcntl is None:
            return fd, tmp_name
        fcntl.flock(fd, fcntl.LOCK_EX)
        if os.fstat(fd).st_nlink:
            return fd, tmp_name
        os.close(fd)
    raise OSError(f"could not make a temporary file in {directory}")


def temp_name_pattern(name: str, suffix: str) -> re.Pattern[str]:
    """The names of the temporary siblings of ``name`` ending in ``suffix``."""
    return re.compile(re.escape(temp_prefix(name)) + _RANDOM + re.escape(suffix))


def temp_prefix(name: str) -> str:
    """The start of the temporary names beside ``name``: the name cut to 200 characters, so
    that a name near the file system's 255 stays writable (a dead write of another name with
    the same start may then be removed too: it is dead either way)."""
    return f".{name[:200]}{TEMP_MARK}"


def remove_stale_siblings(
    directory: Path, name: str, suffix: str, remove: Callable[[Path], None]
) -> list[Path]:
    """Call ``remove`` on every temporary sibling of ``name`` (ending in ``suffix``) that no
    live write holds (a write locks its temporary file or folder until it is renamed): what a
    killed write left. Returns the ones removed."""
    pattern = temp_name_pattern(name, suffix)
    try:
        names = [n for n in os.listdir(directory) if pattern.fullmatch(n)]
    except OSError:
        return []
    removed = []
    for stale in names:
        path = directory / stale
        if not os.path.lexists(path) or os.path.islink(path):
            continue
        fd = holds_lock(path)
        if fd is None:
            continue
        try:
            remove(path)
            removed.append(path)
        finally:
            if fd >= 0:
                os.close(fd)
    return removed


def holds_lock(path: Path) -> int | None:
    """An open descriptor of ``path`` holding its lock (-1 where there is no ``flock`` and the
    file is old enough to be a dead write's), or None when a live write holds it."""
    if fcntl is None:
        try:
            old = time.time() - os.lstat(path).st_mtime > _UNLOCKED_STALE_S
        except OSError:
            return None
        return -1 if old else None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def lock(fd: int) -> None:
    """Lock an open file or folder for as long as it is open (see :func:`holds_lock`)."""
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX)


def sync_folder(directory: Path) -> None:
    """Make a rename in ``directory`` durable (POSIX; elsewhere nothing to do)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
