"""Graph algorithms compiled to local instructions (templates), with their ``networkx`` ground truth.

- ``flooding``: the paper's message flooding with the cascade chain (fields ``message``, ``sent``,
  ``my_slot``, ``message_slot``, ``pipe``; ``l (1 + 4 d)`` templates; ``(d_G + 1)(d + 3)`` rounds).
- ``bfs``: a **synchronous wave variant** [inferred, not the paper's sequential pointer-driven
  templates]: a visited node beacons in its slot; an unvisited node that hears a beacon becomes
  visited and records the slots it heard (its BFS parent set); a one-hot round clock (``2^l`` values)
  freezes on visiting, so distance = clock / 2; ``2 d_G + 1`` rounds.
- ``bellman_ford``: a **synchronous one-hot variant** [inferred]: distances ``0..2^l - 1`` one-hot; a
  node broadcasts its distance, a receiver shifts each slot's value by that edge's weight into a
  candidate, and the smallest of its own distance and the candidates is kept (templates with required
  zeros on every smaller value); ``3 (n - 1) + 1`` rounds.
- ``dfs``: not built (see the docs).

Inputs: ``flooding`` takes ``{"source": v, "message": int < 2^l}``; ``bfs`` ``{"source": v}``;
``bellman_ford`` ``{"source": v}`` with integer edge attribute ``weight`` in ``0..max_weight``.
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np

from icml26.common import check_int
from icml26.exact_gnn.templates import Layout, Program, Template

ALGORITHMS = ("flooding", "bfs", "bellman_ford")


def _to_bits(value: int, width: int) -> list[int]:
    """Little-endian bits of ``value``."""
    return [(value >> i) & 1 for i in range(width)]


def _from_bits(bits: np.ndarray) -> int:
    return int(sum(int(b) << i for i, b in enumerate(bits)))


def check_graph(graph: Any, max_degree: int, connected: bool = True) -> None:
    """``ValueError`` unless ``graph`` is a simple undirected ``networkx`` graph within the degree bound."""
    if not isinstance(graph, nx.Graph) or graph.is_directed() or graph.is_multigraph():
        raise TypeError(f"graph must be an undirected simple networkx.Graph, got {type(graph).__name__}")
    if graph.number_of_nodes() == 0:
        raise ValueError("graph has no nodes")
    try:
        sorted(graph)
    except TypeError:
        raise ValueError(
            "graph's node labels cannot be sorted (mixed types?); the node order is sorted(G), so use labels"
            " of one comparable type (e.g. nx.convert_node_labels_to_integers(G))"
        ) from None
    if nx.number_of_selfloops(graph):
        raise ValueError("graph has self-loops; the executor adds its own (A + I)")
    worst = max(graph.degree, key=lambda item: item[1])
    if worst[1] > max_degree:
        raise ValueError(
            f"node {worst[0]!r} has degree {worst[1]}, above the program's degree bound D = {max_degree}"
        )
    if connected and not nx.is_connected(graph):
        raise ValueError("graph is disconnected; this algorithm needs a connected graph")


def _source(graph: nx.Graph, inputs: Any) -> Any:
    if not isinstance(inputs, dict) or "source" not in inputs:
        raise ValueError(f"inputs must be a dict with a 'source' node, got {inputs!r}")
    if inputs["source"] not in graph:
        raise ValueError(f"source {inputs['source']!r} is not a node of the graph")
    return inputs["source"]


def compile_algorithm(
    name: str, bits: int, max_degree: int, max_weight: int = 3, clock: str = "one_hot"
) -> Program:
    """The templates, layout, rounds, initialiser and decoder of algorithm ``name``.

    ``bits``: the precision ``l`` (flooding: message bits; bfs: clock values ``0..2^l - 1``; bellman_ford: distances
    ``0..2^l - 1``); ``max_degree``: the degree bound ``D`` (``d = D^2 + 1`` slots); ``max_weight``
    (bellman_ford): edge weights ``0..max_weight``; ``clock`` (bfs): ``"one_hot"`` or ``"binary"`` (the
    first design, whose NTK mean is not exact on every graph).
    """
    if name not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}; accepted: {', '.join(ALGORITHMS)} (dfs is not built)")
    bits = check_int("bits", bits)
    max_degree = check_int("max_degree", max_degree)
    if name == "flooding":
        return _flooding(bits, max_degree)
    if clock not in ("one_hot", "binary"):
        raise ValueError(f"clock must be 'one_hot' or 'binary', got {clock!r}")
    if name == "bfs":
        return _bfs(bits, max_degree, clock)
    return _bellman_ford(bits, max_degree, check_int("max_weight", max_weight, minimum=0))


def _flooding(l: int, big_d: int) -> Program:  # noqa: E741 (the paper's l)
    d = big_d**2 + 1
    lay = Layout(
        [("message", (l,)), ("sent", (d, l)), ("my_slot", (d, l)), ("message_slot", (d, l)), ("pipe", (d, l))]
    )
    b = lay.bit
    templates: list[Template] = []
    for i in range(l):
        sends = tuple(b("sent", s, i) for s in range(d))
        templates.append(Template((b("message", i),), (), (b("message", i), *sends), f"message[{i}]"))
        for s in range(d):
            templates += [
                Template(
                    (b("sent", s, i), b("my_slot", s, i)),
                    (),
                    (b("message_slot", s, i), b("my_slot", s, i)),
                    "recv",
                ),
                Template((b("my_slot", s, i),), (b("sent", s, i),), (b("my_slot", s, i),), "keep_slot"),
                Template((b("message_slot", s, i),), (), (b("pipe", s, i),), "pipe_in"),
                Template(
                    (b("pipe", s, i),),
                    (),
                    (b("pipe", s + 1, i) if s + 1 < d else b("message", i),),
                    "cascade",
                ),
            ]

    def validate(graph: nx.Graph, inputs: Any) -> None:
        check_graph(graph, big_d)
        _source(graph, inputs)
        m = inputs.get("message")
        if isinstance(m, bool) or not isinstance(m, int | np.integer) or not 0 <= m < 2**l:
            raise ValueError(f"message must be an integer in 0..{2**l - 1} (l = {l} bits), got {m!r}")

    def init(graph: nx.Graph, inputs: Any, colours: dict[Any, int]) -> np.ndarray:
        nodes = sorted(graph)
        x = np.zeros((len(nodes), lay.dim))
        for r, v in enumerate(nodes):
            x[r, lay.bits("my_slot")[colours[v]]] = 1.0
            if v == inputs["source"]:
                x[r, lay.bits("message")] = _to_bits(int(inputs["message"]), l)
        return x

    def decode(graph: nx.Graph, states: np.ndarray, colours: dict[Any, int]) -> dict[Any, int]:
        return {v: _from_bits(states[r, lay.bits("message")]) for r, v in enumerate(sorted(graph))}

    def truth(graph: nx.Graph, inputs: Any) -> dict[Any, int]:
        reached = nx.node_connected_component(graph, inputs["source"])
        return {v: int(inputs["message"]) if v in reached else 0 for v in graph}

    return Program(
        "flooding", l, big_d, lay, templates, lay.bits("message_slot").ravel(),
        rounds=lambda g: (nx.diameter(g) + 1) * (d + 3), init=init, decode=decode, truth=truth,
        validate=validate, variant="the paper's cascade-chain flooding",
    )  # fmt: skip


def _binary_clock_templates(lay: Layout, l: int) -> list[Template]:  # noqa: E741
    """The first design (kept for its claim): an ``l``-bit binary clock, one minterm template per value.

    Unvisited nodes count up, visited ones hold. Each bit is written by about half the templates.
    """
    b, out = lay.bit, []
    for value in range(2**l):
        ones = tuple(b("clock", i) for i, v in enumerate(_to_bits(value, l)) if v)
        zeros = tuple(b("clock", i) for i, v in enumerate(_to_bits(value, l)) if not v)
        up = tuple(b("clock", i) for i, v in enumerate(_to_bits((value + 1) % 2**l, l)) if v)
        if up:
            out.append(Template((b("on", 0), *ones), (*zeros, b("visited", 0)), up, f"count {value}"))
        if ones:
            out.append(Template((b("on", 0), b("visited", 0), *ones), zeros, ones, f"hold {value}"))
    return out


def _clock_templates(lay: Layout, size: int) -> list[Template]:
    """A one-hot round clock: it ticks while the node is unvisited and freezes once visited.

    (A binary counter with one minterm template per value writes each bit from ~half the templates,
    and that column sum breaks the NTK mean's margin; one-hot keeps every column sum at 2.)
    """
    b, out = lay.bit, []
    for k in range(size):
        if k + 1 < size:
            out.append(Template((b("clock", k),), (b("visited", 0),), (b("clock", k + 1),), f"tick {k}"))
        out.append(Template((b("clock", k), b("visited", 0)), (), (b("clock", k),), f"hold {k}"))
    return out


def _bfs(l: int, big_d: int, clock: str) -> Program:  # noqa: E741
    d, binary = big_d**2 + 1, clock == "binary"
    lay = Layout(
        [("on", (1,)), ("visited", (1,)), ("my_slot", (d,)), ("beacon", (d,)), ("parent", (d,)),
         ("clock", (l if binary else 2**l,))]
    )  # fmt: skip
    b = lay.bit
    templates = [
        Template((b("on", 0),), (), (b("on", 0),), "on"),
        Template((b("visited", 0),), (), (b("visited", 0),), "visited"),
    ]
    for s in range(d):
        templates += [
            Template((b("visited", 0), b("my_slot", s)), (), (b("beacon", s),), "beacon"),
            Template((b("my_slot", s),), (), (b("my_slot", s),), "keep_slot"),
            Template((b("beacon", s),), (b("visited", 0),), (b("visited", 0), b("parent", s)), "visit"),
            Template((b("parent", s),), (), (b("parent", s),), "keep_parent"),
        ]
    templates += _binary_clock_templates(lay, l) if binary else _clock_templates(lay, 2**l)

    def validate(graph: nx.Graph, inputs: Any) -> None:
        check_graph(graph, big_d)
        _source(graph, inputs)
        if 2 * nx.diameter(graph) > 2**l - 1:
            raise ValueError(
                f"graph diameter {nx.diameter(graph)} needs 2 d_G <= 2^l - 1 = {2**l - 1}; raise bits"
            )

    def init(graph: nx.Graph, inputs: Any, colours: dict[Any, int]) -> np.ndarray:
        nodes = sorted(graph)
        x = np.zeros((len(nodes), lay.dim))
        for r, v in enumerate(nodes):
            x[r, [b("on", 0), b("my_slot", colours[v])]] = 1.0
            x[r, b("clock", 0)] = 0.0 if binary else 1.0  # the clock reads 0
            x[r, b("visited", 0)] = float(v == inputs["source"])
        return x

    def decode(graph: nx.Graph, states: np.ndarray, colours: dict[Any, int]) -> dict[Any, tuple]:
        out = {}
        for r, v in enumerate(sorted(graph)):
            heard = {s for s in range(d) if states[r, b("parent", s)]}
            hot = np.flatnonzero(states[r, lay.bits("clock")])
            if binary:
                clock = _from_bits(states[r, lay.bits("clock")])
            else:
                clock = int(hot[0]) if hot.size == 1 else -1
            dist = clock // 2 if clock >= 0 and clock % 2 == 0 else -1
            out[v] = (dist, frozenset(u for u in graph[v] if colours[u] in heard))
        return out

    def truth(graph: nx.Graph, inputs: Any) -> dict[Any, tuple]:
        dist = nx.single_source_shortest_path_length(graph, inputs["source"])
        parents = nx.predecessor(graph, inputs["source"])
        return {v: (dist[v], frozenset(parents[v])) for v in graph}

    return Program(
        "bfs", l, big_d, lay, templates, lay.bits("beacon"),
        rounds=lambda g: 2 * nx.diameter(g) + 1, init=init, decode=decode, truth=truth, validate=validate,
        variant=f"synchronous wave BFS with parent sets, {clock} clock [inferred variant]",
    )  # fmt: skip


def _bellman_ford(l: int, big_d: int, w_max: int) -> Program:  # noqa: E741
    d, top = big_d**2 + 1, 2**l
    lay = Layout(
        [("on", (1,)), ("best", (top,)), ("my_slot", (d,)), ("weight", (d, w_max + 1)), ("inbox", (d, top)), ("cand", (d, top))]
    )  # fmt: skip
    b = lay.bit
    templates = [Template((b("on", 0),), (), (b("on", 0),), "on")]
    for s in range(d):
        templates.append(Template((b("my_slot", s),), (), (b("my_slot", s),), "keep_slot"))
        for w in range(w_max + 1):
            templates.append(Template((b("weight", s, w),), (), (b("weight", s, w),), "keep_weight"))
        for k in range(top):
            templates.append(Template((b("best", k), b("my_slot", s)), (), (b("inbox", s, k),), "broadcast"))
            for w in range(w_max + 1):
                if k + w < top:
                    templates.append(
                        Template((b("inbox", s, k), b("weight", s, w)), (), (b("cand", s, k + w),), "shift")
                    )
    for k in range(top):
        smaller = tuple(b("best", j) for j in range(k)) + tuple(
            b("cand", s, j) for s in range(d) for j in range(k)
        )
        for source in [b("best", k)] + [b("cand", s, k) for s in range(d)]:
            templates.append(
                Template((source,), tuple(z for z in smaller if z != source), (b("best", k),), "select")
            )

    def validate(graph: nx.Graph, inputs: Any) -> None:
        check_graph(graph, big_d)
        src = _source(graph, inputs)
        for u, v, w in graph.edges(data="weight"):
            if isinstance(w, bool) or not isinstance(w, int | np.integer) or not 0 <= w <= w_max:
                raise ValueError(f"edge ({u!r}, {v!r}) has weight {w!r}; accepted: integers 0..{w_max}")
        longest = max(nx.single_source_bellman_ford_path_length(graph, src).values())
        if longest > top - 1:
            raise ValueError(
                f"a shortest path has length {longest}, above the representable 2^l - 1 = {top - 1}"
            )

    def init(graph: nx.Graph, inputs: Any, colours: dict[Any, int]) -> np.ndarray:
        nodes = sorted(graph)
        x = np.zeros((len(nodes), lay.dim))
        for r, v in enumerate(nodes):
            x[r, [b("on", 0), b("my_slot", colours[v])]] = 1.0
            for u in graph[v]:
                x[r, b("weight", colours[u], int(graph[v][u]["weight"]))] = 1.0
            if v == inputs["source"]:
                x[r, b("best", 0)] = 1.0
        return x

    def decode(graph: nx.Graph, states: np.ndarray, colours: dict[Any, int]) -> dict[Any, int]:
        out = {}
        for r, v in enumerate(sorted(graph)):
            hot = np.flatnonzero(states[r, lay.bits("best")])
            out[v] = int(hot[0]) if hot.size == 1 else -1
        return out

    def truth(graph: nx.Graph, inputs: Any) -> dict[Any, int]:
        return dict(nx.single_source_bellman_ford_path_length(graph, inputs["source"]))

    return Program(
        "bellman_ford", l, big_d, lay, templates, lay.bits("inbox").ravel(),
        rounds=lambda g: 3 * (g.number_of_nodes() - 1) + 1, init=init, decode=decode, truth=truth,
        validate=validate, variant="synchronous one-hot Bellman-Ford [inferred variant]",
    )  # fmt: skip


def random_bounded_graph(
    n: int, max_degree: int, rng: np.random.Generator, max_weight: int | None = None
) -> nx.Graph:
    """A random connected graph on ``0..n-1`` with degrees <= ``max_degree``: a random spanning tree
    grown under the bound, then random extra edges under the bound; optional integer weights ``0..max_weight``."""
    n, max_degree = check_int("n", n), check_int("max_degree", max_degree)
    if max_degree < 2 and n > 2:
        raise ValueError(f"a connected graph on {n} nodes needs max_degree >= 2")
    g = nx.Graph()
    g.add_node(0)
    for v in range(1, n):
        open_nodes = [u for u in g if g.degree(u) < max_degree]
        g.add_edge(v, open_nodes[int(rng.integers(len(open_nodes)))])
    for _ in range(int(rng.integers(0, n + 1))):
        u, v = (int(x) for x in rng.integers(0, n, size=2))
        if u != v and not g.has_edge(u, v) and g.degree(u) < max_degree and g.degree(v) < max_degree:
            g.add_edge(u, v)
    if max_weight is not None:
        for u, v in g.edges:
            g[u][v]["weight"] = int(rng.integers(0, max_weight + 1))
    return g
