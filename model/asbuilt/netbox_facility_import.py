"""import-netbox: a rack's PDUs, power shelves and cooling units back from NetBox and its record.

A Hallwright export writes each ``Rack.pdus`` entry as a NetBox device in the rack without a U
position (a PDU, or a power shelf of a rack type that has them: model.outputs.netbox.power),
described ``Hallwright <rack id> pdu-<n>``, and the rack's entries and cooling units in its
comments (model.outputs.netbox.floor_record). So the facility comes back as it was exported,
its BOM power and cooling lines with it, and what NetBox changed since is respected: an entry
whose device is no longer in the rack is dropped and listed, and a device without a U position
that is no recorded entry (a PDU a team added, any NetBox Hallwright did not write) is listed
as left out; nothing is dropped silently.
"""

from __future__ import annotations

import re

from model.asbuilt.report_csv import ReportError
from model.outputs.netbox.floor_record import parse_rack_facility
from model.outputs.netbox.power import PDU_ROLE

_ENTRY = re.compile(r"^Hallwright (?P<rack>\S+) pdu-(?P<n>[1-9][0-9]{0,2})$")


def pdu_entry(device_row: dict[str, str]) -> tuple[str, int] | None:
    """(rack id, entry number) of a PDU or shelf device the export wrote (role pdu, no U
    position, its description naming its rack's entry); None for any other device."""
    if device_row["role"] != PDU_ROLE or (device_row["position"] or "").strip():
        return None
    match = _ENTRY.match((device_row["description"] or "").strip())
    return (match["rack"], int(match["n"])) if match else None


def rack_facility(
    rack_row: dict[str, str],
    rack_id: str,
    present: set[tuple[str, int]] | None,
    left_out: list[str],
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(pdus, cooling) of the rack ``rack_id`` from its comments: each recorded PDU entry whose
    device NetBox still holds (``present``: (rack id, n) of :func:`pdu_entry`); the others go
    to ``left_out``. ``present`` None: the site has no floor record, the rack no facility. A
    facility line that does not decode is refused with a sentence."""
    if present is None:
        return (), ()
    try:
        record = parse_rack_facility(rack_row["comments"])
    except ValueError as exc:
        raise ReportError(f"{rack_row['line']}: rack {rack_row['name']!r}: {exc}") from None
    if record is None:
        return (), ()
    pdus = []
    for n, panel in enumerate(record.pdus, 1):
        if (rack_id, n) in present:
            pdus.append(panel)
        else:
            left_out.append(
                f"PDU {n} of rack {rack_id} on {panel} ({rack_row['line']}): recorded, but "
                f"NetBox holds no device 'Hallwright {rack_id} pdu-{n}' in the rack any more"
            )
    return tuple(pdus), tuple(record.cooling)


def without_pdus(
    device_rows: list, present: set[tuple[str, int]] | None, racks: list, notes
) -> list:
    """``device_rows`` less the PDU and shelf devices that came back as their racks' entries
    (a note says how many)."""
    if not present:
        return device_rows
    kept = [(n, d) for n, d in device_rows if pdu_entry(d) not in present]
    if len(kept) < len(device_rows):
        entries = sum(len(r.pdus) for r in racks)
        notes.append(
            f"{entries} rack PDUs and power shelves back from their "
            f"{len(device_rows) - len(kept)} NetBox devices (no U position), with the hall's "
            "power and cooling records"
        )
    return kept
