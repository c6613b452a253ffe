"""Readers of lldpd's ``lldpctl -f json`` (and ``json0``) and ``lldpctl -f keyvalue`` output.

Based on the lldpcli(8) man page ("-f format: plain, xml, json, json0 and keyvalue ... json0 is
more verbose than json but the structure of the JSON object is not affected by the number of
interfaces or the number of neighbors") and lldpd's own output. ``json``::

    {"lldp": {"interface": {"eth0": {"via": "LLDP", "chassis": {"leaf1": {"id": {...}}},
                                     "port": {"id": {"type": "ifname", "value": "p1"}}}}}}

with ``interface`` a list of such one-key objects when there are several interfaces;
``json0`` always uses lists: ``{"lldp": [{"interface": [{"name": "eth0", "chassis": [{"name":
[{"value": "leaf1"}]}], "port": [{"id": [{"type": "ifname", "value": "p1"}]}]}]}]}``.
``keyvalue`` prints one ``lldp.<interface>.<path>=<value>`` per line (``lldp.eth0.chassis.name
=leaf1``, ``lldp.eth0.port.ifname=p1``); a value with line breaks continues on the next lines.

lldpctl lists the neighbours of the host it runs on, not the host's own name: the local device
is the ``local-chassis`` name when the file holds ``lldpcli show chassis`` output too, else the
file's name without its suffix (``a1.json`` is host ``a1``), so one file is kept per host.
The far port is the port ID when it is an interface name (``ifname``/``local``), else the port
description.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from model.asbuilt.report_csv import ReportError
from model.asbuilt.reports.source import (
    Neighbour,
    amount,
    checked_size,
    neighbour,
    numbered_lines,
    open_text,
)

JSON_NAME = "lldp-json"
# JSON is parsed whole; one host's lldpctl output is a few kB, 64 MiB is thousands of hosts'.
MAX_JSON_BYTES = 64 << 20
KEYVALUE_NAME = "lldp-keyvalue"

_KEY = re.compile(
    r"^lldp\.(?P<iface>.+?)\.(?P<field>chassis|port|via|rid|age|vlan|ppvid|pi|lldp-med|"
    r"unknown-tlvs)(?:\.(?P<sub>[^=]*))?=(?P<value>.*)$"
)
_LOCAL = re.compile(r"^local-chassis\.chassis\.(?P<sub>[^=]*)=(?P<value>.*)$")
_OTHER_KEY = re.compile(r"^(?:lldp|local-chassis|configuration)\.[^=]*=")


def looks_like_json(head: str) -> bool:
    text = head.lstrip()
    return text.startswith("{") and ('"lldp"' in text or '"local-chassis"' in text)


def looks_like_keyvalue(head: str) -> bool:
    lines = [x for x in head.splitlines()[:40] if x.strip()]
    return (
        bool(lines)
        and all(_OTHER_KEY.match(x) or "=" not in x for x in lines)
        and any(_KEY.match(x) for x in lines)
    )


# --- json ------------------------------------------------------------------------------------


def _items(value: Any) -> list[tuple[str, Any]]:
    """(key, object) pairs of a json object or of json's list of one-key objects."""
    if isinstance(value, dict):
        return list(value.items())
    if isinstance(value, list):
        return [pair for entry in value if isinstance(entry, dict) for pair in entry.items()]
    return []


def _first(value: Any) -> Any:
    """json0 wraps every value in a list of one: its first element, else the value."""
    return value[0] if isinstance(value, list) and value else value


def _text(value: Any) -> str:
    value = _first(value)
    if isinstance(value, dict):
        value = _first(value.get("value", ""))
    return str(value) if value is not None else ""


