"""The component catalog: device, rack and media types (``components``), orderable parts, port
names of a device type, and the structured-cabling catalog (panels, cassettes, trunks).

Modules:

- ``components``: Component catalog: device types, rack types and media types, loaded from
  resources/catalog.
- ``nics``: NIC and DPU types: the port-carrying parts a server type is built from, and their
  port modes.
- ``parts``: Orderable parts: transceiver modules, integrated cables, fibres and tray products;
  the number a purchaser orders by (``orderable_number``, ``row_number``: "quote" for an EST-).
- ``ports``: Port names of a device type, with the speed, lanes and form factor of each port.
- ``structured``: Structured-cabling catalog: patch panels, cassettes, enclosures, MPO trunks,
  channel figures.
"""
