"""What the Design holds, declared once so that its mixins and its loader type against it.

:class:`~model.design.design.Design` sets these in ``__init__``; the mixins (queries, link
edits, annotation edits) never import the Design itself (PyPSA's ``_NetworkABC`` shape).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from model.catalog.components import Catalog
from model.design.changes import ChangeKind
from model.design.entities import Device, Hall, Link, Rack, Settings, Tray


class LoadedLinkCodes(NamedTuple):
    """The ends of a just-loaded design's links as integer codes, kept for the cable plant.

    The loader has already read every link end into these arrays; a :class:`RoutedLinks` built
    before any edit reads its per-link device and port columns from them with numpy gathers
    instead of walking 393k records again (~0.35 s at XL). Rows are the links in
    ``design.links`` order; ``device``/``port`` hold the A ends, then the B ends. ``Design``
    drops them on its next edit, so they never describe another state of the design.
    """

    link_count: int
    device_ids: list[str]  # device code -> device id
    port_names: list[str]  # port code -> port name
    device: np.ndarray  # int64, 2 * link_count: device code of each end (A ends, then B ends)
    port: np.ndarray  # int64, 2 * link_count: port code of each end
    all_auto: bool  # no link pins a medium


class DesignState:
    """The Design's data, as its mixins see it (annotations only: no value, no behaviour)."""

    name: str
    hall: Hall
    settings: Settings
    catalog: Catalog
    trays: dict[str, Tray]
    racks: dict[str, Rack]
    devices: dict[str, Device]
    links: dict[str, Link]
    revision: int
    _rack_devices: dict[str, set[str]]  # rack id -> ids of its devices
    # Lookup tables of the links; None = not built yet (see Design.__init__).
    _device_links: dict[str, set[str]] | None
    _port_links: dict[tuple[str, str], str] | None
    _via_links: set[str]  # links routed through panels
    _id_counters: dict[str, int]
    _device_edits: int
    _gpu_total: tuple[int, int] | None  # (device edits, GPUs)
    _loaded_codes: LoadedLinkCodes | None  # the loader's, until the first edit

    if TYPE_CHECKING:
        # Provided by Design (_emit) and DesignQueries (the rest).

        def _emit(self, kind: ChangeKind, ids: Iterable[str] = ()) -> None: ...

        def _check_new_ids(self, ids: Iterable[str]) -> None: ...

        def _port_table(self) -> dict[tuple[str, str], str]: ...

        def _device_table(self) -> dict[str, set[str]]: ...

        @staticmethod
        def _require(table: Mapping[str, object], ids: Iterable[str], what: str) -> None: ...
