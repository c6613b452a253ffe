"""Pictures without a window: the floor plan to PNG, SVG or PDF, and rack elevation sheets.

Modules:

- ``elevation_sheet``: Rack elevation sheets: a PDF with one page per row of racks, each rack a U
  column with its devices (name, type, U) and the power it draws against its budget.
- ``png_file``: A PNG file of an opaque picture (QImage.Format_RGB32), encoded with numpy and zlib.
- ``render``: Headless render of a design's floor plan to PNG, SVG or PDF — the same scene as the
  editor.
"""
