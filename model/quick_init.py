"""A faster ``__init__`` for frozen dataclasses that are made by the hundred thousand.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__`` (its
own ``__setattr__`` refuses): ~0.4 us a field. A zoned XL hall's structured layout makes ~2 M
channel elements, cords and channels, so that alone was seconds of every export and analysis.
:func:`quick_init` gives the class an ``__init__`` that fills the instance's ``__dict__`` in one
call instead. Everything else stays the dataclass's own: the fields, their defaults, equality,
hashing, ``repr``, ``dataclasses.replace`` (which calls this ``__init__``) and the refusal to
assign a field afterwards.
"""

from __future__ import annotations

import dataclasses


def quick_init(cls: type) -> type:
    """Replace the frozen dataclass ``cls``'s ``__init__`` (see the module docstring); a
    ``__post_init__`` is still called. Fields with a ``default_factory`` are not supported."""
    params, names, defaults = [], [], {}
    for f in dataclasses.fields(cls):
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: quick_init needs every field in __init__")
        if f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: quick_init takes no default_factory")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        names.append(f.name)
    fill = ", ".join(f"{n}={n}" for n in names)
    post = "\n    self.__post_init__()" if hasattr(cls, "__post_init__") else ""
    source = f"def __init__(self, {', '.join(params)}):\n    self.__dict__.update({fill}){post}\n"
    namespace: dict = {}
    exec(source, defaults, namespace)  # noqa: S102 - code made from the class's own field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    return cls
