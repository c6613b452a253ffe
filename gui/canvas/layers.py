"""Plan layers: kinds of layer (fabrics, tiers, …) in a registry, and one scene's hidden set.

A :class:`LayerKind` names its layers and says, from the model, which link and which racks are
in each; ``register_layer_kind`` adds a kind (View menu entries come with it, see
:mod:`gui.actions.fabric_layers`). :class:`LayerState` is what a plan scene hides: a link is drawn when
no kind hides the layer it is in; a rack is dimmed when, for some kind, it is in layers of that
kind and all of them are hidden (a rack in none of a kind's layers is never dimmed by it).

This module only switches layers: membership is the model's (``model.design.fabrics``,
``model.analysis.tier_layers``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from model.analysis.tier_layers import TIERS, rack_tiers, tier_label, tier_membership
from model.design.design import Design
from model.design.entities import FABRICS
from model.design.fabrics import FABRIC_LABELS, link_fabric_map, rack_fabrics

Membership = tuple[dict[str, str], dict[str, set[str]]]  # link id -> layer, rack id -> layers


@dataclass(frozen=True)
class LayerKind:
    key: str  # "fabric", "tier"
    title: str  # the View submenu, with its mnemonic
    noun: str  # for tooltips: "network", "tier"
    layers: tuple[tuple[str, str], ...]  # (layer name, label) in menu order
    membership: Callable[[Design], Membership]


LAYER_KINDS: dict[str, LayerKind] = {}


def register_layer_kind(kind: LayerKind) -> LayerKind:
    """Add a kind of layer to every plan (and its submenu to every window built after)."""
    LAYER_KINDS[kind.key] = kind
    return kind


def _fabric_membership(design: Design) -> Membership:
    links = link_fabric_map(design)
    return links, rack_fabrics(design, links)


def _tier_membership(design: Design) -> Membership:
    links, switches = tier_membership(design)
    return links, rack_tiers(design, switches)


register_layer_kind(
    LayerKind(
        "fabric",
        "&Fabrics",
        "network",
        tuple((f, FABRIC_LABELS[f]) for f in FABRICS),
        _fabric_membership,
    )
)
# Choice: the tiers the generators build. A hand-built fourth tier ("tier4") stays shown.
register_layer_kind(
    LayerKind("tier", "&Tiers", "tier", tuple((t, tier_label(t)) for t in TIERS), _tier_membership)
)


class LayerState:
    """The layers one scene hides, with the model's membership cached per design revision."""

    def __init__(self, design: Design) -> None:
        self.design = design
        self.hidden: dict[str, set[str]] = {}
        self._cache: dict[str, tuple[int, Membership]] = {}

    @property
    def active(self) -> bool:
        return any(self.hidden.values())

    def membership(self, key: str) -> Membership:
        revision = self.design.revision
        cached = self._cache.get(key)
        if cached is None or cached[0] != revision:
            cached = self._cache[key] = (revision, LAYER_KINDS[key].membership(self.design))
        return cached[1]

    def set_visible(self, key: str, layer: str, visible: bool) -> None:
        hidden = self.hidden.setdefault(key, set())
        if visible:
            hidden.discard(layer)
        else:
            hidden.add(layer)

    def visible(self, key: str, layer: str) -> bool:
        return layer not in self.hidden.get(key, ())

    def link_filter(self) -> Callable[[str], bool] | None:
        """A test ``link id -> drawn?`` for the layers hidden now; None when nothing is hidden
        (callers skip filtering altogether)."""
        tests = [(self.membership(k)[0], h) for k, h in self.hidden.items() if h]
        if not tests:
            return None
        return lambda link_id: all(of.get(link_id) not in hidden for of, hidden in tests)

    def rack_shown(self, rack_id: str) -> bool:
        for key, hidden in self.hidden.items():
            if hidden:
                layers = self.membership(key)[1].get(rack_id)
                if layers and not layers - hidden:
                    return False
        return True
