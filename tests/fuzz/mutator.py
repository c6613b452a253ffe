"""Mutated design files for the fuzz suite: structural and semantic mutations of real designs.

Each mutation takes a ``random.Random`` and the parsed JSON of a valid design (or its bytes) and
returns the bytes of a new file. Structural mutations break the file's shape (types, nesting,
bytes, missing and extra keys); semantic ones keep the shape and break what later stages assume
(polygons, tray lengths, sizes, port names, references), including the cases of issue #15 that
once crashed or hung a stage. Sizes are drawn so that an unguarded stage would blow up.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path

from model.files.design_file import design_to_bytes

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"

Mutation = Callable[[random.Random, dict], bytes]


def base_designs() -> list[tuple[str, dict]]:
    """The seeds: the small test pod built through the edit API and the bundled examples,
    parsed afresh on each call (callers may change them)."""
    return [(name, json.loads(data)) for name, data in _seed_files()]


@functools.cache
def _seed_files() -> tuple[tuple[str, bytes], ...]:
    """The seeds' files, built once per process: building the two pods is ~0.3 s CPU, and the
    mutation tests ask for the seeds once per mutation (26 times)."""
    from tests.builders import small_pod

    seeds = [
        ("small_pod", design_to_bytes(small_pod())),
        ("small_pod_structured", design_to_bytes(_structured_pod())),
    ]
    for path in sorted(EXAMPLES.glob("*.hall.json")):
        seeds.append((path.name, path.read_bytes()))
    return tuple(seeds)


def _structured_pod():
    """The small pod cabled through panels (cross-connect), one link routed via two placed
    panels by hand and one carrying a polarity record: the structured layout, its channels,
    trunks and cords in every stage, which the direct seeds never reach."""
    from model.design.structured_edit import panels_in_rack, route_via
    from model.generators.generate import apply_cabling
    from model.structured.link_polarity import set_polarity
    from tests.builders import small_pod

    design = apply_cabling(small_pod(), "cross-connect")
    links = sorted(design.links)
    racks = sorted({p.rack for p in design.devices.values() if p.type.startswith("panel-")})
    panels = [panels_in_rack(design, r)[0].id for r in racks[:2]]
    if len(panels) == 2:
        route_via(design, links[0], panels)
    set_polarity(design, links[-1], "cord-1", "A")
    return design


def _dump(doc: object) -> bytes:
    return json.dumps(doc, allow_nan=False).encode()


def _paths(node: object, prefix: tuple = ()) -> Iterator[tuple]:
    """Every JSON path (tuple of keys/indices) below ``node``, sampled: long lists give 3 items."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(node, list):
        indices = range(len(node)) if len(node) <= 3 else (0, len(node) // 2, len(node) - 1)
        for i in indices:
            yield from _paths(node[i], prefix + (i,))


def _get(doc: object, path: tuple) -> object:
    for key in path:
        doc = doc[key]
    return doc


def _set(doc: object, path: tuple, value: object) -> None:
    _get(doc, path[:-1])[path[-1]] = value


_ODD_VALUES = [
    None,
    True,
    0,
    -1,
    2**63,
    1e308,
    -1e308,
    5e-324,
    -0.0,
    "",
    "x" * 300,
    "<b>bold</b><img src='/dev/zero'>",
    "=1+2",
    "-2+3+cmd|' /C calc'!A0",
    [],
    {},
    [1, 2, 3],
    {"a": 1},
]

# ------------------------------------------------------------------------------- structural


def replace_value(rng: random.Random, doc: dict) -> bytes:
    path = rng.choice([p for p in _paths(doc) if p])
    _set(doc, path, copy.deepcopy(rng.choice(_ODD_VALUES)))
    return _dump(doc)


def delete_key(rng: random.Random, doc: dict) -> bytes:
    paths = [p for p in _paths(doc) if p and isinstance(_get(doc, p[:-1]), dict)]
    path = rng.choice(paths)
    del _get(doc, path[:-1])[path[-1]]
    return _dump(doc)


def add_key(rng: random.Random, doc: dict) -> bytes:
    paths = [p for p in _paths(doc) if isinstance(_get(doc, p), dict)]
    _get(doc, rng.choice(paths))["unexpected"] = rng.choice(_ODD_VALUES)
    return _dump(doc)


def duplicate_record(rng: random.Random, doc: dict) -> bytes:
    key = rng.choice(["trays", "racks", "devices", "links"])
    if doc.get(key):
        doc[key].append(copy.deepcopy(rng.choice(doc[key])))
    return _dump(doc)


def deep_nesting(rng: random.Random, doc: dict) -> bytes:
    depth = rng.choice([50, 1000, 100_000])
    path = rng.choice([p for p in _paths(doc) if p])
    marker = '"__deep__"'
    _set(doc, path, "__deep__")
    text = _dump(doc).decode().replace(marker, "[" * depth + "]" * depth, 1)
    return text.encode()


def truncate_bytes(rng: random.Random, doc: dict) -> bytes:
    data = _dump(doc)
    return data[: rng.randrange(len(data))]


def flip_byte(rng: random.Random, doc: dict) -> bytes:
    data = bytearray(_dump(doc))
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def byte_order_mark(rng: random.Random, doc: dict) -> bytes:
    return b"\xef\xbb\xbf" + _dump(doc)


def header_wrong_type(rng: random.Random, doc: dict) -> bytes:
    doc[rng.choice(["format", "schema_version"])] = rng.choice([[1], {"v": 1}, 1.5, "1", None])
    return _dump(doc)


def extra_link_end_element(rng: random.Random, doc: dict) -> bytes:
    if doc["links"]:
        link = rng.choice(doc["links"])
        link[rng.choice("ab")].append(rng.choice(["extra", 1, None]))
    return _dump(doc)


STRUCTURAL: list[Mutation] = [
    replace_value,
    delete_key,
    add_key,
    duplicate_record,
    deep_nesting,
    truncate_bytes,
    flip_byte,
    byte_order_mark,
    header_wrong_type,
    extra_link_end_element,
]

# ------------------------------------------------------------------------------- semantic


def short_obstacle(rng: random.Random, doc: dict) -> bytes:
    points = [[1.0, 1.0], [2.0, 1.0]][: rng.randint(0, 2)]
    doc["hall"].setdefault("obstacles", []).append({"id": "obs-fuzz", "polygon": points})
    return _dump(doc)


def bowtie_polygon(rng: random.Random, doc: dict) -> bytes:
    outline = doc["hall"]["outline"]
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    bowtie = [[min(xs), min(ys)], [max(xs), max(ys)], [max(xs), min(ys)], [min(xs), max(ys)]]
    if rng.random() < 0.5:
        doc["hall"]["outline"] = bowtie
    else:
        doc["hall"].setdefault("obstacles", []).append({"id": "obs-bow", "polygon": bowtie})
    return _dump(doc)


def degenerate_outline(rng: random.Random, doc: dict) -> bytes:
    doc["hall"]["outline"] = rng.choice(
        [[[0, 0], [0, 0], [0, 0]], [[0, 0], [1, 0], [2, 0]], [[0, 0]] * 5, [[0, 0], [5, 5]]]
    )
    return _dump(doc)


def zero_length_tray(rng: random.Random, doc: dict) -> bytes:
    point = rng.choice(doc["trays"])["points"][0] if doc["trays"] else [1.0, 1.0]
    doc["trays"].append({"id": "t-zero", "points": [point, list(point)]})
    return _dump(doc)


def tiny_tray_size(rng: random.Random, doc: dict) -> bytes:
    if doc["trays"]:
        tray = rng.choice(doc["trays"])
        tray[rng.choice(["width_m", "depth_m"])] = rng.choice([5e-324, 1e-300, 1e-12])
    return _dump(doc)


def long_tray(rng: random.Random, doc: dict) -> bytes:
    n = rng.choice([100, 101, 1_001, 100_000])
    if rng.random() < 0.5:
        points = [[1.0 + 5.0 * i / n, 1.0] for i in range(n)]  # straight
    else:
        points = [[1.0 + (i % 2) * 0.01, 1.0 + 5.0 * i / n] for i in range(n)]  # zig-zag
    doc["trays"].append({"id": "t-long", "points": points})
    return _dump(doc)


def _custom_device(doc: dict, dtype: dict) -> None:
    doc.setdefault("custom_types", {}).setdefault("device_types", []).append(dtype)


def _fuzz_type(**overrides: object) -> dict:
    dtype = {
        "id": "fuzz-type",
        "vendor": "Fuzz",
        "model": "F1",
        "category": "switch",
        "default_role": "leaf",
        "u_height": 1,
        "power_typical_w": 100.0,
        "power_max_w": 200.0,
        "source": "estimate",
        "port_groups": [
            {
                "name": "p",
                "role": "compute",
                "count": 4,
                "speed_gbps": 400.0,
                "lanes": 4,
                "form_factor": "OSFP",
            }
        ],
    }
    dtype.update(overrides)
    return dtype


def _place_fuzz_devices(doc: dict, count: int) -> None:
    racks = doc["racks"][:count]
    for i, rack in enumerate(racks):
        doc["devices"].append(
            {
                "id": f"fz-{i}",
                "name": f"fz-{i}",
                "type": "fuzz-type",
                "rack": rack["id"],
                "u": rack["height_u"],
                "role": "leaf",
            }
        )


def huge_u_height(rng: random.Random, doc: dict) -> bytes:
    _custom_device(doc, _fuzz_type(u_height=rng.choice([1_000, 1_000_000])))
    _place_fuzz_devices(doc, 200)
    return _dump(doc)


def colliding_port_groups(rng: random.Random, doc: dict) -> bytes:
    group = _fuzz_type()["port_groups"][0]
    groups = [dict(group, count=1) for _ in range(11)] + [dict(group, name="p1", count=1)]
    _custom_device(doc, _fuzz_type(port_groups=groups))
    _place_fuzz_devices(doc, 2)
    return _dump(doc)


def huge_port_count(rng: random.Random, doc: dict) -> bytes:
    group = _fuzz_type()["port_groups"][0]
    groups = [dict(group, name=f"g{i}", count=1_000_000) for i in range(5)]
    _custom_device(doc, _fuzz_type(port_groups=groups))
    _place_fuzz_devices(doc, 1)
    return _dump(doc)


def huge_gpus(rng: random.Random, doc: dict) -> bytes:
    gpus = {
        "count": rng.choice([8, 1_024, 1_000_000]),
        "model": "F-GPU",
        "scale_up_gbps_per_gpu": 3600.0,
        "scale_up_domain": rng.choice(["device", "links"]),
        "scale_up_domain_gpus": rng.choice([1, 8, 1_000_000]),
    }
    _custom_device(doc, _fuzz_type(category="server", default_role="gpu-server", gpus=gpus))
    _place_fuzz_devices(doc, rng.choice([1, 50]))
    return _dump(doc)


def huge_name(rng: random.Random, doc: dict) -> bytes:
    text = "N" * rng.choice([10_000, 5_000_000])
    target = rng.choice(["design", "rack", "device", "link"])
    if target == "design":
        doc["name"] = text
    elif target == "rack" and doc["racks"]:
        doc["racks"][0]["name"] = text
    elif target == "device" and doc["devices"]:
        doc["devices"][0]["name"] = text
    elif doc["links"]:
        doc["links"][0]["label"] = text
    return _dump(doc)


def markup_names(rng: random.Random, doc: dict) -> bytes:
    markup = rng.choice(['<img src="/dev/zero">', "<b>x</b>", "=HYPERLINK(1)", "-2+3"])
    doc["name"] = markup
    for rack in doc["racks"][:3]:
        rack["name"] = markup + rack["name"]
    return _dump(doc)


def dangling_reference(rng: random.Random, doc: dict) -> bytes:
    choice = rng.choice(["device-rack", "link-device", "link-port", "device-type", "rack-type"])
    if choice == "device-rack" and doc["devices"]:
        rng.choice(doc["devices"])["rack"] = "no-such-rack"
    elif choice == "link-device" and doc["links"]:
        rng.choice(doc["links"])["a"][0] = "no-such-device"
    elif choice == "link-port" and doc["links"]:
        rng.choice(doc["links"])["b"][1] = "no-such-port"
    elif choice == "device-type" and doc["devices"]:
        rng.choice(doc["devices"])["type"] = "no-such-type"
    elif doc["racks"]:
        rng.choice(doc["racks"])["type"] = "no-such-rack-type"
    return _dump(doc)


def device_out_of_rack(rng: random.Random, doc: dict) -> bytes:
    if doc["devices"]:
        rng.choice(doc["devices"])["u"] = rng.choice([0, 47, 48, 100])
    return _dump(doc)


def many_records(rng: random.Random, doc: dict) -> bytes:
    n = rng.choice([140, 151, 20_000])
    if rng.random() < 0.5:  # a fan: every tray meets every other at one point
        trays = [{"id": f"t-many-{i}", "points": [[1, 1 + i * 1e-3], [2, 1]]} for i in range(n)]
    else:  # a grid: every horizontal tray crosses every vertical one
        trays = [
            {"id": f"t-many-{i}", "points": [[0.1, 0.1 + i * 0.02], [11.9, 0.1 + i * 0.02]]}
            if i % 2
            else {"id": f"t-many-{i}", "points": [[0.1 + i * 0.03, 0.1], [0.1 + i * 0.03, 8.3]]}
            for i in range(n)
        ]
    doc["trays"].extend(trays)
    return _dump(doc)


def far_away(rng: random.Random, doc: dict) -> bytes:
    if doc["racks"]:
        rack = rng.choice(doc["racks"])
        rack["x"], rack["y"] = rng.choice([(99_999.0, -99_999.0), (1e-300, 1e-300)])
    return _dump(doc)


SEMANTIC: list[Mutation] = [
    short_obstacle,
    bowtie_polygon,
    degenerate_outline,
    zero_length_tray,
    tiny_tray_size,
    long_tray,
    huge_u_height,
    colliding_port_groups,
    huge_port_count,
    huge_gpus,
    huge_name,
    markup_names,
    dangling_reference,
    device_out_of_rack,
    many_records,
    far_away,
]


def cases(count: int, seed: int = 15) -> Iterator[tuple[str, bytes]]:
    """``count`` mutated files, reproducibly: (label, file bytes). Half structural, half semantic;
    one case in four stacks two mutations."""
    rng = random.Random(seed)
    seeds = base_designs()
    for n in range(count):
        seed_name, seed_doc = seeds[0] if rng.random() < 0.7 else rng.choice(seeds)
        doc = copy.deepcopy(seed_doc)
        family = STRUCTURAL if n % 2 == 0 else SEMANTIC
        mutation = rng.choice(family)
        label = f"{n}:{seed_name}:{mutation.__name__}"
        if rng.random() < 0.25 and family is SEMANTIC:
            extra = rng.choice(SEMANTIC)
            doc = json.loads(extra(rng, doc))
            label += f"+{extra.__name__}"
        yield label, mutation(rng, doc)
