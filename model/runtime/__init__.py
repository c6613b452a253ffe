"""Process tuning of the model side: the garbage collector's policy, forked calls on the second
core, the version. See ``docs/architecture.md`` (process model).

Imports nothing else of ``model``.

Modules:

- ``forked_call``: A function run on the second core, in a forked copy of this process, its result
  read back.
- ``gc_policy``: How the cyclic garbage collector treats a design while it is built and once it is
  loaded.
- ``version``: Hallwright's version: the one in pyproject.toml (or the installed package's
  metadata).
"""
