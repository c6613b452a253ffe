"""User strings (names, labels, file names, messages that quote them) are shown as plain text,
never as Qt rich text: a rack named ``<img src="/dev/zero">`` must show those characters, not
make Qt read a device file.

Qt guesses the format of a label, tooltip or message box from the text (``Qt::mightBeRichText``
looks for a tag before the first line break), so every place that shows a user string either
fixes the widget's format to plain text or passes the text through one of these helpers.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt


def plain_labels(*labels) -> None:
    """Fix each QLabel (or QMessageBox) to plain text, whatever it is later given."""
    for label in labels:
        label.setTextFormat(Qt.PlainText)


def tooltip(text: str | None) -> str | None:
    """A tooltip that shows ``text`` literally (tooltips have no plain-text switch): escaped
    and wrapped in a paragraph that keeps line breaks."""
    if not text:
        return text
    return "<p style='white-space:pre-wrap'>" + html.escape(text) + "</p>"


def message(sentence: str, detail: object = "") -> str:
    """Text for QMessageBox's static functions: our own ``sentence`` as the first line (Qt
    decides plain or rich from the first line only), the user-derived ``detail`` below it."""
    sentence = sentence.replace("<", "‹").replace("\n", " ")
    return f"{sentence}\n\n{detail}" if detail != "" else sentence


def escape(text: object) -> str:
    """A user string inside rich text we compose ourselves (bold rack name, coloured error)."""
    return html.escape(str(text))
