"""Menu actions and tools of the main window: arrange, export, print, cabling check, what-if,
structured cabling, fabric layers and the editor's extras.

Modules:

- ``arrange``: Design → Arrange (align and distribute the selected racks, model.design.arrange) and
  the View menu's snap toggle and layers (trays, cables), re-applied to every new document's plan.
- ``cabling_check``: File → Check cabling against a report…: the cabling check's problems painted
  on the plan.
- ``findings_dock``: FindingsDock: every analysis warning, measured-length deviation and cabling-check
  discrepancy in one list under the plan; F8 / Shift+F8; Export CSV.
- ``editor_extras``: The editor's working tools beyond the core window: bulk connect, find, context
  menus, help, and the layout kept between runs. Installed on a MainWindow by one call, so the
  window module stays the assembly of docks and actions it is.
- ``export``: File → Export: bill of materials, cabling schedule, NetBox files, floor-plan picture
  and rack elevations, each written from the window's current document.
- ``fabric_layers``: View > Fabrics, View > Tiers …: one checkable action per layer of each
  registered layer kind (:mod:`gui.canvas.layers`: compute, storage, in-band, OOB, scale-up; leaf,
  spine, core, scale-up).
- ``print_plan``: File → Print… (Ctrl+P): the floor plan with its legend and title block on the
  printer's page, fitted both ways (the same picture as ``main.py render``).
- ``side_docks``: Find, Compare and Sweep in docks beside the plan; every dock collapsible to its
  title.
- ``structured``: Structured cabling in the editor's menus: View > Trunks and Design > Cabling
  Style.
- ``whatif_tools``: WhatIfTools: "What if this fails?" on the plan, File → Compare With… and the
  sweep Pareto view.
"""
