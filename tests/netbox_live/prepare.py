"""The designs and exports ``run_live_import.sh`` checks, made in one Hallwright process.

Run with Hallwright's Python: ``prepare.py RUN_DIR small|full PUSH_NODES [DESIGN ...]``. One
process generates the pods, exports each through ``export-netbox`` (the command a user runs,
called in-process: one interpreter start and one import of the model instead of a dozen) and
writes what NetBox must hold after importing it (``expected.py``). It writes in RUN_DIR:

- ``sites.txt``: the arguments of ``live_import.py`` (export folder, expected file per site);
- ``designs.txt``: one line per site, ``siteN DESIGN``, for the way back (import-netbox);
- ``exports/library`` and its expected file: Pod B exported with the devicetype-library's
  names and ``--types-from`` the vendored library folder, for a NetBox holding those types;
- ``pod-p.hall.json`` (``full`` only): the pod ``live_push.py`` pushes (PUSH_NODES nodes); CI
  pushes the library pod onto the site its CSV files made.

Exit 0, or the first failing command's exit code.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from expected import main as write_expected  # noqa: E402

from cli import run_cli  # noqa: E402

LIBRARY = REPO / "tests" / "data" / "devicetype_library_nvidia"
POD = ["--node-type", "dgx-h100", "--switch", "qm9700"]


def run(*argv: str) -> None:
    start = time.perf_counter()
    code = run_cli(list(argv))
    print(f"  {argv[0]} {Path(argv[1]).name}: {time.perf_counter() - start:.1f} s", flush=True)
    if code != 0:
        print(f"FAIL {' '.join(argv)}: exit {code}", file=sys.stderr)
        raise SystemExit(code)


def generate(run_dir: Path, stem: str, name: str, *argv: str) -> Path:
    path = run_dir / f"{stem}.hall.json"
    run("generate", *argv, "--name", name, "-o", str(path))
    return path


def main(run_dir: Path, pods: str, push_nodes: int, designs: list[str]) -> int:
    exports = run_dir / "exports"
    exports.mkdir(exist_ok=True)
    if not designs:
        # Two pods whose device names repeat (su1-node01 ...) and that share the manufacturer,
        # roles and device types: what a second site meets in a shared NetBox. Pod A is
        # structured (rack-top MPO panels, trunks, cords: traces run through the panels).
        pod = ["rail-optimized", "--nodes", "8", "--su-nodes", "8", *POD]
        a = generate(run_dir, "pod-a", "Pod A (DGX H100, cross-connect)", *pod,
                     "--cabling", "cross-connect")  # fmt: skip
        b = generate(run_dir, "pod-b", "Pod B (DGX H100, direct)", *pod)
        designs = [str(a), str(b)]
        if pods == "full":
            pod16 = ["rail-optimized", "--nodes", "16", "--su-nodes", "16", *POD]
            designs.append(str(generate(run_dir, "pod-c", "Pod C (DGX H100)", *pod16)))
            nvl = ["nvl72", "--racks", "2"]
            designs.append(str(generate(run_dir, "pod-d", "Pod D (GB200 NVL72)", *nvl)))
    sites, lines = [], []
    for i, design in enumerate(designs):
        out = exports / f"site{i}"
        run("export-netbox", design, "-o", str(out))
        write_expected(design, f"{out}.expected.json")
        sites += [str(out), f"{out}.expected.json"]
        lines.append(f"site{i} {design}")
    (run_dir / "sites.txt").write_text(" ".join(sites) + "\n", encoding="utf-8")
    (run_dir / "designs.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    # The library case: the direct pod (its switches are the library's QM9700) as its own site
    library = generate(
        run_dir, "library", "Pod L (DGX H100, library types)",
        "rail-optimized", "--nodes", "8", "--su-nodes", "8", *POD,
    )  # fmt: skip
    out = exports / "library"
    run("export-netbox", str(library), "-o", str(out), "--types-from", str(LIBRARY))
    write_expected(str(library), f"{out}.expected.json", str(LIBRARY))
    if pods == "full":  # the push of a big pod of its own (CI pushes onto the library site)
        pod = ["rail-optimized", "--nodes", str(push_nodes), "--su-nodes", str(min(push_nodes, 32))]
        generate(run_dir, "pod-p", "Pod P (DGX H100, pushed)", *pod, *POD)
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(main(Path(args[0]), args[1], int(args[2]), args[3:]))
