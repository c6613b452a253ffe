"""``make fuzz``: the long fuzz run — N mutated files (default 5,000) through every stage.

    python tests/fuzz/run_fuzz.py [--count 5000] [--reports 2000] [--netbox 500] [--seed 15] [--timeout 30]
                                  [--render-width 400]

``--reports``: that many mutated check-cabling reports and as-built length files too;
``--netbox``: that many mutated import-netbox folders (tests/fuzz/netbox_mutator.py).

Prints the outcome counts and every crash, hang or bad refusal; exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.fuzz import netbox_mutator, report_mutator  # noqa: E402
from tests.fuzz.mutator import cases  # noqa: E402
from tests.fuzz.stages import run_cases  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--reports", type=int, default=0, help="hostile reports and length files")
    parser.add_argument("--netbox", type=int, default=0, help="hostile import-netbox folders")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per file")
    parser.add_argument("--memory-mb", type=int, default=3072, help="address-space cap")
    parser.add_argument("--render-width", type=int, default=400, help="0 skips the render")
    args = parser.parse_args()
    started = time.monotonic()
    everything = itertools.chain(
        cases(args.count, args.seed),
        report_mutator.cases(args.reports, args.seed),
        netbox_mutator.cases(args.netbox, args.seed),
    )
    summary = run_cases(
        everything,
        timeout_s=args.timeout,
        memory_mb=args.memory_mb,
        render_width_px=args.render_width,
    )
    print(summary.text())
    print(f"{time.monotonic() - started:.0f} s")
    return 1 if summary.failures() else 0


if __name__ == "__main__":
    sys.exit(main())
