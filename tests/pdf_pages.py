"""Writes small PDFs for the underlay tests, as text (PDF is text): pages of a given paper size
with straight lines drawn on them, the cross-reference table at its true byte offsets."""

from __future__ import annotations

from pathlib import Path

Line = tuple[float, float, float, float]  # x0, y0, x1, y1 in points, y up (PDF's own axes)


def write_pdf(path: Path, pages: list[tuple[float, float, list[Line]]], rotate: int = 0) -> Path:
    """``pages``: (width, height in points, lines drawn 2 pt wide in black) each; ``rotate``:
    every page's /Rotate (degrees clockwise, as a viewer shows it)."""
    objects: list[bytes] = []
    count = len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(count))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode())
    for i, (width, height, lines) in enumerate(pages):
        content = "2 w 0 G\n" + "".join(
            f"{x0:g} {y0:g} m {x1:g} {y1:g} l S\n" for x0, y0, x1, y1 in lines
        )
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width:g} {height:g}] "
            f"{f'/Rotate {rotate} ' if rotate else ''}/Contents {4 + 2 * i} 0 R >>".encode()
        )
        data = content.encode()
        objects.append(b"<< /Length %d >>\nstream\n" % len(data) + data + b"endstream")
    return _write_pdf(path, objects)


A4 = (595.0, 842.0)  # portrait, points
A3_LANDSCAPE = (1191.0, 842.0)


def plan_pdf(path: Path) -> Path:
    """Two sheets: a cover (A4, one rule under a would-be title) and the floor plan (A3
    landscape): a wall rectangle 100 pt inside the page's edges and a tray line across it."""
    w, h = A3_LANDSCAPE
    walls = [(100, 100, w - 100, 100), (w - 100, 100, w - 100, h - 100)]
    walls += [(w - 100, h - 100, 100, h - 100), (100, h - 100, 100, 100)]
    tray = [(200, h / 2, w - 200, h / 2)]
    return write_pdf(path, [(*A4, [(72, 700, 523, 700)]), (w, h, walls + tray)])


def write_pdf_page(path: Path, size: tuple[float, float], content: str, forms: dict) -> Path:
    """One page of raw ``content`` (PDF operators) with form XObjects: ``forms`` maps a name
    (used as ``/Name Do``) to (its /Matrix as six numbers, its own content)."""
    width, height = size
    names = list(forms)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    ]
    xobjects = " ".join(f"/{n} {5 + i} 0 R" for i, n in enumerate(names))
    objects.append(
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width:g} {height:g}] "
        f"/Resources << /XObject << {xobjects} >> >> /Contents 4 0 R >>".encode()
    )
    data = content.encode()
    objects.append(b"<< /Length %d >>\nstream\n" % len(data) + data + b"endstream")
    for name in names:
        matrix, inner = forms[name]
        body = inner.encode()
        head = (
            f"<< /Type /XObject /Subtype /Form /BBox [-10000 -10000 10000 10000] "
            f"/Matrix [{' '.join(f'{v:g}' for v in matrix)}] /Length {len(body)} >>"
        )
        objects.append(head.encode() + b"\nstream\n" + body + b"endstream")
    return _write_pdf(path, objects)


def _write_pdf(path: Path, objects: list[bytes]) -> Path:
    """``objects`` (numbered from 1, the catalog first) as a PDF file with its xref table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    path.write_bytes(bytes(out))
    return path
