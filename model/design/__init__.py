"""The design and its edit API: the records (``entities``), the ``Design`` with its edits and
queries, typed change events, file limits enforced on edits, and the design-level tools built
on the edit API (placement, arrange, bulk connect, clipboard, search, fabric membership,
structured-cabling edits).

Modules:

- ``annotation_edits``: The annotation edits of a design (a mixin of ``Design``): the building's
  drawing under the plan and the dimension lines, each its own change kind.
- ``arrange``: Align and distribute racks: the new centres, computed from the footprints; the GUI
  applies them as one move command.
- ``bulk_connect``: Bulk connect: every free port of a port group on some devices to free ports of
  some switches, with the rails kept — the mapping is planned here, previewed by the GUI, applied
  as one edit.
- ``bulk_load``: Bulk load of a file's links: the checks of ``Design.add_links`` as whole-set
  operations.
- ``changes``: Typed change events of a design: what one edit changed, and who is told.
- ``clipboard``: Copy and paste of racks with their devices and the links between them.
- ``design``: The Design: a hall with its trays, racks, devices and links, and the edit API that
  changes it.
- ``entities``: The records a design is made of: hall, trays, racks, devices, links and design
  settings.
- ``fabrics``: Fabric membership: which network (compute, storage, in-band, OOB, scale-up) a switch
  or link is in.
- ``limits``: Limits on what a design file (and so the edit API) may hold, so that any accepted
  design is processed by every stage in bounded time and memory.
- ``link_entries``: The rules a link's ``via`` and ``polarity`` entries follow beyond their field
  types, in one place (the loader's and the edit API's).
- ``links``: The link edits of a design: connect ports, change a link's record, disconnect.
- ``placement``: Records for new objects placed by the user: snapped rack positions, names, free U
  slots.
- ``port_map``: A device's port map: every port with its group, role, speed, the face it is on and
  where it goes (far device, port and rack, or free) — the table an installer checks a server
  against.
- ``queries``: Reads of a design (ids, ports, what sits where, what links where) and the checks
  edits make.
- ``rack_clashes``: Where a rack may stand: the one collision rule the analysis warnings and the
  canvas share.
- ``rack_role``: What a rack is for, from the roles of the devices it holds (the plan colours racks
  by it).
- ``panel_names``: Patch panel names by rack and U (``C01-U42``, TIA-606), following a panel
  when its rack is renamed or it is moved.
- ``rack_rows``: Racks grouped into rows for the elevation sheets: by the letters their names start
  with.
- ``record_checks``: The design file's ranges, enforced on edits: what the edit API accepts, the
  loader reads back.
- ``records``: The design's edit records: its error, what a removal took out, and the checks edits
  share.
- ``underlay``: The drawing under the plan: where its points land on the plan, its calibration by
  two points and a distance, and snapping a drawn point to its lines.
- ``rows``: Rows on the floor: which racks stand in a row, row-and-position names (``B07``),
  renumbering by row and packing racks along a row with a spacing.
- ``search``: Find by name: racks, devices and links whose name, type, label or ports match a text
  (``SearchIndex``: one lowercase string per design revision, searched per keystroke).
- ``structured_edit``: Edit API of structured cabling: place and remove patch panels, route a link
  via panels.
"""
