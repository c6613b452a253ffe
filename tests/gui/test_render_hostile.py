"""Pictures of any design the loader accepts: a hall 100 km long renders into a bounded
picture, and names holding control characters or markup make a valid SVG."""

from __future__ import annotations

import json
from xml.etree import ElementTree

from PySide6.QtGui import QImage

from cli import run_cli
from cli.gui_command import EXAMPLE
from gui.pictures.render import MAX_PLAN_PX, plan_height_px


def _design(tmp_path, change) -> str:
    document = json.loads(EXAMPLE.read_text())
    change(document)
    path = tmp_path / "d.hall.json"
    path.write_text(json.dumps(document))
    return str(path)


def test_a_hall_of_99999_99_m_renders(qapp, tmp_path, capsys):
    def tall(document):
        document["hall"]["outline"][2] = [9.0, 99_999.99]

    out = tmp_path / "tall.png"
    assert run_cli(["render", _design(tmp_path, tall), "-o", str(out)]) == 0
    image = QImage(str(out))
    assert image.width() == 1800 and 200 < image.height() <= MAX_PLAN_PX + 130
    assert plan_height_px(1800, 9.0, 7.2) == 1440  # an ordinary hall keeps its aspect


def test_control_characters_and_markup_in_names_make_valid_svg(qapp, tmp_path, capsys):
    def hostile(document):
        document["name"] = 'Pod \x01\x0b<b>bold</b> & <img src="/dev/zero">'
        document["racks"][0]["name"] = "A\x02<i>x</i>"

    out = tmp_path / "names.svg"
    assert run_cli(["render", _design(tmp_path, hostile), "-o", str(out)]) == 0
    root = ElementTree.parse(out).getroot()  # raised on the U+0001 before
    texts = " ".join(t for t in root.itertext())
    assert "<b>bold</b>" in texts  # shown as the text it is
