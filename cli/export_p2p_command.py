"""``main.py export-p2p FILE -o p2p.csv|p2p.xlsx``: the Cable Validation Tool's P2P file."""

from __future__ import annotations

import argparse

from cli import CliError
from cli.export_common import load_and_route, output_path, summary_stream
from model.outputs.p2p import END_COLUMNS, P2P_COLUMNS, PORT_STYLES, p2p_columns
from model.outputs.schedule import schedule_table
from model.outputs.writers import ExportError
from model.outputs.writers.csv_writer import write_csv_columns
from model.runtime.gc_policy import collector_paused


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name, help="point-to-point file (one row per cable) for NVIDIA's Cable Validation Tool"
    )
    parser.add_argument("file", help="a .hall.json design file")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.csv|OUT.xlsx")
    parser.add_argument(
        "--ports",
        choices=PORT_STYLES,
        default="hallwright",
        help="port names: the design's (default) or InfiniBand cage/port numbers",
    )


def run(args: argparse.Namespace) -> int:
    out, suffix = output_path(args.output, (".csv", ".xlsx"), inputs=[args.file])
    design, plant = load_and_route(args.file)
    # Column by column, with the collector paused: the columns are millions of new objects and
    # no garbage cycles (row tuples and the collections they set off took ~60 % of the
    # command at XL).
    try:
        with collector_paused():
            table = schedule_table(design, plant, segments=False, only=END_COLUMNS)
            columns = p2p_columns(design, table, args.ports)
            if suffix == ".csv":
                write_csv_columns(out, P2P_COLUMNS, columns)
            else:
                from model.outputs.writers.xlsx_writer import Sheet, write_xlsx  # openpyxl: ~0.2 s

                write_xlsx(out, [Sheet("P2P", P2P_COLUMNS, (), plain=True, columns=columns)])
    except ExportError as exc:
        raise CliError(str(exc)) from None
    print(f"{out}: {len(table)} cables", file=summary_stream(out))
    return 0
