"""``main.py routes`` finds a structured design's findings (the layout's among them) in a forked
child while it writes the links' lines (cli/routes_command): the report is the in-process one."""

from __future__ import annotations

from pathlib import Path

from cli.routes_command import route_report
from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes, load_design
from model.generators.generate import fat_tree
from model.structured.layout import set_cabling
from tests.forked_runs import main_py_forks, needs_two_cores, run_recording_forks


@needs_two_cores
def test_main_py_s_forked_routes_report_is_the_in_process_one(tmp_path):
    design = fat_tree(k=8, switch="qm9700")
    set_cabling(design, "zones")
    # A rack beyond every tray's reach: findings to print after the lines
    design.move_racks({next(iter(design.racks)): (-40.0, -40.0)})
    path = tmp_path / "zoned.hall.json"
    path.write_bytes(design_to_bytes(design))
    out = tmp_path / "routes.txt"
    lines = run_recording_forks(
        "import runpy, sys\n"
        f"sys.argv = ['main.py', 'routes', {str(path)!r}]\n"
        f"sys.stdout = open({str(out)!r}, 'w')\n"
        "try:\n"
        "    runpy.run_path('main.py', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "sys.stdout.close()\n"
        "sys.stdout = sys.__stdout__\n"
        "print('exit', code)\n"
        "print('forked', made)\n"
        "print('from child', [c.from_child for c in recorded_calls])\n"
    )
    # the findings came from the child: ForkedCall reruns them here when the child fails, which
    # gives the same text, so only this line tells a child that never works
    assert lines[-3:] == ["exit 0", "forked [True]", "from child [True]"]
    loaded = load_design(path)
    expected = route_report(loaded, RoutedLinks(loaded))
    assert "NO_TRAY_PATH" in expected and "PANELS_NOT_PLACED" in expected  # routing, layout
    assert out.read_text() == expected


def test_a_direct_design_s_findings_are_found_in_process():
    """Its findings are a fraction of a second at XL: not worth a fork's copy-on-write faults."""
    example = Path(__file__).resolve().parents[2] / "resources/examples/superpod-4su.hall.json"
    assert main_py_forks(["routes", str(example)]) == ("exit 0", "forked [False]")
