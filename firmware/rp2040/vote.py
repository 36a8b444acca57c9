"""Majority-vote tag presence for one reader: the host's ``companion.hardware.debounce.TagVote``
rewritten for MicroPython (no dataclasses/deque/typing). tests/firmware checks the two agree on
every sample sequence.

A UID is placed once seen in K of the last N informative samples; the placed UID is lifted after M
informative samples in a row without it. ``UNKNOWN`` (a read error) does not vote.

Allocation-free in steady state (design/style.md point 21): the window is a preallocated ring, the
count is done in place (N is 3..5: a double loop beats a dict that would be allocated per sample),
and "no change" is one shared tuple.
"""

UNKNOWN = object()
NO_CHANGE = (None, None)


class TagVote:
    def __init__(self, k, n, m):  # type: ignore[no-untyped-def]
        self.k = k
        self.n = n
        self.m = m
        self.ring = [None] * n  # the last ``size`` informative samples, oldest at ``first``
        self.first = 0
        self.size = 0
        self.current = None
        self.misses = 0

    def add(self, sample):  # type: ignore[no-untyped-def]
        """One sample (UID, None or UNKNOWN) → (placed UID or None, lifted UID or None)."""
        if sample is UNKNOWN:
            return NO_CHANGE
        n = self.n
        ring = self.ring
        if self.size < n:
            ring[(self.first + self.size) % n] = sample
            self.size += 1
        else:
            ring[self.first] = sample
            self.first = (self.first + 1) % n
        lifted = None
        if self.current is not None:
            self.misses = 0 if sample == self.current else self.misses + 1
            if self.misses >= self.m:
                lifted = self.current
                self.current = None
                self.misses = 0
        if self.current is not None:
            return NO_CHANGE if lifted is None else (None, lifted)
        best = None
        count = 0
        first, size = self.first, self.size
        for i in range(size):
            seen = ring[(first + i) % n]
            if seen is None or seen == lifted:
                continue
            earlier = False
            for j in range(i):
                if ring[(first + j) % n] == seen:
                    earlier = True
                    break
            if earlier:
                continue
            votes = 1
            for j in range(i + 1, size):
                if ring[(first + j) % n] == seen:
                    votes += 1
            if votes > count:  # the first to reach the highest count wins, as max() does on the host
                best, count = seen, votes
        if best is not None and count >= self.k:
            self.current = best
            self.misses = 0
            return (best, lifted)
        return NO_CHANGE if lifted is None else (None, lifted)

    def holds(self, sample):  # type: ignore[no-untyped-def]
        """True when :meth:`add` of ``sample`` would change nothing, now or ever after while only
        ``sample`` comes: the window is full of it and it is the current answer (None: empty). The
        bridge then skips the vote for a reader whose look repeats (scripts.GroupScript)."""
        if self.size < self.n or self.current != sample or self.misses:
            return False
        for seen in self.ring:  # noqa: SIM110  (a generator would allocate on the Pico)
            if seen != sample:
                return False
        return True
