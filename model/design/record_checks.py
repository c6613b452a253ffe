"""The design file's ranges, enforced on edits: what the edit API accepts, the loader reads back.

The limits live once, in the msgspec types of ``model/design/entities.py`` (``Meta`` ranges, literals,
id lengths) that the loader decodes every file with. ``record_problem`` converts a record
through that same type, so a NaN or 1e308 coordinate, a rotation of 45, a U position of 1000 or
a 300-character id is refused with a sentence instead of being saved into a file that the
editor then refuses to open. (A NaN would even be written as ``null``.) An accepted record is
kept as the loader would read it back (``0`` given for a float field is stored as ``0.0``).
"""

from __future__ import annotations

from typing import TypeVar

import msgspec

S = TypeVar("S", bound=msgspec.Struct)

_PLAIN = (
    ("Invalid enum value", "not one of the allowed values:"),
    ("Expected `str` of length <= ", "expected text of at most "),
    ("Expected `str` of length >= ", "expected text of at least "),
    ("Expected `float`", "expected a number"),
    ("Expected `int`", "expected a whole number"),
    ("Expected `str`", "expected text"),
    ("Expected `array`", "expected a list"),
    ("Expected `object`", "expected a mapping"),
    ("Expected `float | null`", "expected a number or nothing"),
)
_MISSING = object()


def fit_record(record: S) -> tuple[S | None, str | None]:
    """``(record as the loader would read it back, None)``, or ``(None, what makes it unfit for
    a design file)`` such as "x = nan: expected a number >= ...". The record read back has
    every number in its field's own type (an int given for a float becomes a float), so that
    saving and loading it gives the same bytes."""
    try:
        plain = msgspec.to_builtins(record)
    except TypeError as exc:
        return None, f"holds a value no design file can hold ({exc})"
    try:
        return msgspec.convert(plain, type(record)), None
    except msgspec.ValidationError as exc:
        text, _, path = str(exc).rpartition(" - at `")
        if not text:
            text, path = str(exc), "$`"
        path = path.rstrip("`")
        for technical, plain_words in _PLAIN:
            text = text.replace(technical, plain_words)
        name = path.removeprefix("$").lstrip(".") or "the record"
        if "of at most" in text or "of at least" in text:
            text += " characters"
        value = _value_at(plain, path)
        if value is _MISSING:
            return None, f"{name}: {text} (the range a design file allows)"
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        return None, f"{name} = {shown}: {text} (the range a design file allows)"


def _value_at(plain, path: str):
    """The value at a msgspec error path such as ``$.points[0][1]`` or ``$.breakout.p``."""
    value = plain
    rest = path.removeprefix("$")
    try:
        while rest:
            if rest.startswith("["):
                index, _, rest = rest[1:].partition("]")
                value = value[int(index)]
            else:
                rest = rest.removeprefix(".")
                key = rest
                for stop in (".", "["):
                    key = key.split(stop, 1)[0]
                rest = rest[len(key) :]
                value = value[key]
    except (KeyError, IndexError, TypeError, ValueError):
        return _MISSING
    return value
