"""Process tuning of the editor: garbage collection on the GUI thread, memory reuse, and
letting go of large object graphs a slice at a time (memory reuse: ``model.runtime.heap_reuse``,
shared with the commands). See ``docs/architecture.md``.

Modules:

- ``main_thread_gc``: The editor's cyclic garbage collection runs on the GUI thread only, on a
  timer.
- ``retirer``: Retirer: lets go of a large object graph on the GUI thread a few milliseconds at a
  time.
"""
