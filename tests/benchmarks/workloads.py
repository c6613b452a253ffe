"""The S, L and XL reference workloads of DESIGN.md, built by the fabric generators.

``build(size)`` returns a placed, fully cabled Design; every area's benchmark uses these.
  S   1,024 GPUs:   128 DGX H100, rail-optimized 2 tiers of QM9700 (the 4-SU DGX SuperPOD).
  L  16,384 GPUs: 2,048 HGX H100 8x400G, rail-optimized 3 tiers of SN5600 run as 128 x 400G.
  XL 131,072 GPUs: 16,384 HGX H100 8x400G, the same 3 tiers (393,216 links, ~4,500 racks).
"""

from __future__ import annotations

from model.design.design import Design
from model.generators.generate import rail_optimized

PARAMS = {
    "S": dict(nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32),
    "L": dict(nodes=2048, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=64),
    "XL": dict(nodes=16384, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=64),
}
SIZES = tuple(PARAMS)


def build(size: str, fabrics: str = "compute") -> Design:
    """The reference workload ``size`` ("S", "L" or "XL"); ``fabrics="all"`` adds the storage,
    in-band and OOB networks (their switches, racks and links)."""
    try:
        params = PARAMS[size]
    except KeyError:
        raise ValueError(f"unknown workload size {size!r}; choose S, L or XL") from None
    return rail_optimized(**params, fabrics=fabrics, name=f"Reference workload {size}")
