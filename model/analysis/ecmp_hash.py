"""Static ECMP hashing: the busiest of m equal-cost uplinks when k flows are hashed onto them.

A switch that hashes each flow (its 5-tuple; for RoCE the UDP source port of the QP) onto one
of its m equal-cost uplinks puts every byte of a flow on one link. With k flows of equal size
hashed uniformly and independently the uplink loads are Multinomial(k, 1/m) flows ("balls into
bins"); the busiest uplink carries ``max`` of them where an ideal (fluid) split, or adaptive
routing that sprays packets by queue depth (InfiniBand AR, Spectrum-X), carries k/m. The ratio
of the two is what hashing costs that switch's uplinks:

* ``mean``: E[max] / (k/m); two flows on two links: E[max] = 1/2 x 2 + 1/2 x 1 = 1.5 flows,
  the ratio 1.5; one flow on m links: every byte on one link, the ratio m.
* ``p95``: the 95th percentile of the max over k/m (the busiest link of one unlucky hashing).

The collective's time takes the busiest link of the fabric, so the figure is the largest of the
switches' expected busiest uplinks: below the expectation of the fabric-wide maximum over many
switches (each one unlucky in its own way); the 95th percentile shows that unlucky side.

Exact for k <= :data:`EXACT_FLOWS`: the loads are independent Poisson(k/m) conditioned on their
sum being k, so P(max <= t) = P(Poisson <= t)^m x P(sum of m Poissons truncated at t = k) /
P(Poisson(k) = k), the middle term by convolution. Above it a seeded Monte-Carlo of the
multinomial (:data:`SAMPLES` draws), so the same design always gives the same figure.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

QUANTILES = ("mean", "p95")
EXACT_FLOWS = 512  # exact distribution up to this many flows, Monte-Carlo above
SAMPLES = 4000  # Monte-Carlo draws of the multinomial
SEED = 37  # fixed: a figure must not change between two runs of one design


def collision_ratio(flows: float, links: int, quantile: str = "mean") -> float:
    """The busiest uplink's load over the fluid share (``flows`` / ``links``) when ``flows``
    flows of equal size are hashed onto ``links`` uplinks; 1 for no flow or one link. Fluid
    flow counts (a share of a flow passed up a tier) round to the nearest whole flow, at least 1."""
    if quantile not in QUANTILES:
        raise ValueError(f"unknown quantile {quantile!r}; choose " + ", ".join(QUANTILES))
    k = max(int(round(flows)), 1) if flows > 0 else 0
    if k == 0 or links <= 1:
        return 1.0
    mean_max, p95_max = _max_load(k, int(links))
    busiest = mean_max if quantile == "mean" else p95_max
    return busiest / (k / links)


def collision_ratios(flows: np.ndarray, links: np.ndarray, quantile: str = "mean") -> np.ndarray:
    """Per switch, what multiplies the fluid share of its uplinks: the busiest uplink's load
    over (bytes / ``links``). ``flows`` may be fluid (a tier above the leaves receives a share
    of each flow hashed up to it, as it receives a share of the bytes, so the bytes per flow
    hold): the switch is costed as holding ceil(flows) flows of that size, E[max] x bytes per
    flow on its busiest uplink, so a spine that received a fraction of one flow in the mean is
    the spine that got it. Whole flow counts give :func:`collision_ratio` exactly."""
    if quantile not in QUANTILES:
        raise ValueError(f"unknown quantile {quantile!r}; choose " + ", ".join(QUANTILES))
    f = np.asarray(flows, dtype=float)
    k = np.where(f > 0, np.ceil(f - 1e-9), 0).astype(np.int64)
    m = np.asarray(links).astype(np.int64)
    out = np.ones(len(k))
    busy = np.flatnonzero((k > 0) & (m > 1))
    if not len(busy):
        return out
    pairs, inverse = np.unique(np.stack([k[busy], m[busy]], 1), axis=0, return_inverse=True)
    i = 0 if quantile == "mean" else 1
    busiest = np.array([_max_load(int(a), int(b))[i] for a, b in pairs.tolist()])
    out[busy] = busiest[inverse.reshape(-1)] * m[busy] / f[busy]
    return out


@lru_cache(maxsize=4096)
def _max_load(flows: int, links: int) -> tuple[float, float]:
    """(E[max], 95th percentile of max) of Multinomial(flows, 1/links), in flows."""
    if flows <= EXACT_FLOWS:
        return _exact(flows, links)
    rng = np.random.default_rng([SEED, flows, links])
    draws = rng.multinomial(flows, np.full(links, 1.0 / links), size=SAMPLES).max(axis=1)
    return float(draws.mean()), float(np.percentile(draws, 95, method="inverted_cdf"))


def _exact(flows: int, links: int) -> tuple[float, float]:
    lam = flows / links
    log_norm = _log_poisson(flows, flows)  # P(Poisson(k) = k): the sum's own law
    mean, p95 = 0.0, None
    t = math.ceil(lam)
    mean = float(t)  # P(max >= s) = 1 for every s <= ceil(k/m)
    while True:
        at_most = _p_max_at_most(t, flows, links, lam, log_norm)
        if p95 is None and at_most >= 0.95 - 1e-12:
            p95 = float(t)
        tail = 1.0 - at_most  # P(max > t) = P(max >= t + 1)
        if tail < 1e-13 or t >= flows:
            break
        mean += tail
        t += 1
    return mean, p95 if p95 is not None else float(t)


def _p_max_at_most(t: int, flows: int, links: int, lam: float, log_norm: float) -> float:
    k = np.arange(t + 1)
    log_pmf = k * math.log(lam) - lam - np.array([math.lgamma(i + 1) for i in range(t + 1)])
    pmf = np.exp(log_pmf)
    cdf = float(pmf.sum())
    if t * links < flows or cdf <= 0:
        return 0.0
    total = _conv_power(pmf / cdf, links, flows)[flows]
    if total <= 0:
        return 0.0
    return float(min(math.exp(links * math.log(cdf) + math.log(total) - log_norm), 1.0))


def _conv_power(p: np.ndarray, n: int, top: int) -> np.ndarray:
    """The law of the sum of ``n`` independent draws of ``p``, truncated at ``top``."""
    out = np.zeros(top + 1)
    out[0] = 1.0
    base = p[: top + 1]
    while n:
        if n & 1:
            out = np.convolve(out, base)[: top + 1]
        n >>= 1
        if n:
            base = np.convolve(base, base)[: top + 1]
    return out


def _log_poisson(k: int, lam: float) -> float:
    return k * math.log(lam) - lam - math.lgamma(k + 1)
