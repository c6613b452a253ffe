"""The link edits of a design: connect ports, change a link's record, disconnect.

A mixin of :class:`~model.design.design.Design`, which holds the dicts and indexes these keep current
(``links``, ``_port_links``, ``_device_links``; the two tables through ``_port_table`` and
``_device_table``, which build them on first use after a file load) and announces each edit as
one change.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from model.catalog.ports import PortInfo, port_table
from model.design.changes import ChangeKind
from model.design.entities import Link, share_empty_polarity
from model.design.link_entries import pieces_problem, record_problem, via_problem
from model.design.records import DesignError, Removed, fit_fields, one_change
from model.design.state import DesignState


class LinkEdits(DesignState):
    """Adding, updating and removing links (see :class:`~model.design.design.Design`)."""

    # ----------------------------------------------------------------------------- links

    def add_links(self, links: Iterable[Link], *, fields_checked: bool = False) -> None:
        """Connect ports. Refused if a device or port is missing or a port is already used."""
        links = list(links)
        if not fields_checked:
            links = fit_fields(links, "link")
        links = share_empty_polarity(links)
        self._check_new_ids(link.id for link in links)
        port_links = self._port_table()
        ends = [(end.device, end.port) for link in links for end in (link.a, link.b)]
        if not self._links_fit(links, ends, port_links):
            self._refuse_links(links, port_links)
        for link in links:
            if link.via or link.polarity or link.as_built_pieces_m:
                _check_entries(link)
        # Recorded as one end at a time did (the same order in each dict and set), in C: an XL
        # hall adds ~460k links at once.
        ids = [link.id for link in links]
        end_ids = [link_id for link_id in ids for _ in (0, 1)]
        self.links.update(zip(ids, links, strict=True))
        port_links.update(zip(ends, end_ids, strict=True))
        device_links = self._device_table()
        end_devices = [device_id for device_id, _ in ends]
        for device_id in dict.fromkeys(end_devices):
            device_links.setdefault(device_id, set())
        deque(map(set.add, map(device_links.__getitem__, end_devices), end_ids), maxlen=0)
        self._via_links.update(link.id for link in links if link.via)
        self._emit(ChangeKind.LINKS_ADDED, ids)

    def _links_fit(self, links: list[Link], ends: list[tuple[str, str]], port_links: dict) -> bool:
        """Whether every end is a free port of an existing device, used once, and every medium
        known: the checks of :meth:`_refuse_links` as set operations (an XL hall's ~920k ends:
        one pass of the checking loop each was ~1 s of its ~9.5 s build)."""
        devices = self.devices
        types = self.catalog.device_types
        tables: dict[str, dict[str, PortInfo]] = {}
        for device_id in dict.fromkeys(device_id for device_id, _ in ends):
            device = devices.get(device_id)
            if device is None:
                return False
            tables[device_id] = port_table(types[device.type], device.breakout)
        if not all(port in tables[device_id] for device_id, port in ends):
            return False
        if len(set(ends)) != len(ends) or not port_links.keys().isdisjoint(ends):
            return False
        media = {link.medium for link in links} - {"auto"}
        return media <= self.catalog.media_types.keys()

    def _refuse_links(self, links: list[Link], port_links: dict) -> None:
        """Raise the first problem of ``links`` in their order (a missing device or port, a port
        used twice, an unknown medium, an entry the loader refuses)."""
        devices = self.devices
        types = self.catalog.device_types
        media = self.catalog.media_types
        taken: set[tuple[str, str]] = set()
        tables: dict[str, dict[str, PortInfo]] = {}
        for link in links:
            for end in (link.a, link.b):
                table = tables.get(end.device)
                if table is None:
                    device = devices.get(end.device)
                    if device is None:
                        raise DesignError(f"link {link.id!r}: no device {end.device!r}")
                    table = tables[end.device] = port_table(types[device.type], device.breakout)
                if end.port not in table:
                    raise DesignError(
                        f"link {link.id!r}: device {devices[end.device].name!r} "
                        f"has no port {end.port!r}"
                    )
                key = (end.device, end.port)
                if key in port_links or key in taken:
                    other = port_links.get(key, "another new link")
                    raise DesignError(
                        f"link {link.id!r}: port {end.port!r} of "
                        f"{devices[end.device].name!r} is already used by {other!r}"
                    )
                taken.add(key)
            if link.medium != "auto" and link.medium not in media:
                raise DesignError(f"link {link.id!r}: unknown medium {link.medium!r}")
            if link.via or link.polarity or link.as_built_pieces_m:
                _check_entries(link)

    @one_change
    def update_links(self, links: Iterable[Link]) -> None:
        """Replace link records: medium, length override, as-built length, label, fabric (ends
        fixed). A changed fabric is also announced as LINKS_REFABRICKED: the topology follows it."""
        links = share_empty_polarity(fit_fields(list(links), "link"))
        refabricked: list[str] = []  # ids whose fabric changed: their network did
        for link in links:
            old = self.links.get(link.id)
            if old is None:
                raise DesignError(f"no link {link.id!r}")
            if old.fabric != link.fabric:
                refabricked.append(link.id)
            if (old.a, old.b) != (link.a, link.b):
                raise DesignError("a link's ends cannot change; remove it and connect anew")
            if link.medium != "auto" and link.medium not in self.catalog.media_types:
                raise DesignError(f"link {link.id!r}: unknown medium {link.medium!r}")
            if link.via or link.polarity or link.as_built_pieces_m:
                _check_entries(link)
        for link in links:
            self.links[link.id] = link
            if link.via:
                self._via_links.add(link.id)
            else:
                self._via_links.discard(link.id)
        self._emit(ChangeKind.LINKS_CHANGED, (link.id for link in links))
        if refabricked:
            self._emit(ChangeKind.LINKS_REFABRICKED, refabricked)

    def remove_links(self, ids: Iterable[str]) -> Removed:
        ids = list(dict.fromkeys(ids))
        self._require(self.links, ids, "link")
        removed = Removed(links=[self.links.pop(link_id) for link_id in ids])
        for link in removed.links:
            for end in (link.a, link.b):
                self._port_table().pop((end.device, end.port), None)
                self._device_table().get(end.device, set()).discard(link.id)
            self._via_links.discard(link.id)
        self._emit(ChangeKind.LINKS_REMOVED, ids)
        return removed


def _check_entries(link: Link) -> None:
    """Refuse a ``via``, ``polarity`` or ``as_built_pieces_m`` entry the loader refuses
    (model.design.link_entries)."""
    problem = via_problem(link.via)
    if problem is None:
        found = record_problem(link.polarity)
        problem = found[1] if found else None
    if problem is None:
        problem = pieces_problem(link.as_built_pieces_m, link.via)
    if problem is not None:
        raise DesignError(f"link {link.id!r}: {problem}")
