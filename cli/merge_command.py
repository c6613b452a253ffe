"""``main.py merge BASE OURS THEIRS [-o OUT]``: git's merge driver for designs (%O %A %B), by object id."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cli import CliError


def add_parser(sub: argparse._SubParsersAction, name: str) -> None:
    parser = sub.add_parser(
        name,
        help="three-way merge of designs by object id (a git merge driver)",
        description="Merge the changes THEIRS made since BASE into OURS, record by record and "
        "field by field (racks, devices, links, trays and custom types matched by id). The "
        "result is written over OURS (git's %%A), or to -o OUT. Exit 0 on a clean merge; exit 1 "
        "when conflicts remain: each is listed on stderr by object, and the file keeps OURS' "
        "value there so it still opens. Git: merge.hallwright.driver = "
        "'python main.py merge %%O %%A %%B'.",
    )
    parser.add_argument("base", help="the common ancestor (git's %%O)")
    parser.add_argument("ours", help="our version, overwritten with the merge (git's %%A)")
    parser.add_argument("theirs", help="their version (git's %%B)")
    parser.add_argument("-o", "--output", help="write the merge here instead of over OURS")
    parser.add_argument("--json", action="store_true", help="the conflicts as JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from model.files.design_file import DesignFileError, write_atomic
    from model.versioning.merge import merge_designs

    data = []
    for path in (args.base, args.ours, args.theirs):
        try:
            data.append(Path(path).read_bytes())
        except OSError as exc:
            raise CliError(f"{path} cannot be read ({exc.strerror or exc})") from None
    try:
        result = merge_designs(data[0], data[1], data[2], names=(args.base, args.ours, args.theirs))
    except DesignFileError as exc:
        raise CliError(str(exc)) from None
    try:
        write_atomic(Path(args.output or args.ours), result.data)
    except DesignFileError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(
            json.dumps(
                {"clean": result.clean, "conflicts": [c.to_json() for c in result.conflicts]},
                indent=2,
            )
        )
    taken = ", ".join(f"{n} {section}" for section, n in result.from_theirs.items()) or "nothing"
    if result.clean:
        print(f"hallwright merge: clean; taken from theirs: {taken}", file=sys.stderr)
        return 0
    print(
        f"hallwright merge: {len(result.conflicts)} conflict(s); OURS' value kept in each:",
        file=sys.stderr,
    )
    for conflict in result.conflicts:
        print(f"  {conflict.sentence()}", file=sys.stderr)
    return 1
