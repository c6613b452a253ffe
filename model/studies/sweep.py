"""Design sweeps: every combination of varied generator parameters and settings, one KPI row each.

``variants(base, vary)`` expands ``--vary NAME=V1,V2 ...`` into parameter sets (the cartesian
product, in the order given); ``evaluate(template, params)`` generates one variant, routes its
cables, analyses it and returns its CSV row: the varied values, the KPI columns of
:mod:`model.studies.compare` and a few counts. It is a pure, picklable top-level function, so any
executor can run it; the command runs it on Dask (a local process pool, or an existing Dask
distributed cluster) and never schedules anything itself.

Names a sweep can vary: every generator option (``nodes``, ``node_type``, ``switch``,
``spine_switch``, ``oversubscription``, ``reserve_ports``, ``k``, ``su_nodes``, ``tiers``,
``racks``, ``su_racks``, ``placement``, ``optics``: pluggable, linear or co-packaged side by
side) and the design settings ``policy`` (media policy),
``allreduce_algorithm``, ``job_placement`` and ``allreduce_message_mb``; and ``optimise``
(``none``, or an objective preset of :mod:`model.optimise.front`: ``cost``, ``power``,
``failures``, ``balanced``) with ``optimise_iterations`` (default 200): the variant's network
racks are placed by the optimiser (seed 0) before it is analysed, so a sweep compares the
reference layout with the optimised one. A variant the generator refuses gets its sentence in
the ``error`` column instead of figures.
"""

from __future__ import annotations

import itertools

from model.studies.compare import KPI_COLUMNS, kpis

INT_PARAMS = {"nodes", "oversubscription", "reserve_ports", "k", "su_nodes", "racks", "su_racks"}
STR_PARAMS = {"node_type", "switch", "spine_switch", "tiers", "placement", "optics"}
# Not generator options: how the variant's placement is optimised after it is generated.
OPTIMISE_PARAMS = {"optimise": str, "optimise_iterations": int}
OPTIMISE_ITERATIONS = 200
SETTINGS = {
    "policy": ("media_policy", str),
    "allreduce_algorithm": ("allreduce_algorithm", str),
    "job_placement": ("job_placement", str),
    "allreduce_message_mb": ("allreduce_message_mb", float),
    "pxn": ("pxn", str),
    "routing": ("routing", str),  # collectives over equal-cost uplinks (ecmp-hash ...)
}
VARIABLE = INT_PARAMS | STR_PARAMS | set(SETTINGS) | set(OPTIMISE_PARAMS)
COUNT_COLUMNS = ("switches", "links", "transceivers", "power_kw", "cost_usd")


class SweepError(ValueError):
    """A --vary that cannot be expanded (message says which and why)."""


def parse_vary(items: list[str]) -> dict[str, list]:
    """``["nodes=32,64", "policy=lowest-cost"]`` -> ``{"nodes": [32, 64], "policy": [...]}``."""
    out: dict[str, list] = {}
    for item in items:
        name, sep, values = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not values.strip():
            raise SweepError(f"--vary {item!r}: write NAME=V1,V2,...")
        if name not in VARIABLE:
            raise SweepError(
                f"--vary {name!r} is not something a sweep can vary; choose from "
                + ", ".join(sorted(VARIABLE))
            )
        if name in out:
            raise SweepError(f"--vary {name!r} is given twice")
        parsed = []
        for raw in values.split(","):
            raw = raw.strip()
            kind = (
                int
                if name in INT_PARAMS
                else OPTIMISE_PARAMS.get(name) or SETTINGS.get(name, (None, str))[1]
            )
            try:
                parsed.append(kind(raw))
            except ValueError:
                raise SweepError(f"--vary {name}: {raw!r} is not a {kind.__name__}") from None
        if name == "optimise":
            from model.optimise.front import PRESETS

            bad = [v for v in parsed if v != "none" and v not in PRESETS]
            if bad:
                raise SweepError(
                    f"--vary optimise: {bad[0]!r} is not none or one of " + ", ".join(PRESETS)
                )
        out[name] = parsed
    return out


