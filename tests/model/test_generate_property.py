"""Any small request either is refused with GenerateError or builds a valid, placed fabric whose
counts equal its preview."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.generators.generate import GenerateError, generate, preview
from tests.model.generate_checks import assert_links_valid, assert_placement_valid, tier_counts

NODE_TYPES = ["dgx-h100", "dgx-b200", "dgx-b300", "hgx-h100-8x400"]
SWITCHES = ["qm9700", "q3400", "sn5600", "sn5610", "sn5400", "tomahawk5-64x800"]
PORT_MODES = ["auto", "144x800G", "288x400G", "64x800G", "128x400G", "256x200G"]

requests = st.one_of(
    st.tuples(
        st.just("rail-optimized"),
        st.fixed_dictionaries(
            {
                "nodes": st.integers(1, 160),
                "node_type": st.sampled_from(NODE_TYPES),
                "switch": st.sampled_from(SWITCHES),
                "su_nodes": st.integers(1, 80),
                "tiers": st.sampled_from(["auto", "2", "3"]),
                "oversubscription": st.sampled_from([1, 2, 3, 7]),
                "reserve_ports": st.integers(0, 4),
                "placement": st.sampled_from(["middle-of-row", "end-of-row"]),
                "planes": st.sampled_from([1, 1, 2]),
                "port_mode": st.sampled_from(PORT_MODES),
            }
        ),
    ),
    st.tuples(
        st.just("leaf-spine"),
        st.fixed_dictionaries(
            {
                "nodes": st.integers(1, 120),
                "node_type": st.sampled_from(NODE_TYPES),
                "switch": st.sampled_from(SWITCHES),
                "spine_switch": st.sampled_from(SWITCHES),
                "oversubscription": st.sampled_from([1, 3, 5]),
            }
        ),
    ),
    st.tuples(st.just("fat-tree"), st.fixed_dictionaries({"k": st.integers(2, 12)})),
    st.tuples(
        st.just("nvl72"),
        st.fixed_dictionaries(
            {
                "racks": st.integers(1, 6),
                "su_racks": st.integers(1, 4),
                "switch": st.sampled_from(SWITCHES),
                "platform": st.sampled_from(["gb200", "gb300"]),
                "planes": st.sampled_from([1, 1, 2]),
            }
        ),
    ),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests)
def test_request_is_refused_or_builds_what_preview_counts(request):
    template, params = request
    try:
        counts = preview(template, **params)
    except GenerateError:
        try:
            generate(template, **params)
        except GenerateError:
            return
        raise AssertionError("preview refused what generate built") from None
    design = generate(template, **params)
    roles, links = tier_counts(design)
    for role, n in counts["switches"].items():
        assert roles[role] == n, (role, roles, counts)
    assert roles["gpu-server"] == counts["nodes"]
    assert design.gpu_count() == counts["gpus"]
    assert len(design.links) == sum(counts["links"].values())
    assert_links_valid(design)
    assert_placement_valid(design)
