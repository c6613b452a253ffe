"""Design as code: the semantic diff a reviewer reads, a text form for git's diff driver, and a three-way merge by object id.

Modules:

- ``semantic_diff``: The semantic diff of two designs: objects moved, added, removed, re-routed,
  media flipped, fields edited, with the KPI and BOM delta (over ``model.studies.compare``).
- ``design_text``: A design as reviewable text lines, one per object, for git's textconv.
- ``merge``: Three-way merge of design files by object id; real conflicts listed by object.
"""
