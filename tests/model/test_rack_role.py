"""A rack's role (what the plan colours it by) from the roles of its devices."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from model.design.rack_role import rack_role

ROOT = Path(__file__).resolve().parents[2]


def test_gpu_servers_make_a_compute_rack_else_the_most_common_role():
    assert rack_role([]) is None
    assert rack_role(["leaf", "gpu-server", "management"]) == "gpu-server"
    assert rack_role(["patch-panel", "patch-panel", "leaf"]) == "patch-panel"
    assert rack_role(["spine", "spine", "leaf"]) == "spine"


def test_a_tie_goes_to_the_network_role_whatever_the_order_or_the_process():
    assert rack_role(["patch-panel", "leaf"]) == rack_role(["leaf", "patch-panel"]) == "leaf"
    assert rack_role(["management", "storage"]) == "storage"
    assert rack_role(["zz-unknown", "aa-unknown"]) == "aa-unknown"
    # The same answer under other string-hash salts (the old tie-break followed set order).
    code = "from model.design.rack_role import rack_role; print(rack_role(['patch-panel', 'leaf']))"
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == "leaf"
