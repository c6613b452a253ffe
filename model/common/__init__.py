"""Small helpers every layer of the model uses: numpy array tools, findings, text columns, wording.

The bottom layer: imports nothing else of ``model``.

Modules:

- ``arrays``: Small numpy helpers shared by the engine, the analysis and the exports.
- ``findings``: Findings: the warnings and errors the engine and the analysis report about a
  design.
- ``natural_sort``: The natural sort key of names (``A2`` before ``A10``), shared by the BOM and
  the schedule.
- ``text_columns``: Text reports built column by column: each value formatted once, each line
  joined from pieces.
- ``wording``: Counted nouns in user sentences: "1 switch", "2 switches", "1,024 GPUs" — never "1
  devices".
"""
