"""The optimiser's kept clash index refuses exactly the candidates ``rack_clashes`` refuses,
while racks move (its rows follow the design's move events) and after an obstacle is added."""

from __future__ import annotations

import random

from model.design.entities import Obstacle
from model.design.rack_clashes import rack_clashes
from model.generators.generate import generate
from model.optimise.clash_index import ClashIndex
from model.optimise.moves import network_racks


def _reference(design, moves) -> bool:
    racks = design.racks
    prints = {
        r: (x, y, racks[r].width_m, racks[r].depth_m, racks[r].rotation)
        for r, (x, y) in moves.items()
    }
    return bool(rack_clashes(design, prints, only=list(moves)))


def test_clash_index_agrees_with_rack_clashes_as_racks_move():
    design = generate("leaf-spine", nodes=16, node_type="dgx-h100", switch="qm9700")
    movable = network_racks(design)
    others = list(design.racks)
    xs = [p[0] for p in design.hall.outline]
    ys = [p[1] for p in design.hall.outline]
    index = ClashIndex(design)
    rng = random.Random(7)
    seen = {True: 0, False: 0}
    for step in range(300):
        if step == 150:  # a column under the first rack: the hall changed, the index rebuilds
            r = design.racks[others[0]]
            box = [(r.x - 0.1, r.y - 0.1), (r.x + 0.1, r.y - 0.1), (r.x + 0.1, r.y + 0.1)]
            design.set_obstacles([Obstacle(id="col-1", polygon=[*box, (r.x - 0.1, r.y + 0.1)])])
        rack_id = rng.choice(movable)
        if rng.random() < 0.3:
            other = design.racks[rng.choice(others)]
            rack = design.racks[rack_id]
            moves = {rack_id: (other.x, other.y), other.id: (rack.x, rack.y)}
        else:
            x = round(rng.uniform(min(xs) - 1, max(xs) + 1) / 0.6) * 0.6
            y = rng.choice([design.racks[o].y for o in others] + [rng.uniform(min(ys), max(ys))])
            moves = {rack_id: (x, y)}
        want = _reference(design, moves)
        assert index.clashes(moves) == want, (step, moves)
        seen[want] += 1
        if not want:
            design.move_racks(moves)  # kept: the index follows the move event
    index.close()
    assert seen[True] > 20 and seen[False] > 20
