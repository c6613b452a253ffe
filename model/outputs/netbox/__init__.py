"""NetBox import files: device types, sites, racks, devices, modules, interfaces, patch panels
and cables, chunked for NetBox's bulk-import views.

Modules:

- ``cables``: The cables file of the NetBox export (``08_cables``, ``09_backplane_cables``): one
  row per link, A and B ends as NetBox's cable import names them (site, device, ``dcim.interface``,
  port), NetBox's cable type, the ordered length. A schedule given column by column is written as
  columns (:func:`table_cables`); rows as rows.
- ``columns``: NetBox tables held column by column, and their CSV chunks written without a tuple
  per row.
- ``device_types``: NetBox device types from the catalog: variants, interface and cable types, and
  their YAML.
- ``export``: NetBox import files for a shared NetBox: the design as one site, shared types apart,
  chunked.
- ``floor_record``: what NetBox has no field for (rack position, rotation and id; the hall's
  outline and trays), kept in the racks' and site's own fields (facility id, comments).
- ``library_types``: devicetype-library naming: the library's manufacturer, model, slug and
  interface names for the catalog devices it has (``resources/catalog/netbox/``), and YAML the
  library's schema accepts for every other type.
- ``library_export``: ``export-netbox --types library [--types-from DIR]``: the export's tables
  renamed, the types a NetBox already holds left out, what they lack listed.
- ``modules``: NetBox modules: the transceiver in every used cage, and one module type per part
  number.
- ``names``: NetBox names: within NetBox's length limits and unique the way NetBox compares them.
- ``panels``: NetBox patch panels of a structured design: panel port templates, cords and trunk
  legs.
- ``panel_links``: the cabling schedule's links as the panels read them: labels, flipped rows,
  and the paneled links' ends and media gathered from the schedule's codes.
- ``readme``: The README of a NetBox export folder: import order, shared objects, modules, big
  files.
- ``rest_objects``, ``rest_state``, ``rest_push``, ``rest_client``: push-netbox: the objects a
  push writes by natural key, what NetBox holds keyed alike, the plan and its writing in
  dependency order, and NetBox's REST API over HTTP.
"""
