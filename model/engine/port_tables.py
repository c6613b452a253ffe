"""The routed links' port tables: per device type (with its breakout and optics), each port's
class, cage and spec, and per device its rack row, face, port height and table (a mixin of
:class:`~model.engine.routed_links.RoutedLinks`, which sets the state in its full build)."""

from __future__ import annotations

from operator import attrgetter

import numpy as np

from model.catalog.ports import port_table
from model.design.entities import RACK_PLINTH_M, U_HEIGHT_M
from model.engine.cages import device_optics, port_cages
from model.engine.geometry import FACE_FRONT, FACE_REAR
from model.engine.link_table import EngineState
from model.engine.media import PortClass

_TYPE, _BREAKOUT, _RACK, _U = (attrgetter(n) for n in ("type", "breakout", "rack", "u"))


class PlantPortTables(EngineState):
    """Port tables shared by the devices of one type and breakout (``_tables``): a table's row
    of ``_class_matrix`` gives the port class of every port name (``_port_no``), -1 for none."""

    port_classes: list[PortClass]
    _class_of: dict[tuple[float, int, str], int]  # a PortClass (a named tuple) -> its number
    _port_no: dict[str, int]  # port name -> column of _class_matrix
    _table_of: dict[str | tuple, int]  # type id (or type, breakout[, optics]) -> port table
    _table_rows: list[dict[int, int]]
    _table_face: np.ndarray
    _table_u: np.ndarray
    _cage_rows: list[dict[int, tuple[int, int]]]
    _cage_label_rows: list[dict[int, str]]
    _class_matrix: np.ndarray
    _cage_matrix: np.ndarray
    _spec_matrix: np.ndarray
    _dev_no: dict[str, int]
    _last_dev_no: np.ndarray
    cage_device_ids: list[str]

    def _device_table(
        self, device_ids: list[str]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Rack row, face, port height (m) and port-table number of each device, in one pass.

        Devices of one type and breakout share a port table (``_tables``); its row of
        ``_class_matrix`` gives the port class of every port name (``_port_no``), -1 for none.
        """
        design = self.design
        devices = list(map(design.devices.__getitem__, device_ids))
        n = len(devices)
        types = list(map(_TYPE, devices))
        breakouts = list(map(_BREAKOUT, devices))
        keys = (
            types
            if not any(breakouts)
            else [
                (t, tuple(sorted(b.items()))) if b else t
                for t, b in zip(types, breakouts, strict=True)
            ]
        )
        if design.settings.optics_strategy:
            # A tier asked for linear optics: its devices' cages are of their own spec.
            optics = [device_optics(design.settings, d.role) for d in devices]
            keys = [
                (k if isinstance(k, tuple) else (k, ()), o) if o else k
                for k, o in zip(keys, optics, strict=True)
            ]
        for key in set(keys) - self._table_of.keys():
            self._add_port_table(key)
        table = np.fromiter(map(self._table_of.__getitem__, keys), np.int64, n)
        rack = np.fromiter(map(self._rack_row.__getitem__, map(_RACK, devices)), np.int64, n)
        u = np.fromiter(map(_U, devices), float, n)
        height = RACK_PLINTH_M + (u - 1 + self._table_u[table] / 2) * U_HEIGHT_M
        for device_id in device_ids:
            if device_id not in self._dev_no:
                self._dev_no[device_id] = len(self.cage_device_ids)
                self.cage_device_ids.append(device_id)
        self._last_dev_no = np.fromiter(map(self._dev_no.__getitem__, device_ids), np.int64, n)
        return rack, self._table_face[table], height, table

    def _add_port_table(self, key: str | tuple) -> None:
        optics = ""
        if isinstance(key, tuple) and isinstance(key[0], tuple):  # ((type, breakout), optics)
            key_of_type, optics = key
        else:
            key_of_type = key
        type_id, breakout = (key_of_type, ()) if isinstance(key_of_type, str) else key_of_type
        dtype = self.design.catalog.device_types[type_id]
        row: dict[int, int] = {}
        cage_row: dict[int, tuple[int, int]] = {}
        labels: dict[int, str] = {}
        cages = port_cages(dtype, dict(breakout), optics)
        for name, port in port_table(dtype, dict(breakout)).items():
            pc = PortClass(port.speed_gbps, port.lanes, port.form_factor)
            if pc not in self._class_of:
                self._class_of[pc] = len(self.port_classes)
                self.port_classes.append(pc)
            col = self._port_no.setdefault(name, len(self._port_no))
            row[col] = self._class_of[pc]
            cage, spec, label = cages[name]
            cage_row[col] = (cage, self.parts.spec_row(spec))
            labels[cage] = label
        self._table_of[key] = len(self._table_rows)
        self._table_rows.append(row)
        self._cage_rows = getattr(self, "_cage_rows", [])
        self._cage_rows.append(cage_row)
        self._cage_label_rows.append(labels)
        self._table_face = np.append(
            self._table_face, FACE_FRONT if dtype.ports_face == "front" else FACE_REAR
        )
        self._table_u = np.append(self._table_u, float(dtype.u_height))
        matrix = np.full((len(self._table_rows), len(self._port_no)), -1, dtype=np.int64)
        cage_m = np.full_like(matrix, -1)
        spec_m = np.full_like(matrix, -1)
        for k, known in enumerate(self._table_rows):
            matrix[k, list(known)] = list(known.values())
            cols = list(self._cage_rows[k])
            cage_m[k, cols] = [c for c, _ in self._cage_rows[k].values()]
            spec_m[k, cols] = [s for _, s in self._cage_rows[k].values()]
        self._class_matrix = matrix
        self._cage_matrix, self._spec_matrix = cage_m, spec_m
