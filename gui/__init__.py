"""The Qt editor: main window, canvas, panels and undo commands (PySide6 only; edits go through
gui/edit/commands.py to the model's edit API)."""
