"""A small compiler: a LOCAL algorithm given as a finite state-transition table -> a :class:`Program`.

The table maps ``(state, set of messages heard from neighbours)`` to ``(next state, message sent)``
(``None``: silent). Each LOCAL round becomes three template rounds, kept in step by a one-hot phase
field [inferred: our construction, not the paper's]:

1. *send*: the node's ``outbox`` message is written into its own slot (``inbox[slot][m]``), the only
   communicated bits, so under the distance-2 colouring every slot is written by at most one node;
2. *collect*: every slot's message but the node's own slot is ORed into ``heard[m]`` (the set of
   messages heard from neighbours: at most ``D`` distinct ones);
3. *step*: one template per table row, requiring the state, the heard messages and the absence of the
   other messages, writes the next state and the next outbox.

Heard *sets* (not multisets) are what one OR per message can collect; a row for a heard set must be
given for every reachable ``(state, set)`` or the node falls silent and idle (``ValueError`` at compile
time names every missing row when ``complete=True``). Edge weights are not visible to a table keyed
on heard sets, so Bellman-Ford with weights is not expressible here (its hand-built program reads each
slot's weight); flooding and BFS distances are (:func:`flooding_table`, :func:`bfs_table`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

import networkx as nx
import numpy as np

from icml26.common import check_int
from icml26.exact_gnn.algorithms import check_graph
from icml26.exact_gnn.templates import Layout, Program, Template

Table = Mapping[tuple[Hashable, frozenset], tuple[Hashable, Hashable | None]]


def compile_table(
    name: str,
    states: Sequence[Hashable],
    messages: Sequence[Hashable],
    table: Table,
    max_degree: int,
    *,
    initial: Callable[[nx.Graph, Any], Mapping[Any, tuple[Hashable, Hashable | None]]],
    local_rounds: Callable[[nx.Graph], int],
    decode_state: Callable[[Hashable], Any],
    truth: Callable[[nx.Graph, Any], Mapping[Any, Any]],
    complete: bool = True,
) -> Program:
    """Compile ``table`` to a Program; ``initial(G, inputs)`` gives each node's ``(state, outbox)``."""
    max_degree = check_int("max_degree", max_degree)
    states, messages = list(states), list(messages)
    if len(set(states)) != len(states) or len(set(messages)) != len(messages) or not states:
        raise ValueError("compile_table: states and messages must be non-empty lists of distinct names")
    for (q, heard), (q2, m2) in table.items():
        if q not in states or q2 not in states:
            raise ValueError(
                f"compile_table: table row ({q!r}, {set(heard)!r}) names a state outside {states}"
            )
        unknown = set(heard) - set(messages) | ({m2} - {None} - set(messages))
        if unknown:
            raise ValueError(
                f"compile_table: table row for state {q!r} names unknown messages {sorted(map(str, unknown))}"
            )
    if complete:
        missing = [(q, h) for q in states for k in range(min(max_degree, len(messages)) + 1)
                   for h in map(frozenset, itertools.combinations(messages, k)) if (q, h) not in table]  # fmt: skip
        if missing:
            raise ValueError(
                f"compile_table: no row for {len(missing)} (state, heard set) pairs, e.g. {missing[:3]}"
            )
    d, nm = max_degree**2 + 1, len(messages)
    lay = Layout([("phase", (3,)), ("state", (len(states),)), ("outbox", (nm,)), ("my_slot", (d,)),
                  ("inbox", (d, nm)), ("heard", (nm,))])  # fmt: skip
    b, qi, mi = lay.bit, {q: i for i, q in enumerate(states)}, {m: i for i, m in enumerate(messages)}
    ph = [b("phase", k) for k in range(3)]
    templates = []
    for k in range(3):  # the phase advances; the slot is kept
        templates.append(Template((ph[k],), (), (ph[(k + 1) % 3],), f"phase {k}"))
    for s in range(d):
        templates.append(Template((b("my_slot", s),), (), (b("my_slot", s),), "keep_slot"))
    for q in states:  # phases 0 and 1 keep the state; phase 0 sends the outbox into the own slot
        for k in (0, 1):
            templates.append(Template((ph[k], b("state", qi[q])), (), (b("state", qi[q]),), f"keep {q}"))
    for m in messages:
        for s in range(d):
            templates.append(
                Template((ph[0], b("outbox", mi[m]), b("my_slot", s)), (), (b("inbox", s, mi[m]),), "send")
            )
            templates.append(  # the own slot holds the node's own message: not heard from a neighbour
                Template((ph[1], b("inbox", s, mi[m])), (b("my_slot", s),), (b("heard", mi[m]),), "collect")
            )
    for (q, heard), (q2, m2) in table.items():
        ones = (ph[2], b("state", qi[q]), *(b("heard", mi[m]) for m in heard))
        zeros = tuple(b("heard", mi[m]) for m in messages if m not in heard)
        out = (b("state", qi[q2]),) + ((b("outbox", mi[m2]),) if m2 is not None else ())
        templates.append(Template(ones, zeros, out, f"{q} hears {sorted(map(str, heard))}"))

    def validate(graph: nx.Graph, inputs: Any) -> None:
        check_graph(graph, max_degree)
        initial(graph, inputs)

    def init(graph: nx.Graph, inputs: Any, colours: dict[Any, int]) -> np.ndarray:
        start = initial(graph, inputs)
        x = np.zeros((graph.number_of_nodes(), lay.dim))
        for r, v in enumerate(sorted(graph)):
            q, m = start[v]
            x[r, [ph[0], b("state", qi[q]), b("my_slot", colours[v])]] = 1.0
            if m is not None:
                x[r, b("outbox", mi[m])] = 1.0
        return x

    def decode(graph: nx.Graph, x: np.ndarray, colours: dict[Any, int]) -> dict[Any, Any]:
        out = {}
        for r, v in enumerate(sorted(graph)):
            hot = np.flatnonzero(x[r, lay.bits("state")])
            out[v] = decode_state(states[hot[0]]) if hot.size == 1 else None
        return out

    return Program(name, 0, max_degree, lay, templates, lay.bits("inbox").ravel(),
                   rounds=lambda g: 3 * local_rounds(g), init=init, decode=decode, truth=truth,
                   validate=validate, variant="compiled from a state-transition table [inferred]")  # fmt: skip


