"""The compiled engine of :class:`~icml26.bfts.bart.BARTSampler`: the same MCMC, the same draws, to the bit.

``BARTSampler.fit`` spends its time in Python overhead on small arms (a few dozen observations, where
every numpy call costs more than its arithmetic). This module runs the sweeps of ``BARTSampler.fit``
(grow / prune / change Metropolis-Hastings moves with the leaf values integrated out, Gibbs draws of the
leaves and of sigma^2; Chipman et al. 2010) as one numba-compiled loop that reproduces the Python
reference operation for operation:

- the random numbers come from the same ``numpy.random.Generator``, drawn by numba's implementation of
  ``random``, ``integers``, ``standard_normal`` and ``gamma`` (the same streams as numpy's), in the same
  order and number;
- every floating-point expression is evaluated in the reference's order, and sums of residuals use
  numpy's pairwise summation (``_npsum`` in :mod:`icml26.bfts.bart_kernel_twins`);
- the leaf values of a tree are drawn in the iteration order of the reference's ``set`` of leaf ids,
  which is CPython's hash-table order: ``_set_add`` / ``_set_discard`` (the same module) keep a copy of
  that table (open addressing with CPython's probe sequence, dummy reuse and resize rule), so the k-th
  normal draw goes to the same leaf.

``tests/bfts`` checks both the set emulation against real sets and whole fits, engine against
reference, for equality of every stored array.
"""

from __future__ import annotations

import math

import numpy as np

from icml26.bfts.bart_kernel_twins import _EMPTY, HAVE_NUMBA, _njit, _npsum, _set_add, _set_discard

__all__ = ["HAVE_NUMBA", "run_sweeps"]

_GROW, _PRUNE, _CHANGE = 0, 1, 2


@_njit
def _log(x):
    return math.log(x) if x > 0.0 else -math.inf


@_njit
def _log_ml(n, s, sigma2, tau2):
    return -0.5 * math.log1p(n * tau2 / sigma2) + s * s * tau2 / (2.0 * sigma2 * (sigma2 + n * tau2))


@_njit
def _accept(log_r, rng):
    if math.isnan(log_r):
        return False
    return log_r >= 0.0 or rng.random() < math.exp(log_r)


@_njit
def _move_probs(can_grow, can_prune):
    if can_grow and can_prune:
        return 0.4, 0.4, 0.2
    if can_grow:
        return 1.0, 0.0, 0.0
    if can_prune:
        return 0.0, 0.5, 0.5
    return 0.0, 0.0, 0.0


# --- one forest's state: struct-of-arrays over (tree, node) --------------------------------------------
# Live leaves (list 0) and internal nodes (list 1) of each tree, sorted by node id: what the reference's
# ``sorted(...)`` over its sets gives, kept without scanning the ever-growing node arrays.
@_njit
def _sl_insert(lists, nlist, j, which, key):
    c = nlist[j, which]
    i = c
    while i > 0 and lists[j, which, i - 1] > key:
        lists[j, which, i] = lists[j, which, i - 1]
        i -= 1
    lists[j, which, i] = key
    nlist[j, which] = c + 1


@_njit
def _sl_remove(lists, nlist, j, which, key):
    c = nlist[j, which]
    i = 0
    while lists[j, which, i] != key:
        i += 1
    for t in range(i, c - 1):
        lists[j, which, t] = lists[j, which, t + 1]
    nlist[j, which] = c - 1


@_njit
def _count_growable(lists, nlist, psplit, j):
    c = 0
    for t in range(nlist[j, 0]):
        if psplit[j, lists[j, 0, t]] > 0.0:
            c += 1
    return c


@_njit
def _nth_growable(lists, nlist, psplit, j, k):
    c = 0
    for t in range(nlist[j, 0]):
        i = lists[j, 0, t]
        if psplit[j, i] > 0.0:
            if c == k:
                return i
            c += 1
    return -1


@_njit
def _count_nog(lists, nlist, is_leaf, left, right, j):
    c = 0
    for t in range(nlist[j, 1]):
        i = lists[j, 1, t]
        if is_leaf[j, left[j, i]] and is_leaf[j, right[j, i]]:
            c += 1
    return c


