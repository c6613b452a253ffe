"""The on-disk layout of a design file of the current schema version, as msgspec decodes it.

Its own module so the loader's checks (:mod:`model.files.checks`) and the loader
(:mod:`model.files.design_file`) both read it without importing each other.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from model.catalog.components import CatalogFile
from model.design.entities import Device, Hall, Link, Name, Rack, Settings, Tray


class DesignDocument(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The on-disk layout of the current schema version."""

    format: Literal["hallwright"]
    schema_version: int
    name: Name
    hall: Hall
    settings: Settings = Settings()
    custom_types: CatalogFile = msgspec.field(default_factory=CatalogFile)
    trays: list[Tray] = []
    racks: list[Rack] = []
    devices: list[Device] = []
    links: list[Link] = []
