"""Facility checks of a design: its power distribution (feeds, panels, rack PDUs) at maximum draw.

Layer: above :mod:`model.plant` (a rack's maximum draw includes the plugs in its cages, which
the cable plant gives) and below :mod:`model.analysis` (the analyzer reports these checks and
what-if fails feeds and panels through them). It reads the design and per-rack watts only.
"""