@_njit
def _nth_nog(lists, nlist, is_leaf, left, right, j, k):
    c = 0
    for t in range(nlist[j, 1]):
        i = lists[j, 1, t]
        if is_leaf[j, left[j, i]] and is_leaf[j, right[j, i]]:
            if c == k:
                return i
            c += 1
    return -1


@_njit
def _grow_capacity(arrs2, lo, hi, need):
    # arrs2 = (var, cut, left, right, depth) int64 (m, cap); returns enlarged copies
    m, cap = arrs2[0].shape
    new_cap = cap
    while new_cap < need:
        new_cap *= 2
    out = []
    for a in arrs2:
        b = np.full((m, new_cap), -1, dtype=np.int64)
        b[:, :cap] = a
        out.append(b)
    p = lo.shape[2]
    lo2 = np.zeros((m, new_cap, p), dtype=lo.dtype)
    hi2 = np.zeros((m, new_cap, p), dtype=hi.dtype)
    lo2[:, :cap] = lo
    hi2[:, :cap] = hi
    return out, lo2, hi2, new_cap


@_njit
def _grow_f(a, new_cap):
    m, cap = a.shape
    b = np.zeros((m, new_cap), dtype=a.dtype)
    b[:, :cap] = a
    return b


@_njit
def _propose_split(
    rng, xb, idx, ni, resid, buf, go_left, lo, hi, depth, pdepth, j, node, p, min_samples_leaf, sigma2, tau2
):
    """A split proposed at ``node`` (grow and change moves): ``(valid, var, cut, p_l, p_r, log_fit)``.

    ``BARTSampler._draw_split``: a variable uniformly among those with room in the node's cell, then a
    cut uniformly in its range (the only random draws here). ``go_left[:ni]`` marks which of the node's
    observations ``idx[:ni]`` go left. ``valid`` is False when a child would hold fewer than
    ``min_samples_leaf``; otherwise ``p_l``/``p_r`` are the children's split probabilities (0 for a child
    whose cell has no room) and ``log_fit`` is the children's marginal likelihoods plus their
    log(1 - p_split), the new part of the MH ratio.
    """
    n_av = 0
    for v in range(p):
        if hi[j, node, v] > lo[j, node, v]:
            n_av += 1
    k = rng.integers(0, n_av)
    sv = -1
    for v in range(p):
        if hi[j, node, v] > lo[j, node, v]:
            if k == 0:
                sv = v
                break
            k -= 1
    sc = rng.integers(lo[j, node, sv], hi[j, node, sv])
    n_left = 0
    for t in range(ni):
        go_left[t] = xb[idx[t], sv] <= sc
        n_left += go_left[t]
    if min(n_left, ni - n_left) < min_samples_leaf:
        return False, sv, sc, 0.0, 0.0, 0.0
    d1 = depth[j, node] + 1
    # children's cells: left (hi[sv] = cut), right (lo[sv] = cut + 1)
    a_l = False
    a_r = False
    for v in range(p):
        h_l = sc if v == sv else hi[j, node, v]
        l_r = sc + 1 if v == sv else lo[j, node, v]
        if h_l > lo[j, node, v]:
            a_l = True
        if hi[j, node, v] > l_r:
            a_r = True
    p_l = pdepth[d1] if a_l else 0.0
    p_r = pdepth[d1] if a_r else 0.0
    s_left = _side_sum(resid, idx, go_left, ni, True, buf)
    s_right = _side_sum(resid, idx, go_left, ni, False, buf)
    log_fit = (
        _log_ml(n_left, s_left, sigma2, tau2)
        + _log_ml(ni - n_left, s_right, sigma2, tau2)
        + _log(1.0 - p_l)
        + _log(1.0 - p_r)
    )
    return True, sv, sc, p_l, p_r, log_fit


@_njit
def _side_sum(resid, idx, go_left, ni, left, buf):
    """numpy's sum of the residuals of the observations ``idx[t]`` with ``go_left[t] == left`` (in order)."""
    c = 0
    for t in range(ni):
        if go_left[t] == left:
            buf[c] = resid[idx[t]]
            c += 1
    return _npsum(buf, c)


