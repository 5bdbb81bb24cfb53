"""The vectorised paths for large graphs: from_arrays and the sparse enumeration, against the references."""

import numpy as np
import pytest

from icml26.bad_triangles import (
    bad_triangles,
    from_arrays,
    from_edges,
    iter_bad_triangles,
    random_signed_graph,
)


def _set_triangles(g):
    """The former enumeration: per negative edge, Python sets of positive neighbours intersected."""
    pos = [set() for _ in range(g.n)]
    for a, b, s in zip(g.u.tolist(), g.v.tolist(), g.sign.tolist(), strict=True):
        if s > 0:
            pos[a].add(b)
            pos[b].add(a)
    rows = set()
    for e in np.flatnonzero(g.sign < 0).tolist():
        a, b = int(g.u[e]), int(g.v[e])
        for c in pos[a] & pos[b]:
            rows.add((e, g.edge_id(a, c), g.edge_id(b, c)))
    return rows


def test_from_arrays_equals_from_edges():
    rng = np.random.default_rng(4)
    a, b = rng.integers(0, 30, 200), rng.integers(0, 30, 200)
    keep = a != b
    lo, hi = np.minimum(a, b)[keep], np.maximum(a, b)[keep]
    _, first = np.unique(lo * 30 + hi, return_index=True)
    u, v = a[keep][first], b[keep][first]  # unordered pairs, either orientation
    s = np.where(rng.random(u.size) < 0.4, -1, 1)
    w = rng.integers(1, 5, u.size).astype(float)
    g = from_arrays(u, v, s, w, 32)
    ref = from_edges(zip(u.tolist(), v.tolist(), s.tolist(), w.tolist(), strict=True), nodes=list(range(32)))
    for key in ("u", "v", "sign", "weight"):
        assert np.array_equal(getattr(g, key), getattr(ref, key)), key
        assert getattr(g, key).dtype == getattr(ref, key).dtype, key
    assert g.nodes == ref.nodes
    assert np.array_equal(bad_triangles(g), bad_triangles(ref))


def test_sparse_enumeration_rows_are_the_set_enumeration():
    rng = np.random.default_rng(8)
    for i in range(6):
        g = random_signed_graph(40 + 10 * i, 0.3, 0.2 + 0.1 * i, rng)
        tri = bad_triangles(g)
        assert tri.dtype == np.int64 and tri.shape[1] == 3
        assert len(set(map(tuple, tri.tolist()))) == tri.shape[0]  # each bad triangle once
        assert set(map(tuple, tri.tolist())) == _set_triangles(g)  # and as [negative, (a, c), (b, c)]
        # negative edges in id order, then the third node c increasing
        third = np.where(g.u[tri[:, 1]] == g.u[tri[:, 0]], g.v[tri[:, 1]], g.u[tri[:, 1]])
        order = np.lexsort((third, tri[:, 0]))
        assert np.array_equal(order, np.arange(tri.shape[0]))
        chunks = list(iter_bad_triangles(g, chunk_size=7))
        assert all(1 <= c.shape[0] <= 7 for c in chunks)
        assert np.array_equal(np.concatenate(chunks), tri)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([0, 1], [1, 1], [1, -1]), "self-loop at node 1"),
        (([0, 1], [1, 0], [1, -1]), "appears twice"),
        (([0], [1], [2]), r"only \+1 and -1"),
        (([0], [1], [1], [-1.0]), "finite and >= 0"),
        (([0], [1], [1], [np.nan]), "finite and >= 0"),
        (([0, 1], [1], [1]), "one entry per edge"),
        (([0.5], [1], [1]), "integer array of node indices"),
        (([0], [3], [1], None, 2), r"node indices must lie in \[0, 2\)"),
        (([0], [1], [1], None, -1), "n must be a non-negative integer"),
    ],
)
def test_from_arrays_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        from_arrays(*args)
