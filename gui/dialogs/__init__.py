"""Dialogs: new design, hall properties, bulk connect, find, help, port table, salvage.

Modules:

- ``bulk_connect``: BulkConnectDialog: connect every free port of a group on the selected servers
  to the chosen switches in one step, with a preview of the port map (rails kept, see
  model.design.bulk_connect).
- ``design_dialogs``: Small dialogs: a new design (empty hall or generated fabric) and the hall's
  properties.
- ``find``: FindDialog (Ctrl+F): find racks, devices and links by name, select one and centre the
  plan on it; and View → Zoom to Selection. The matching itself is
  model.design.search.find_objects.
- ``help``: Help → Getting Started and Keyboard Shortcuts. The shortcut list is read from the
  window's own actions, so it is always the one the editor really has.
- ``port_table``: PortTableDialog: one device's port map (model.design.port_map) — which port goes
  where, which are free — with the routed length and medium of each cable; a row's link can be
  shown on the plan.
- ``salvage``: Opening a file with bad records: say what is wrong and, when every problem is one
  record that can be left out, offer to open the design without them — an explicit choice that
  lists what is dropped. The file on disk is only read.
"""
