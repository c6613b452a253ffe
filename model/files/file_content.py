"""What a design's file holds, taken at one revision so another thread can write it.

Kept in the files layer (not with the engine's snapshots, where it began) because the file
writer reads it and the files layer must not import the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from model.catalog.components import CatalogFile
from model.design.entities import Device, Hall, Link, Rack, Settings, Tray

if TYPE_CHECKING:
    from model.design.design import Design


class FileContent(NamedTuple):
    """What :func:`model.files.design_file.design_to_bytes` reads of a design, as it was at ``revision``.

    For writing a design on another thread (the editor's autosave) while it is edited: the four
    record dicts are copied (~15 ms at 393k links), the records, name, hall, settings and custom
    types are shared (edits replace them, never change them in place). Nothing else is taken:
    should the file ever read another attribute of the design, encoding a FileContent raises
    AttributeError instead of reading the live design from the worker.
    """

    revision: int
    name: str
    settings: Settings
    hall: Hall
    custom_types: CatalogFile
    trays: dict[str, Tray]
    racks: dict[str, Rack]
    devices: dict[str, Device]
    links: dict[str, Link]


def file_content(design: Design) -> FileContent:
    """The content of ``design``'s file as it is now; call on the thread that edits it."""
    return FileContent(
        design.revision,
        design.name,
        design.settings,
        design.hall,
        design.custom_types,
        dict(design.trays),
        dict(design.racks),
        dict(design.devices),
        dict(design.links),
    )
