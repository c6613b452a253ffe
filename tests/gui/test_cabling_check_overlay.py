"""File → Check cabling against a report: the miswired and missing links are painted on the plan."""

from __future__ import annotations

import csv

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from tests.gui.conftest import close_quietly, make_window


@pytest.fixture
def window(qtbot, tmp_path, pod_file):
    win = make_window(qtbot, tmp_path, pod_file)
    yield win
    close_quietly(win)


def _report(path, design, swapped):
    """Both ends of every link except the last; the B ends of ``swapped`` rotated."""
    ids = sorted(design.links)
    far = {i: (design.links[i].b.device, design.links[i].b.port) for i in ids}
    for k, link_id in enumerate(swapped):
        nxt = design.links[swapped[(k + 1) % len(swapped)]]
        far[link_id] = (nxt.b.device, nxt.b.port)
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["local_device", "local_port", "remote_device", "remote_port"])
        for link_id in ids[:-1]:
            link = design.links[link_id]
            writer.writerow([link.a.device, link.a.port, *far[link_id]])
    return path


def test_a_report_with_three_swapped_cables_paints_them_and_the_missing_one(
    window, monkeypatch, tmp_path
):
    design = window.document.design
    ids = sorted(design.links)
    swapped = ids[:3]
    report = _report(tmp_path / "lldp.csv", design, swapped)
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(report), ""))
    )
    file_menu = window.menuBar().actions()[0].menu()
    action = next(
        a for a in file_menu.actions() if a.text().replace("&", "").startswith("Check cabling")
    )
    action.trigger()
    marks = window.cabling_marks
    assert marks is not None and marks.scene() is window.scene
    assert len(marks.link_paths) == 4  # three miswired + one missing, each along its route
    selected = {
        i for i in ids if (item := window.scene.item_for(i)) is not None and item.isSelected()
    }
    assert selected == {*swapped, ids[-1]}
    message = window.statusBar().currentMessage()
    assert "3 MISWIRED" in message and "1 MISSING" in message
    image = window.grab()  # the overlay is drawn without error
    assert not image.isNull()
    window.cabling_clear_action.trigger()
    assert window.cabling_marks is None and marks not in window.scene.items()


def test_a_bad_report_says_why_in_a_message_box(window, monkeypatch, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("host,if\na1,nic1\n")
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(bad), ""))
    )
    said = []
    monkeypatch.setattr(
        QMessageBox, "warning", staticmethod(lambda parent, title, text: said.append(text))
    )
    window.cabling_check_action.trigger()
    assert said and "no column 'local_device'" in said[0]
    assert window.cabling_marks is None
