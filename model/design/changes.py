"""Typed change events of a design: what one edit changed, and who is told.

Every edit of a :class:`~model.design.design.Design` is announced as exactly one :class:`Change`, which
lists, per :class:`ChangeKind`, every id the edit touched: deleting a rack is one change carrying
the removed links, devices and the rack. Edit-API calls made inside ``Design.batch()`` (an undo
command, a delete with its cascade, a paste) are gathered into that one change.

Listeners subscribe and get a :class:`Subscription`, a handle that ends the subscription on
``close()`` and ends it by itself when the listener's object is garbage collected (a bound method
is held weakly, so a forgotten view is never called after it is gone). A listener that raises is
logged and skipped: the other listeners still hear the change, and the edit stands.
"""

from __future__ import annotations

import logging
import types
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from enum import Enum

logger = logging.getLogger(__name__)


class ChangeKind(Enum):
    """One kind of change (noun + past verb); an edit may make several."""

    NAME_CHANGED = "name_changed"
    HALL_CHANGED = "hall_changed"
    # The drawing under the plan placed, moved or removed: nothing routes or analyses by it.
    UNDERLAY_CHANGED = "underlay_changed"
    # Dimension lines drawn, moved or removed: annotations, read by people only.
    ANNOTATIONS_CHANGED = "annotations_changed"
    SETTINGS_CHANGED = "settings_changed"
    TRAYS_ADDED = "trays_added"
    TRAYS_CHANGED = "trays_changed"
    TRAYS_REMOVED = "trays_removed"
    RACKS_ADDED = "racks_added"
    RACKS_MOVED = "racks_moved"  # position, rotation or footprint: where the ports are
    RACKS_CHANGED = "racks_changed"
    RACKS_REMOVED = "racks_removed"
    DEVICES_ADDED = "devices_added"
    DEVICES_MOVED = "devices_moved"
    DEVICES_CHANGED = "devices_changed"
    DEVICES_REMOVED = "devices_removed"
    LINKS_ADDED = "links_added"
    LINKS_CHANGED = "links_changed"
    # A link's pinned fabric set, changed or cleared: which network it is in, so the topology
    # (tiers, oversubscription, bisection). Always made with LINKS_CHANGED for the same ids, so
    # a listener of LINKS_CHANGED alone hears every link edit as before.
    LINKS_REFABRICKED = "links_refabricked"
    LINKS_REMOVED = "links_removed"


K = ChangeKind
TRAY_KINDS = frozenset({K.TRAYS_ADDED, K.TRAYS_CHANGED, K.TRAYS_REMOVED})
RACK_KINDS = frozenset({K.RACKS_ADDED, K.RACKS_MOVED, K.RACKS_CHANGED, K.RACKS_REMOVED})
DEVICE_KINDS = frozenset({K.DEVICES_ADDED, K.DEVICES_MOVED, K.DEVICES_CHANGED, K.DEVICES_REMOVED})
LINK_KINDS = frozenset({K.LINKS_ADDED, K.LINKS_CHANGED, K.LINKS_REFABRICKED, K.LINKS_REMOVED})
del K


