"""``main.py render`` counts the cable bundles in a forked child while Qt starts and the scene
is built (cli/render_command): the picture is the one the scene's own count gives."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage

from gui.pictures.render import render_design
from model.analysis.tray_fill import plan_tray_figures
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from tests.forked_runs import main_py_forks, needs_two_cores

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "superpod-4su.hall.json"


def test_the_counts_of_a_picture_are_the_canvas_s_own(qapp):
    """plan_tray_figures == the scene's TrayLoad count with every layer shown."""
    from gui.canvas.bundle_item import TrayLoad

    design = load_design(EXAMPLE)
    plant = RoutedLinks(design)
    load = TrayLoad(design, plant)
    load.run_to_end()
    figures = plan_tray_figures(design, plant)
    assert figures.counts and figures.counts == load.counts and figures.used == load.used
    assert figures.fill == load.fill
    load.stop()


@needs_two_cores
def test_main_py_s_forked_picture_is_the_in_process_one(qapp, tmp_path):
    forked_png = tmp_path / "forked.png"
    assert main_py_forks(["render", str(EXAMPLE), "-o", str(forked_png)]) == (
        "exit 0",
        "forked [True]",
    )
    here_png = tmp_path / "here.png"
    render_design(load_design(EXAMPLE), here_png, 1800)  # its own plant and count
    forked, here = QImage(str(forked_png)), QImage(str(here_png))
    assert not forked.isNull() and forked.size() == here.size()
    assert forked == here
