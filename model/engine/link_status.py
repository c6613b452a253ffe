"""Status flags of a cable-plant row (bit flags in ``RoutedLinks.status``), shared by the plant
and the modules that read it (findings, BOM) without importing the plant itself."""

from __future__ import annotations

SAME_RACK = 1
NO_TRAY_PATH = 2  # routed on the floor
NO_MEDIUM = 4  # nothing in the catalog reaches
PINNED_OUT_OF_REACH = 8  # kept, ordered length NaN
UNREACHED_RACK = 16  # with NO_TRAY_PATH: a rack is beyond tray_reach_m of every tray
PINNED_MISMATCH = 32  # pinned medium does not carry the link's speed, lane rate or form factor
