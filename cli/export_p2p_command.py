"""``main.py export-p2p FILE -o p2p.xlsx|p2p.csv [--cvt 1.7|1.5] [--mapping MAP.csv]``: the Cable Validation Tool's P2P file."""

from __future__ import annotations

import argparse

from cli import CliError
from cli.export_common import load_and_route, output_path, summary_stream
from model.outputs.p2p import END_COLUMNS, P2P_COLUMNS, PORT_STYLES, p2p_columns
from model.outputs.schedule import schedule_table
from model.outputs.writers import ExportError
from model.outputs.writers.csv_writer import write_csv_columns
from model.runtime.gc_policy import collector_paused

CVT_VERSIONS = ("1.7", "1.5")


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name,
        help="point-to-point file (one row per cable) for NVIDIA's Cable Validation Tool",
        description="CVT 1.7+ (the default for .xlsx): a workbook with a Nodes sheet and a Links "
        "sheet (A-Node, A-Port, Z-Node, Z-Port, Protocol ib/ethernet/nvlink, module part "
        "numbers), host ports by their OS interface names. CVT 1.5/1.6 (--cvt 1.5, the default "
        "for .csv): one sheet of A-Rack ... Z-Port. --mapping writes the tool's HCA mapping "
        "(port,hca-name) so every host port named in the file reaches its RDMA device (a DGX "
        "H100's rails are not mlx5_0..7).",
    )
    parser.add_argument("file", help="a .hall.json design file")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.xlsx|OUT.csv")
    parser.add_argument(
        "--cvt",
        choices=CVT_VERSIONS,
        help="the tool's file format: 1.7 (Nodes + Links workbook) or 1.5 (also 1.6; CSV or "
        "one-sheet workbook); default 1.7 for .xlsx, 1.5 for .csv",
    )
    parser.add_argument(
        "--ports",
        choices=PORT_STYLES,
        default="hallwright",
        help="1.5 only: port names, the design's (default) or InfiniBand cage/port and HCA numbers",
    )
    parser.add_argument(
        "--mapping", metavar="MAP.csv", help="also write the host port -> RDMA device mapping"
    )


def run(args: argparse.Namespace) -> int:
    out, suffix = output_path(args.output, (".csv", ".xlsx"), inputs=[args.file])
    version = args.cvt or ("1.7" if suffix == ".xlsx" else "1.5")
    if version == "1.7" and suffix != ".xlsx":
        raise CliError("CVT 1.7 reads a workbook (Nodes and Links sheets): give an .xlsx output")
    if args.mapping:
        mapping_out, _ = output_path(args.mapping, (".csv",), inputs=[args.file], stream=False)
    design, plant = load_and_route(args.file)
    # The mapping first: a design that cannot have one is refused before any file is written.
    mapping = _mapping_rows(design, version, args.ports) if args.mapping else None
    try:
        if version == "1.7":
            count = _write_cvt17(design, plant, out)
        else:
            count = _write_cvt15(design, plant, out, suffix, args.ports)
        if mapping is not None:
            from model.outputs.p2p_cvt17 import MAPPING_HEADER

            columns = [list(c) for c in zip(*mapping, strict=True)]
            write_csv_columns(mapping_out, MAPPING_HEADER, columns)
    except ExportError as exc:
        raise CliError(str(exc)) from None
    print(f"{out}: {count} cables (CVT {version} format)", file=summary_stream(out))
    if mapping is None and (version == "1.7" or args.ports == "ib"):
        _mapping_hint(design, version, out)
    return 0


def _mapping_hint(design, version: str, out) -> None:
    """Where the tool's default HCA mapping misroutes this design's hosts, say how to fix it."""
    from model.outputs.p2p_cvt17 import MappingError, port_mapping

    try:
        rows = port_mapping(design, version)
    except MappingError:
        return
    wrong = [
        port for port, rdma in rows if version == "1.5" and rdma != f"mlx5_{int(port) - 1}"
    ] or [port for port, _ in rows if version == "1.7"]
    if wrong:
        print(
            f"note: {len(wrong)} host port(s) need a port mapping for the tool "
            "(its default maps port n to mlx5_<n-1>): add --mapping MAP.csv",
            file=summary_stream(out),
        )


def _write_cvt15(design, plant, out, suffix: str, ports: str) -> int:
    # Column by column, with the collector paused: the columns are millions of new objects and
    # no garbage cycles (row tuples and the collections they set off took ~60 % of the
    # command at XL).
    with collector_paused():
        table = schedule_table(design, plant, segments=False, only=END_COLUMNS)
        columns = p2p_columns(design, table, ports)
        if suffix == ".csv":
            write_csv_columns(out, P2P_COLUMNS, columns)
        else:
            from model.outputs.writers.xlsx_writer import Sheet, write_xlsx  # openpyxl: ~0.2 s

            write_xlsx(out, [Sheet("P2P", P2P_COLUMNS, (), plain=True, columns=columns)])
    return len(table)


def _write_cvt17(design, plant, out) -> int:
    from model.outputs.p2p_cvt17 import LINK_COLUMNS, NODE_COLUMNS, SCHEDULE_NEEDS, cvt17_sheets
    from model.outputs.writers.xlsx_writer import Sheet, write_xlsx

    with collector_paused():
        table = schedule_table(design, plant, segments=False, only=SCHEDULE_NEEDS)
        nodes, links = cvt17_sheets(design, table)
        write_xlsx(
            out,
            [
                Sheet("Nodes", NODE_COLUMNS, nodes, plain=True),
                Sheet("Links", LINK_COLUMNS, links, plain=True),
            ],
        )
    return len(links)


def _mapping_rows(design, version: str, ports: str) -> list[tuple[str, str]]:
    from model.outputs.p2p_cvt17 import MappingError, port_mapping

    if version == "1.5" and ports != "ib":
        raise CliError(
            "the HCA mapping maps the tool's port numbers: use it with --ports ib (CVT 1.5) or "
            "the 1.7 workbook"
        )
    try:
        return port_mapping(design, version)
    except MappingError as exc:
        raise CliError(str(exc)) from None
