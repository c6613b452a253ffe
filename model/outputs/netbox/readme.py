"""The README of a NetBox export folder: import order, shared objects, modules, big files."""

README = """NetBox import files exported by Hallwright for the site "{site}" (NetBox 4.x bulk import).

Every object is status "planned". Import the files in the order of their numbers; a file whose
name ends in _01, _02, ... is one table cut into parts: import every part, in order.

1. shared/ -- objects that are global in NetBox, shared by every site:
   01_manufacturers.csv   Organization > Manufacturers > Import (CSV)
   02_device_roles.csv    Devices > Device Roles > Import (CSV)
   03_device_types/*.yaml Devices > Device Types > Import: paste or upload each file, format
                          YAML (one device type each, devicetype-library format, with its
                          interfaces, module bays for the cages and its power port;
                          a patch panel's type has rear-ports, front-ports and port-mappings,
                          which NetBox 4.5 and later read -- older NetBox reads the
                          rear_port of each front port instead)
   03_module_types/*.yaml Devices > Module Types > Import: the same way, one transceiver
                          type each (devicetype-library module-types format: manufacturer,
                          model = part number, part number, description; no interfaces, the
                          ports are the host device's own). Import after the manufacturers;
                          device types and module types do not depend on each other.
   Import them once per NetBox. Another site's export may already have created some: NetBox
   imports a file all or nothing, so if it answers "... with this name already exists", delete
   the rows (or skip the YAML files) of the objects that exist and import the rest. Objects of
   the same name are the same: Hallwright always exports a type under the same model and slug.

2. site/ -- this site only:
   04_sites.csv, 05_locations.csv, 06_racks.csv, 07_devices*.csv
                          Organization > Sites / Locations, Racks > Racks, Devices > Devices
                          Devices get their interfaces from their device type: there is no
                          interface file.
   08_cables*.csv         Connections > Cables > Import: the cables to order and plug, with
                          the ordered length in metres. side_a_site / side_b_site name this
                          site, so device names that repeat in other sites are no problem.
                          A structured design's links through patch panels are two
                          patch cords (interface to the panel's front port, "... cord A" /
                          "... cord B") and their MPO trunk legs (rear port to rear port; a
                          zone panel's adapter takes the next trunk on its front port): the
                          panels are the design's devices of role patch-panel in 07_devices,
                          their ports and port mappings come from their device type, so NetBox
                          traces a port through every panel to the far port. A trunk bundling
                          several legs (MPO-24/48/144) is one physical cable, exported as one
                          cable per leg with the trunk's label ("leg k of n" in the
                          description): NetBox follows a leg through a multi-connector cable
                          only with a cable profile, and has none for twelve legs. The
                          trunk's length is on leg 1 only ("length on leg 1" on the others),
                          so NetBox's total cable length is the length bought.
   09_backplane_cables*.csv  links on a rack backplane (NVL72 NVLink spine): they come with the
                          rack and have no length, but are exported so those ports show as
                          connected.
   10_modules*.csv        Devices > Modules > Import: the transceiver in every used cage,
                          placed in its device's module bay ("p cage 1" = the cage of ports
                          p1 and p2; the bay's label lists its ports). Import after the
                          devices (their bays come from the device type) and the module
                          types. Only transceivers are modules: a cage holding one end of an
                          integrated cable (DAC, LACC, AEC, AOC) has no module, the plug is
                          part of the cable in 08_cables; backplane ports have no plug.
                          The file finds each device by its asset tag (column
                          "device.asset_tag"), because NetBox's module import has no site
                          column and a device name may repeat in other sites. The export
                          gives every device the placeholder asset tag "<device> @ <site>"
                          (unique in the whole NetBox, as NetBox requires); replace it with
                          the real asset tag once the modules are imported.
{power}
Big files: NetBox imports a cable row in roughly a tenth to half a second. A web server set up
as NetBox's installation guide says (gunicorn, timeout 120 s) cuts off a request that takes
longer, so tick "Background job" on the import page for files of more than a few hundred rows
(NetBox then imports in its worker; its Jobs list shows the result). Files are cut at 500 rows.

Names: NetBox allows device names of at most 64 characters and site and rack names of at most
100, and compares device names ignoring case. A longer name is cut and ends in "~" and 8
characters of a hash of the full name; a name that repeats (ignoring case) is prefixed with its
rack, then suffixed with its Hallwright id. A comma in a device, rack or port name is written
";": NetBox's cable import reads those columns as comma-separated lists. InfiniBand ports are
typed at their real speed: a 4-lane 400G NDR port is "infiniband-ndr-4x" (NetBox 4.6.9 and
later; "infiniband-ndr" is NetBox's 1-lane 100 Gbps type). The Hallwright id of every device is in its
description. Cable labels match the Hallwright cabling schedule; NetBox's cable type cannot tell
LACC from AEC (both "dac-active"), the cable description does.
"""

# README's paragraph on the power files, only in the export of a design with a facility (the
# folder of a design without one stays as it was).
POWER_README = """   11_power_panels.csv, 12_power_feeds.csv, 13_power_cables.csv
                          (a design with a facility) Power > Power Panels / Power Feeds >
                          Import, then Connections > Cables > Import: each busway or panel,
                          one feed per rack PDU or power shelf (primary on side A, redundant
                          on side B) and the power cable from the feed to the "input" power
                          port of that PDU, a device of role pdu in 07_devices (in its rack,
                          no U position). Import the feeds after the racks and devices.
"""

# The README's section on library naming, only in an export made with ``--types library``.
LIBRARY_README = """
Library naming (--types library): manufacturers, device types and interface names are those of
the netbox-community devicetype-library (manufacturer "Nvidia", model "QM9700", interfaces
"P0.0" ...) for every catalog device the library has; the other types are written in the
library's format and pass its JSON schema. In a NetBox that has the library's types loaded,
skip the YAML files of types it already holds (export with --types-from pointing at the
library checkout or at NetBox's own device-type YAML export, and they are not written). This
export:
"""
