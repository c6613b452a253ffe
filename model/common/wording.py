"""Counted nouns in user sentences: "1 switch", "2 switches", "1,024 GPUs" — never "1 devices"."""

from __future__ import annotations


def plural(noun: str) -> str:
    """English plural of a regular noun (switch -> switches, rack -> racks, GPU -> GPUs)."""
    if noun.endswith(("s", "sh", "ch", "x", "z")):
        return noun + "es"
    return noun + "s"


def count(n: int, noun: str) -> str:
    """``n`` with thousands separators and the noun in the right number."""
    return f"{n:,} {noun if n == 1 else plural(noun)}"