def _json_interfaces(document: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """(local interface, neighbour object) for json and json0 alike."""
    lldp = _first(document.get("lldp")) if isinstance(document, dict) else None
    if not isinstance(lldp, dict):
        return
    interfaces = lldp.get("interface", [])
    if isinstance(interfaces, list) and interfaces and "name" in interfaces[0]:  # json0
        for entry in interfaces:
            yield _text(entry.get("name")), entry
        return
    for name, entry in _items(interfaces):
        if isinstance(entry, dict):
            yield name, entry


def _json_chassis(entry: dict[str, Any]) -> str:
    chassis = _first(entry.get("chassis"))
    if isinstance(chassis, dict) and "name" in chassis:  # json0, or json with one unnamed
        return _text(chassis["name"])
    pairs = _items(chassis)
    return pairs[0][0] if pairs else ""


def _json_port(entry: dict[str, Any]) -> str:
    port = _first(entry.get("port"))
    if not isinstance(port, dict):
        return ""
    ident = _first(port.get("id"))
    if isinstance(ident, dict) and _text(ident.get("type")) in ("ifname", "local"):
        return _text(ident)
    return _text(port.get("descr")) or (_text(ident) if isinstance(ident, dict) else "")


def _json_local(document: Any, path: Path) -> str:
    local = document.get("local-chassis") if isinstance(document, dict) else None
    chassis = _first(_first(local).get("chassis")) if isinstance(_first(local), dict) else None
    if isinstance(chassis, dict):
        name = _json_chassis({"chassis": chassis})
        if name:
            return name
    return path.stem


def read_json(path: Path) -> Iterator[Neighbour]:
    size = checked_size(path)
    if size > MAX_JSON_BYTES:
        raise ReportError(
            f"{path}: {amount(size)} of JSON is over the {amount(MAX_JSON_BYTES)} an lldpctl "
            "report may have (keep one file per host)"
        )
    with open_text(path) as handle:
        try:
            document = json.load(handle)
        except json.JSONDecodeError as exc:
            raise ReportError(f"{path}: line {exc.lineno}: not lldpctl JSON ({exc.msg})") from None
        except UnicodeDecodeError:
            raise ReportError(f"{path}: not UTF-8 text") from None
    if not isinstance(document, dict) or not ({"lldp", "local-chassis"} & set(document)):
        raise ReportError(f'{path}: line 1: a JSON file without lldpctl\'s "lldp" object')
    local = _json_local(document, path)
    for iface, entry in _json_interfaces(document):
        device, port = _json_chassis(entry), _json_port(entry)
        if not device:
            raise ReportError(f"{path}: interface {iface!r} has a neighbour without a name")
        yield neighbour(path, 0, (local, iface), (device, port), where=f"interface {iface}")


# --- keyvalue --------------------------------------------------------------------------------


def read_keyvalue(path: Path) -> Iterator[Neighbour]:
    local = ""
    seen: dict[str, dict[str, str]] = {}  # interface -> {sub key: value}
    first_line: dict[str, int] = {}
    continued = False  # the previous key's value may go on over the next lines
    for line, raw in numbered_lines(path):
        if not raw.strip():
            continue
        key = _KEY.match(raw)
        if key:
            fields = seen.setdefault(key["iface"], {})
            first_line.setdefault(key["iface"], line)
            fields[f"{key['field']}.{key['sub'] or ''}"] = key["value"].strip()
            continued = (key["sub"] or "").endswith("descr")
            continue
        mine = _LOCAL.match(raw)
        if mine:
            if mine["sub"] == "name":
                local = mine["value"].strip()
            continued = mine["sub"].endswith("descr")
            continue
        if _OTHER_KEY.match(raw):
            continued = raw.split("=", 1)[0].endswith("descr")
            continue
        if not continued:
            raise ReportError(f"{path}: line {line}: not an lldpctl key=value line: {raw[:80]!r}")
    local = local or path.stem
    for iface, fields in seen.items():
        device = fields.get("chassis.name", "")
        port = fields.get("port.ifname") or fields.get("port.local") or fields.get("port.descr", "")
        if not device:
            line = first_line[iface]
            raise ReportError(f"{path}: line {line}: interface {iface!r} has no chassis.name")
        yield neighbour(path, first_line[iface], (local, iface), (device, port))
