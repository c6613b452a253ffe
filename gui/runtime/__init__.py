"""Process tuning of the editor: garbage collection on the GUI thread, memory reuse, and
letting go of large object graphs a slice at a time. See ``docs/architecture.md``.

Modules:

- ``heap_reuse``: The editor keeps the memory numpy frees for its next arrays instead of handing it
  back.
- ``main_thread_gc``: The editor's cyclic garbage collection runs on the GUI thread only, on a
  timer.
- ``retirer``: Retirer: lets go of a large object graph on the GUI thread a few milliseconds at a
  time.
"""
