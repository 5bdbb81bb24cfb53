"""A real graph beside the SBMs: Zachary's karate club (networkx's bundled copy, 34 nodes, 78 edges).

The labels are the two factions after the split (node attribute ``club``: "Mr. Hi" / "Officer").
DeepWalk is run on the unweighted graph (networkx's interaction counts, the ``weight`` attribute, are
dropped, as in DeepWalk's usual use on this graph); rows follow ``sorted(G)``, the library convention.
"""

from __future__ import annotations

import networkx as nx


def karate_graph() -> tuple[nx.Graph, dict[int, str]]:
    """The unweighted karate club graph and its faction labels (node -> club)."""
    g = nx.karate_club_graph()
    labels = {v: g.nodes[v]["club"] for v in g}
    h = nx.Graph()
    h.add_nodes_from(sorted(g))
    h.add_edges_from(g.edges())
    return h, labels
