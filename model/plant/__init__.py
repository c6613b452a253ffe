"""The physical plant: what is bought and plugged. A plug per used cage, cables and fibres,
plug power per device and rack, the tally of parts, structured cabling's trunks and panels,
and the tray products.

Modules:

- ``cage_labels``: Cage labels, plug findings and per-link plug explanations of the physical plant.
- ``laser_sources``: External laser sources of co-packaged switches: ordered, powered and counted
  per switch.
- ``links``: Per-link parts of the physical plant (cages, plugs, cable), kept column by column.
- ``physical_plant``: The physical plant: what is bought and plugged — a plug per used cage, cables
  and fibres.
- ``plant_cache``: Keeping the plant's count and cage graph from one build_plant call to the next
  (PlantCache).
- ``power``: Plug power of the physical plant: per cage, per device and per rack (typical and max).
- ``structured``: Structured cabling in the physical plant: trunks, panels, cassettes and cords
  replace fibres.
- ``tally``: Counting the plant's parts per cage-graph component, and keeping the count across
  edits.
- ``tray_products``: Tray products of a design: metres of each standard tray product, in sections,
  by bank.
"""
