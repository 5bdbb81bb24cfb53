"""Bit-exact twins, compiled with numba, of two CPython/numpy behaviours the BART reference relies on.

- :func:`_set_add` / :func:`_set_discard`: CPython's ``set`` of small non-negative ints (hash(i) == i)
  as an open-addressing table with CPython's probe sequence, dummy reuse and resize rule, so iterating
  it gives the order a real set gives (the order in which the reference draws its leaf values);
- :func:`_npsum`: numpy's float64 ``sum`` (its pairwise summation, ``pairwise_sum``), so sums of
  residuals round as the reference's do.

:func:`set_order` exposes the set emulation to tests (``tests/bfts/test_bfts_kernel.py``).
"""

from __future__ import annotations

import numpy as np

try:  # numba is optional: without it these run as plain Python
    import numba

    _njit = numba.njit(cache=True)
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - exercised only without numba
    HAVE_NUMBA = False

    def _njit(f):  # type: ignore[no-redef]
        return f


_EMPTY, _DUMMY = -1, -2
_PROBES = 9  # CPython's LINEAR_PROBES


# --- CPython's set of small non-negative ints (hash(i) == i) ------------------------------------------
@_njit
def _set_insert_clean(table, mask, key):
    perturb = key
    i = key & mask
    while True:
        if table[i] == _EMPTY:
            table[i] = key
            return
        if i + _PROBES <= mask:
            for j in range(1, _PROBES + 1):
                if table[i + j] == _EMPTY:
                    table[i + j] = key
                    return
        perturb >>= 5
        i = (i * 5 + 1 + perturb) & mask


@_njit
def _set_resize(table, st, minused):
    newsize = 8
    while newsize <= minused:
        newsize <<= 1
    old = table[: st[0] + 1].copy()
    table[:newsize] = _EMPTY
    st[0] = newsize - 1
    st[1] = st[2]
    for k in old:
        if k >= 0:
            _set_insert_clean(table, st[0], k)


@_njit
def _set_add(table, st, key):
    """``set.add(key)``; ``st`` = [mask, fill, used] of the table (CPython's set_add_entry)."""
    mask = st[0]
    i = key & mask
    perturb = key
    free = -1
    while True:
        probes = _PROBES if i + _PROBES <= mask else 0
        e = i
        while True:
            k = table[e]
            if k == _EMPTY:
                if free >= 0:
                    table[free] = key
                    st[2] += 1
                    return
                table[e] = key
                st[1] += 1
                st[2] += 1
                if st[1] * 5 >= mask * 3:
                    _set_resize(table, st, st[2] * 2 if st[2] > 50000 else st[2] * 4)
                return
            if k == key:
                return
            if k == _DUMMY:
                free = e
            e += 1
            if probes == 0:
                break
            probes -= 1
        perturb >>= 5
        i = (i * 5 + 1 + perturb) & mask


@_njit
def _set_discard(table, st, key):
    """``set.discard(key)`` (CPython's set_discard_entry: the slot becomes a dummy)."""
    mask = st[0]
    i = key & mask
    perturb = key
    while True:
        probes = _PROBES if i + _PROBES <= mask else 0
        e = i
        while True:
            k = table[e]
            if k == _EMPTY:
                return
            if k == key:
                table[e] = _DUMMY
                st[2] -= 1
                return
            e += 1
            if probes == 0:
                break
            probes -= 1
        perturb >>= 5
        i = (i * 5 + 1 + perturb) & mask


def set_order(operations: list[tuple[str, int]]) -> list[int]:
    """Iteration order of the emulated set after ``operations`` ("add"/"discard", key), from ``{0}``.

    For tests: it must equal ``list(s)`` of a real set given the same operations.
    """
    table = np.full(1 << 16, _EMPTY, dtype=np.int64)
    st = np.array([7, 0, 0], dtype=np.int64)
    _set_add(table, st, 0)
    for op, key in operations:
        (_set_add if op == "add" else _set_discard)(table, st, np.int64(key))
    return [int(k) for k in table[: st[0] + 1] if k >= 0]


# --- numpy's float64 sum --------------------------------------------------------------------------------
@_njit
def _block(a, lo, n):
    """numpy's pairwise_sum of a[lo : lo + n] for n <= 128: 8 accumulators, then the tail."""
    if n < 8:
        res = -0.0
        for i in range(n):
            res += a[lo + i]
        return res
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    stop = n - (n % 8)
    while i < stop:
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@_njit
def _pairwise(a, lo, n):
    """numpy's pairwise_sum of a[lo : lo + n]: blocks of <= 128, halves cut at multiples of 8, summed
    left + right. numpy recurses; this walks the same tree with an explicit stack (numba's cache cannot
    hold a recursive function)."""
    if n <= 128:
        return _block(a, lo, n)
    s_lo = np.empty(64, dtype=np.int64)
    s_n = np.empty(64, dtype=np.int64)
    s_phase = np.zeros(64, dtype=np.int64)
    s_left = np.empty(64)
    s_lo[0], s_n[0], top = lo, n, 1
    while True:
        f = top - 1
        if s_n[f] > 128:  # descend into the left half first
            half = s_n[f] // 2
            half -= half % 8
            s_phase[f] = 1
            s_lo[top], s_n[top], s_phase[top] = s_lo[f], half, 0
            top += 1
            continue
        value = _block(a, s_lo[f], s_n[f])
        top -= 1
        while top > 0:  # hand the value up: a left half starts its right sibling, a right half closes
            g = top - 1
            if s_phase[g] == 1:
                half = s_n[g] // 2
                half -= half % 8
                s_left[g], s_phase[g] = value, 2
                s_lo[top], s_n[top], s_phase[top] = s_lo[g] + half, s_n[g] - half, 0
                top += 1
                break
            value = s_left[g] + value
            top -= 1
        if top == 0:
            return value


@_njit
def _npsum(a, n):
    """``float(a[:n].sum())`` as numpy computes it (identity 0.0 plus the pairwise sum)."""
    return 0.0 + _pairwise(a, 0, n)
