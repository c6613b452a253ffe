"""``main.py render FILE -o OUT.png|.svg|.pdf``: draw the floor plan without a display;
``--elevations`` writes the rack elevation sheets (PDF, one page per row) instead."""

from __future__ import annotations

import os
from pathlib import Path


def add_parser(subparsers, name: str) -> None:
    parser = subparsers.add_parser(
        name, help="draw the floor plan to PNG, SVG or PDF (no display needed)"
    )
    parser.add_argument("file", type=Path, help="design file (.hall.json)")
    parser.add_argument(
        "-o", "--output", type=Path, required=True, help="OUT.png, OUT.svg or OUT.pdf"
    )
    parser.add_argument(
        "--width", type=int, default=1800, help="picture width in pixels (default 1800)"
    )
    parser.add_argument("--no-links", action="store_true", help="leave the cables out")
    parser.add_argument(
        "--no-title", action="store_true", help="leave the legend and title block out"
    )
    parser.add_argument(
        "--elevations",
        action="store_true",
        help="rack elevation sheets instead: a PDF with one page per row of racks",
    )


def run(args) -> int:
    from cli import CliError, load_or_refuse
    from cli.export_common import output_path

    if args.output.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise CliError(f"cannot render to {args.output.name}: use .png, .svg or .pdf")
    output_path(str(args.output), (".png", ".svg", ".pdf"), inputs=[args.file], stream=False)
    if args.elevations and args.output.suffix.lower() != ".pdf":
        raise CliError(f"cannot write elevations to {args.output.name}: use .pdf")
    if not 100 <= args.width <= 20000:
        raise CliError("--width must be between 100 and 20000 pixels")
    from cli.process_exit import no_collection_until_exit

    no_collection_until_exit()  # one load and picture, then the exit
    design = load_or_refuse(args.file)
    if args.elevations:
        app = _application()  # noqa: F841 - kept: the sheets' scenes need an application
        from gui.pictures.elevation_sheet import (
            write_elevations_pdf,  # only here: not for a picture
        )

        try:
            pages = write_elevations_pdf(design, args.output)
        except OSError as exc:
            raise CliError(f"cannot write {args.output}: {exc}") from None
        print(f"wrote {args.output} ({pages} pages, {len(design.racks)} racks)")
        return 0
    from cli.process_exit import is_own_process, keep_until_exit
    from model.analysis.tray_fill import plan_tray_figures
    from model.engine.routed_links import RoutedLinks
    from model.runtime.forked_call import ForkedCall
    from model.runtime.gc_policy import collector_paused

    # The plant is routed before Qt starts (no thread yet), so that main.py's process may
    # count the bundles in a forked child while this one starts Qt and builds the scene (XL:
    # ~0.25 s of counting beside ~0.35 s of Qt and scene). The collector is paused throughout,
    # as render_design pauses it: the plant is ~10^5 objects that make no garbage cycles.
    with collector_paused():
        plant = RoutedLinks(design)
        keep_until_exit(plant)
        with ForkedCall(lambda: plan_tray_figures(design, plant), is_own_process()) as figures:
            app = _application()  # noqa: F841 - kept: the scene needs an application
            from gui.pictures.render import render_design

            try:
                render_design(
                    design,
                    args.output,
                    args.width,
                    plant=plant,
                    show_links=not args.no_links,
                    title_block=not args.no_title,
                    tray_figures=figures.result,
                    underlay_folder=Path(args.file).resolve().parent,
                )
            except OSError as exc:
                raise CliError(f"cannot write {args.output}: {exc}") from None
    print(f"wrote {args.output} ({len(design.racks)} racks, {len(design.links)} links)")
    return 0


def _application():
    """The QApplication scenes need (offscreen without a display)."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])
