"""The cabling schedule's label column: each link's own label, else one made from its two ends.

The default label is ``{rack}-U{u}-{port} to {rack}-U{u}-{port}`` (A end first), joined per link
from a prefix made once per device; `` #{link_id}`` is appended where two rows would share a
label, which is decided on integer codes of the labels' parts where the text cannot repeat.
"""

from __future__ import annotations

from collections import Counter
from itertools import repeat
from operator import attrgetter

import numpy as np

from model.common.arrays import FirstSeen, unique_sorted
from model.outputs.schedule_columns import objects

_LABEL = attrgetter("label")


def link_labels(recs: list, order: np.ndarray, names: tuple, a_end, b_end, ids):
    """The label column in schedule order (``order``: the position in ``recs`` of each row):
    the link's own label, else :func:`_labels`, with `` #{link_id}`` on a label two rows share.
    ``names``: (rack name and U per device, the port names); ``a_end``/``b_end``: (device
    position, port name and port code (in the port names) per row)."""
    rack_name, dev_u, port_list = names
    own = list(map(_LABEL, recs))
    own_o = objects(own, len(own))[order].tolist() if any(own) else None
    label = _labels(own_o, np.array(rack_name, dtype=object), dev_u, a_end[:2], b_end[:2])
    if own_o is None and _defaults_distinct(names, a_end, b_end):
        return label
    if len(set(label)) != len(label):
        seen = Counter(label)
        label = [
            f"{text} #{lid}" if seen[text] > 1 else text
            for text, lid in zip(label, ids, strict=True)
        ]
    return label


def _defaults_distinct(names: tuple, a_end, b_end) -> bool:
    """Whether the default labels ``{rack}-U{u}-{port} to {rack}-U{u}-{port}`` are certainly
    all distinct, decided on integer codes of their parts instead of a set of 393k strings
    (~80 ms at XL). False when that cannot be told: the caller then compares the strings.

    A label reads back into its parts one way only, so distinct parts make distinct labels,
    when no U is negative (its text is digits), no rack name holds "-U" or " to ", and no port
    name holds " to " nor ends in " to". Then the first "-U" of a label ends its A rack (an
    occurrence across the rack's end would need the "-" that follows the rack to be a "U"),
    the next "-" ends the U, and the first " to " ends the A port: " to " holds no "-", so it
    cannot lie across the dashes, nor inside a name, nor across the A port's end (only a port
    ending in " to" makes one there: "p to" + " to B" reads as "p" + " to to B"). The B end
    is what follows, read the same way. ``names``, ``a_end`` and ``b_end`` as
    :func:`link_labels` takes them."""
    rack_name, dev_u, port_list = names
    (dev_a, _, code_a), (dev_b, _, code_b) = a_end, b_end
    if len(dev_u) and int(dev_u.min()) < 0:
        return False
    if any("-U" in t or " to " in t for t in set(rack_name)):
        return False
    if any(" to " in t or t.endswith(" to") for t in port_list):
        return False
    # One code per (rack name, U): the prefix a device's ends are labelled with
    prefix = FirstSeen()
    prefix_of = np.fromiter(
        map(prefix.__getitem__, zip(rack_name, dev_u.tolist(), strict=True)), np.int64, len(dev_u)
    )
    width = max(len(port_list), 1)
    if (len(prefix) * width) ** 2 >= 1 << 63:  # the pair key would not fit in int64
        return False
    end_a = prefix_of[dev_a] * width + code_a
    end_b = prefix_of[dev_b] * width + code_b
    key = end_a * (len(prefix) * width) + end_b
    return len(unique_sorted(key)) == len(key)


def _labels(own: list[str] | None, rack_names, dev_u, a_end, b_end) -> list[str]:
    """The link's own label (``own``; None: no link has one), else
    ``{rack}-U{u}-{port} to {rack}-U{u}-{port}`` (A end first), from a ``{rack}-U{u}-`` prefix
    made once per device (``a_end``/``b_end`` = device position array, port name list)."""
    prefix = rack_names + objects((f"-U{u}-" for u in dev_u.tolist()), len(dev_u))
    (dev_a, port_a), (dev_b, port_b) = a_end, b_end
    made = list(
        map(
            "".join,
            zip(prefix[dev_a].tolist(), port_a, repeat(" to "), prefix[dev_b].tolist(), port_b),
        )
    )
    if own is not None:  # the links' own labels, where given
        made = [text or default for text, default in zip(own, made, strict=True)]
    return made
