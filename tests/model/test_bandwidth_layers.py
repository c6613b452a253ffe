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
    # ... and says why there is none: a host with one GPU has no scale-up fabric.
    assert "each host has one GPU, so there is no scale-up fabric" in j["bottleneck"]["explanation"]
    sentence = j["bottleneck"]["collective"]
    assert "Each host has one GPU: no scale-up (NVLink) fabric" in sentence
    assert "NVLink 0" not in sentence and j["bottleneck"]["limited_by"] == "server-leaf"
    assert j["bottleneck"]["links"] and j["bottleneck"]["links"][0] in sentence


def test_two_sus_at_2_to_1_name_the_nics_for_the_all_reduce_and_the_uplinks_for_all_to_all():
    """Two SUs of 32 DGX H100 at 2:1. The default job's all-reduce (NCCL's NVLS-tree: two
    binary trees over the 64 servers, S/8 per rail and tree edge) loads each NIC with S/8 each
    way and crosses a leaf's 16 uplinks only where a tree edge leaves the SU, so the busiest
    links are server-leaf ones, not the leaf tier the static layers charge 2:1 to. The
    all-to-all sends half of each leaf's 32 NICs' bytes (16 S) up its 16 uplinks: S each, a
    tie with a NIC's S x 504/512 that the uplinks win, so its sentence names leaf-spine links.
    The text report's bottleneck line is this sentence, the per-layer figure after it."""
    design = rail_optimized(
        nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=2
    )
    report = analyze(design)
    j = report.to_json()
    sentence = j["bottleneck"]["collective"]
    assert j["bottleneck"]["limited_by"] == "server-leaf"
    ar = report.collectives.default["all-reduce"]
    a2a = report.collectives.default["all-to-all"]
    assert sentence.startswith("All-reduce of 1024 MB on the whole hall")
    assert f"limited by the server-leaf links {ar.bottleneck_links[0]}" in sentence
    assert f"All-to-all of 1024 MB on the same job: {a2a.time_s * 1e3:,.2f} ms" in sentence
    assert a2a.limited_by == "leaf-spine" and a2a.bottleneck_links[0] in sentence
    assert (
        "2.00:1" in j["bottleneck"]["explanation"]
        and "all-to-all" in j["bottleneck"]["explanation"]
    )
    lines = report.to_text().splitlines()
    line = next(k for k, t in enumerate(lines) if t.startswith("Bottleneck:"))
    assert lines[line] == f"Bottleneck: {sentence}"
    assert lines[line + 1].startswith("  Per-GPU layers: The leaf tier's 2.00:1")


def test_a_server_with_nvlink_keeps_its_scale_up_layer():
    design = rail_optimized(nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    j = analyze(design).to_json()
    layers = j["bandwidth_per_gpu_gbps"]["layers"]
    assert list(layers)[:2] == ["scale-up", "nic"]
    assert layers["scale-up"] == 3600  # DGX H100: 900 GB/s NVLink per GPU (catalog)
    assert "NVLink 3,600 Gb/s" in j["bottleneck"]["explanation"]
