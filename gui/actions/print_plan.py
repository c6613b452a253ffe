"""File → Print… (Ctrl+P): the floor plan with its legend and title block on the printer's
page, fitted both ways (the same picture as ``main.py render``)."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtPrintSupport import QPrintDialog, QPrinter

from gui.pictures.render import render_design


def print_plan(window, printer: QPrinter | None = None) -> bool:
    """Ask for a printer (unless given one) and print the plan; True when printed."""
    printer = printer or QPrinter(QPrinter.HighResolution)
    printer.setDocName(window.document.design.name)
    dialog = QPrintDialog(printer, window)
    if dialog.exec() != QPrintDialog.Accepted:
        return False
    document = window.document
    shown = window.scene.underlay.item.isVisible()  # the building as the plan shows it
    if window.scene.feed is not None:
        window.scene.feed.ensure_fresh()  # a tray re-route under way: printed done
    render_design(
        document.design,
        None,
        plant=document.plant,
        printer=dialog.printer(),
        underlay_folder=document.path.parent if document.path and shown else None,
    )
    window.statusBar().showMessage(f"Printed {window.document.design.name}", 5000)
    return True


def add_print_action(window, file_menu) -> None:
    window.print_action = window._action(
        "&Print…", lambda: print_plan(window), QKeySequence.StandardKey.Print, "Print the plan"
    )
    file_menu.insertAction(window.close_action, window.print_action)
    file_menu.insertSeparator(window.close_action)
