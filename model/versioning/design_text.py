"""A design as reviewable text lines, one per object, for git's diff driver (textconv).

``git diff`` of the raw file shows JSON; through ``textconv`` it shows one line per object in a
stable order (settings, hall, custom types, trays, racks, devices, links), each with its fields
as ``name=value`` and, for a link, its routed length and chosen medium, so that moving a rack
shows as that rack's line and the lines of the links it re-routed or flipped to another medium.
"""

from __future__ import annotations

import msgspec

from model.common.natural_sort import natural_key


def _value(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str):
        return (
            value
            if value and " " not in value and "=" not in value
            else msgspec.json.encode(value).decode()
        )
    return msgspec.json.encode(value).decode()


def _fields(record, skip=("id",)) -> str:
    plain = msgspec.to_builtins(record)
    return " ".join(f"{k}={_value(v)}" for k, v in plain.items() if k not in skip)


def design_lines(design, plant=None) -> list[str]:
    """The text of ``design`` (``plant``: its routed links, adds length and medium per link)."""
    lines = [f"design {_value(design.name)}"]
    for key, value in sorted(msgspec.to_builtins(design.settings).items()):
        lines.append(f"setting {key}={_value(value)}")
    for key, value in sorted(msgspec.to_builtins(design.hall).items()):
        lines.append(f"hall {key}={_value(value)}")
    for group, records in sorted(msgspec.to_builtins(design.custom_types).items()):
        for record in records:
            lines.append(f"custom {group} {_value(record)}")
    for section, word in (("trays", "tray"), ("racks", "rack"), ("devices", "device")):
        table = getattr(design, section)
        for oid in sorted(table, key=natural_key):
            lines.append(f"{word} {oid} {_fields(table[oid])}")
    media = [m.id for m in plant.media] if plant is not None else []
    for lid in sorted(design.links, key=natural_key):
        link = design.links[lid]
        ends = f"{link.a.device}:{link.a.port} -- {link.b.device}:{link.b.port}"
        text = f"link {lid} {ends} {_fields(link, skip=('id', 'a', 'b'))}".rstrip()
        if plant is not None:
            row = plant.index[lid]
            k = int(plant.medium_index[row])
            text += f" | {float(plant.length_m[row]):.2f} m {media[k] if k >= 0 else 'no medium'}"
        lines.append(text)
    return lines
