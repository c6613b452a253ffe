"""NetBox cooling of a design with a facility: the CRAHs as cooling sources, their air loops as feeds.

NetBox 4.7 models cooling as *cooling source* (facility plant: chiller, cooling tower, dry
cooler, CRAC or CRAH; a required type) -> *cooling feed* (one loop from a source to a rack,
supply and return together) -> the cooling intakes and outflows of devices; CDUs, manifolds
and rear-door heat exchangers are devices with those components, not objects of their own
(NetBox's docs/features/cooling.md, read from its source at v4.7.0-beta1 and the 4.7 feature
branch). So:

* every CRAH of ``Hall.cooling`` is a cooling source of type ``crah``, with its capacity (kW);
* every rack a CRAH serves (``Rack.cooling``) gets a cooling feed from it, named
  ``<rack> air<n>`` (n: the rack's n-th CRAH), in that rack; NetBox's capacity of a feed is the
  loop's own rating, which the design does not state, so it is left empty and the rack's share
  of its air heat is not written as a rating.

Left out, said in the README: the CDUs. NetBox has no CDU type of source; a CDU is a device with
cooling intakes and outflows fed from facility plant (a chiller) the design does not model.
"""

from __future__ import annotations

from model.design.design import Design
from model.outputs.netbox.names import DESCRIPTION_MAX, fit_name

COOLING_SOURCE_HEADER = (
    "site",
    "location",
    "name",
    "type",
    "status",
    "cooling_capacity",
    "description",
)
COOLING_FEED_HEADER = (
    "site",
    "cooling_source",
    "location",
    "rack",
    "name",
    "status",
    "description",
)
COOLING_STEMS = ("14_cooling_sources", "15_cooling_feeds")

# README's paragraph on the cooling files, only in the export of a hall with CRAHs.
COOLING_README = """   14_cooling_sources.csv, 15_cooling_feeds.csv
                          (a hall with CRAHs; NetBox 4.7 or later) Cooling > Cooling
                          Sources / Cooling Feeds > Import, after the racks: each CRAH as a
                          cooling source of type crah with its capacity, and one feed from it
                          to each rack it serves. The CDUs are not written: NetBox models a
                          CDU as a device with cooling intakes and outflows fed from facility
                          plant (a chiller) the design does not hold.
"""


def cooling_export(
    design: Design, site: str, location: str, rack_names: dict[str, str]
) -> tuple[list[tuple], list[tuple]]:
    """(cooling source rows, cooling feed rows) of ``design``; empty without CRAHs."""
    crahs = design.hall.cooling.crahs
    if not crahs:
        return [], []
    names = {c.id: fit_name(c.name or c.id, 100) for c in crahs}
    served: dict[str, int] = dict.fromkeys(names, 0)
    feeds = []
    for rack in sorted(design.racks.values(), key=lambda r: rack_names[r.id]):
        mine = [u for u in rack.cooling if u in names]
        for n, unit in enumerate(mine, 1):
            served[unit] += 1
            feeds.append(
                (
                    site,
                    names[unit],
                    location,
                    rack_names[rack.id],
                    fit_name(f"{rack_names[rack.id]} air{n}", 100),
                    "planned",
                    fit_name(f"Hallwright {rack.id}: air loop of {unit}", DESCRIPTION_MAX),
                )
            )
    sources = [
        (
            site,
            location,
            names[c.id],
            "crah",
            "planned",
            f"{c.capacity_kw:g}",
            fit_name(f"Hallwright crah {c.id}, serves {served[c.id]} racks", DESCRIPTION_MAX),
        )
        for c in crahs
    ]
    return sources, feeds