def variants(base: dict, vary: dict[str, list]) -> list[dict]:
    """Every combination of the varied values over the base parameters, in the order given."""
    names = list(vary)
    return [
        base | dict(zip(names, combo, strict=True))
        for combo in itertools.product(*(vary[n] for n in names))
    ]


def evaluate(template: str, params: dict) -> dict:
    """Generate, route and analyse one variant; its CSV row (see the module docstring)."""
    from model.analysis import analyze
    from model.engine.routed_links import RoutedLinks
    from model.generators.generate import GenerateError, generate

    gen = {k: v for k, v in params.items() if k not in SETTINGS and k not in OPTIMISE_PARAMS}
    row = {"template": template, **params}
    try:
        design = generate(template, **gen)
    except GenerateError as exc:
        return row | {c: None for c in (*KPI_COLUMNS, *COUNT_COLUMNS)} | {"error": str(exc)}
    changes = {
        field: kind(params[name]) for name, (field, kind) in SETTINGS.items() if name in params
    }
    if changes:
        import msgspec

        try:
            design.set_settings(msgspec.structs.replace(design.settings, **changes))
            msgspec.convert(msgspec.to_builtins(design.settings), type(design.settings))
        except (msgspec.ValidationError, TypeError, ValueError) as exc:
            return row | {c: None for c in (*KPI_COLUMNS, *COUNT_COLUMNS)} | {"error": str(exc)}
    objective = params.get("optimise", "none")
    if objective != "none":
        from model.optimise.front import PRESETS
        from model.optimise.optimise import optimise

        iterations = int(params.get("optimise_iterations", OPTIMISE_ITERATIONS))
        design = optimise(design, PRESETS[objective], iterations=iterations, seed=0).design
    plant = RoutedLinks(design)
    plant.refresh()
    j = analyze(design, plant).to_json()
    plant.close()
    return (
        row
        | kpis(j)
        | {
            "switches": j["switches"]["total"],
            "links": j["links"]["total"],
            "transceivers": j["transceivers"]["total"],
            "power_kw": j["power_w"]["total"] / 1000,
            "cost_usd": j["cost_usd"]["total"],
            "error": "",
        }
    )


def columns(vary: dict[str, list], base: dict) -> list[str]:
    """CSV header: template, the fixed and varied parameters, KPIs, counts, error."""
    params = [k for k in base if k not in vary] + list(vary)
    return ["template", *params, *KPI_COLUMNS, *COUNT_COLUMNS, "error"]


# Direction of each KPI for the Pareto view: more is better, or less is better.
HIGHER_IS_BETTER = {"gpus", "bisection_gbps"}


def numeric_columns(rows: list[dict]) -> list[str]:
    """Columns whose every non-empty value is a number (what the Pareto view can plot)."""
    if not rows:
        return []
    out = []
    for name in rows[0]:
        values = [r[name] for r in rows if r.get(name) not in (None, "")]
        try:
            [float(v) for v in values]
        except (TypeError, ValueError):
            continue
        if values:
            out.append(name)
    return out


def pareto_front(rows: list[dict], x: str, y: str) -> list[int]:
    """Indices of the rows no other row beats on both ``x`` and ``y`` (per HIGHER_IS_BETTER)."""
    sx = 1.0 if x in HIGHER_IS_BETTER else -1.0
    sy = 1.0 if y in HIGHER_IS_BETTER else -1.0
    points = []
    for i, r in enumerate(rows):
        try:
            points.append((sx * float(r[x]), sy * float(r[y]), i))
        except (TypeError, ValueError, KeyError):
            continue
    front = []
    for px, py, i in points:
        dominated = any((qx >= px and qy >= py) and (qx > px or qy > py) for qx, qy, _ in points)
        if not dominated:
            front.append(i)
    return front
