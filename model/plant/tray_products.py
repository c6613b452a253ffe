"""Tray products of a design: metres of each standard tray product, in sections, by bank."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from model.plant.physical_plant import PartCount


def trays_in_bank(design, tray) -> int:
    """How many parallel tray products a tray record is: a tray wider than the widest product
    is a bank of them (a 3.6 m tray of 0.9 m products = 4 trays), each carrying its own load
    class. 1 when the catalog has no tray products."""
    products = design.catalog.tray_products.values()
    if not products:
        return 1
    return _bank_count(tray.width_m, max(p.width_m for p in products))


def _bank_count(width_m: float, widest_m: float) -> int:
    return max(1, int(np.ceil(width_m / widest_m - 1e-9)))


def tray_items(design) -> list[PartCount]:
    """Tray products for the design's trays: metres of each standard product, by bank.

    A tray wider than the widest product is a bank of parallel trays of the smallest product
    width that divides it into at most as many trays as needed (a 1.8 m tray = 2 x 0.9 m); its
    depth rounds up to the next product depth. Metres are rounded up to whole sections.
    """
    products = sorted(design.catalog.tray_products.values(), key=lambda p: (p.width_m, p.depth_m))
    if not products:
        return []
    metres: defaultdict[str, float] = defaultdict(float)
    widest = max(p.width_m for p in products)
    for tray in design.trays.values():
        length = polyline_length_m(tray.points)
        banks = _bank_count(tray.width_m, widest)
        each = tray.width_m / banks
        fit = [p for p in products if p.width_m + 1e-9 >= each and p.depth_m + 1e-9 >= tray.depth_m]
        if not fit:
            fit = [max(products, key=lambda p: (p.width_m, p.depth_m))]
        product = min(fit, key=lambda p: (p.width_m * p.depth_m, p.width_m))
        metres[product.id] += banks * length
    out = []
    for product_id, length in sorted(metres.items()):
        product = design.catalog.tray_products[product_id]
        sections = int(np.ceil(length / product.length_m - 1e-9))
        out.append(
            PartCount(
                category="tray",
                part_id=product.id,
                part_number=product.part_number,
                vendor=product.vendor,
                description=product.description,
                length_m=product.length_m,
                quantity=sections,
                kind="tray",
                unit_power_w=0.0,
                unit_power_w_max=0.0,
                unit_price_usd=product.price_per_m_usd * product.length_m,
                source=product.source,
            )
        )
    return out


def polyline_length_m(points) -> float:
    """Length of a tray's centre line (sum of its straight pieces), in metres."""
    pts = np.asarray(points, dtype=float)
    if len(pts) < 2:
        return 0.0
    return float(np.hypot(*np.diff(pts, axis=0).T).sum())
