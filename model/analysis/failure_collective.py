"""The default job's collective before and after a failure: what what-if and ``--n-1`` report.

Before: the design's default job (:func:`jobs.largest_job`, the whole hall when nothing is
split). After: the largest job that still runs (the largest island's servers,
:meth:`islands.Islands.largest_job_servers`, the same job the islands figure counts), routed over
what survives (:meth:`collectives.Collectives.without`: the failed devices and links removed,
ECMP over the live uplinks only), with the live NVLink per GPU of its servers (an NVL72 rack
that lost a tray). The collective is the design's message size (setting
``allreduce_message_mb``) with NCCL's own choice of algorithm and protocol.

A job whose servers the islands join only through a server's NVLink (PXN from one rail to
another) but whose leaves the network no longer joins is reported ``unreachable``: the routes
here are the network's, and NCCL would have to relay through GPUs, which this does not model.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from model.analysis.collectives import Collectives, Estimate
from model.analysis.jobs import Job
from model.analysis.topology import Topology


class FailureCollective:
    """One design's collective of the default job, before and after any number of failures."""

    def __init__(
        self, design, topo: Topology, collective: str = "all-reduce", size_bytes=None
    ) -> None:
        self.design = design
        self.topo = topo
        self.collective = collective
        settings = design.settings
        self.size_bytes = (
            float(size_bytes) if size_bytes is not None else settings.allreduce_message_mb * 1e6
        )
        self.base = Collectives(design, topo)

    @cached_property
    def before(self) -> Estimate:
        return self.base.estimate(self.base.default_job, self.collective, self.size_bytes)

    def after(
        self,
        dead: tuple[np.ndarray, np.ndarray],
        job_servers: np.ndarray,
        scale_up_per_gpu: np.ndarray,
        groups=None,
    ) -> Estimate:
        """The collective on ``job_servers`` (device indices: the largest island's servers)
        with the devices and links of ``dead`` failed. ``scale_up_per_gpu``: live NVLink Gb/s
        per GPU of every device after the failure; ``groups``: the surviving switch groups."""
        topo = self.topo
        member = np.zeros(len(topo.device_ids), dtype=bool)
        member[job_servers] = True
        nvlink = member & (topo.gpus > 1) & (scale_up_per_gpu > 0)
        live_up = float(scale_up_per_gpu[nvlink].min()) if nvlink.any() else None
        c = self.base.without(dead, groups, live_up)
        servers = c.fabric.servers[member[c.fabric.servers]]  # topology (ring) order
        gpus = int(topo.gpus[servers].sum())
        total = int(topo.gpus[topo.is_gpu_server].sum())
        label = "whole hall" if gpus == total else (
            f"largest job that still runs ({gpus:,} of {total:,} GPUs)"
        )  # fmt: skip
        return c.estimate(Job(label, servers, gpus), self.collective, self.size_bytes)


def change_json(before: Estimate, after: Estimate) -> dict:
    """Before and after, and the slowdown (after / before time; None when either is 0)."""
    slow = after.time_s / before.time_s if before.time_s > 0 and after.time_s > 0 else None
    return {
        "collective": before.collective,
        "size_bytes": before.size_bytes,
        "before": before.to_json(),
        "after": after.to_json(),
        "slowdown": slow,
    }
