"""Majority-vote tag presence for one reader: the host's ``companion.hardware.debounce.TagVote``
rewritten for MicroPython (no dataclasses/deque/typing). tests/firmware checks the two agree on
every sample sequence.

A UID is placed once seen in K of the last N informative samples; the placed UID is lifted after M
informative samples in a row without it. ``UNKNOWN`` (a read error) does not vote.
"""

UNKNOWN = object()


class TagVote:
    def __init__(self, k, n, m):  # type: ignore[no-untyped-def]
        self.k = k
        self.n = n
        self.m = m
        self.samples = []
        self.current = None
        self.misses = 0

    def add(self, sample):  # type: ignore[no-untyped-def]
        """One sample (UID, None or UNKNOWN) → (placed UID or None, lifted UID or None)."""
        if sample is UNKNOWN:
            return (None, None)
        self.samples.append(sample)
        if len(self.samples) > self.n:
            self.samples.pop(0)
        lifted = None
        placed = None
        if self.current is not None:
            self.misses = 0 if sample == self.current else self.misses + 1
            if self.misses >= self.m:
                lifted = self.current
                self.current = None
                self.misses = 0
        if self.current is None:
            votes = {}
            order = []
            for seen in self.samples:
                if seen is not None and seen != lifted:
                    if seen not in votes:
                        votes[seen] = 0
                        order.append(seen)
                    votes[seen] += 1
            best = None
            count = 0
            for uid in order:  # the first to reach the highest count wins, as max() does on the host
                if votes[uid] > count:
                    best, count = uid, votes[uid]
            if best is not None and count >= self.k:
                placed = best
                self.current = best
                self.misses = 0
        return (placed, lifted)
