"""The DGX H100 SuperPOD's own rack arrangement (RA Table 7: 38 racks, 8 OOB switches), for the halls it describes.

The DGX H100 SuperPOD reference architecture (RA-11333-001 V11, Appendix A, NV-SP-H100-T7)
lists for its 4-SU, 127-node hall 38 racks, 8 SN2201 OOB switches and 96 + 12 rack PDUs, and
its Table 8 cables to the OOB network every DGX, the 64 InfiniBand switches, the 8 management
and UFM nodes, the 8 in-band switches and all 108 PDUs. The table does not say which rack holds
what; its counts and the RA's text place it so:

* 32 DGX racks (4 DGX H100 and 3 PDUs each: 96) and 6 more racks of 2 PDUs (12);
* a network rack per SU with the SU's 8 rail leaves (UNANS-H100: "8 leaf in central network
  rack") and the SU's OOB switches: 4 racks;
* the rest in 2 management racks, as the SuperPOD RAs' management rack figure fills one
  ("networking switches, management servers, storage arrays, and UFM appliances",
  NV-SP-B200-RACKS): the 16 compute spines, the storage fabric, the 8 in-band SN4600C, 4 UFM
  appliances and 4 BCM servers (57 U);
* the 8 OOB switches, 2 in each SU's network rack, serve the whole hall (the OOB fabric
  "connects the management ports of all devices", NV-SP-H100-SU): an SU's 31-32 BMCs, 8
  leaves and 26 PDUs take 66 of a pair's 96 ports, and the management racks' ports and PDUs
  the rest. The general rule (an OOB switch in every run of racks, #43, so the XL hall's UTP
  stays within 100 m) would add one each to the spine block, storage and management rows: 12;
* the storage appliances are partner storage, outside Table 7 (the RA sizes none): their own
  row, not among the 38.

It applies where the RA does: servers whose RA names its racks' PDUs (``rack_pdus``), every
network, a two-tier compute fabric of at most four SUs ("a fully tested system scales to four
SUs", NV-SP-H100-SU); a leaf-spine of such servers in up to four runs of racks is racked the
same way (its runs are SU-sized). Larger halls keep the general rules: more spines than two
management racks hold, and the management rows' UTP kept within its 100 m by OOB switches of
their own.
"""

from __future__ import annotations

from model.generators.placement import Segment

RA_MAX_SUS = 4  # the RA's tested size; Table 7 is its 4-SU hall


def applies(runs: list[Segment], every_pdu: bool, all_fabrics: bool) -> bool:
    """Whether the compute ``runs`` (SU runs and one spine block) are the RA's hall:
    ``every_pdu`` (the servers' RA names the rack PDUs) and ``all_fabrics`` asked for."""
    sus = [s for s in runs if s.units]
    blocks = [s for s in runs if not s.units]
    two_tier = len(blocks) == 1 and all(sw[2] == "spine" for sw in blocks[0].switches)
    return every_pdu and all_fabrics and 0 < len(sus) <= RA_MAX_SUS and two_tier


def su_indices(runs: list[Segment]) -> list[int]:
    """The SU runs (they hold servers), whose network racks take the OOB switches."""
    return [i for i, s in enumerate(runs) if s.units]


def spine_block_index(runs: list[Segment]) -> int:
    """The compute spine block, whose switches move into the management racks."""
    return next(i for i, s in enumerate(runs) if not s.units)


def management_run(
    spines: Segment,
    storage_switches: list[tuple[str, str, str, dict[str, int]]],
    mgmt_switches: list[tuple[str, str, str, dict[str, int]]],
    mgmt_units: list,
) -> Segment:
    """The management racks: compute spines, storage and in-band switches, then the UFM
    appliances and head nodes, sharing racks by U and power (``Segment.mixed``)."""
    return Segment(
        units=list(mgmt_units),
        switches=list(spines.switches) + list(storage_switches) + list(mgmt_switches),
        own_row=True,
        mixed=True,
    )
