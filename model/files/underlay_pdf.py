"""A PDF page as the underlay's picture (pypdfium2): how many pages a PDF has and their paper
sizes, and one page rendered to RGB pixels at a resolution set by its size, under a pixel cap.

Why pypdfium2: Qt's own PDF module is not part of PySide6-Essentials; PDFium is the engine
Chromium renders PDFs with (every construct a CAD program writes: clipped paths, hatches, fonts,
embedded scans), and pypdfium2 ships it as wheels for every platform.

Drawing units of a PDF underlay are the page's points (1/72 inch, v down the page), not the
rendered pixels: the rendering resolution can change (another cap, another machine) and the
placement recorded in the design still puts the page where it was.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from model.files.pdf_lines import page_segments
from model.files.underlay_file import UnderlayError, check_size

MAX_PDF_BYTES = 200 * 1024 * 1024  # as for a DXF: a building's drawing set stays under this
RENDER_DPI = 200.0  # 0.13 mm a pixel on paper: a 0.25 mm wall line is two pixels wide
# ~32 Mpx (96 MB of RGB): an A1 sheet at 200 dpi (4,680 x 6,622 px); a larger page is
# rendered coarser so a 2 m x 1 m drawing takes ~96 MB, not the ~0.5 GB of 200 dpi (or the
# 4 GB of 600 dpi).
MAX_PIXELS = 32_000_000
MIN_DPI = 10.0  # below this a page shows nothing one could trace; a bigger "page" is refused
POINTS_PER_INCH = 72.0


@dataclass(frozen=True)
class PdfRaster:
    """One page rendered: ``pixels`` (rows x columns x 3, RGB, uint8), the page's size in
    points (width, height, as shown: after the page's own rotation), the resolution (dpi), the
    page number (1-based), how many pages the file has, and the lines the page draws
    (``segments``, n x 4 points as shown, :func:`model.files.pdf_lines.page_segments`)."""

    pixels: np.ndarray
    size_pt: tuple[float, float]
    dpi: float
    page: int
    pages: int
    segments: np.ndarray = field(default_factory=lambda: np.empty((0, 4)))


def render_dpi(size_pt: tuple[float, float], max_pixels: int = MAX_PIXELS) -> float:
    """The resolution a page of ``size_pt`` is rendered at: RENDER_DPI, or less where that
    would pass ``max_pixels``. The renderer rounds each side up to whole pixels, so the cap
    holds for (w d + 1)(h d + 1) <= max_pixels: the positive root of that quadratic in d."""
    w_in, h_in = size_pt[0] / POINTS_PER_INCH, size_pt[1] / POINTS_PER_INCH
    if w_in <= 0 or h_in <= 0:
        return RENDER_DPI
    a, b, c = w_in * h_in, w_in + h_in, 1.0 - max_pixels
    return min(RENDER_DPI, (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a))


def _open(path: str | os.PathLike[str]) -> Any:
    """The open PdfDocument; every failure a sentence naming the file."""
    import pypdfium2 as pdfium

    name = Path(path).name
    check_size(path, MAX_PDF_BYTES, "a PDF")
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        words = str(exc)
        if "password" in words.lower():
            raise UnderlayError(
                f"{name} is protected by a password; save an unprotected copy of the page"
            ) from None
        raise UnderlayError(f"{name} is not a readable PDF ({words})") from None
    except Exception as exc:  # noqa: BLE001 - a damaged file is the user's sentence
        raise UnderlayError(
            f"{name} cannot be read as a PDF ({exc or type(exc).__name__})"
        ) from None


def pdf_page_sizes(path: str | os.PathLike[str]) -> list[tuple[float, float]]:
    """Each page's (width, height) in points, as shown; raises UnderlayError with a sentence."""
    document = _open(path)
    try:
        sizes = [_page_size(document[i]) for i in range(len(document))]
    except Exception as exc:  # noqa: BLE001 - see _open
        raise UnderlayError(f"{Path(path).name}: a page cannot be read ({exc})") from None
    finally:
        document.close()
    if not sizes:
        raise UnderlayError(f"{Path(path).name} has no pages")
    return sizes


def _page_size(page: Any) -> tuple[float, float]:
    width, height = page.get_size()
    page.close()
    return float(width), float(height)


def render_pdf_page(
    path: str | os.PathLike[str], page: int, max_pixels: int = MAX_PIXELS
) -> PdfRaster:
    """Page ``page`` (1-based) of the PDF at ``path`` as RGB pixels at :func:`render_dpi`;
    raises UnderlayError naming the file and the problem (no such page, damaged, protected)."""
    name = Path(path).name
    document = _open(path)
    try:
        pages = len(document)
        if not 1 <= page <= pages:
            plural = "page" if pages == 1 else "pages"
            raise UnderlayError(f"{name} has {pages} {plural}; there is no page {page}")
        pdf_page = document[page - 1]
        try:
            size_pt = (float(pdf_page.get_width()), float(pdf_page.get_height()))
            dpi = render_dpi(size_pt, max_pixels)
            if dpi < MIN_DPI:
                raise UnderlayError(
                    f"{name}: page {page} is {size_pt[0] / 72 * 25.4 / 1000:.1f} m x "
                    f"{size_pt[1] / 72 * 25.4 / 1000:.1f} m, too large to show"
                )
            bitmap = pdf_page.render(scale=dpi / POINTS_PER_INCH, rev_byteorder=True)
            try:
                pixels = np.array(bitmap.to_numpy()[:, :, :3], dtype=np.uint8, order="C")
            finally:
                bitmap.close()
            segments = page_segments(pdf_page)
        finally:
            pdf_page.close()
    except UnderlayError:
        raise
    except Exception as exc:  # noqa: BLE001 - see _open
        raise UnderlayError(f"{name}: page {page} cannot be drawn ({exc})") from None
    finally:
        document.close()
    return PdfRaster(pixels, size_pt, dpi, page, pages, segments)


def pdf_page_problem(path: str | os.PathLike[str], page: int) -> str | None:
    """Why page ``page`` of the PDF at ``path`` cannot be shown (a sentence), or None when it
    can; reads the page table only, draws nothing (for ``validate``)."""
    try:
        pages = len(pdf_page_sizes(path))
    except UnderlayError as exc:
        return str(exc)
    if not 1 <= page <= pages:
        plural = "page" if pages == 1 else "pages"
        return f"{Path(path).name} has {pages} {plural}; there is no page {page}"
    return None
