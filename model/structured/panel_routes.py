"""Which patch panels a link is routed through when the user asks for "route via panels".

Pure functions over the design and its cable plant, used by the editor's Route Via Panels
command (the edit itself is :func:`model.design.structured_edit.route_via`). Choices, written down:

* the panel type follows the link's optics: duplex LC modules (FR4) pass LC cassettes in an
  enclosure (``enclosure-1u-4``), parallel MPO optics (SR4/SR8/DR4) pass MPO adapter panels
  (``panel-mpo-1u-72``); a link on an integrated cable (DAC, AOC) or with no medium is refused;
* the panels are the top panel of that type in the A end's rack and in the B end's rack (the
  cross-connect pattern); a rack without one is refused with a sentence naming the rack — no
  panel is placed behind the user's back.
"""

from __future__ import annotations

from model.design.design import Design, DesignError
from model.design.structured_edit import PANEL_TYPES, panels_in_rack
from model.structured.channel_view import cord_fibre_part
from model.structured.channels import CONNECTOR_FAMILY

MPO_PANEL, LC_ENCLOSURE = PANEL_TYPES
PANEL_WORDS = {
    MPO_PANEL: "MPO adapter panel (1U, 72 ports)",
    LC_ENCLOSURE: "LC cassette enclosure (1U, 4 cassettes)",
}


def _name(design: Design, link_id: str) -> str:
    return design.links[link_id].label or link_id


def panel_type_for(design: Design, plant, link_id: str) -> str:
    """The panel type the link's optics pass (see the module docstring)."""
    medium = plant.medium(link_id) if plant is not None else None
    fibre = cord_fibre_part(design, medium.id) if medium is not None else None
    if fibre is None:
        kind = f"a {medium.kind} cable" if medium is not None else "no medium"
        raise DesignError(
            f"link {_name(design, link_id)}: runs on {kind}; only fibre links pass panels"
        )
    return LC_ENCLOSURE if CONNECTOR_FAMILY.get(fibre.connector) == "LC" else MPO_PANEL


def end_panels(design: Design, plant, link_id: str) -> tuple[str, str]:
    """The top panel of the link's panel type in its A rack and in its B rack."""
    link = design.links[link_id]
    type_id = panel_type_for(design, plant, link_id)
    out = []
    for end in (link.a, link.b):
        rack_id = design.devices[end.device].rack
        panels = panels_in_rack(design, rack_id, type_id)
        if not panels:
            raise DesignError(
                f"link {_name(design, link_id)}: rack {design.racks[rack_id].name} has no "
                f"{PANEL_WORDS.get(type_id, type_id)}; place one first"
            )
        out.append(panels[0].id)
    if out[0] == out[1]:
        raise DesignError(f"link {_name(design, link_id)}: both ends are in one rack")
    return out[0], out[1]


def panel_names_to_ids(design: Design, text: str) -> tuple[str, ...]:
    """``"PP-1, PP-2"`` (panel names or ids, A end to B end) -> panel ids, or a refusal."""
    by_name = {d.name: d.id for d in design.devices.values() if d.role == "patch-panel"}
    out = []
    for word in (w.strip() for w in text.split(",")):
        if not word:
            continue
        panel_id = by_name.get(word) or (word if word in design.devices else None)
        if panel_id is None:
            raise DesignError(f"no patch panel named {word!r}")
        out.append(panel_id)
    return tuple(out)


def via_text(design: Design, link_id: str) -> str:
    """The link's panels by name, A end to B end ("" = the cabling style's automatic ones)."""
    devices = design.devices
    return ", ".join(devices[p].name if p in devices else p for p in design.links[link_id].via)
