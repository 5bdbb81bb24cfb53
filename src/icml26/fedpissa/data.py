"""Clients' data: the Dirichlet label-skew split, personal train/test splits, and WordNet's noun glosses.

WordNet 3.0 comes from Debian's ``wordnet-base`` (``/usr/share/wordnet/data.noun``); every noun synset
line holds its lexicographer file number (the supersense) and its gloss. The package lacks the
``lexnames`` table, so the 26 noun supersense names (lexicographer files 03..28 of WordNet 3.0) are
written here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

WORDNET_DIR = Path(os.environ.get("ICML26_WORDNET", "/usr/share/wordnet"))
NOUN_SUPERSENSES = (
    "noun.Tops", "noun.act", "noun.animal", "noun.artifact", "noun.attribute", "noun.body",
    "noun.cognition", "noun.communication", "noun.event", "noun.feeling", "noun.food", "noun.group",
    "noun.location", "noun.motive", "noun.object", "noun.person", "noun.phenomenon", "noun.plant",
    "noun.possession", "noun.process", "noun.quantity", "noun.relation", "noun.shape", "noun.state",
    "noun.substance", "noun.time",
)  # fmt: skip
FIRST_NOUN_LEXFILE = 3  # noun.Tops is lexicographer file 03


@dataclass
class ClientData:
    """One client's personal data: train and test inputs (a tuple of tensors, first axis = samples)."""

    train_x: tuple[torch.Tensor, ...]
    train_y: torch.Tensor
    test_x: tuple[torch.Tensor, ...]
    test_y: torch.Tensor

    @property
    def n_train(self) -> int:
        return len(self.train_y)


def dirichlet_split(
    labels: np.ndarray, n_clients: int, alpha: float, seed: int, min_size: int = 2, max_tries: int = 1000
) -> list[np.ndarray]:
    """Split sample indices over ``n_clients`` with label skew: each class's samples are divided in
    proportions drawn from ``Dir(alpha)``; redrawn until every client holds at least ``min_size``.

    The parts are disjoint and cover every index (each sorted)."""
    labels = np.asarray(labels)
    if labels.ndim != 1 or labels.size == 0:
        raise ValueError("labels must be a non-empty 1-D array")
    if isinstance(n_clients, bool) or not isinstance(n_clients, int) or n_clients < 1:
        raise ValueError(f"n_clients must be an integer >= 1, got {n_clients!r}")
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not np.isfinite(alpha) or alpha <= 0:
        raise ValueError(f"Dirichlet alpha must be a finite number > 0, got {alpha!r}")
    if n_clients * min_size > labels.size:
        raise ValueError(f"{labels.size} samples cannot give {n_clients} clients {min_size} each")
    rng = np.random.default_rng(seed)
    classes = np.unique(labels)
    for _ in range(max_tries):
        parts: list[list[int]] = [[] for _ in range(n_clients)]
        for c in classes:
            idx = rng.permutation(np.flatnonzero(labels == c))
            share = rng.dirichlet(np.full(n_clients, float(alpha)))
            cuts = (np.cumsum(share)[:-1] * len(idx)).astype(int)
            for k, chunk in enumerate(np.split(idx, cuts)):
                parts[k].extend(chunk.tolist())
        if min(len(p) for p in parts) >= min_size:
            return [np.sort(np.asarray(p, dtype=np.int64)) for p in parts]
    raise ValueError(
        f"no Dirichlet({alpha}) split gave every client >= {min_size} samples in {max_tries} tries"
    )


def train_test_split(indices: np.ndarray, test_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A client's personal split: a random ``test_fraction`` (at least one sample, when it has two) for test."""
    if not 0 < test_fraction < 1:
        raise ValueError(f"test_fraction must lie in (0, 1), got {test_fraction!r}")
    perm = np.random.default_rng(seed).permutation(indices)
    n_test = int(round(test_fraction * len(perm)))
    n_test = min(max(n_test, 1), len(perm) - 1) if len(perm) >= 2 else 0
    return np.sort(perm[n_test:]), np.sort(perm[:n_test])


def make_clients(
    inputs: tuple[torch.Tensor, ...],
    labels: torch.Tensor,
    n_clients: int,
    alpha: float,
    seed: int,
    test_fraction: float = 0.2,
    min_size: int = 5,
) -> list[ClientData]:
    """Clients with Dirichlet(``alpha``) label skew, each split into personal train / test."""
    if not isinstance(inputs, tuple) or not inputs or any(len(t) != len(labels) for t in inputs):
        raise ValueError("inputs must be a non-empty tuple of tensors with as many rows as labels")
    parts = dirichlet_split(labels.numpy(), n_clients, alpha, seed, min_size=min_size)
    clients = []
    for k, part in enumerate(parts):
        tr, te = train_test_split(part, test_fraction, seed * 1000 + k)
        tr_t, te_t = torch.from_numpy(tr), torch.from_numpy(te)
        clients.append(
            ClientData(
                tuple(t[tr_t] for t in inputs), labels[tr_t], tuple(t[te_t] for t in inputs), labels[te_t]
            )
        )
    return clients


def wordnet_noun_glosses(path: Path | None = None) -> tuple[list[str], np.ndarray]:
    """Every noun synset's definition (the gloss up to its first ``;``, examples dropped) and its
    supersense index into :data:`NOUN_SUPERSENSES`."""
    path = Path(path or WORDNET_DIR / "data.noun")
    if not path.is_file():
        raise FileNotFoundError(
            f"WordNet noun data not found at {path}; install Debian's wordnet-base (apt-get install wordnet-base)"
        )
    texts, labels = [], []
    with path.open(encoding="latin-1") as fh:
        for line in fh:
            if line.startswith("  "):  # licence header
                continue
            head, _, gloss = line.partition(" | ")
            fields = head.split()
            lexfile = int(fields[1])
            definition = gloss.split(";")[0].strip()
            if definition:
                texts.append(definition)
                labels.append(lexfile - FIRST_NOUN_LEXFILE)
    return texts, np.asarray(labels, dtype=np.int64)


def supersense_task(n_classes: int, per_class: int, seed: int = 0) -> tuple[list[str], np.ndarray, list[str]]:
    """The ``n_classes`` most frequent noun supersenses, ``per_class`` glosses each (drawn with ``seed``):
    texts, labels in ``0..n_classes-1`` and the class names."""
    if not 2 <= n_classes <= len(NOUN_SUPERSENSES):
        raise ValueError(f"n_classes must lie in [2, {len(NOUN_SUPERSENSES)}], got {n_classes!r}")
    if per_class < 1:
        raise ValueError(f"per_class must be >= 1, got {per_class!r}")
    texts, labels = wordnet_noun_glosses()
    counts = np.bincount(labels, minlength=len(NOUN_SUPERSENSES))
    top = np.argsort(-counts, kind="stable")[:n_classes]
    if counts[top].min() < per_class:
        raise ValueError(
            f"per_class={per_class} exceeds the smallest chosen class ({counts[top].min()} glosses)"
        )
    rng = np.random.default_rng(seed)
    chosen_texts, chosen_labels = [], []
    for new, c in enumerate(top):
        idx = np.sort(rng.choice(np.flatnonzero(labels == c), per_class, replace=False))
        chosen_texts.extend(texts[i] for i in idx)
        chosen_labels.extend([new] * per_class)
    return chosen_texts, np.asarray(chosen_labels, dtype=np.int64), [NOUN_SUPERSENSES[c] for c in top]
