"""Swiss pairing core on numpy arrays, for many events at once.

The fast path is vectorized across all events of a round:

1. **Bye.** Every event with an odd number of players to pair gives the bye to its
   lowest-ranked eligible player: sorted by (had a pairing bye already, match points
   ascending, random). It is chosen *before* pairing, from the bottom point group, so it
   never goes to a player who would have been paired down (TRH §5.6.1, SEED-F2), and a
   player gets a second bye only when every player still in the event already had one.
2. **Adjacency pairing.** The other players are sorted by (event, match points
   descending, random) and paired 1–2, 3–4, …. Inside a point group this is random
   pairing; a group with an odd count (including a player it received from above) sends
   exactly one player — its last — down to the first player of the adjacent lower group
   (WotC 1999 Swiss basics, TRH §5.5.1).
3. **Rematch check.** Every pair is checked against the opponents matrix in one vectorized
   comparison.

Only the events with a rematch go through :func:`repair_event`, a per-event Python step:
pairing is inherently sequential *within* an event (whether player *i* can take player *j*
depends on every earlier choice), so a depth-first search in pairing order is the natural
exact algorithm. The search is confined to a small window of pairs around each rematch,
doubled until it succeeds; a window covering the whole event is a complete search, so a
rematch survives only when no rematch-free pairing exists (or, for pathological inputs,
when the search budget runs out and a maximum-cardinality matching on non-rematch edges,
via networkx, takes over). Everything else stays vectorized.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

__all__ = ["pair_arrays", "repair_event"]

if TYPE_CHECKING:  # numpy is imported where it is used: not on `import swissframe`
    import numpy as np
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    BoolArray = npt.NDArray[np.bool_]

#: Search steps allowed per window before giving up on it (plus 100 per player).
_BASE_BUDGET = 20_000
#: Beyond this many players the networkx fallback only links players this close in order.
_BAND = 64


def _first_of_runs(keys: IntArray) -> BoolArray:
    import numpy as np
    first = np.ones(keys.shape[0], dtype=np.bool_)
    if keys.shape[0] > 1:
        first[1:] = keys[1:] != keys[:-1]
    return first


def pair_arrays(
    event: IntArray,
    gid: IntArray,
    points: IntArray,
    had_bye: BoolArray,
    opponents: IntArray,
    *,
    rng: np.random.Generator,
) -> tuple[IntArray, IntArray, IntArray]:
    """Pair the players of many events (one round).

    Parameters
    ----------
    event
        Event index of each player to pair (any non-negative ints).
    gid
        Row of each player in ``opponents`` (a global player id, unique across events).
    points
        Current match points.
    had_bye
        Whether the player already had a pairing bye.
    opponents
        ``(n_global, k)`` matrix of previous opponents' gids, ``-1`` padded.
    rng
        Random source (random order inside point groups, random bye inside the bottom group).

    Returns
    -------
    (a, b, bye)
        Positions (into the input arrays) of seat A and seat B of each pair, in pairing
        order (events ascending, top table first), and of each bye player.

    Examples
    --------
    >>> import numpy as np
    >>> from swissframe.simulate._pairing import pair_arrays
    >>> z = np.zeros(5, dtype=np.int64)
    >>> a, b, bye = pair_arrays(z, np.arange(5), np.array([6, 3, 3, 0, 0]),
    ...     np.zeros(5, dtype=bool), np.full((5, 1), -1), rng=np.random.default_rng(1))
    >>> sorted(bye.tolist()) in ([3], [4]), bool(a[0] == 0 or b[0] == 0)
    (True, True)
    """
    import numpy as np
    n = event.shape[0]
    empty = np.zeros(0, dtype=np.int64)
    if n == 0:
        return empty, empty, empty
    # unique random ranks: every sort key below is unique, so any sort algorithm (SIMD or
    # not) gives the same order on every platform
    perm = rng.permutation(n).astype(np.int64)
    event = event.astype(np.int64, copy=False)
    points = points.astype(np.int64, copy=False)
    odd = (np.bincount(event) % 2 == 1)[event]
    p_lo, p_hi = int(points.min()), int(points.max())
    if n < (1 << 23) and int(event.max()) < (1 << 22) and p_hi - p_lo < (1 << 17):
        inv = np.empty(n, dtype=np.int64)
        inv[perm] = np.arange(n, dtype=np.int64)
        low = (1 << 23) - 1
        cand = np.flatnonzero(odd)
        bkey = np.sort((event[cand] << 41) | (had_bye[cand].astype(np.int64) << 40)
                       | ((points[cand] - p_lo) << 23) | perm[cand])
        bye = inv[bkey[_first_of_runs(bkey >> 41)] & low]
        keep = np.ones(n, dtype=np.bool_)
        keep[bye] = False
        rest = np.flatnonzero(keep)
        key = np.sort((event[rest] << 41) | ((p_hi - points[rest]) << 23) | perm[rest])
        seq = inv[key & low]
    else:  # huge inputs: the same orders by lexsort
        cand = np.flatnonzero(odd)
        order = cand[np.lexsort((perm[cand], points[cand], had_bye[cand], event[cand]))]
        bye = order[_first_of_runs(event[order])].astype(np.int64)
        keep = np.ones(n, dtype=np.bool_)
        keep[bye] = False
        rest = np.flatnonzero(keep)
        seq = rest[np.lexsort((perm[rest], -points[rest], event[rest]))].astype(np.int64)
    a, b = seq[0::2].copy(), seq[1::2].copy()
    if opponents.shape[1] and a.shape[0]:
        a, b, clash = _swap_pass(a, b, event, points, gid=gid, opponents=opponents)
        seq[0::2], seq[1::2] = a, b
        if clash.any():
            ev_sorted = event[seq]
            clash_pairs = np.flatnonzero(clash)
            clash_events = event[a[clash_pairs]]
            events_hit, first_hit = np.unique(clash_events, return_index=True)
            los = np.searchsorted(ev_sorted, events_hit, side="left")
            his = np.searchsorted(ev_sorted, events_hit, side="right")
            ends = np.append(first_hit[1:], clash_pairs.shape[0])
            for lo, hi, f, t in zip(los.tolist(), his.tolist(), first_hit.tolist(),
                                    ends.tolist(), strict=True):
                part = seq[lo:hi]
                opp_sets: dict[int, set[int]] = {}

                def forbidden(x: int, y: int, _p: IntArray = part,
                              _s: dict[int, set[int]] = opp_sets) -> bool:
                    gx = int(gid[_p[x]])
                    s = _s.get(gx)
                    if s is None:
                        s = set(opponents[gx].tolist())
                        _s[gx] = s
                    return int(gid[_p[y]]) in s

                ks = clash_pairs[f:t] - lo // 2
                seq[lo:hi] = part[repair_event(hi - lo, forbidden, ks.tolist())]
            a, b = seq[0::2], seq[1::2]
    return a, b, bye


def _swap_pass(a: IntArray, b: IntArray, event: IntArray, points: IntArray, *, gid: IntArray,
               opponents: IntArray, passes: int = 3
               ) -> tuple[IntArray, IntArray, BoolArray]:
    """Vectorized first aid for rematches: swap seat B with a neighbouring pair's seat B.

    A swap is made only between two players with equal points in the same event (so the
    point-group structure of the pairing is unchanged) and only if both new pairs are new.
    """
    import numpy as np
    def clashes(x: IntArray, y: IntArray) -> npt.NDArray[np.bool_]:
        return np.asarray((opponents[gid[x]] == gid[y][:, None]).any(axis=1))

    n_pairs = a.shape[0]
    clash = clashes(a, b)
    for _ in range(passes):
        for step in (1, -1):
            k = np.flatnonzero(clash)
            if k.shape[0] == 0:
                return a, b, clash
            nk = k + step
            inside = (nk >= 0) & (nk < n_pairs)
            k, nk = k[inside], nk[inside]
            ok = (~clash[nk] & (event[a[nk]] == event[a[k]])
                  & (points[b[k]] == points[b[nk]]))
            k, nk = k[ok], nk[ok]
            good = ~clashes(a[k], b[nk]) & ~clashes(a[nk], b[k])
            k, nk = k[good], nk[good]
            if step == -1:  # two clashes may target the same pair: keep the first
                _, first = np.unique(nk, return_index=True)
                k, nk = k[first], nk[first]
            b[k], b[nk] = b[nk], b[k].copy()
            clash[k] = False
    return a, b, clash


def _dfs(items: list[int], forbidden: Callable[[int, int], bool], budget: int
         ) -> list[int] | None:
    """Pair ``items`` (local positions, in preference order) without forbidden pairs.

    Depth-first: the first unpaired player takes the first allowed unpaired player after
    it; on a dead end the latest choice moves on. Returns the flattened pairs in order,
    or ``None`` if impossible or over budget.
    """
    m = len(items)
    used = [False] * m
    stack: list[tuple[int, int]] = []
    i, j, steps = 0, 1, 0
    while True:
        while j < m and (used[j] or forbidden(items[i], items[j])):
            j += 1
            steps += 1
        if j < m:
            used[i] = used[j] = True
            stack.append((i, j))
            while i < m and used[i]:
                i += 1
            if i >= m:
                return [items[k] for pair in stack for k in pair]
            j = i + 1
        else:
            if not stack:
                return None
            i, j = stack.pop()
            used[i] = used[j] = False
            j += 1
        steps += 1
        if steps > budget:
            return None


def _fallback(m: int, forbidden: Callable[[int, int], bool]) -> list[int]:
    """Fewest rematches: max-cardinality matching on allowed edges, leftovers in order.

    Uses networkx (the ``simulate`` extra); without it, a greedy pass in pairing order
    (each player takes the first allowed partner, else the first free one).
    """
    try:
        import networkx as nx
    except ImportError:  # networkx ships with the simulate extra
        free = list(range(m))
        out: list[int] = []
        while free:
            x = free.pop(0)
            k = next((i for i, y in enumerate(free) if not forbidden(x, y)), 0)
            out += [x, free.pop(k)]
        return out
    graph = nx.Graph()
    graph.add_nodes_from(range(m))
    band = m if m <= 4 * _BAND else _BAND
    for x in range(m):
        for y in range(x + 1, min(m, x + band + 1)):
            if not forbidden(x, y):
                graph.add_edge(x, y, weight=4 * m - (y - x))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = [tuple(sorted(p)) for p in matching]
    matched = {x for p in pairs for x in p}
    left = [x for x in range(m) if x not in matched]
    pairs += [(left[k], left[k + 1]) for k in range(0, len(left) - 1, 2)]
    pairs.sort()
    return [x for p in pairs for x in p]


def repair_event(m: int, forbidden: Callable[[int, int], bool],
                 clashes: Sequence[int] | None = None) -> IntArray:
    """Remove rematches from one event's adjacency pairing.

    Parameters
    ----------
    m
        Number of players (even), in pairing order ``0 .. m-1`` (pairs are 0–1, 2–3, …).
    forbidden
        ``forbidden(x, y)``: whether positions ``x`` and ``y`` already played each other.
    clashes
        Indices of the pairs that are rematches, if already known (else found here).

    Returns
    -------
    numpy.ndarray
        A permutation of ``0 .. m-1``; consecutive entries are the new pairs.

    Examples
    --------
    >>> from swissframe.simulate._pairing import repair_event
    >>> repair_event(4, lambda x, y: {x, y} == {0, 1}).tolist()
    [0, 2, 1, 3]
    """
    import numpy as np
    seq = list(range(m))
    n_pairs = m // 2
    if clashes is None:
        clashes = [k for k in range(n_pairs) if forbidden(2 * k, 2 * k + 1)]
    for k in sorted(clashes):
        # windows only ever remove rematches, so a pair is re-checked just before its turn
        if not forbidden(seq[2 * k], seq[2 * k + 1]):
            continue
        lo, hi = max(0, k - 1), min(n_pairs, k + 2)
        while True:
            window = seq[2 * lo:2 * hi]
            found = _dfs(window, forbidden, _BASE_BUDGET + 100 * len(window))
            if found is not None:
                seq[2 * lo:2 * hi] = found
                break
            if lo == 0 and hi == n_pairs:
                picked = _fallback(m, lambda x, y: forbidden(seq[x], seq[y]))
                return np.asarray([seq[x] for x in picked], dtype=np.int64)
            width = hi - lo
            lo, hi = max(0, lo - width), min(n_pairs, hi + width)
    return np.asarray(seq, dtype=np.int64)
