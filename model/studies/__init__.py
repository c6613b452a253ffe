"""Studies over several designs: two designs compared, and sweeps of generator parameters.

Modules:

- ``compare``: Two designs side by side: a KPI table and the physical diff (racks, devices, links,
  media, BOM).
- ``sweep``: Design sweeps: every combination of varied generator parameters and settings, one KPI
  row each.
"""
