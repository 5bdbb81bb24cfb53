"""The unified prompt-response corpus (DiBO §3 [code: ``src/dataset/task_pool_dataset.py``]).

- Pool: 500 evenly spaced designs of the visible data (sorted ascending by label); y_min, y_max are the
  pool's. Split: d2 = 100 pool ranks spread over [0.70, 0.95) x 500, d1 = the other 400.
- Similarity: an RBF kernel on standardised one-hot designs (sigma = median pairwise distance); only its
  ranking is used, so the neighbours are the nearest in Euclidean distance.
- DA/SFT item: anchor j, 7 of its (<= 50 most similar) d1 neighbours with lower index and lower label as
  the prompt, x_j as the response (reward > 0). RL item: anchor in d2, with probability 1/2 seven of its
  25 most similar lower-label d1 points (reward > 0), else one of its 25 most similar higher-label ones
  plus six lower ones (reward < 0); r = norm(y_response) - norm(max prompt y).
- Text: a natural-language template, 7 (design, label) lines, ``Response:``, then the response design.
  Fields are marked by the four delimiter tokens (``special``) or by the words ``Design:``/``Label:``
  (``natural``, the ablation). Labels are written sign + 3 integer digits + 3 decimals (``+000.439``).
  One token per letter, digit or sign; template words are whole tokens (a tiny vocabulary).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

import numpy as np

from icml26.dibo.tasks import PROTEIN, Task

Markers = Literal["special", "natural"]
MARKERS = ("special", "natural")
N_SHOTS = 7
POOL_SIZE = 500
DELIMITERS = ("|design-start|", "|design-end|", "|label-start|", "|label-end|")

# [inferred] The official templates (8 for training, 2 for evaluation) are task-specific English; these
# are ours, written in the same spirit (a list of measured designs, then a request for a better one).
TRAIN_TEMPLATES = (
    "here are sequences with their measured scores . propose a sequence with a higher score .",
    "the following designs were measured . write a new design that scores higher .",
    "below are candidate sequences and their scores . suggest a better sequence .",
    "we measured these sequences . give one sequence likely to score higher than all of them .",
    "each line holds a design and its score . improve on the best design .",
    "these designs were scored by an experiment . propose an improved design .",
    "study the sequences and scores below . output a sequence with a better score .",
    "measured designs follow . your task is to write a design that beats them .",
)
EVAL_TEMPLATES = (
    "observe the designs and their scores . write a design with a higher score .",
    "the sequences below were tested . suggest one new sequence that improves the score .",
)
_WORDS = sorted(
    {w for t in TRAIN_TEMPLATES + EVAL_TEMPLATES for w in t.split()} | {"Response:", "Design:", "Label:"}
)
_CHARS = sorted(set(PROTEIN) | set("0123456789+-.") | {"\n"})
VOCAB: tuple[str, ...] = ("<pad>", "<mask>", *DELIMITERS, *_CHARS, *_WORDS)
TOKEN = {t: i for i, t in enumerate(VOCAB)}
PAD, MASK = TOKEN["<pad>"], TOKEN["<mask>"]


def format_label(y: float) -> str:
    """Fixed-width label: sign, 3 zero-padded integer digits, 3 decimals (``0.439 -> '+000.439'``)."""
    if not np.isfinite(y) or abs(y) >= 1000:
        raise ValueError(f"label {y!r} must be finite with |y| < 1000 to be written as +XXX.XXX")
    return f"{y:+08.3f}"


@dataclass(frozen=True)
class Layout:
    """Token positions of one template: the base token row (left-padded to ``length``) and where the 7
    prompt designs, their labels and the response go. ``span`` = the supervised response positions (in
    ``special`` mode the response's two delimiters and its design; in ``natural`` mode the design and its
    closing newline)."""

    tokens: np.ndarray  # (length,)
    design_pos: np.ndarray  # (8, design_length): 7 prompt designs, then the response
    label_pos: np.ndarray  # (7, 8)
    span: np.ndarray  # (span_length,)


def make_layout(template: str, design_length: int, markers: Markers, length: int | None = None) -> Layout:
    """The layout of ``template`` for designs of ``design_length``, left-padded to ``length`` tokens."""
    if markers not in MARKERS:
        raise ValueError(f"markers must be one of {MARKERS}, got {markers!r}")
    toks: list[str] = [*template.split(), "\n"]
    design_pos, label_pos = [], []

    def design() -> None:
        if markers == "special":
            toks.append("|design-start|")
        else:
            toks.append("Design:")
        design_pos.append(list(range(len(toks), len(toks) + design_length)))
        toks.extend(["A"] * design_length)
        if markers == "special":
            toks.append("|design-end|")

    for _ in range(N_SHOTS):
        design()
        toks.append("|label-start|" if markers == "special" else "Label:")
        label_pos.append(list(range(len(toks), len(toks) + 8)))
        toks.extend(["0"] * 8)
        if markers == "special":
            toks.append("|label-end|")
        toks.append("\n")
    toks.extend(["Response:", "\n"])
    start = len(toks)
    design()
    if markers == "special":
        span = list(range(start, len(toks)))
    else:
        toks.append("\n")
        span = list(range(start + 1, len(toks)))
    length = len(toks) if length is None else length
    if length < len(toks):
        raise ValueError(f"layout needs {len(toks)} tokens, more than length={length}")
    shift = length - len(toks)
    row = np.full(length, PAD, dtype=np.int64)
    row[shift:] = [TOKEN[t] for t in toks]
    return Layout(
        row, np.asarray(design_pos) + shift, np.asarray(label_pos) + shift, np.asarray(span) + shift
    )


def layouts(design_length: int, markers: Markers) -> tuple[list[Layout], list[Layout]]:
    """Training and evaluation layouts, all left-padded to one length (so the span is shared)."""
    raw = [make_layout(t, design_length, markers) for t in TRAIN_TEMPLATES + EVAL_TEMPLATES]
    length = max(len(r.tokens) for r in raw)
    out = [make_layout(t, design_length, markers, length) for t in TRAIN_TEMPLATES + EVAL_TEMPLATES]
    return out[: len(TRAIN_TEMPLATES)], out[len(TRAIN_TEMPLATES) :]


def encode_items(
    layout_list: list[Layout],
    template_ids: np.ndarray,
    prompt_x: np.ndarray,
    prompt_y: np.ndarray,
    response_x: np.ndarray,
    alphabet: str,
) -> np.ndarray:
    """Token rows ``(B, length)`` for B items: prompt designs ``(B, 7, L)`` with labels ``(B, 7)`` and the
    response ``(B, L)`` (alphabet indices), each item in the layout ``layout_list[template_ids[b]]``."""
    b, shots, _ = prompt_x.shape
    if shots != N_SHOTS or prompt_y.shape != (b, N_SHOTS) or response_x.shape[0] != b:
        raise ValueError(
            f"a prompt holds exactly {N_SHOTS} (design, label) pairs: got designs {prompt_x.shape},"
            f" labels {prompt_y.shape}, responses {response_x.shape}"
        )
    letters = np.array([TOKEN[c] for c in alphabet])
    chars = np.array([[TOKEN[c] for c in format_label(float(y))] for y in prompt_y.ravel()]).reshape(
        b, N_SHOTS, 8
    )
    designs = letters[np.concatenate([prompt_x, response_x[:, None, :]], axis=1)]
    rows = np.stack([layout_list[t].tokens for t in template_ids])
    for k, t in enumerate(template_ids):
        lay = layout_list[t]
        rows[k, lay.design_pos] = designs[k]
        rows[k, lay.label_pos] = chars[k]
    return rows


def parse_design(tokens: np.ndarray, alphabet: str, length: int) -> np.ndarray | None:
    """The design in a filled response span: keep only the alphabet's letters (delimiters, digits and
    other tokens are dropped); valid only with exactly ``length`` letters (else ``None``)."""
    index = {TOKEN[c]: i for i, c in enumerate(alphabet)}
    kept = [index[t] for t in np.asarray(tokens).tolist() if t in index]
    return np.asarray(kept, dtype=np.int64) if len(kept) == length else None


_POOLS: dict[tuple, Pool] = {}


class Pool:
    """Pool, split and similarity neighbourhoods of one task's offline data (see the module docstring)."""

    def __init__(
        self, task: Task, size: int = POOL_SIZE, neighbours: int = 50, rl_neighbours: int = 25
    ) -> None:
        n = len(task.y_offline)
        if n < size:
            raise ValueError(f"the offline data has {n} designs, fewer than the pool size {size}")
        if neighbours < N_SHOTS or rl_neighbours < N_SHOTS:
            raise ValueError(f"neighbours and rl_neighbours must be >= {N_SHOTS} to fill a prompt")
        idx = np.round(np.linspace(0, n - 1, size)).astype(int)
        self.task, self.k_pool = task, neighbours
        self.x, self.y = task.x_offline[idx], task.y_offline[idx]
        self.y_min, self.y_max = float(self.y.min()), float(self.y.max())
        d2 = np.unique(np.round(np.linspace(0.70 * size, 0.95 * size - 1, 100 * size // 500)).astype(int))
        self.d2 = d2
        self.d1 = np.setdiff1d(np.arange(size), d2)
        onehot = np.eye(len(task.alphabet))[self.x].reshape(size, -1)
        z = (onehot - onehot.mean(0)) / np.where(onehot.std(0) > 0, onehot.std(0), 1.0)
        sq = (z**2).sum(1)
        dist = np.sqrt(np.maximum(sq[:, None] + sq[None, :] - 2 * z @ z.T, 0.0))
        np.fill_diagonal(dist, 0.0)
        self.sigma = float(np.median(dist[np.triu_indices(size, 1)]))
        self.similarity = np.exp(-(dist**2) / (2 * self.sigma**2))
        in_d2 = np.zeros(size, dtype=bool)
        in_d2[d2] = True
        in_d1 = ~in_d2
        order = np.argsort(-self.similarity, axis=1, kind="stable")
        self.neighbours: dict[int, np.ndarray] = {}  # DA/SFT: lower index, lower label, in d1
        self.lower: dict[int, np.ndarray] = {}  # RL: lower label, in d1
        self.higher: dict[int, np.ndarray] = {}  # RL: higher label, in d1
        for j in range(size):
            row = order[j][in_d1[order[j]]]
            nb = row[(row < j) & (self.y[row] < self.y[j])][:neighbours]
            if len(nb) >= N_SHOTS:
                self.neighbours[j] = nb
            if in_d2[j]:
                lo = row[self.y[row] < self.y[j]][:rl_neighbours]
                hi = row[self.y[row] > self.y[j]][:rl_neighbours]
                if len(lo) >= N_SHOTS and len(hi) >= 1:
                    self.lower[j], self.higher[j] = lo, hi
        self._reward_std: dict[tuple[int, int], float] = {}
        self.da_anchors = np.array(sorted(self.neighbours), dtype=int)
        self.sft_anchors = np.array([j for j in d2 if j in self.neighbours], dtype=int)
        self.rl_anchors = np.array(sorted(self.lower), dtype=int)
        for stage, anchors in (
            ("adaptation", self.da_anchors),
            ("SFT", self.sft_anchors),
            ("RL", self.rl_anchors),
        ):
            if len(anchors) == 0:
                raise ValueError(
                    f"no valid {stage} anchor: every anchor has fewer than {N_SHOTS} lower-label neighbours"
                    " to build a prompt (too few distinct labels in the offline data)"
                )

    @classmethod
    def of(cls, task: Task) -> Pool:
        """The default pool of ``task``, built once per task (its name, alphabet, length and a digest of its
        designs and labels: two tasks that differ in any of them get their own pool)."""
        digest = hashlib.sha256(np.ascontiguousarray(task.x_offline, dtype=np.int64).tobytes())
        digest.update(np.ascontiguousarray(task.y_offline, dtype=np.float64).tobytes())
        key = (task.name, task.alphabet, task.length, digest.hexdigest())
        if key not in _POOLS:
            _POOLS[key] = cls(task)
        return _POOLS[key]

    def norm(self, y: np.ndarray) -> np.ndarray:
        """Pool min-max normalisation of labels (the reward's scale)."""
        return (np.asarray(y, dtype=float) - self.y_min) / (self.y_max - self.y_min)

    def improvement_items(
        self, anchors: np.ndarray, batch: int, rng: np.random.Generator
    ) -> dict[str, np.ndarray]:
        """``batch`` DA/SFT items: anchor j, 7 of its neighbours (in draw order, as the official code) -> x_j."""
        js = rng.choice(anchors, size=batch)
        prompt = np.stack([rng.choice(self.neighbours[j], N_SHOTS, replace=False) for j in js])
        return self._items(prompt, js)

    def rl_items(self, batch: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """``batch`` RL items with rewards: half (in expectation) improvement prompts, half with one higher point."""
        js = rng.choice(self.rl_anchors, size=batch)
        prompts = []
        for j in js:
            if rng.random() < 0.5:
                p = rng.choice(self.lower[j], N_SHOTS, replace=False)  # draw order (official)
            else:
                # official: one higher neighbour h, six items below y_h drawn from the lower list plus the
                # other higher neighbours below y_h (first K = 50), then the seven shuffled
                hi = self.higher[j]
                h = int(rng.choice(hi))
                rest = np.r_[self.lower[j], hi[(hi != h) & (self.y[hi] < self.y[h])]][: self.k_pool]
                p = np.r_[h, rng.choice(rest, N_SHOTS - 1, replace=False)]
                rng.shuffle(p)
            prompts.append(p)
        return self._items(np.stack(prompts), js)

    def random_prompts(self, batch: int, rng: np.random.Generator) -> np.ndarray:
        """Inference prompts: 7 uniformly random pool designs each (in draw order, as ``eval.py``), ``(batch, 7)``."""
        return np.stack([rng.choice(len(self.y), N_SHOTS, replace=False) for _ in range(batch)])

    def _items(self, prompt: np.ndarray, js: np.ndarray) -> dict[str, np.ndarray]:
        reward = self.norm(self.y[js]) - self.norm(self.y[prompt].max(axis=1))
        return {"prompt": prompt, "anchor": js, "reward": reward}

    def reward_std(self, samples: int = 100_000, seed: int = 0) -> float:
        """sigma_r: the std of the RL reward over ``samples`` items drawn as :meth:`rl_items` draws them
        (100k, as the official ``compute_reward_stats.py``); a fixed per-task constant, computed once.

        Vectorised by two identities of the construction: a positive item's reward is
        norm(y_j) - norm(max of 7 of its lower neighbours); a negative item's is norm(y_j) - norm(y_h),
        because every other prompt design lies below the higher neighbour h."""
        key = (samples, seed)
        if key not in self._reward_std:
            self._reward_std[key] = float(self.reward_samples(samples, np.random.default_rng(seed)).std())
        return self._reward_std[key]

    def reward_samples(self, samples: int, rng: np.random.Generator) -> np.ndarray:
        """``samples`` RL rewards with the distribution of ``rl_items(samples, rng)["reward"]``."""
        anchors = self.rl_anchors
        width = max(max(len(self.lower[j]), len(self.higher[j])) for j in anchors)
        lo = np.full((len(anchors), width), -np.inf)
        hi = np.full((len(anchors), width), np.nan)
        for a, j in enumerate(anchors):
            lo[a, : len(self.lower[j])] = self.y[self.lower[j]]
            hi[a, : len(self.higher[j])] = self.y[self.higher[j]]
        n_hi = np.array([len(self.higher[j]) for j in anchors])
        a = rng.integers(len(anchors), size=samples)
        keys = np.where(np.isfinite(lo[a]), rng.random((samples, width)), np.inf)
        seven = np.argpartition(keys, N_SHOTS - 1, axis=1)[:, :N_SHOTS]
        top_pos = np.take_along_axis(lo[a], seven, axis=1).max(axis=1)
        top_neg = hi[a, (rng.random(samples) * n_hi[a]).astype(int)]
        top = np.where(rng.random(samples) < 0.5, top_pos, top_neg)
        return self.norm(self.y[anchors[a]]) - self.norm(top)
