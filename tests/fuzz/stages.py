"""Run design files through every stage (validate, analyze, bom, schedule, export-netbox,
render), and check-cabling reports and as-built length files through their readers, in a worker
process bounded in time and memory, and classify what happened.

The supervisor starts a worker with ``spawn`` (no Qt state inherited from the test process),
sends it one file at a time and waits at most ``timeout_s`` for the answer; a worker that does
not answer is killed (a *hang*) and a fresh one takes the next file. The worker's address space
is capped at ``memory_mb`` (``RLIMIT_AS``), so a file that makes a stage allocate without bound
ends as a *memory* outcome instead of taking the machine down.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

STAGES = ("validate", "analyze", "bom", "schedule", "export-netbox", "render")


@dataclass
class Outcome:
    label: str
    kind: str  # "ok", "refused", "bad-refusal", "crash", "memory", "hang"
    stage: str = ""
    detail: str = ""
    seconds: float = 0.0


@dataclass
class Summary:
    outcomes: list[Outcome] = field(default_factory=list)

    def counts(self) -> Counter:
        return Counter(o.kind for o in self.outcomes)

    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.kind not in ("ok", "refused")]

    def text(self) -> str:
        counts = self.counts()
        by_stage = Counter(f"{o.kind} in {o.stage}" for o in self.failures())
        lines = [
            f"{len(self.outcomes)} files: "
            + ", ".join(f"{counts[k]} {k}" for k in sorted(counts))
            + (f"; slowest {max(o.seconds for o in self.outcomes):.1f} s" if self.outcomes else "")
        ]
        lines += [f"  {n} x {what}" for what, n in by_stage.most_common()]
        lines += [f"  {o.label}: {o.kind} in {o.stage}: {o.detail}" for o in self.failures()[:30]]
        return "\n".join(lines)


# ------------------------------------------------------------------------------- worker side


def _stages(data: bytes, workdir: Path, render_width_px: int, tell=None) -> tuple[str, str, str]:
    """(kind, stage, detail) for one file, run in the worker; ``tell(stage)`` as each starts."""
    from model.files.design_file import DesignFileError, read_design_bytes

    stage = "validate"
    tell = tell or (lambda stage: None)
    try:
        try:
            design = read_design_bytes(data, "fuzz.hall.json")
        except DesignFileError as exc:
            if not exc.json_path.startswith("$"):
                return "bad-refusal", stage, f"no JSON path: {exc}"
            return "refused", stage, str(exc)[:200]
        from model.analysis import analyze
        from model.engine.routed_links import RoutedLinks
        from model.outputs.bom import bom_lines, export_findings, summary_rows
        from model.outputs.bom_files import write_bom_csv, write_bom_xlsx, write_schedule_csv
        from model.outputs.netbox.export import netbox_tables, write_netbox_dir
        from model.outputs.schedule import schedule_rows

        stage = "analyze"
        tell(stage)
        plant = RoutedLinks(design)
        plant.refresh()
        report = analyze(design, plant)
        report.to_json()
        report.to_text()
        stage = "bom"
        tell(stage)
        lines = bom_lines(design, plant)
        write_bom_csv(workdir / "bom.csv", lines)
        findings = export_findings(design, plant)
        schedule = schedule_rows(design, plant)
        write_bom_xlsx(
            workdir / "bom.xlsx",
            summary_rows(design, plant, lines, findings),
            lines,
            schedule,
            findings,
        )
        stage = "schedule"
        tell(stage)
        write_schedule_csv(workdir / "schedule.csv", schedule)
        stage = "export-netbox"
        tell(stage)
        write_netbox_dir(workdir / "netbox", netbox_tables(design, schedule, plant))
        stage = "render"
        tell(stage)
        if render_width_px:
            from PySide6.QtWidgets import QApplication

            from gui.pictures.render import render_design

            _app = QApplication.instance() or QApplication([])  # noqa: F841
            render_design(design, workdir / "plan.png", render_width_px, plant=plant)
        plant.close() if hasattr(plant, "close") else None
        return "ok", "", ""
    except MemoryError:
        return "memory", stage, "MemoryError"
    except RecursionError:
        return "crash", stage, "RecursionError"
    except Exception as exc:  # noqa: BLE001 - the point: any exception is a finding
        tail = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(tail.filename).name}:{tail.lineno}"
        return "crash", stage, f"{type(exc).__name__} at {where}: {str(exc)[:160]}"


_SEED_DESIGNS: list[bytes] = []


def _report_stages(kind: str, index: int, data: bytes, workdir: Path) -> tuple[str, str, str]:
    """(kind, stage, detail) for one report (``kind`` "check-cabling") or length file
    ("as-built") of seed design ``index`` (:mod:`tests.fuzz.report_mutator`): a ReportError
    with a sentence is a refusal; the as-built design must load again once saved."""
    from model.asbuilt.report_csv import ReportError
    from model.files.design_file import design_to_bytes, load_design, read_design_bytes, save_design

    if not _SEED_DESIGNS:
        from tests.fuzz.report_mutator import seed_designs

        _SEED_DESIGNS.extend(design_to_bytes(d) for d in seed_designs())
    if kind == "import-netbox":
        return _netbox_stages(data, workdir)
    design = read_design_bytes(_SEED_DESIGNS[index], "seed.hall.json")
    path = workdir / "report.csv"
    path.write_bytes(data)
    stage = kind
    try:
        try:
            if kind == "check-cabling":
                from model.asbuilt.cabling_check import check_cabling, read_report
                from model.outputs.writers.csv_writer import write_csv

                rows = check_cabling(design, read_report(path))
                write_csv(workdir / "result.csv", ("status",), [(r.status,) for r in rows])
            else:
                from model.asbuilt.lengths import apply_lengths, read_lengths
                from model.engine.routed_links import RoutedLinks

                apply_lengths(design, RoutedLinks(design), read_lengths(path))
                stage = "as-built save"
                save_design(design, workdir / "asbuilt.hall.json")
                load_design(workdir / "asbuilt.hall.json")
        except ReportError as exc:
            if not str(exc).strip():
                return "bad-refusal", stage, "an empty sentence"
            return "refused", stage, str(exc)[:200]
        return "ok", "", ""
    except MemoryError:
        return "memory", stage, "MemoryError"
    except Exception as exc:  # noqa: BLE001 - the point: any exception is a finding
        tail = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(tail.filename).name}:{tail.lineno}"
        return "crash", stage, f"{type(exc).__name__} at {where}: {str(exc)[:160]}"


def _netbox_stages(files: dict[str, bytes], workdir: Path) -> tuple[str, str, str]:
    """(kind, stage, detail) for one mutated NetBox export folder
    (:mod:`tests.fuzz.netbox_mutator`): import it as ``import-netbox`` does; a ReportError with
    a sentence is a refusal; an imported design must save, load again (what ``validate``
    checks) and analyse."""
    import shutil

    from model.analysis import analyze
    from model.asbuilt.netbox_import import import_netbox
    from model.asbuilt.report_csv import ReportError
    from model.engine.routed_links import RoutedLinks
    from model.files.design_file import load_design, save_design

    folder = workdir / "netbox"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    stage = "import-netbox"
    try:
        try:
            result = import_netbox(folder)
        except ReportError as exc:
            if not str(exc).strip():
                return "bad-refusal", stage, "an empty sentence"
            return "refused", stage, str(exc)[:200]
        stage = "import-netbox save"
        save_design(result.design, workdir / "imported.hall.json")
        stage = "import-netbox validate"
        design = load_design(workdir / "imported.hall.json")
        stage = "import-netbox analyze"
        plant = RoutedLinks(design)
        analyze(design, plant).to_json()
        plant.close()
        return "ok", "", ""
    except MemoryError:
        return "memory", stage, "MemoryError"
    except Exception as exc:  # noqa: BLE001 - the point: any exception is a finding
        tail = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(tail.filename).name}:{tail.lineno}"
        return "crash", stage, f"{type(exc).__name__} at {where}: {str(exc)[:160]}"


def _worker(conn, memory_mb: int, render_width_px: int) -> None:
    import gc
    import resource

    from model.runtime import gc_policy

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    # A design read here is not settled (a full collection of the worker's whole heap, Qt's
    # included, then a freeze) but only unfrozen, as in the test processes (tests/conftest.py,
    # design_settling): the collector changes no outcome, and the fuzz checks the files, not
    # the policy (its own tests do). 200 cases of the suite's fuzz, CPU: 10.5 -> 8.6 s.
    gc_policy.settle_built_design = gc.unfreeze
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    with tempfile.TemporaryDirectory(prefix="hallwright-fuzz-") as tmp:
        conn.send("ready")
        while True:
            data = conn.recv()
            if data is None:
                return
            if isinstance(data, tuple):  # a report or length file (tests.fuzz.report_mutator)
                conn.send(_report_stages(*data, Path(tmp)))
                continue
            conn.send(_stages(data, Path(tmp), render_width_px, lambda s: conn.send(("at", s))))


# ------------------------------------------------------------------------------- supervisor


class _Worker:
    def __init__(self, memory_mb: int, render_width_px: int) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_worker, args=(child, memory_mb, render_width_px), daemon=True
        )
        self.process.start()
        if not self.conn.poll(120) or self.conn.recv() != "ready":
            raise RuntimeError("fuzz worker did not start")

    def stop(self) -> None:
        if self.process.is_alive():
            try:
                self.conn.send(None)
            except OSError:
                pass
            self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def run_cases(
    cases: Iterable[tuple[str, bytes | tuple[str, int, bytes]]],
    *,
    timeout_s: float = 30.0,
    memory_mb: int = 3072,
    render_width_px: int = 400,
) -> Summary:
    """Every case through every stage; a hang or a dead worker is recorded and the run goes on."""
    summary = Summary()
    worker = _Worker(memory_mb, render_width_px)
    try:
        for label, data in cases:
            started = time.monotonic()
            worker.conn.send(data)
            answer, stage = None, "validate"
            while answer is None:
                left = timeout_s - (time.monotonic() - started)
                if left <= 0 or not worker.conn.poll(left):
                    break
                try:
                    message = worker.conn.recv()
                except EOFError:
                    answer = ("memory", stage, "worker died (killed or out of memory)")
                    break
                if len(message) == 2:  # ("at", stage): progress
                    stage = message[1]
                else:
                    answer = message
            seconds = time.monotonic() - started
            if answer is None:
                summary.outcomes.append(
                    Outcome(label, "hang", stage, f"> {timeout_s:g} s", seconds)
                )
            else:
                kind, stage, detail = answer
                summary.outcomes.append(Outcome(label, kind, stage, detail, seconds))
            if answer is None or not worker.process.is_alive() or answer[0] == "memory":
                worker.process.kill()
                worker.process.join()
                worker = _Worker(memory_mb, render_width_px)
    finally:
        worker.stop()
    return summary
