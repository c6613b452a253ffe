"""Process tuning of the model side: the garbage collector's policy, forked calls on the second
core, fast ``__init__`` of bulk records, the version. See ``docs/architecture.md`` (process model).

Imports nothing else of ``model``.

Modules:

- ``forked_call``: A function run on the second core, in a forked copy of this process, its result
  read back.
- ``gc_policy``: How the cyclic garbage collector treats a design while it is built and once it is
  loaded.
- ``quick_init``: A faster ``__init__`` for frozen slotted dataclasses that are made by the hundred
  thousand.
- ``version``: Hallwright's version: the one in pyproject.toml (or the installed package's
  metadata).
"""
