"""Structured cabling: the layout of patch panels, MPO trunks and patch cords (``layout``), each
link's optical channel, its loss budget and polarity, and the editor's channel view.

Modules:

- ``channel_checks``: Findings and the ``channels`` summary of a set of optical channels (loss,
  reach, polarity).
- ``channel_groups``: Step 1 of the structured layout: the channels grouped by path, mode and
  connector, as columns.
- ``channel_table``: A structured layout's channels and patch cords as columns, made into objects
  on demand.
- ``channel_view``: The channel of one link as the editor shows it: one row per element with its
  loss.
- ``channels``: Optical channels of links and their loss budgets.
- ``cords``: The patch cords of a structured layout and each channel's row, worked out as arrays.
- ``layout``: Structured-cabling layout of a design: panels, bundled MPO trunks, patch cords,
  channels.
- ``legs``: Step 2 of the structured layout: the trunk legs of every path, their panels taken
  from the pool.
- ``link_polarity``: Element polarity on a link's channel: the record (``Link.polarity``), applying
  it, fixing it.
- ``panel_routes``: Which patch panels a link is routed through when the user asks for "route via
  panels".
- ``paths``: Patch points of a structured channel: which racks' panels a link passes, by style or
  by hand.
- ``polarity``: Channel polarity: every element is a fibre permutation; composed, Tx must land on
  Rx.
- ``trunk_bundles``: Step 3 of the structured layout: the legs of each panel pair bundled into MPO
  trunks, as columns.
"""
