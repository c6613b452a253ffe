"""Small widget factories shared by the dialogs and panels."""

from __future__ import annotations

from PySide6.QtWidgets import QDoubleSpinBox


def spin_box(
    value: float,
    lo: float,
    hi: float,
    suffix: str = " m",
    step: float = 0.6,
    decimals: int = 2,
    tip: str = "",
) -> QDoubleSpinBox:
    """A number field with range, unit suffix, step and tooltip (metres and tile steps by default)."""
    spin = QDoubleSpinBox()
    spin.setRange(lo, hi)
    spin.setDecimals(decimals)
    spin.setSingleStep(step)
    spin.setSuffix(suffix)
    spin.setValue(value)
    spin.setToolTip(tip)
    return spin