def flooding_table(bits: int, max_degree: int) -> Program:
    """Flooding of an ``bits``-bit message as a table: an idle node that hears value v holds and resends it."""
    values = list(range(2**bits))
    states = ["idle", *values]
    table = {}
    for k in range(min(max_degree, len(values)) + 1):
        for heard in map(frozenset, itertools.combinations(values, k)):
            table[("idle", heard)] = (min(heard), min(heard)) if heard else ("idle", None)
            for v in values:
                table[(v, heard)] = (v, v)

    def initial(graph: nx.Graph, inputs: Any) -> dict:
        if (
            not isinstance(inputs, dict)
            or inputs.get("source") not in graph
            or inputs.get("message") not in values
        ):
            raise ValueError(
                f"inputs must be {{'source': a node, 'message': 0..{2**bits - 1}}}, got {inputs!r}"
            )
        return {
            v: (inputs["message"], inputs["message"]) if v == inputs["source"] else ("idle", None)
            for v in graph
        }

    def truth(graph: nx.Graph, inputs: Any) -> dict:
        return dict.fromkeys(graph, inputs["message"])

    return compile_table("flooding_table", states, values, table, max_degree, initial=initial,
                         local_rounds=lambda g: nx.diameter(g) + 1, decode_state=lambda q: 0 if q == "idle" else q,
                         truth=truth)  # fmt: skip


def bfs_table(max_distance: int, max_degree: int) -> Program:
    """BFS distances as a table: an unvisited node counts rounds; on hearing a beacon it is visited at that count."""
    states = [("wait", k) for k in range(max_distance + 1)] + [("at", k) for k in range(max_distance + 1)]
    table = {}
    for heard in (frozenset(), frozenset({"beacon"})):
        for k in range(max_distance + 1):
            nxt = ("at", k + 1) if heard and k + 1 <= max_distance else ("wait", min(k + 1, max_distance))
            table[(("wait", k), heard)] = (nxt, "beacon" if nxt[0] == "at" else None)
            table[(("at", k), heard)] = (("at", k), "beacon")

    def initial(graph: nx.Graph, inputs: Any) -> dict:
        if not isinstance(inputs, dict) or inputs.get("source") not in graph:
            raise ValueError(f"inputs must be {{'source': a node}}, got {inputs!r}")
        if nx.diameter(graph) > max_distance:
            raise ValueError(f"graph diameter {nx.diameter(graph)} is above max_distance = {max_distance}")
        return {v: (("at", 0), "beacon") if v == inputs["source"] else (("wait", 0), None) for v in graph}

    def truth(graph: nx.Graph, inputs: Any) -> dict:
        return dict(nx.single_source_shortest_path_length(graph, inputs["source"]))

    return compile_table("bfs_table", states, ["beacon"], table, max_degree, initial=initial,
                         local_rounds=lambda g: nx.diameter(g) + 1, decode_state=lambda q: q[1] if q[0] == "at" else -1,
                         truth=truth)  # fmt: skip
