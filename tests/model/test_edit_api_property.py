"""Property: the edit API refuses what the loader refuses. Any sequence of edit-API calls — with
wild numbers (NaN, infinities, 1e308, negatives), odd rotations and U positions, clashing or
blank rack names — either is refused with a DesignError that changes nothing, or leaves a
design that saves and loads back byte for byte."""

from __future__ import annotations

import math

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.design.design import DesignError
from model.design.entities import Hall, Link, PortRef, Rack, Settings, Tray
from model.files.design_file import design_to_bytes, read_design_bytes
from tests.builders import small_pod

SANE = st.one_of(st.floats(min_value=0.1, max_value=9.0), st.integers(min_value=1, max_value=8))
WILD = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.5, 1e5, 1e5 + 1, -1e5 - 1, 1e308, math.nan, math.inf, -math.inf]),
    st.integers(min_value=-(10**6), max_value=10**6),
)
NUMBERS = st.one_of(SANE, SANE, SANE, SANE, WILD)  # mostly plausible, often wild
NAMES = st.one_of(
    st.sampled_from(["R1", "r1", " R1 ", "N1", "n1", "R2", "", "  ", "Z" * 250]),
    st.text(alphabet="ABCab12", min_size=1, max_size=3),
)
INTS = st.one_of(st.integers(min_value=-5, max_value=120), st.sampled_from([0, 1, 45, 90, 270]))


def _pick(table: dict, k: int):
    ids = sorted(table)
    return table[ids[k % len(ids)]] if ids else None


def _add_link(design, k: int, n: int, a: float) -> None:
    """A link from the k-th device's first free port to the n-th device's first other one."""
    device = _pick(design.devices, k)
    free = design.free_ports(device.id)
    far = _pick(design.devices, n)
    far_free = [p for p in design.free_ports(far.id) if (far.id, p) != (device.id, free[0])]
    if free and far_free:
        design.add_links(
            [
                Link(
                    id=design.new_id("link"),
                    a=PortRef(device.id, free[0]),
                    b=PortRef(far.id, far_free[0]),
                    length_override_m=a if n % 2 else None,
                )
            ]
        )


@st.composite
def edit(draw):
    """One edit-API call, as (description, function of the design)."""
    kind = draw(
        st.sampled_from(
            [
                "move_racks",
                "rotate_racks",
                "add_rack",
                "update_rack",
                "move_device",
                "update_link",
                "add_link",
                "add_tray",
                "update_tray",
                "set_settings",
                "set_hall",
                "delete",
            ]
        )
    )
    k, a, b, c, n = (
        draw(st.integers(0, 50)),
        draw(NUMBERS),
        draw(NUMBERS),
        draw(NUMBERS),
        draw(INTS),
    )
    name = draw(NAMES)

    def run(design) -> None:
        rack = _pick(design.racks, k)
        if kind == "move_racks" and rack:
            design.move_racks({rack.id: (a, b)})
        elif kind == "rotate_racks" and rack:
            design.rotate_racks({rack.id: n})
        elif kind == "add_rack":
            new = Rack(
                id=design.new_id("rack"),
                name=name,
                type="rack-48u-600x1200",
                x=a,
                y=b,
                width_m=0.6,
                depth_m=c,
                height_u=n if n % 2 else 48,
                power_budget_kw=40.0,
            )
            design.add_racks([new])
        elif kind == "update_rack" and rack:
            design.update_racks(
                [msgspec.structs.replace(rack, name=name, power_budget_kw=a, width_m=b)]
            )
        elif kind == "move_device" and design.devices and design.racks:
            device = _pick(design.devices, k)
            design.move_devices({device.id: (_pick(design.racks, n).id, n)})
        elif kind == "update_link" and design.links:
            link = _pick(design.links, k)
            medium = ["auto", "aoc-400g", "no-such-medium", ""][n % 4]
            design.update_links(
                [
                    msgspec.structs.replace(
                        link,
                        length_override_m=a if n % 3 else None,
                        as_built_m=b if n % 2 else None,
                        medium=medium,
                    )
                ]
            )
        elif kind == "add_link" and design.devices:
            _add_link(design, k, n, a)
        elif kind == "add_tray":
            design.add_trays([Tray(id=design.new_id("tray"), points=[(a, b), (c, 1.0)])])
        elif kind == "update_tray" and design.trays:
            tray = _pick(design.trays, k)
            design.update_trays([msgspec.structs.replace(tray, width_m=a, elevation_m=b)])
        elif kind == "set_settings":
            design.set_settings(Settings(slack_pct=a, tray_reach_m=b, slack_per_end_m=c))
        elif kind == "set_hall":
            hall = design.hall
            corner = (a, b)
            design.set_hall(
                Hall(outline=[*hall.outline[:3], corner], tile_m=c, obstacles=hall.obstacles)
            )
        elif kind == "delete":
            ids = sorted(design.racks) + sorted(design.devices) + sorted(design.links)
            if ids:
                design.delete([ids[k % len(ids)]])

    return f"{kind}(k={k}, a={a!r}, b={b!r}, c={c!r}, n={n}, name={name!r})", run


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(st.lists(edit(), min_size=1, max_size=12))
def test_successful_edits_always_save_and_load_back_byte_identical(edits):
    design = small_pod()
    for description, run in edits:
        before = design_to_bytes(design)
        try:
            run(design)
        except DesignError as exc:
            assert str(exc), description  # a sentence
            assert design_to_bytes(design) == before, f"refused but changed: {description}"
    saved = design_to_bytes(design)
    loaded = read_design_bytes(saved, "property.hall.json")
    assert design_to_bytes(loaded) == saved


@pytest.mark.parametrize(
    "call, sentence",
    [
        (lambda d: d.move_racks({"r1": (math.nan, 1e308)}), r"x = nan: expected a number >="),
        (lambda d: d.move_racks({"r1": (1.0, 1e308)}), r"y = 1e\+308: expected a number <="),
        (lambda d: d.rotate_racks({"r1": 45}), "rotation must be 0, 90, 180 or 270"),
        (
            lambda d: d.update_racks([msgspec.structs.replace(d.racks["r2"], name="r1 ")]),
            "another rack is already called R1",
        ),
        (
            lambda d: d.update_racks([msgspec.structs.replace(d.racks["r2"], name=" ")]),
            "needs a name",
        ),
        (lambda d: d.move_devices({"a1": ("r1", 1000)}), r"u = 1000: expected a whole number"),
        (
            lambda d: d.update_links(
                [msgspec.structs.replace(d.links["l-1"], length_override_m=math.inf)]
            ),
            "length_override_m = inf",
        ),
        (lambda d: d.set_settings(Settings(slack_pct=math.nan)), "slack_pct = nan"),
    ],
)
def test_each_refusal_is_a_sentence_naming_the_object_and_the_value(call, sentence):
    design = small_pod()
    before = design_to_bytes(design)
    with pytest.raises(DesignError, match=sentence):
        call(design)
    assert design_to_bytes(design) == before
