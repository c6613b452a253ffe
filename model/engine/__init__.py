"""The routing engine: each link's routed length along the trays and its chosen medium
(``routed_links.RoutedLinks``), the per-cage media choice, the tray graph, the words that
explain a length or a choice, and immutable snapshots for the analysis thread.

Modules:

- ``cage_choice``: The per-cage media choice: each component's plug options ranked under the
  policy and pins.
- ``cage_words``: Why each cage holds its plug, in words, for many links at once (the ``routes``
  report).
- ``cages``: Cages and the per-cage media choice: which plug goes into every used cage.
- ``changed_rows``: ChangedRows: the ids of the links a refresh changed, held as plant rows and
  named only when read.
- ``geometry``: Port positions and routed cable lengths, as pure functions of numpy arrays.
- ``length_histogram``: The cable-length histogram of a cable plant, per medium group, with the
  reach limits in use.
- ``length_breaks``: Which links' media choice a change of routed length can alter: the lengths
  at which it can.
- ``link_findings``: Findings of the cable plant: links with no tray path, no medium, or a pinned
  medium out of reach.
- ``link_status``: Status flags of a cable-plant row (bit flags in ``RoutedLinks.status``), shared
  by the plant and the modules that read it (findings, BOM) without importing the plant itself.
- ``media``: Copper or fibre: the medium of each link from its length, speed, lanes and form
  factors.
- ``media_choice``: The media half of :class:`~model.engine.routed_links.RoutedLinks`: candidate
  media, the per-cage choice, reasons.
- ``media_words``: Why a medium was chosen, in words: the one wording of a choice, for one
  length or many.
- ``move_undo``: A rack move's plant rows saved before it is routed and put back when the
  optimiser refuses the move (instead of routing the move back).
- ``rack_rows``: The plant rows of each rack's links, found per rack or for every rack in one
  sort (the optimiser's plant).
- ``reason_words``: Why each link has its medium (or none), in words, for many links at once
  (``routes``).
- ``route_words``: A routed length explained in words, piece by piece, for installers who distrust
  opaque numbers: which face each device's ports are on, where the cable drops, which trays it
  follows.
- ``routed_links``: RoutedLinks: the routed length and chosen medium of every link of a design, kept
  current.
- ``routing``: The routing half of :class:`~model.engine.routed_links.RoutedLinks`: routed lengths,
  tray routes and plan paths.
- ``snapshot``: Immutable snapshots of a design and its cable plant, for work on another thread.
- ``tray_attach``: Where plan points meet the tray network: each point's nearest tray segment
  within reach and the attachment arrays.
- ``tray_graph``: The cable-tray network: trays joined where they touch, cross or nearly meet;
  racks attached.
- ``tray_rows``: Distance rows carried over a tray edit: the new tray graph's rows from the old
  graph's, exactly.
- ``tray_search``: Searches over the tray graph's station network: pure functions of adjacency
  lists and legs.
"""
