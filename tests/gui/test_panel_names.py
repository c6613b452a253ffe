"""Panel names carry their rack in the editor: panels placed from the menu are named by rack and
U, the inspector's panel route shows and takes those names, and Renumber Racks by Row renames
the panels with their racks in the same undo step (Ctrl+Z puts every name back)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.gui.conftest import snapshot
from tests.gui.test_rows_editing import _menu_action
from tests.gui.test_structured_editor import open_window, settle, two_rack_hall

__all__ = ["open_window"]  # the fixture, used by name


def test_panels_are_named_by_rack_and_follow_a_renumbering(open_window, qtbot):
    window = open_window(two_rack_hall(12.0, nics=1))
    design = window.document.design
    window.scene.select_ids(["r1", "n1"])
    settle(qtbot, window)
    window.place_panel_actions["panel-mpo-1u-72"].trigger()
    panels = {d.rack: d.id for d in design.devices.values() if d.role == "patch-panel"}
    assert {r: design.devices[p].name for r, p in panels.items()} == {
        "r1": "R1-U48",
        "n1": "N1-U48",
    }

    # The link routed through them by typing their names in the inspector, as an installer
    # reads them off the racks.
    window.scene.select_ids(["l-1"])
    settle(qtbot, window)
    via = window.inspector.fields["via"]
    via.setFocus()
    via.selectAll()
    qtbot.keyClicks(via, "R1-U48, N1-U48")
    qtbot.keyClick(via, Qt.Key_Return)
    settle(qtbot, window)
    assert design.links["l-1"].via == (panels["r1"], panels["n1"])

    before = snapshot(window)
    count = window.document.stack.count()
    _menu_action(window, "Renumber Racks by Row").trigger()
    assert window.document.stack.count() == count + 1  # racks and panels: one undo step
    names = {r: design.racks[r].name for r in ("r1", "n1")}
    assert names == {"r1": "A01", "n1": "A02"}
    assert design.devices[panels["r1"]].name == "A01-U48"
    assert design.devices[panels["n1"]].name == "A02-U48"
    window.scene.select_ids(["l-1"])
    settle(qtbot, window)
    assert window.inspector.fields["via"].text() == "A01-U48, A02-U48"
    qtbot.keyClick(window.view, Qt.Key_Z, Qt.ControlModifier)
    assert snapshot(window) == before
    assert design.devices[panels["r1"]].name == "R1-U48"


def test_the_elevation_sheet_names_a_panel_once_with_its_u(qapp, tmp_path, capsys):
    """A panel named by its place says its U in its name: the rack elevation shows
    ``C01-U48``, not ``C01-U48 · U48``; a switch keeps its ``U`` line."""
    import pypdfium2

    from cli import run_cli
    from model.design.structured_edit import place_panel
    from model.files.design_file import save_design
    from tests.builders import device, empty_hall, rack

    design = empty_hall(8.0, 6.0)
    rack(design, "r1", 1.0, 3.0, name="C01")
    device(design, "leaf1", "r1", 20, "qm9700")
    place_panel(design, "r1", "panel-mpo-1u-72", u=48)
    path = tmp_path / "hall.hall.json"
    save_design(design, path)
    out = tmp_path / "elevations.pdf"
    assert run_cli(["render", str(path), "-o", str(out), "--elevations"]) == 0
    capsys.readouterr()
    document = pypdfium2.PdfDocument(str(out))
    try:
        page = document[0]
        text = page.get_textpage().get_text_range()
    finally:
        document.close()
    lines = [line.strip() for line in text.splitlines()]
    panel = [line for line in lines if line.startswith("C01-U48")]
    assert panel and all("· U48" not in line for line in panel), panel
    assert "leaf1 · Quantum-2 QM9700 · U20" in lines  # a switch's label as before


def test_a_design_saved_before_gets_its_panels_renamed_from_the_menu(open_window, qtbot):
    """A file whose panels are named pp1, pp2 opens unchanged; Design > Name Panels by Rack and
    U renames them in one undo step, and Ctrl+Z puts the old names back."""
    import msgspec

    from model.design.structured_edit import place_panel

    design = two_rack_hall(12.0, nics=1)
    for rack_id, name in (("r1", "pp1"), ("n1", "pp2")):
        panel = place_panel(design, rack_id, "panel-mpo-1u-72")
        design.update_devices([msgspec.structs.replace(panel, name=name)])
    window = open_window(design)
    opened = window.document.design

    def names() -> list[str]:
        return sorted(d.name for d in opened.devices.values() if d.role == "patch-panel")

    assert names() == ["pp1", "pp2"]  # loaded as saved
    before = snapshot(window)
    menu = window.design_menu
    action = next(a for a in menu.actions() if a.text() == "&Name Panels by Rack and U")
    action.trigger()
    assert names() == ["N1-U48", "R1-U48"]
    assert window.document.stack.undoText() == "Name 2 panels by rack and U"
    qtbot.keyClick(window.view, Qt.Key_Z, Qt.ControlModifier)
    assert snapshot(window) == before
    action.trigger()
    assert names() == ["N1-U48", "R1-U48"] and window.document.stack.index() == 1
    action.trigger()  # nothing left to rename: a sentence, no undo step
    assert window.document.stack.index() == 1
    assert "already" in window.statusBar().currentMessage()
