"""Optimiser of where the network racks stand: search space, objective, annealing, report.

- ``moves``: which racks may move (network racks, not locked) and where (free positions, swaps).
- ``objective``: the weighted terms and hard limits, read from the plant and analysis functions.
- ``clash_index``: the candidates' clash check against kept boxes of every rack (follows moves).
- ``search``: simulated annealing priced by the editor's incremental plant; one restart a job.
- ``optimise``: restarts, the best design (a copy) and its report.
- ``optics_moves``: which optics strategy each switch tier may take, and applying one.
- ``optics_search``: the per-tier optics descent the annealing runs, and its sentence per tier.
- ``servers``: which server stands in which slot of its SU, an exact assignment on link price.
"""
