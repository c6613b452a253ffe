"""Per-GPU bandwidth layers: a server without NVLink has no scale-up layer (issue 37)."""

from __future__ import annotations

from model.analysis import analyze
from model.generators.generate import fat_tree, rail_optimized


def test_fat_tree_of_1_gpu_hosts_has_no_nvlink_layer_and_the_nic_is_the_bottleneck():
    # Generic 1-GPU hosts: scale-up 0 Gb/s per GPU, one 100G-class NIC each, non-blocking tiers.
    design = fat_tree(k=4)
    j = analyze(design).to_json()
    per_gpu = j["bandwidth_per_gpu_gbps"]
    assert "scale-up" not in per_gpu["layers"]
    assert per_gpu["scale_up"] == 0
    assert j["bottleneck"]["layer"] == "nic"
    assert per_gpu["effective"] == per_gpu["scale_out"] > 0
    assert "NVLink" not in j["bottleneck"]["explanation"]
    assert "0.0 Gb/s" not in j["bottleneck"]["explanation"]


def test_a_server_with_nvlink_keeps_its_scale_up_layer():
    design = rail_optimized(nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    j = analyze(design).to_json()
    layers = j["bandwidth_per_gpu_gbps"]["layers"]
    assert list(layers)[:2] == ["scale-up", "nic"]
    assert layers["scale-up"] == 3600  # DGX H100: 900 GB/s NVLink per GPU (catalog)
    assert "NVLink 3,600 Gb/s" in j["bottleneck"]["explanation"]
