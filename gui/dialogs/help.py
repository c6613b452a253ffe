"""Help → Getting Started and Keyboard Shortcuts. The shortcut list is read from the window's
own actions, so it is always the one the editor really has."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

from model.runtime.version import version

GETTING_STARTED = """
<h2>Getting started with Hallwright {version}</h2>
<p>Build a pod by hand in a few steps (or use <b>File → New…</b> to generate a whole fabric):</p>
<ol>
<li><b>Racks</b>: click a rack type in the <i>Catalog</i>, then click the plan once per rack
(<b>R</b> turns the next one, <b>Esc</b> stops placing). Racks snap to the floor tiles.</li>
<li><b>Devices</b>: drag a server or a switch from the <i>Catalog</i> onto a rack; it takes the
lowest free U. Double-click a rack (or press <b>Return</b>) for its elevation: a dock that
follows what you select, seen from the <i>Front</i> or the <i>Rear</i> (mirrored, as from behind),
with each device's ports marked on the face they are on.</li>
<li><b>Trays</b>: press <b>T</b>, click the tray's corners, double-click to finish. Cables are
routed along the trays; racks further than the tray reach go on the floor, with a warning.</li>
<li><b>Cables</b>: press <b>C</b>, click the first rack and pick a port group, click the far
rack and pick <i>all N free ports</i> to connect every rail at once — or select servers and
switches and use <b>Design → Connect All Free Ports…</b> for a port map with the rails kept.</li>
<li>Watch the <i>Analysis</i>: copper or fibre per cable, bandwidth, oversubscription,
bisection, power and cost follow every edit. Select a link to see its length piece by piece.</li>
</ol>
<p><b>Find</b> anything with <b>Ctrl+F</b>; right-click racks, links, trays or the floor for
their actions; hover a rack or a cable for its figures. <b>View → Fabrics</b> and
<b>View → Tiers</b> show or hide one network or one tier (leaf, spine, core, scale-up). Every
edit can be undone.</p>
"""


class HelpDialog(QDialog):
    def __init__(self, title: str, html: str, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        self.browser.setHtml(html)
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addWidget(buttons)
        self.resize(620, 520)


def shortcut_rows(window) -> list[tuple[str, str]]:
    """(action, keys) for every action of the window and its views that has a shortcut."""
    seen: dict[str, str] = {}
    for owner in (window, window.view):
        for action in owner.actions():
            keys = ", ".join(
                k.toString(QKeySequence.NativeText) for k in action.shortcuts() if not k.isEmpty()
            )
            text = action.text().replace("&", "").rstrip("…").strip()
            if keys and text and text not in seen:
                seen[text] = keys
    return sorted(seen.items())


def shortcuts_html(window) -> str:
    rows = "".join(f"<tr><td>{t}</td><td><b>{k}</b></td></tr>" for t, k in shortcut_rows(window))
    extra = (
        "<tr><td>Pan</td><td><b>middle button drag</b>, or <b>Space</b> + drag</td></tr>"
        "<tr><td>Zoom</td><td><b>mouse wheel</b> (at the cursor)</td></tr>"
        "<tr><td>Nudge racks</td><td><b>arrow keys</b> (one floor tile)</td></tr>"
    )
    return f"<h2>Keyboard shortcuts</h2><table cellpadding='3'>{rows}{extra}</table>"


def add_help_actions(window, help_menu) -> None:
    def show(title: str, html) -> None:
        dialog = HelpDialog(title, html() if callable(html) else html, window)
        window.help_dialog = dialog
        dialog.show()

    window.getting_started_action = window._action(
        "&Getting Started",
        lambda: show("Getting started", GETTING_STARTED.format(version=version())),
        QKeySequence.StandardKey.HelpContents,
        "How to build a hall by hand",
    )
    window.shortcuts_action = window._action(
        "&Keyboard Shortcuts",
        lambda: show("Keyboard shortcuts", lambda: shortcuts_html(window)),
        None,
        "Every shortcut of the editor",
    )
    first = help_menu.actions()[0] if help_menu.actions() else None
    help_menu.insertAction(first, window.getting_started_action)
    help_menu.insertAction(first, window.shortcuts_action)
    help_menu.insertSeparator(first)
