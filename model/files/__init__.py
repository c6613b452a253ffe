"""Design files: parse -> migrate -> validate -> build (``design_file``), the loader's checks
beyond types (``checks``) and the schema migrations, and atomic saves.

Modules:

- ``checks``: What the loader checks beyond field types and ranges: valid polygons, trays of real
  length and size, custom device types whose ports have unique names, and the limits of
  model/design/limits.py.
- ``design_file``: Design files (``*.hall.json``): parse -> migrate -> validate -> build, and
  atomic, stable saves.
- ``record_problems``: The slow path of reading a design file, taken only by a file with a
  problem: each part and each record converted on its own, every bad one reported with its
  JSON path.
- ``output_file``: Where an output may go: regular files replaced atomically (named, locked
  temporary files that the next write of a killed one removes), ``-`` as standard output,
  devices and FIFOs written through, folders and sockets refused.
- ``underlay_file``: The underlay's file: a DXF's lines per layer (ezdxf), a drawing's content
  hash, its recorded path beside the design file and whether it is missing or changed.
- ``underlay_pdf``: A PDF page as the underlay's picture (pypdfium2): the pages and their paper
  sizes, one page rendered to pixels at a resolution its size sets, under a pixel cap.
- ``pdf_lines``: The straight lines a PDF page draws (its path objects, through nested forms),
  for snapping to a PDF underlay's walls.
- ``migrations``: Schema migrations of design files: each step turns a version-n document (plain
  JSON values, as parsed) into a version n+1 document, before it is validated
  (:mod:`model.files.design_file`).
"""