class Change:
    """What one edit changed: for each kind it made, the ids it touched, in edit order.

    ``kind in change`` asks whether the edit made that kind of change, ``change.ids(*kinds)``
    gives the ids of those kinds (each once), ``change.touches(kinds)`` whether it made any of
    them. An id may appear under a removal and an addition at once (removed and put back in one
    edit), so listeners check the design for what exists now.
    """

    __slots__ = ("_parts",)

    def __init__(self, parts: Mapping[ChangeKind, Iterable[str]]) -> None:
        self._parts = {kind: tuple(ids) for kind, ids in parts.items()}

    @classmethod
    def of(cls, kind: ChangeKind, ids: Iterable[str] = ()) -> Change:
        """A change of one kind, e.g. ``Change.of(ChangeKind.RACKS_MOVED, ["r-1"])``."""
        return cls({kind: ids})

    @property
    def kinds(self) -> frozenset[ChangeKind]:
        return frozenset(self._parts)

    @property
    def parts(self) -> dict[ChangeKind, tuple[str, ...]]:
        """Kind -> ids, in the order the edit made them."""
        return dict(self._parts)

    def ids(self, *kinds: ChangeKind) -> tuple[str, ...]:
        """Ids touched under any of ``kinds`` (all kinds when none are named), each once."""
        chosen = kinds or tuple(self._parts)
        return tuple(dict.fromkeys(i for k in chosen for i in self._parts.get(k, ())))

    def touches(self, kinds: Iterable[ChangeKind]) -> bool:
        return any(kind in self._parts for kind in kinds)

    def __contains__(self, kind: object) -> bool:
        return kind in self._parts

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Change) and self._parts == other._parts

    def __hash__(self) -> int:
        return hash(tuple(self._parts.items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k.value}={list(v)}" for k, v in self._parts.items())
        return f"Change({inner})"


Listener = Callable[[Change], None]


class Subscription:
    """One listener's subscription; ``close()`` ends it (idempotent). Also a context manager.

    A bound method is held through a weak reference: when its object is collected the
    subscription ends by itself. Any other callable (function, lambda, ``list.append``) is held
    strongly until ``close()``.
    """

    __slots__ = ("_notifier", "_strong", "_weak", "__weakref__")

    def __init__(self, notifier: ChangeNotifier, listener: Listener) -> None:
        self._notifier: ChangeNotifier | None = notifier
        if isinstance(listener, types.MethodType):
            self._weak: weakref.WeakMethod | None = weakref.WeakMethod(listener)
            self._strong: Listener | None = None
        else:
            self._weak, self._strong = None, listener

    def listener(self) -> Listener | None:
        """The listener, or None once closed or its object is gone."""
        if self._notifier is None:
            return None
        return self._strong if self._weak is None else self._weak()

    @property
    def active(self) -> bool:
        return self.listener() is not None

    def close(self) -> None:
        notifier, self._notifier = self._notifier, None
        self._strong = self._weak = None
        if notifier is not None:
            notifier.forget(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


class ChangeNotifier:
    """The subscriptions of one design; gathers the edit-API calls of a batch into one Change."""

    def __init__(self) -> None:
        self._subscriptions: list[Subscription] = []
        self._depth = 0
        self._parts: dict[ChangeKind, dict[str, None]] = {}

    def subscribe(self, listener: Listener) -> Subscription:
        subscription = Subscription(self, listener)
        self._subscriptions.append(subscription)
        return subscription

    def forget(self, subscription: Subscription) -> None:
        if subscription in self._subscriptions:
            self._subscriptions.remove(subscription)

    @property
    def listener_count(self) -> int:
        """Live subscriptions (for tests and leak checks)."""
        return sum(1 for s in self._subscriptions if s.active)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Announce everything recorded inside as one Change when the outermost batch ends.

        What was applied before an exception is still announced: the design did change.
        """
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._publish()

    def record(self, kind: ChangeKind, ids: Iterable[str] = ()) -> None:
        if self._depth == 0 and not self._subscriptions and not self._parts:
            return  # announced at once to nobody: a loader's 400k ids need no Change (~0.4 s)
        part = self._parts.setdefault(kind, {})
        part.update(dict.fromkeys(ids))
        if self._depth == 0:
            self._publish()

    def _publish(self) -> None:
        if not self._parts:
            return
        change = Change(self._parts)
        self._parts = {}
        for subscription in list(self._subscriptions):
            listener = subscription.listener()
            if listener is None:
                self.forget(subscription)
                continue
            try:
                listener(change)
            except Exception:  # noqa: BLE001 - one broken view must not deafen the others
                logger.exception("change listener %r failed on %r", listener, change)
