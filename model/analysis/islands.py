"""Islands of a fabric: the pieces whose GPUs can still reach each other, and the largest job.

A failure that partitions the fabric leaves every GPU working; what it loses is the ability to
run one job across the pieces. So the pieces are counted, not "GPUs cut off":

* two devices are in one piece when a chain of live compute or scale-up links joins them. A GPU
  server is a node of that graph, so its NICs join each other: a GPU reaches the rail of a
  neighbour's NIC over the server's NVLink, as NCCL's PXN does, and the servers of a rail-
  optimized scalable unit stay one piece when its spines fail. An NVL72 rack's compute trays are
  joined by their NVLink switch trays;
* an island is a piece holding GPUs; its size is the GPUs of its live servers;
* GPUs with no scale-out path are those of a piece without a scale-out switch (a server whose
  NIC links all failed, an NVL72 rack whose leaves all failed): they still run a job inside
  their box or rack, never beyond it;
* the largest job that still runs is the largest island's GPU count (a job's GPUs must all
  reach each other).

``largest_job_servers`` gives the servers of that job: the figure a collective estimate of the
default job after a failure starts from (the collectives are :mod:`model.analysis.collectives`'s,
fed with the surviving topology of :func:`model.analysis.whatif.surviving`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.analysis.topology import LINK_OTHER, Topology, components, components_after

ISLANDS_LISTED = 32  # the JSON lists the largest islands' sizes, not 16k lone servers'


@dataclass
class Islands:
    label: np.ndarray  # piece of every device (-1: not a member: failed, or off the fabrics)
    gpus: np.ndarray  # GPUs per island, largest first
    island_labels: np.ndarray  # the piece label of each island, in the order of ``gpus``
    scale_out: np.ndarray  # bool per island: it holds a scale-out switch
    servers_per_island: np.ndarray
    server: np.ndarray  # bool per device: a live GPU server

    @property
    def count(self) -> int:
        return len(self.gpus)

    @property
    def largest_job_gpus(self) -> int:
        return int(self.gpus[0]) if len(self.gpus) else 0

    @property
    def gpus_without_scale_out(self) -> int:
        return int(self.gpus[~self.scale_out].sum())

    def largest_job_servers(self) -> np.ndarray:
        """Device indices of the servers of the largest island (the default job after a
        failure)."""
        if not len(self.gpus):
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero(self.server & (self.label == self.island_labels[0]))

    def to_json(self) -> dict:
        return {
            "count": self.count,
            "gpus": [int(g) for g in self.gpus[:ISLANDS_LISTED].tolist()],
            "servers": [int(s) for s in self.servers_per_island[:ISLANDS_LISTED].tolist()],
            "largest_job_gpus": self.largest_job_gpus,
            "gpus_without_scale_out": self.gpus_without_scale_out,
        }


def islands(
    topo: Topology, base: Islands | None = None, touched: np.ndarray | None = None
) -> Islands:
    """The islands of ``topo`` (a design's topology, or what survives a failure). ``base``:
    the islands of the topology ``topo`` survives, whose pieces are then recomputed only where
    ``touched`` (the failed devices and the ends of the failed links; the same labels as
    afresh, :func:`model.analysis.topology.components_after`)."""
    n = len(topo.device_ids)
    joins = topo.kind != LINK_OTHER  # compute and scale-up links
    a, b = topo.a[joins], topo.b[joins]
    members = topo.is_gpu_server | (topo.level >= 1)
    members[a] = True  # NVLink switch trays and anything else on those links
    members[b] = True
    # A failed server keeps its level but not its flag: it is no member and joins nothing.
    members &= ~((topo.level == 0) & ~topo.is_gpu_server)
    if base is not None and touched is not None:
        label = components_after(n, a, b, members, base.label, touched)
    else:
        label = components(n, a, b, members)
    server = topo.is_gpu_server & (label >= 0)
    gpus_of = np.bincount(label[server], weights=topo.gpus[server], minlength=n)
    servers_of = np.bincount(label[server], minlength=n)
    switch = (topo.level >= 1) & (label >= 0)
    has_switch = np.zeros(n, dtype=bool)
    has_switch[label[switch]] = True
    pieces = np.flatnonzero(gpus_of > 0)
    order = np.lexsort((pieces, -gpus_of[pieces]))  # largest first, then by label
    pieces = pieces[order]
    return Islands(
        label,
        gpus_of[pieces].astype(np.int64),
        pieces,
        has_switch[pieces],
        servers_of[pieces].astype(np.int64),
        server,
    )
