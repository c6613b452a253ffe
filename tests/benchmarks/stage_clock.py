"""Each stage's own CPU (``time.process_time``) without a profiler: its functions wrapped in clocks.

cProfile charges every Python call, so a change that trades calls for numpy work (or the other
way) can look like a gain in its stage table and be a loss in CPU: the spans resumed from
station plans (277dedb) read 4.46 -> 3.22 ms a candidate under cProfile but took 0.58 -> 0.92 ms
an iteration in CPU. A clock per stage costs two ``process_time`` reads per outermost call, so
what it reports is the CPU the run spends there. Not a test: a measuring tool.
"""

from __future__ import annotations

import functools
import inspect
import sys
import time
from collections.abc import Callable


def _clocked(func: Callable, spent: dict[str, float], name: str) -> Callable:
    """``func`` adding its CPU to ``spent[name]``, only at its outermost call (recursion and
    re-entry are counted once)."""
    depth = [0]

    @functools.wraps(func)
    def clocked(*args, **kwargs):
        depth[0] += 1
        start = time.process_time()
        try:
            return func(*args, **kwargs)
        finally:
            depth[0] -= 1
            if not depth[0]:
                spent[name] += time.process_time() - start

    return clocked


def install(stages: dict[str, tuple[str, str]]) -> dict[str, float]:
    """Clock every stage (name -> (file suffix under model/, function name)): the function of
    that name defined in that file, as a method of a class there or a module function, and
    every loaded ``model`` module's reference to it (``from x import f``). Gives the dict the
    clocks add to (seconds; a stage whose function was not found stays absent)."""
    spent: dict[str, float] = {}
    for name, (suffix, func_name) in stages.items():
        module = sys.modules.get("model." + suffix.removesuffix(".py").replace("/", "."))
        if module is None:
            continue
        owners = [module, *(c for c in vars(module).values() if inspect.isclass(c))]
        for owner in owners:
            found = vars(owner).get(func_name)
            if not inspect.isfunction(found) or found.__module__ != module.__name__:
                continue
            spent.setdefault(name, 0.0)
            clocked = _clocked(found, spent, name)
            setattr(owner, func_name, clocked)
            if owner is module:  # names bound to it elsewhere by import
                for other in list(sys.modules.values()):
                    if getattr(other, "__name__", "").startswith("model."):
                        for attr, value in list(vars(other).items()):
                            if value is found:
                                setattr(other, attr, clocked)
    return spent
