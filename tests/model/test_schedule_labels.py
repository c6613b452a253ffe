"""The cabling schedule's default labels: told distinct from the codes of their parts only
where the text cannot repeat (model.outputs.schedule_labels._defaults_distinct), else compared as text."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from model.outputs.schedule_labels import _defaults_distinct, _labels

# Names that can make two different part tuples spell one label, and plain ones
_RACKS = ["A", "A-U1", "A-U1-p", "R to", "B", "B ", "to B", "A-"]
_PORTS = ["p", "p to", "p t", "p ", "1-p", "to A-U1-p", "x", "-U2-p", ""]


@settings(max_examples=400, deadline=None)
@given(
    devices=st.lists(
        st.tuples(st.sampled_from(_RACKS), st.integers(0, 12)), min_size=1, max_size=6
    ),
    ends=st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 8), st.integers(0, 5), st.integers(0, 8)),
        min_size=1,
        max_size=12,
    ),
)
def test_labels_told_distinct_by_their_parts_are_distinct_as_text(devices, ends):
    rack_name = [r for r, _u in devices]
    dev_u = np.array([u for _r, u in devices], dtype=np.int64)
    port_list = sorted({_PORTS[e[1]] for e in ends} | {_PORTS[e[3]] for e in ends})
    code = {p: k for k, p in enumerate(port_list)}
    n = len(devices)
    dev_a = np.array([e[0] % n for e in ends], dtype=np.int64)
    dev_b = np.array([e[2] % n for e in ends], dtype=np.int64)
    port_a = [_PORTS[e[1]] for e in ends]
    port_b = [_PORTS[e[3]] for e in ends]
    a_end = (dev_a, port_a, np.array([code[p] for p in port_a], dtype=np.int64))
    b_end = (dev_b, port_b, np.array([code[p] for p in port_b], dtype=np.int64))
    labels = _labels(None, np.array(rack_name, dtype=object), dev_u, a_end[:2], b_end[:2])
    if _defaults_distinct((rack_name, dev_u, port_list), a_end, b_end):
        assert len(set(labels)) == len(labels)
    # Plain names (none of the ambiguous ones) are always decided on the codes
    plain = all(r in ("A", "B") for r in rack_name) and all(p in ("p", "x") for p in port_list)
    parts = {
        (rack_name[a], int(dev_u[a]), pa, rack_name[b], int(dev_u[b]), pb)
        for a, pa, b, pb in zip(dev_a, port_a, dev_b, port_b, strict=True)
    }
    if plain:
        assert _defaults_distinct((rack_name, dev_u, port_list), a_end, b_end) == (
            len(parts) == len(ends)
        )


def test_two_racks_of_one_name_give_labels_made_unique_by_the_link_id():
    """The text repeats although the devices differ: the code check must not pass it."""
    rack_name = ["A", "A"]
    dev_u = np.array([1, 1], dtype=np.int64)
    dev = np.array([0, 1], dtype=np.int64)
    other = np.array([1, 0], dtype=np.int64)
    code = np.array([0, 0], dtype=np.int64)
    a_end, b_end = (dev, ["p", "p"], code), (other, ["q", "q"], code + 1)
    assert not _defaults_distinct((rack_name, dev_u, ["p", "q"]), a_end, b_end)


def _two_links(racks, us, ports):
    """Two links, each from device 2k to device 2k+1 (racks, us: per device; ports: per end)."""
    dev_u = np.array(us, dtype=np.int64)
    port_list = sorted(set(ports))
    code = np.array([port_list.index(p) for p in ports], dtype=np.int64)
    a_end = (np.array([0, 2]), [ports[0], ports[2]], code[[0, 2]])
    b_end = (np.array([1, 3]), [ports[1], ports[3]], code[[1, 3]])
    labels = _labels(None, np.array(racks, dtype=object), dev_u, a_end[:2], b_end[:2])
    return labels, _defaults_distinct((racks, dev_u, port_list), a_end, b_end)


def test_a_rack_name_with_minus_u_or_a_port_ending_in_to_is_compared_as_text():
    # "A" U1 "U2-p" and "A-U1" U2 "p" both read "A-U1-U2-p"
    labels, distinct = _two_links(["A", "B", "A-U1", "B"], [1, 1, 2, 1], ["U2-p", "x", "p", "x"])
    assert labels[0] == labels[1] and not distinct
    # "p to" + " to " + "B" and "p" + " to " + "to B" both read "...p to to B..."
    labels, distinct = _two_links(["A", "B", "A", "to B"], [1, 1, 1, 1], ["p to", "x", "p", "x"])
    assert labels[0] == labels[1] and not distinct
    labels, distinct = _two_links(["A", "B", "A", "B"], [1, 1, 2, 1], ["p", "x", "p", "y"])
    assert labels[0] != labels[1] and distinct
