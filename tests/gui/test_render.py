"""Pictures a person can look at: the headless render of the example (PNG, SVG, PDF through
``main.py render``) and a screenshot of the editor window, written to tests/output/."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from PySide6.QtGui import QImage

from cli import run_cli
from cli.gui_command import EXAMPLE
from tests.gui.conftest import click, make_window

OUTPUT = Path(__file__).resolve().parents[1] / "output"


def test_render_command_writes_png_svg_and_pdf(qapp, capsys):
    OUTPUT.mkdir(exist_ok=True)
    for suffix in ("png", "svg", "pdf"):
        out = OUTPUT / f"small-pod.{suffix}"
        out.unlink(missing_ok=True)
        assert run_cli(["render", str(EXAMPLE), "-o", str(out), "--width", "1400"]) == 0
        assert out.stat().st_size > 1000
    image = QImage(str(OUTPUT / "small-pod.png"))
    assert image.width() == 1400 and image.height() > 800
    assert (OUTPUT / "small-pod.svg").read_text().lstrip().startswith("<?xml")
    assert ElementTree.parse(OUTPUT / "small-pod.svg").getroot().tag.endswith("svg")
    assert (OUTPUT / "small-pod.pdf").read_bytes().startswith(b"%PDF")


def test_title_block_adds_a_strip_under_the_plan(qapp, tmp_path):
    from gui.pictures.render import FOOTER_PX, render_design
    from model.files.design_file import load_design

    design = load_design(EXAMPLE)
    render_design(design, tmp_path / "with.png", 900, show_links=False)
    render_design(design, tmp_path / "without.png", 900, show_links=False, title_block=False)
    with_block, without = QImage(str(tmp_path / "with.png")), QImage(str(tmp_path / "without.png"))
    assert with_block.width() == without.width() == 900
    assert with_block.height() == without.height() + FOOTER_PX


def test_render_refuses_unknown_format_and_bad_file(qapp, tmp_path, capsys):
    assert run_cli(["render", str(EXAMPLE), "-o", str(tmp_path / "x.bmp")]) == 2
    assert "use .png, .svg or .pdf" in capsys.readouterr().err
    assert (
        run_cli(["render", str(tmp_path / "missing.hall.json"), "-o", str(tmp_path / "x.png")]) == 2
    )


def test_screenshot_of_the_editor_on_the_example(qtbot, tmp_path):
    OUTPUT.mkdir(exist_ok=True)
    window = make_window(qtbot, tmp_path, EXAMPLE)
    qtbot.wait(100)  # the first layout pass sizes the docks
    design = window.document.design
    server_rack = next(r for r in sorted(design.racks) if design.links_of_racks([r]))
    rack = design.racks[server_rack]
    window.view.fit()
    click(window.view, rack.x, rack.y)
    qtbot.waitUntil(
        lambda: (
            bool(window.inspector.fields)
            and all(w.isVisible() for w in window.inspector.fields.values())
        ),
        timeout=3000,
    )
    qtbot.waitUntil(lambda: not window.scene.tray_load.busy, timeout=5000)
    qtbot.wait(50)
    assert window.scene.link_items
    path = OUTPUT / "editor-window.png"
    assert window.grab().save(str(path))
    assert QImage(str(path)).width() >= 1000
    window.document.stack.setClean()
    window.close()


def test_the_footer_legend_names_the_trunks_when_the_plan_shows_them(qapp, tmp_path):
    from gui import style
    from gui.pictures.render import FOOTER_PX, render_design
    from model.files.design_file import load_design
    from model.structured.layout import set_cabling

    def footer_has_trunk_colour(path: Path) -> bool:
        image = QImage(str(path))
        trunk = QImage(1, 1, QImage.Format_RGB32)
        trunk.fill(style.TRUNK_COLOR)
        want = trunk.pixel(0, 0)
        top = image.height() - FOOTER_PX
        return any(
            image.pixel(x, y) == want for y in range(top, image.height()) for x in range(0, 800)
        )

    design = load_design(EXAMPLE)
    render_design(design, tmp_path / "direct.png", 1400, show_links=False)
    assert not footer_has_trunk_colour(tmp_path / "direct.png")
    set_cabling(design, "cross-connect")
    render_design(design, tmp_path / "xc.png", 1400, show_links=False)
    assert footer_has_trunk_colour(tmp_path / "xc.png")


def test_row_labels_of_a_large_hall_fit_inside_the_picture(qapp, tmp_path):
    """A hall wide enough that the plan is drawn small shows "Row A" at screen size left of the
    row; near the left wall the label used to run past the picture's edge ("ow AA")."""
    import msgspec

    from gui import style
    from gui.pictures.render import render_design
    from tests.builders import small_pod

    design = small_pod()
    hall = design.hall
    design.set_hall(msgspec.structs.replace(hall, outline=[(0, 0), (120, 0), (120, 12), (0, 12)]))
    out = tmp_path / "wide.png"
    render_design(design, out, 1200, show_links=False, title_block=False)
    image = QImage(str(out))
    label = QImage(1, 1, QImage.Format_RGB32)
    label.fill(style.ROW_LABEL)
    target = label.pixelColor(0, 0)

    def label_pixels(x0: int, x1: int) -> int:
        return sum(
            1
            for x in range(x0, x1)
            for y in range(image.height())
            if _near(image.pixelColor(x, y), target)
        )

    assert label_pixels(0, 80) > 20  # the label is drawn, left of the row's first rack
    assert label_pixels(0, 2) == 0  # and nothing of it touches the picture's left edge


def _near(a, b, tolerance: int = 40) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True))


def test_main_py_render_in_its_own_process_writes_the_same_picture(qapp, tmp_path):
    """Run as ``main.py render`` the command leaves the design to the process's exit (not
    freed object by object, cli/process_exit): it still exits 0 with the picture written, pixel
    for pixel the one the command draws in process, where the design is freed as usual."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    own = tmp_path / "own.png"
    done = subprocess.run(
        [sys.executable, "main.py", "render", str(EXAMPLE), "-o", str(own)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {own}") and done.stderr == ""
    here = tmp_path / "here.png"
    assert run_cli(["render", str(EXAMPLE), "-o", str(here)]) == 0
    assert QImage(str(own)) == QImage(str(here))