@_njit
def run_sweeps(
    xb,
    ys,
    cuts,
    n_cuts,
    pdepth,
    tau2,
    sigma2,
    fixed,
    nu,
    lam,
    n_trees,
    n_burnin,
    n_draws,
    min_samples_leaf,
    rng,
):
    """The sweeps of ``BARTSampler.fit`` on scaled data; returns the packed forests of the kept draws.

    Returns ``(feature, threshold, left, right, value, roots (n_draws, n_trees), sigma2 (n_draws,)
    (scaled units), proposed (3,), accepted (3,))``, the arrays ``BARTSampler._pack`` builds.
    """
    n, p = xb.shape
    m = n_trees
    cap = 64
    var = np.full((m, cap), -1, dtype=np.int64)
    cut = np.full((m, cap), -1, dtype=np.int64)
    left = np.full((m, cap), -1, dtype=np.int64)
    right = np.full((m, cap), -1, dtype=np.int64)
    depth = np.zeros((m, cap), dtype=np.int64)
    lo = np.zeros((m, cap, p), dtype=np.int64)
    hi = np.zeros((m, cap, p), dtype=np.int64)
    psplit = np.zeros((m, cap))
    value = np.zeros((m, cap))
    is_leaf = np.zeros((m, cap), dtype=np.bool_)
    is_internal = np.zeros((m, cap), dtype=np.bool_)
    size = np.ones(m, dtype=np.int64)
    tcap = 8
    while tcap <= 4 * (n + 4):
        tcap <<= 1
    tcap *= 2
    table = np.full((m, tcap), _EMPTY, dtype=np.int64)
    tstate = np.zeros((m, 3), dtype=np.int64)
    p_root = pdepth[0] if np.any(n_cuts > 0) else 0.0
    lists = np.zeros((m, 2, n + 4), dtype=np.int64)
    nlist = np.zeros((m, 2), dtype=np.int64)
    nlist[:, 0] = 1  # the root, node 0, is the one leaf
    for j in range(m):
        hi[j, 0, :] = n_cuts
        psplit[j, 0] = p_root
        is_leaf[j, 0] = True
        tstate[j, 0] = 7
        _set_add(table[j], tstate[j], 0)
    node_of = np.zeros((m, n), dtype=np.int64)
    tree_fit = np.zeros((m, n))
    total = np.zeros(n)
    resid = np.empty(n)
    buf = np.empty(n)
    idx = np.empty(n, dtype=np.int64)
    go_left = np.empty(n, dtype=np.bool_)
    proposed = np.zeros(3, dtype=np.int64)
    accepted = np.zeros(3, dtype=np.int64)
    # packed output, grown on demand
    out_cap = 1024
    feat_o = np.empty(out_cap, dtype=np.int64)
    thr_o = np.empty(out_cap)
    left_o = np.empty(out_cap, dtype=np.int64)
    right_o = np.empty(out_cap, dtype=np.int64)
    val_o = np.empty(out_cap)
    n_out = 0
    roots = np.empty((n_draws, m), dtype=np.int64)
    sigma2_o = np.empty(n_draws)
    order = np.empty(1, dtype=np.int64)
    pos = np.empty(1, dtype=np.int64)
    stack = np.empty(1, dtype=np.int64)
    leaves = np.empty(n + 8, dtype=np.int64)
    counts = np.zeros(1, dtype=np.int64)
    sums = np.zeros(1)
    values = np.zeros(1)

    for sweep in range(n_burnin + n_draws):
        for j in range(m):
            if size[j] + 4 > cap:
                arrs, lo, hi, new_cap = _grow_capacity((var, cut, left, right, depth), lo, hi, size[j] + 4)
                var, cut, left, right, depth = arrs[0], arrs[1], arrs[2], arrs[3], arrs[4]
                psplit = _grow_f(psplit, new_cap)
                value = _grow_f(value, new_cap)
                is_leaf = _grow_f(is_leaf, new_cap)
                is_internal = _grow_f(is_internal, new_cap)
                cap = new_cap
            for i in range(n):
                resid[i] = ys[i] - (total[i] - tree_fit[j, i])
            nodes = node_of[j]
            # ---- _propose ----
            n_grow = _count_growable(lists, nlist, psplit, j)
            n_nog = _count_nog(lists, nlist, is_leaf, left, right, j)
            pg, pp, pc = _move_probs(n_grow > 0, n_nog > 0)
            total_p = ((0.0 + pg) + pp) + pc
            if total_p != 0.0:
                u = rng.random() * total_p
                move = _GROW if u < pg else (_PRUNE if u < pg + pp else _CHANGE)
                ok = False
                if move == _GROW:
                    node = _nth_growable(lists, nlist, psplit, j, rng.integers(0, n_grow))
                    ni = 0
                    for i in range(n):
                        if nodes[i] == node:
                            idx[ni] = i
                            ni += 1
                    valid, sv, sc, p_l, p_r, log_fit = _propose_split(
                        rng, xb, idx, ni, resid, buf, go_left, lo, hi, depth, pdepth, j, node, p, min_samples_leaf,
                        sigma2, tau2,
                    )  # fmt: skip
                    if valid:
                        for t in range(ni):
                            buf[t] = resid[idx[t]]
                        s_all = _npsum(buf, ni)
                        log_r = (
                            log_fit
                            - _log_ml(ni, s_all, sigma2, tau2)
                            + _log(psplit[j, node])
                            - _log(1.0 - psplit[j, node])
                        )
                        lft, rgt = _add_children(
                            j, node, sv, sc, p_l, p_r, var, cut, left, right, depth, lo, hi, psplit,
                            value, is_leaf, is_internal, size, table, tstate, p, lists, nlist,
                        )  # fmt: skip
                        n_nog_new = _count_nog(lists, nlist, is_leaf, left, right, j)
                        g_new = _count_growable(lists, nlist, psplit, j) > 0
                        _, pp_new, _ = _move_probs(g_new, True)
                        log_r += _log(pp_new / n_nog_new) - _log(pg / n_grow)
                        if _accept(log_r, rng):
                            ok = True
                            for t in range(ni):
                                nodes[idx[t]] = lft if go_left[t] else rgt
                        else:
                            _remove_children(
                                j,
                                node,
                                left,
                                right,
                                var,
                                cut,
                                is_leaf,
                                is_internal,
                                table,
                                tstate,
                                lists,
                                nlist,
                            )
                else:
                    node = _nth_nog(lists, nlist, is_leaf, left, right, j, rng.integers(0, n_nog))
                    lft, rgt = left[j, node], right[j, node]
                    ni = 0
                    n_l = 0
                    for i in range(n):
                        if nodes[i] == lft or nodes[i] == rgt:
                            idx[ni] = i
                            ni += 1
                    c = 0
                    for t in range(ni):
                        if nodes[idx[t]] == lft:
                            buf[c] = resid[idx[t]]
                            c += 1
                    n_l = c
                    s_l = _npsum(buf, c)
                    c = 0
                    for t in range(ni):
                        if nodes[idx[t]] != lft:
                            buf[c] = resid[idx[t]]
                            c += 1
                    s_r = _npsum(buf, c)
                    ml_children = _log_ml(n_l, s_l, sigma2, tau2) + _log_ml(ni - n_l, s_r, sigma2, tau2)
                    p_children = _log(1.0 - psplit[j, lft]) + _log(1.0 - psplit[j, rgt])
                    old_v, old_c = var[j, node], cut[j, node]
                    old_pl, old_pr = psplit[j, lft], psplit[j, rgt]
                    if move == _PRUNE:
                        log_r = (
                            _log_ml(ni, s_l + s_r, sigma2, tau2)
                            - ml_children
                            + _log(1.0 - psplit[j, node])
                            - _log(psplit[j, node])
                            - p_children
                        )
                        _remove_children(
                            j, node, left, right, var, cut, is_leaf, is_internal, table, tstate, lists, nlist
                        )
                        n_grow_new = _count_growable(lists, nlist, psplit, j)
                        n_nog_new = _count_nog(lists, nlist, is_leaf, left, right, j)
                        pg_new, _, _ = _move_probs(n_grow_new > 0, n_nog_new > 0)
                        log_r += _log(pg_new / n_grow_new) - _log(pp / n_nog)
                        if _accept(log_r, rng):
                            ok = True
                            for t in range(ni):
                                nodes[idx[t]] = node
                        else:
                            nl, nr = _add_children(
                                j, node, old_v, old_c, old_pl, old_pr, var, cut, left, right, depth, lo, hi,
                                psplit, value, is_leaf, is_internal, size, table, tstate, p, lists, nlist,
                            )  # fmt: skip
                            for t in range(ni):
                                nodes[idx[t]] = nl if nodes[idx[t]] == lft else nr
                    else:
                        # change: a new split of the node's observations
                        valid, sv, sc, p_l, p_r, log_fit = _propose_split(
                            rng, xb, idx, ni, resid, buf, go_left, lo, hi, depth, pdepth, j, node, p, min_samples_leaf,
                            sigma2, tau2,
                        )  # fmt: skip
                        if valid:
                            log_r = log_fit - ml_children - p_children
                            _remove_children(
                                j,
                                node,
                                left,
                                right,
                                var,
                                cut,
                                is_leaf,
                                is_internal,
                                table,
                                tstate,
                                lists,
                                nlist,
                            )
                            nl, nr = _add_children(
                                j, node, sv, sc, p_l, p_r, var, cut, left, right, depth, lo, hi, psplit,
                                value, is_leaf, is_internal, size, table, tstate, p, lists, nlist,
                            )  # fmt: skip
                            g_new = _count_growable(lists, nlist, psplit, j) > 0
                            _, _, pc_new = _move_probs(g_new, True)
                            log_r += _log(pc_new) - _log(pc)
                            if _accept(log_r, rng):
                                ok = True
                                for t in range(ni):
                                    nodes[idx[t]] = nl if go_left[t] else nr
                            else:
                                _remove_children(
                                    j,
                                    node,
                                    left,
                                    right,
                                    var,
                                    cut,
                                    is_leaf,
                                    is_internal,
                                    table,
                                    tstate,
                                    lists,
                                    nlist,
                                )
                                ol, orr = _add_children(
                                    j, node, old_v, old_c, old_pl, old_pr, var, cut, left, right, depth, lo,
                                    hi, psplit, value, is_leaf, is_internal, size, table, tstate, p, lists, nlist,
                                )  # fmt: skip
                                for t in range(ni):
                                    nodes[idx[t]] = ol if nodes[idx[t]] == lft else orr
                proposed[move] += 1
                accepted[move] += ok
            # ---- _draw_leaves ----
            sz = size[j]
            if counts.size < sz:
                counts = np.zeros(2 * sz, dtype=np.int64)
                sums = np.zeros(2 * sz)
                values = np.zeros(2 * sz)
            counts[:sz] = 0
            sums[:sz] = 0.0
            values[:sz] = 0.0
            for i in range(n):
                counts[nodes[i]] += 1
                sums[nodes[i]] += resid[i]
            n_leaves = 0
            tb = table[j]
            for e in range(tstate[j, 0] + 1):
                if tb[e] >= 0:
                    leaves[n_leaves] = tb[e]
                    n_leaves += 1
            z = rng.standard_normal(n_leaves)
            for t in range(n_leaves):
                leaf = leaves[t]
                cnt = counts[leaf]
                var_post = sigma2 * tau2 / (sigma2 + cnt * tau2)
                mean_post = tau2 * sums[leaf] / (sigma2 + cnt * tau2)
                val = mean_post + math.sqrt(var_post) * z[t]
                values[leaf] = val
                value[j, leaf] = val
            for i in range(n):
                new = values[nodes[i]]
                total[i] += new - tree_fit[j, i]
                tree_fit[j, i] = new
        if not fixed:
            for i in range(n):
                d = ys[i] - total[i]
                buf[i] = d * d
            sse = _npsum(buf, n)
            sigma2 = 1.0 / rng.gamma((nu + n) / 2.0, 2.0 / (nu * lam + sse))
        if sweep >= n_burnin:
            draw = sweep - n_burnin
            sigma2_o[draw] = sigma2
            for j in range(m):
                sz = size[j]
                if order.size < sz:
                    order = np.empty(2 * sz, dtype=np.int64)
                    pos = np.empty(2 * sz, dtype=np.int64)
                    stack = np.empty(2 * sz, dtype=np.int64)
                # depth-first order, left child first (the reference's flatten)
                n_ord = 0
                top = 1
                stack[0] = 0
                while top > 0:
                    top -= 1
                    i = stack[top]
                    order[n_ord] = i
                    pos[i] = n_ord
                    n_ord += 1
                    if is_internal[j, i]:
                        stack[top] = right[j, i]
                        stack[top + 1] = left[j, i]
                        top += 2
                if n_out + n_ord > out_cap:
                    while n_out + n_ord > out_cap:
                        out_cap *= 2
                    feat_o = _resize1(feat_o, out_cap)
                    thr_o = _resize1(thr_o, out_cap)
                    left_o = _resize1(left_o, out_cap)
                    right_o = _resize1(right_o, out_cap)
                    val_o = _resize1(val_o, out_cap)
                roots[draw, j] = n_out
                for t in range(n_ord):
                    i = order[t]
                    o = n_out + t
                    if is_internal[j, i]:
                        feat_o[o] = var[j, i]
                        thr_o[o] = cuts[var[j, i], cut[j, i]]
                        left_o[o] = pos[left[j, i]] + n_out
                        right_o[o] = pos[right[j, i]] + n_out
                        val_o[o] = 0.0
                    else:
                        feat_o[o] = -1
                        thr_o[o] = 0.0
                        left_o[o] = -1
                        right_o[o] = -1
                        val_o[o] = value[j, i]
                n_out += n_ord
    return (
        feat_o[:n_out].copy(),
        thr_o[:n_out].copy(),
        left_o[:n_out].copy(),
        right_o[:n_out].copy(),
        val_o[:n_out].copy(),
        roots,
        sigma2_o,
        proposed,
        accepted,
    )


