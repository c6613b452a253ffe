"""A faster ``__init__`` for frozen slotted dataclasses that are made by the hundred thousand.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__`` (its
own ``__setattr__`` refuses), a generic lookup of the attribute by name per field. A zoned XL
hall's structured layout makes ~2.5 M channel elements, cords, legs and channels, so that alone
was seconds of every export and analysis. :func:`quick_init` gives the class an ``__init__``
that stores each field straight through its slot's descriptor instead.

The classes are slotted (``@dataclass(frozen=True, slots=True)``) because of their number, not
their speed: an instance with a ``__dict__`` is ~330 bytes, a slotted one of the same fields
~90. At XL that is ~0.6 GB less to allocate, and in a VM each first touch of a page is a
costly fault (half the layout's time was kernel time). Everything else stays the dataclass's
own: the fields, their defaults, equality, hashing, ``repr``, pickling,
``dataclasses.replace`` (which calls this ``__init__``) and the refusal to assign a field
afterwards.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable


def quick_init(cls: type) -> type:
    """Replace the frozen slotted dataclass ``cls``'s ``__init__`` (see the module docstring).

    ``__post_init__`` is still called; fields with ``init=False`` are its to set (through
    :func:`slot_setter`), and a class that has such fields must have one. Fields with a
    ``default_factory`` are not supported."""
    if "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: quick_init needs @dataclass(frozen=True, slots=True)")
    post = hasattr(cls, "__post_init__")
    params, lines = [], []
    namespace: dict = {}
    for f in dataclasses.fields(cls):
        if f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: quick_init takes no default_factory")
        if not f.init:
            if not post:
                raise TypeError(
                    f"{cls.__name__}.{f.name}: an init=False field needs a __post_init__"
                )
            continue
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        namespace[f"_set_{f.name}"] = slot_setter(cls, f.name)
        lines.append(f"    _set_{f.name}(self, {f.name})")
    if post:
        lines.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(lines) or "    pass") + "\n"
    scope: dict = {}
    exec(source, namespace, scope)  # noqa: S102 - code made from the class's own field names
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 - mypy refuses assigning a class's __init__
    return cls


def slot_setter(cls: type, name: str) -> Callable[[object, object], None]:
    """The function that stores attribute ``name`` of a ``cls`` instance, past the frozen
    ``__setattr__``: the slot's own descriptor, as ``object.__setattr__`` finds it."""
    return cls.__dict__[name].__set__
