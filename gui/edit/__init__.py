"""Undo commands: every user edit is one of these, and each calls only the model's edit API.

Modules:

- ``commands``: Undo commands: every user edit is one of these, and each calls only the model's
  edit API.
- ``panel_commands``: Placing patch panels and routing links via panels: undo commands and their
  Design menu entries.
"""
