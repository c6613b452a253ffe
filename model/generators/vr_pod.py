"""The Vera Rubin POD: sixteen Vera Rubin NVL72 racks with the POD's CPU, storage and network racks.

NVIDIA's Vera Rubin POD (NV-VR-POD, domain-facts §9) is 40 racks and 1,152 Rubin GPUs in five
rack types on the third-generation MGX rack: Vera Rubin NVL72 compute, Groq 3 LPX inference,
Vera CPU (256 CPUs, NEXTFIN-VR-POD), BlueField-4 STX storage and Spectrum-6 SPX networking.

* **Compute**: 1,152 / 72 = 16 NVL72 racks (derived from NV-VR-POD), their rail-optimized
  Spectrum-X scale-out as the nvl72 template builds it for ``vera-rubin``.
* **SPX**: the scale-out switches stand in Spectrum-6 networking racks (``rack-vr-spx``); their
  count follows from the switches the fabric needs, not from a table.
* **CPU and STX**: the split of the other racks by type was not in the sources read; 4 of each
  is an estimate. With the storage, in-band and OOB networks' own racks the build is 36 racks;
  the remaining 4 of the 40 would be the LPX racks, which are not built.
* **LPX**: left out. The source gives 256 LPUs per rack (NEXTFIN-VR-POD) but no ports, power or
  cooling, so no LPX device type is in the catalog; ``generation_notes`` says so (:func:`lpx_note`).

The CPU trays' converged ports join the GPU trays' converged storage + in-band fabric, both
ports on two switches (:func:`model.generators.network_ports.converged_servers`); the STX nodes
are the POD's storage on its appliance leaves, no generic appliance is added. Hence a POD builds every network (``--fabrics all``).
"""

from __future__ import annotations

from model.catalog.components import Catalog
from model.generators.placement import Segment, Unit
from model.generators.plans import GenerateError

POD_RACKS = 40  # NV-VR-POD
POD_GPUS = 1152  # NV-VR-POD
NVL72_GPUS = 72
POD_NVL72_RACKS = POD_GPUS // NVL72_GPUS  # 16
POD_PLATFORM = "vera-rubin"
CPU_TRAY = "vera-cpu-tray"
STX_NODE = "bf4-stx-node"
SPX_RACK = "rack-vr-spx"
# Estimates (no per-type split found): racks of each kind beside the NVL72 racks.
POD_CPU_RACKS = 4
POD_STX_RACKS = 4


def lpx_note(racks_built: int) -> str:
    """What the POD lacks: its LPX racks, the rest of the 40 the source gives."""
    return (
        f"{racks_built} racks of the POD's {POD_RACKS} (NV-VR-POD) built; no Groq 3 LPX racks: "
        "the sources give 256 LPUs per rack but no ports, power or cooling, so the catalog has "
        f"no LPX type (the other {POD_RACKS - racks_built} racks would be theirs)"
    )


def check_pod(platform: str, racks: int) -> None:
    """A POD is the Vera Rubin platform's 16 NVL72 racks; anything else is refused."""
    if platform != POD_PLATFORM:
        raise GenerateError(f"--pod is a Vera Rubin POD: use --platform {POD_PLATFORM}")
    if racks != POD_NVL72_RACKS:
        raise GenerateError(
            f"a Vera Rubin POD has {POD_NVL72_RACKS} NVL72 racks ({POD_GPUS:,} GPUs); "
            f"ask for --racks {POD_NVL72_RACKS}, or leave out --pod for {racks} racks"
        )


def add_pod_racks(catalog: Catalog, segments: list[Segment]) -> list[Segment]:
    """The compute runs with their switches in SPX racks, then a run of Vera CPU racks and
    one of STX storage racks (each device type racked as its catalog entry says)."""
    for segment in segments:
        segment.network_rack_type = SPX_RACK
    return [
        *segments,
        _run(catalog, CPU_TRAY, "cpu", POD_CPU_RACKS),
        _run(catalog, STX_NODE, "stx", POD_STX_RACKS),
    ]


def _run(catalog: Catalog, type_id: str, prefix: str, racks: int) -> Segment:
    dtype = catalog.device_types[type_id]
    per_rack = dtype.servers_per_rack or 1
    width = len(str(racks * per_rack))
    units = [
        Unit(
            [(f"{prefix}{i + 1:0{width}d}", type_id, dtype.default_role, 0, {})],
            dtype.u_height,
            dtype.power_max_w,
        )
        for i in range(racks * per_rack)
    ]
    return Segment(
        units=units,
        server_rack_type=dtype.rack_type or "",
        units_per_rack=per_rack,
        new_row=True,
    )