@_njit
def _resize1(a, new_cap):
    b = np.empty(new_cap, dtype=a.dtype)
    b[: a.size] = a
    return b


@_njit
def _add_children(
    j, node, sv, sc, p_l, p_r, var, cut, left, right, depth, lo, hi, psplit, value, is_leaf, is_internal,
    size, table, tstate, p, lists, nlist,
):  # fmt: skip
    """``_Tree.add_children``: two fresh node ids; the leaf set loses ``node`` and gains them, in order."""
    ids0 = size[j]
    for side in range(2):
        c = ids0 + side
        for v in range(p):
            lo[j, c, v] = lo[j, node, v]
            hi[j, c, v] = hi[j, node, v]
        if side == 0:
            hi[j, c, sv] = sc
        else:
            lo[j, c, sv] = sc + 1
        var[j, c] = -1
        cut[j, c] = -1
        left[j, c] = -1
        right[j, c] = -1
        depth[j, c] = depth[j, node] + 1
        psplit[j, c] = p_l if side == 0 else p_r
        value[j, c] = 0.0
        is_leaf[j, c] = False
        is_internal[j, c] = False
    size[j] += 2
    var[j, node] = sv
    cut[j, node] = sc
    left[j, node] = ids0
    right[j, node] = ids0 + 1
    is_leaf[j, node] = False
    _set_discard(table[j], tstate[j], node)
    _sl_remove(lists, nlist, j, 0, node)
    is_leaf[j, ids0] = True
    _set_add(table[j], tstate[j], ids0)
    is_leaf[j, ids0 + 1] = True
    _set_add(table[j], tstate[j], ids0 + 1)
    _sl_insert(lists, nlist, j, 0, ids0)
    _sl_insert(lists, nlist, j, 0, ids0 + 1)
    is_internal[j, node] = True
    _sl_insert(lists, nlist, j, 1, node)
    return ids0, ids0 + 1


@_njit
def _remove_children(j, node, left, right, var, cut, is_leaf, is_internal, table, tstate, lists, nlist):
    """``_Tree.remove_children``: the children leave the leaf set, then ``node`` rejoins it."""
    lft, rgt = left[j, node], right[j, node]
    is_leaf[j, lft] = False
    _set_discard(table[j], tstate[j], lft)
    _sl_remove(lists, nlist, j, 0, lft)
    is_leaf[j, rgt] = False
    _set_discard(table[j], tstate[j], rgt)
    _sl_remove(lists, nlist, j, 0, rgt)
    is_leaf[j, node] = True
    _set_add(table[j], tstate[j], node)
    _sl_insert(lists, nlist, j, 0, node)
    is_internal[j, node] = False
    _sl_remove(lists, nlist, j, 1, node)
    var[j, node] = -1
    cut[j, node] = -1
    left[j, node] = -1
    right[j, node] = -1
