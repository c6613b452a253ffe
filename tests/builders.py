"""Small designs built through the edit API, shared by model and GUI tests."""

from __future__ import annotations

from model.design.design import Design
from model.design.entities import Device, Hall, Link, PortRef, Rack, Tray


def empty_hall(width_m: float = 12.0, depth_m: float = 8.4) -> Design:
    hall = Hall(outline=[(0.0, 0.0), (width_m, 0.0), (width_m, depth_m), (0.0, depth_m)])
    return Design(hall, name="Test hall")


def rack(
    design: Design,
    rack_id: str,
    x: float,
    y: float,
    *,
    name: str | None = None,
    rotation: int = 0,
    type_id: str = "rack-48u-600x1200",
) -> Rack:
    rtype = design.catalog.rack_type(type_id)
    record = Rack(
        id=rack_id,
        name=name or rack_id.upper(),
        type=type_id,
        x=x,
        y=y,
        width_m=rtype.width_m,
        depth_m=rtype.depth_m,
        height_u=rtype.height_u,
        power_budget_kw=rtype.power_budget_kw,
        rotation=rotation,
    )
    design.add_racks([record])
    return record


def device(
    design: Design,
    device_id: str,
    rack_id: str,
    u: int,
    type_id: str,
    role: str | None = None,
    breakout: dict[str, int] | None = None,
) -> Device:
    dtype = design.catalog.device_type(type_id)
    record = Device(
        id=device_id,
        name=device_id,
        type=type_id,
        rack=rack_id,
        u=u,
        role=role or dtype.default_role,
        breakout=breakout or {},
    )
    design.add_devices([record])
    return record


def link(design: Design, link_id: str, a: tuple[str, str], b: tuple[str, str], **kw) -> Link:
    record = Link(id=link_id, a=PortRef(*a), b=PortRef(*b), **kw)
    design.add_links([record])
    return record


def server_and_leaf() -> Design:
    """Two racks, a DGX H100 in one and a QM9700 leaf in the other, joined by two links (l-1, l-2)."""
    design = empty_hall()
    rack(design, "r1", 1.5, 3.0, name="A01")
    rack(design, "r2", 4.5, 3.0, name="A02")
    device(design, "s1", "r1", 2, "dgx-h100")
    device(design, "leaf1", "r2", 20, "qm9700", role="leaf")
    link(design, "l-1", ("s1", "nic1"), ("leaf1", "p1"))
    link(design, "l-2", ("s1", "nic2"), ("leaf1", "p2"))
    return design


def small_pod() -> Design:
    """Racks R1, R2 (2 x DGX H100 each) in one row with network rack N1 between them.

    Row along x at y = 3.0 (rack centres), fronts facing -y; one overhead tray runs along the row
    and a cross tray goes down to the second row line at y = 6.0.
    """
    design = empty_hall()
    rack(design, "r1", 1.5, 3.0)
    rack(design, "n1", 2.1, 3.0)
    rack(design, "r2", 2.7, 3.0)
    design.add_trays(
        [
            Tray(id="t-row", points=[(0.6, 3.0), (11.4, 3.0)]),
            Tray(id="t-cross", points=[(6.0, 3.0), (6.0, 6.0)]),
        ]
    )
    for rack_id, prefix in (("r1", "a"), ("r2", "b")):
        device(design, f"{prefix}1", rack_id, 2, "dgx-h100")
        device(design, f"{prefix}2", rack_id, 12, "dgx-h100")
    device(design, "leaf1", "n1", 20, "qm9700", role="leaf")
    device(design, "leaf2", "n1", 22, "qm9700", role="leaf")
    n = 0
    for server in ("a1", "a2", "b1", "b2"):
        for nic in range(1, 9):
            leaf = "leaf1" if nic <= 4 else "leaf2"
            n += 1
            link(design, f"l-{n}", (server, f"nic{nic}"), (leaf, f"p{n}"))
    design.revision = 0
    return design


def copper_pod() -> Design:
    """Two spine switches racked beside a leaf rack, ports near the tray: straight twin-port
    LACCs, switch to switch (NVIDIA sells its 800G LACC for Quantum-2 switch-to-switch links
    only: a DGX's ConnectX-7 cage takes none, issue 39's plug rules).

    R1 | N1 | R2 at y = 3.0 with one tray along the row; each spine's p1-8 go to the leaf's
    ports in order, so each spine cage pairs with one leaf cage (straight cables, ~3.3 m).
    Moving R2 a few metres along the row takes its 8 links past LACC reach: a module per cage +
    fibres.
    """
    design = empty_hall(16.0, 8.4)
    for rack_id, x in (("r1", 1.5), ("n1", 2.1), ("r2", 2.7)):
        rack(design, rack_id, x, 3.0)
    design.add_trays([Tray(id="t1", points=[(0.6, 3.6), (15.0, 3.6)])])
    device(design, "a1", "r1", 40, "qm9700", role="spine")
    device(design, "a2", "r2", 40, "qm9700", role="spine")
    device(design, "leaf", "n1", 47, "qm9700", role="leaf")
    n = 0
    for spine in ("a1", "a2"):
        for port in range(1, 9):
            n += 1
            link(design, f"{spine}-{port}", (spine, f"p{port}"), ("leaf", f"p{n}"))
    return design
