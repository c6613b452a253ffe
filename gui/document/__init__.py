"""One open design in the editor: its file, undo stack, cable-plant feed, autosave and the
analysis runner that keeps its report current off the GUI thread.

Modules:

- ``analysis_runner``: AnalysisRunner: keeps a document's analysis report current, debounced and
  off the GUI thread.
- ``autosaver``: Autosaver: every minute while the document is modified, its design goes to a
  recovery file (encoded and written on a worker thread); after a crash the next session offers
  those files.
- ``document``: Document: one open design with its file path, undo stack and cable plant; loading,
  saving and the list of recent files (the autosave to a recovery file is gui.document.autosaver).
- ``files``: DocumentFiles: the editor's File menu work — new, open, save, save as, revert, the
  recent files and the recovery of autosaved changes — with the questions and messages it shows.
- ``plant_feed``: PlantFeed: the one owner of a document's cable-plant refreshes in the editor.
"""
