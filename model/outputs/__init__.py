"""Outputs: the bill of materials, the cabling schedule, NetBox and P2P exports, and the writers
(CSV, XLSX, folders) that put them on disk atomically.

Modules:

- ``bom``: Bill of materials: a pure function of a design and its cable plant (the cabling
  schedule, which shares its counting conventions, is :mod:`model.outputs.schedule`).
- ``bom_files``: Bill of materials and cabling schedule files: BOM CSV, schedule CSV, and the XLSX
  workbook with the sheets "Summary", "BOM", "Cabling schedule" and "Warnings".
- ``fabric_tree``: The compute fabric as a scheduler sees it: a tree of logical switches over the
  GPU servers, and blocks (NVLink domains, else leaf groups).
- ``topology_files``: Scheduler topology files from the fabric tree: Slurm topology.conf (tree,
  block), a Topograph model, Kubernetes node labels.
- ``nautobot_design``: Nautobot Design Builder data: the design's site, racks, devices,
  interfaces and planned cables, for NVIDIA's intended-cabling workflow.
- ``p2p``: Point-to-point (P2P) file for NVIDIA's UFM Cable Validation Tool: one row per cable.
- ``p2p_cvt17``: The Cable Validation Tool 1.7+ workbook (Nodes + Links sheets, Protocol per
  link) and the host port-mapping file.
- ``schedule``: Cabling schedule (cut sheet): a pure function of a design and its cable plant.
- ``schedule_columns``: Column tools of the cabling schedule: gathers of object arrays, coded
  column runs, the per-distinct-value cells and the one-key sort, all over numpy codes (no object
  per row).
- ``schedule_labels``: The cabling schedule's label column: each link's own label, else one made
  from its two ends.
- ``schedule_order``: The cabling schedule's rows: which links it lists, their two ends and their
  order.
- ``schedule_routes``: The route column of the cabling schedule: each link's trays by name, A end
  first, the text made once per (pair of drop points, direction) and given as distinct texts and a
  code per link.
- ``schedule_segments``: Cabling-schedule rows per segment of a structured design (patch cord /
  trunk / patch cord), made column by column.
- ``schedule_segment_ports``: its step 1: channels' patch points and trunks as integer codes,
  panel ports numbered by one sort, trunk ends' rear ports.
- ``netbox/``: see its ``__init__``.
- ``writers/``: see its ``__init__``.
"""
