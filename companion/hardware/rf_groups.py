"""Which readers may have their antennas on together: a colouring of the reader adjacency.

Two readers are *close* when their cities are neighbours on the board (the caller builds that
mapping; this package knows no game) or when the hardware file declares them close (``[rf] close``,
e.g. the card reader beside a corner city). Close readers must never transmit at the same time: a
tag on one antenna is powered by its own reader and also hears, weakly, its neighbour's frames, so
the neighbour reads it too (a ghost) or knocks it back to IDLE. The readers of one colour group
have no close pair, so a sweep can switch a whole group on, wait the guard time, poll it and switch
it off again.

Shared with the RP2040 firmware (copied to the Pico as it is): plain Python that MicroPython runs.
"""


def close_pairs(names, adjacency=None, close=()):  # type: ignore[no-untyped-def]
    """name → set of close names, symmetric, limited to ``names``."""
    known = set(names)
    out = {name: set() for name in names}  # type: ignore[var-annotated]
    if adjacency:
        for name, neighbours in adjacency.items():
            if name not in known:
                continue
            for other in neighbours:
                if other in known and other != name:
                    out[name].add(other)
                    out[other].add(name)
    for pair in close:
        a, b = pair[0], pair[1]
        if a in known and b in known and a != b:
            out[a].add(b)
            out[b].add(a)
    return out


def colour_groups(names, adjacency=None, close=(), bank_of=None, per_bank=0, max_on=0):  # type: ignore[no-untyped-def]
    """Groups (lists of names) such that no two close readers share a group and, with ``bank_of``
    (name → bank) and ``per_bank`` > 0, no group holds more than ``per_bank`` readers of one bank (one
    bank = one 3.3 V regulator: its current is set by how many of its antennas are on at once); with
    ``max_on`` > 0, no group holds more than ``max_on`` readers (the supply's share).

    DSatur greedy colouring (Brélaz 1979): always colour next the reader whose neighbours already use
    the most colours, ties broken by degree and then name, so the result is deterministic. A board
    map is planar and needs at most 4 colours in theory; DSatur finds 4 or 5 on real maps. Each group
    costs one guard time per sweep, so fewer groups = faster sweeps.
    """
    near = close_pairs(names, adjacency, close)
    colour = {}  # type: ignore[var-annotated]
    order = sorted(names)
    while len(colour) < len(order):
        best = None
        best_key = None
        for name in order:
            if name in colour:
                continue
            used = {colour[n] for n in near[name] if n in colour}
            key = (len(used), len(near[name]))
            if best is None or key > best_key:
                best, best_key = name, key
        used = {colour[n] for n in near[best] if n in colour}
        if bank_of is not None and per_bank > 0:
            bank = bank_of.get(best)
            count = {}  # type: ignore[var-annotated]
            for name, c in colour.items():
                if bank_of.get(name) == bank:
                    count[c] = count.get(c, 0) + 1
            used |= {c for c, n in count.items() if n >= per_bank}
        if max_on > 0:
            size = {}  # type: ignore[var-annotated]
            for c in colour.values():
                size[c] = size.get(c, 0) + 1
            used |= {c for c, n in size.items() if n >= max_on}
        c = 0
        while c in used:
            c += 1
        colour[best] = c
    groups = [[] for _ in range(max(colour.values()) + 1 if colour else 0)]  # type: ignore[var-annotated]
    for name in order:
        groups[colour[name]].append(name)
    return groups


def check_groups(groups, adjacency=None, close=()):  # type: ignore[no-untyped-def]
    """The close pairs that share a group (empty when the groups are RF-safe)."""
    names = [n for g in groups for n in g]
    near = close_pairs(names, adjacency, close)
    bad = []
    for group in groups:
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if b in near[a]:
                    bad.append((a, b))
    return bad
