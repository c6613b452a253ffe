"""Findings and the ``channels`` summary of a set of optical channels (loss, reach, polarity).

Codes (each names the link first, then the channel's elements, so the editor selects them):

* ``CHANNEL_LOSS_OVER_BUDGET`` (warning): insertion loss above the medium's channel limit.
* ``CHANNEL_TOO_MANY_PANELS`` (warning): more patch points than the medium's panel rule allows
  (NV-STRUCT: 100G-lane multimode with up to two patch panels).
* ``CHANNEL_REACH_EXCEEDED`` (warning): a channel with panels longer than the paneled reach
  (NV-STRUCT: 50 m on OM4).
* ``POLARITY_MISMATCH`` (warning): a transmit lane does not land on its receive lane; the
  message names the element to change.
* ``CHANNEL_LIMIT_UNKNOWN`` (info): the catalog has no channel limit for the medium.
"""

from __future__ import annotations

from collections.abc import Iterable

from model.channels import Channel, loss_budget
from model.findings import Finding, sort_findings
from model.polarity import check_polarity
from model.structured_catalog import StructuredCatalog, structured_catalog


def _objects(channel: Channel) -> tuple[str, ...]:
    return (channel.link_id, *(e.object_id for e in channel.elements))


def channel_findings(
    channels: Iterable[Channel], catalog: StructuredCatalog | None = None
) -> list[Finding]:
    """The findings of every channel (see the module docstring for the codes)."""
    catalog = catalog or structured_catalog()
    out: list[Finding] = []
    for channel in channels:
        budget = loss_budget(channel, catalog)
        objects = _objects(channel)
        if budget.limit_db is None:
            out.append(
                Finding(
                    code="CHANNEL_LIMIT_UNKNOWN",
                    severity="info",
                    message=f"link {channel.link_id}: no channel loss limit for "
                    f"{channel.medium} in the catalog; loss {budget.loss_db:.2f} dB unchecked",
                    objects=objects,
                )
            )
        elif budget.over_budget:
            out.append(
                Finding(
                    code="CHANNEL_LOSS_OVER_BUDGET",
                    severity="warning",
                    message=f"link {channel.link_id}: channel loss {budget.loss_db:.2f} dB "
                    f"({len(budget.mated_pairs)} mated pairs {budget.connectors_db:.2f} dB + "
                    f"{channel.length_m:g} m fibre {budget.fibre_db:.2f} dB) exceeds the "
                    f"{channel.medium} limit {budget.limit_db:.2f} dB by "
                    f"{-budget.margin_db:.2f} dB",
                    objects=objects,
                )
            )
        if budget.max_panels is not None and channel.panels > budget.max_panels:
            out.append(
                Finding(
                    code="CHANNEL_TOO_MANY_PANELS",
                    severity="warning",
                    message=f"link {channel.link_id}: {channel.panels} patch points; "
                    f"{channel.medium} allows at most {budget.max_panels}",
                    objects=objects,
                )
            )
        if budget.reach_m is not None and channel.length_m > budget.reach_m + 1e-9:
            out.append(
                Finding(
                    code="CHANNEL_REACH_EXCEEDED",
                    severity="warning",
                    message=f"link {channel.link_id}: {channel.length_m:g} m through "
                    f"{channel.panels} panel(s); {channel.medium} reaches {budget.reach_m:g} m "
                    "with panels",
                    objects=objects,
                )
            )
        polarity = check_polarity(channel)
        if not polarity.ok:
            culprit = channel.elements[polarity.fix[0]].object_id if polarity.fix else None
            named = (channel.link_id, culprit) if culprit else objects
            out.append(
                Finding(
                    code="POLARITY_MISMATCH",
                    severity="warning",
                    message=polarity.message(channel),
                    objects=named,
                )
            )
    return sort_findings(out)


def channel_summary(channels: Iterable[Channel], catalog: StructuredCatalog | None = None) -> dict:
    """The ``channels`` section of ``analyze --json``."""
    catalog = catalog or structured_catalog()
    channels = list(channels)
    budgets = [loss_budget(c, catalog) for c in channels]
    margins = [b.margin_db for b in budgets if b.margin_db is not None]
    return {
        "total": len(channels),
        "max_loss_db": round(max((b.loss_db for b in budgets), default=0.0), 3),
        "min_margin_db": round(min(margins), 3) if margins else None,
        "over_budget": sum(1 for b in budgets if b.over_budget),
        "polarity_errors": sum(1 for c in channels if not check_polarity(c).ok),
    }
