"""NetBox names: within NetBox's length limits and unique the way NetBox compares them.

NetBox limits (``dcim/models``): device, interface and module-bay names ≤ 64 characters; site,
location, rack, device-type model and cable label ≤ 100; slugs ≤ 100 of ``[a-z0-9_-]``. Device
names are unique per site and rack names per location *ignoring case* (``Lower('name')``
constraints), so ``SPINE02`` beside ``spine02`` is refused.

NetBox's cable import reads ``side_a_device`` / ``side_a_name`` (and B) as lists separated by
commas (``CSVModelMultipleChoiceField``, "Separate multiple values with commas", netbox
``dcim/forms/bulk_import.py``), with no way to escape one: a device, rack or port name with a
comma would be split and its cables refused. :func:`list_safe` writes such a comma as ``;``.

Shortening is deterministic: a name over its limit keeps its first characters and ends in ``~``
and 8 hex digits of the SHA-1 of the whole name, so two long names that share a prefix still
differ, and the same design always exports the same names. Disambiguation: names that are
already unique (ignoring case) are kept; a name that collides is qualified by its rack
(``{rack}-{name}``), then by its Hallwright id, then numbered ``-2``, ``-3``..., each candidate
shortened to the limit, in the stable order the caller gives.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

DEVICE_NAME_MAX = 64
INTERFACE_NAME_MAX = 64
SITE_NAME_MAX = 100
LOCATION_NAME_MAX = 100
RACK_NAME_MAX = 100
MODEL_NAME_MAX = 100
LABEL_MAX = 100
DESCRIPTION_MAX = 200
SLUG_MAX = 100

_SLUG_BAD = re.compile(r"[^a-z0-9_]+")
_HASH_LEN = 8


def fit_name(name: str, limit: int) -> str:
    """``name`` if it fits ``limit`` characters, else its head + ``~`` + 8 hex of its SHA-1."""
    name = name.strip()
    if len(name) <= limit:
        return name
    digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:_HASH_LEN]
    if limit <= _HASH_LEN + 1:
        return digest[:limit]
    return name[: limit - _HASH_LEN - 1].rstrip() + "~" + digest


def list_safe(name: str) -> str:
    """``name`` with each comma written ``;`` (see the module docstring)."""
    return name.replace(",", ";")


def slugify(text: str, limit: int = SLUG_MAX) -> str:
    """NetBox slug: lower-case letters, digits, ``-`` and ``_``; never empty; within ``limit``.

    A slug cut to the limit ends in 8 hex digits of the whole text's SHA-1 so it stays unique.
    """
    slug = _SLUG_BAD.sub("-", text.lower()).strip("-") or "x"
    if len(slug) <= limit:
        return slug
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:_HASH_LEN]
    return slug[: limit - _HASH_LEN - 1].strip("-") + "-" + digest


def unique_names(items: Sequence[tuple[str, str, str]], limit: int) -> dict[str, str]:
    """(id, name, qualifier) -> {id: name}: each within ``limit``, unique ignoring case.

    ``qualifier`` (the rack of a device) is tried first when a name collides; see the module
    docstring for the full rule.
    """
    # A name that fits already is kept without the call (most do: a hall's ~35k devices)
    fitted = [
        (
            object_id,
            name
            if name and len(name) <= limit and name == name.strip()
            else fit_name(name, limit) or fit_name(object_id, limit),
            q,
        )
        for object_id, name, q in items
    ]
    count = Counter(name.casefold() for _, name, _ in fitted)
    if len(count) == len(fitted):  # no two alike: each keeps its name
        return {object_id: name for object_id, name, _ in fitted}
    out: dict[str, str] = {}
    used: set[str] = set()
    for object_id, name, _ in fitted:
        if count[name.casefold()] == 1:
            out[object_id] = name
            used.add(name.casefold())
    for object_id, name, qualifier in fitted:
        if object_id in out:
            continue
        candidates = [f"{qualifier}-{name}" if qualifier else name, f"{name}-{object_id}"]
        chosen = None
        for candidate in candidates:
            candidate = fit_name(candidate, limit)
            if candidate.casefold() not in used:
                chosen = candidate
                break
        n = 2
        while chosen is None:
            suffix = f"-{n}"
            candidate = fit_name(name, limit - len(suffix)) + suffix
            if candidate.casefold() not in used:
                chosen = candidate
            n += 1
        out[object_id] = chosen
        used.add(chosen.casefold())
    return out


def interface_name(port: str) -> str:
    """The NetBox interface name of a Hallwright port (within 64 characters)."""
    if "," in port:
        port = list_safe(port)
    return (
        port
        if len(port) <= INTERFACE_NAME_MAX and port == port.strip()
        else fit_name(port, INTERFACE_NAME_MAX)
    )


def suffix_alike_slugs(types: Iterable[Any], key: Callable[[Any], str]) -> None:
    """Give every type (an object with ``slug`` and ``slug_suffix``) whose slug another one
    shares, but the first by ``key``, a suffix of 8 hex digits of its ``key``: two types that
    slug alike were written to one YAML file, one over the other, and NetBox refuses a
    repeated slug."""
    by_slug: dict[str, list[Any]] = {}
    for item in types:
        item.slug_suffix = ""
        by_slug.setdefault(item.slug, []).append(item)
    for group in by_slug.values():
        for item in sorted(group, key=key)[1:]:
            item.slug_suffix = "-" + hashlib.sha1(key(item).encode("utf-8")).hexdigest()[:8]
