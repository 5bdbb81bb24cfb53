"""Bandit environments of the paper's experiments and the loop that plays an agent against one.

Synthetic scenarios of the official code: Friedman1/2/3 (K = 2; arm 1 sees the reversed context),
LinFriedman, Linear and GLM (see :func:`synthetic_environment`). Classification sets become bandits
(the OpenML protocol): K = number of classes, reward 1 for the true label and 0 otherwise, rows
shuffled per seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from icml26.bfts.agent import BanditAgent
from icml26.common import progress

SCENARIOS = ("friedman1", "friedman2", "friedman3", "linfriedman", "linear", "glm")
DATASETS = ("iris", "wine", "breast_cancer", "digits", "segment", "phishing", "banana")


@dataclass
class BanditEnvironment:
    """A finite contextual bandit: contexts X (T, p), mean rewards mu (T, K), and a reward sampler.

    ``noise`` is the Gaussian reward noise sd (``None`` for Bernoulli rewards with mean mu).
    """

    name: str
    X: np.ndarray
    mu: np.ndarray
    noise: float | None

    def __post_init__(self) -> None:
        if self.X.ndim != 2 or self.mu.ndim != 2 or self.X.shape[0] != self.mu.shape[0]:
            raise ValueError(
                f"need X (T, p) and mu (T, K) with the same T, got {self.X.shape}, {self.mu.shape}"
            )

    @property
    def n_arms(self) -> int:
        return self.mu.shape[1]

    @property
    def n_features(self) -> int:
        return self.X.shape[1]

    @property
    def horizon(self) -> int:
        return self.X.shape[0]

    def reward(self, t: int, arm: int, rng: np.random.Generator) -> float:
        mean = self.mu[t, arm]
        if self.noise is None:
            return float(rng.random() < mean)
        return float(mean + self.noise * rng.standard_normal())


def friedman1(X: np.ndarray) -> np.ndarray:
    """f1(x) = 10 sin(pi x1 x2) + 20 (x3 - 0.5)^2 + 10 x4 + 5 x5 (Friedman 1991); X (n, >=5) -> (n,)."""
    return 10 * np.sin(np.pi * X[:, 0] * X[:, 1]) + 20 * (X[:, 2] - 0.5) ** 2 + 10 * X[:, 3] + 5 * X[:, 4]


def _friedman_inputs(U: np.ndarray) -> tuple[np.ndarray, ...]:
    # Friedman's input ranges from U[0, 1]: x1 in [0, 100], x2 in [40 pi, 560 pi], x3 in [0, 1], x4 in [1, 11]
    return 100 * U[:, 0], 40 * np.pi + 520 * np.pi * U[:, 1], U[:, 2], 1 + 10 * U[:, 3]


def friedman2(U: np.ndarray) -> np.ndarray:
    """f2 = sqrt(x1^2 + (x2 x3 - 1 / (x2 x4))^2) / 125 on Friedman's ranges; U (n, >=4) in [0, 1] -> (n,)."""
    x1, x2, x3, x4 = _friedman_inputs(U)
    return np.sqrt(x1**2 + (x2 * x3 - 1 / (x2 * x4)) ** 2) / 125.0


def friedman3(U: np.ndarray) -> np.ndarray:
    """f3 = arctan((x2 x3 - 1 / (x2 x4)) / x1) / 0.1 on Friedman's ranges; U (n, >=4) in [0, 1] -> (n,)."""
    x1, x2, x3, x4 = _friedman_inputs(U)
    return np.arctan((x2 * x3 - 1 / (x2 * x4)) / x1) / 0.1


def synthetic_environment(name: str, horizon: int, rng: np.random.Generator) -> BanditEnvironment:
    """One of the paper's synthetic scenarios with ``horizon`` contexts; Gaussian noise with variance 1.

    friedman1/2/3 (K = 2, x ~ U[0, 1]^p, p = 10 / 4 / 4): arm 0 pays f(x), arm 1 pays f(reversed x).
    linfriedman (K = 2, p = 10, x ~ U[-1, 1]^p): arm 0 pays b^T x, arm 1 pays b^T x + f1(x), b ~ N(0, I).
    linear (K = 5, p = 10, x ~ U[-1, 1]^p): arm a pays theta_a^T x with theta_a ~ N(0, I) on the first
    d = 2 features and 0 elsewhere. glm (K = 5, p = 5): arm a pays theta_a^T x with unit-norm theta_a.
    The random coefficients are drawn from ``rng`` first, then the contexts.
    """
    if name not in SCENARIOS:
        raise ValueError(f"scenario must be one of {SCENARIOS}, got {name!r}")
    if not isinstance(horizon, int | np.integer) or isinstance(horizon, bool) or horizon < 1:
        raise ValueError(f"horizon must be a positive integer, got {horizon!r}")
    if name in ("friedman1", "friedman2", "friedman3"):
        f = {"friedman1": friedman1, "friedman2": friedman2, "friedman3": friedman3}[name]
        X = rng.uniform(size=(horizon, 10 if name == "friedman1" else 4))
        return BanditEnvironment(name, X, np.column_stack([f(X), f(X[:, ::-1])]), noise=1.0)
    if name == "linfriedman":
        b = rng.normal(size=10)
        X = rng.uniform(-1, 1, size=(horizon, 10))
        return BanditEnvironment(name, X, np.column_stack([X @ b, X @ b + friedman1(X)]), noise=1.0)
    if name == "linear":
        theta = np.zeros((10, 5))
        theta[:2] = rng.normal(size=(2, 5))
        X = rng.uniform(-1, 1, size=(horizon, 10))
        return BanditEnvironment(name, X, X @ theta, noise=1.0)
    theta = rng.normal(size=(5, 5))
    theta /= np.linalg.norm(theta, axis=0, keepdims=True)
    X = rng.uniform(-1, 1, size=(horizon, 5))
    return BanditEnvironment(name, X, X @ theta, noise=1.0)


_RIVER = {"segment": "ImageSegments", "phishing": "Phishing", "banana": "Bananas"}


def _load_river(name: str) -> tuple[np.ndarray, np.ndarray]:
    try:
        from river import datasets as river_datasets
    except ImportError:
        raise ValueError(f"dataset {name!r} ships inside the 'river' package; pip install river") from None
    rows = list(getattr(river_datasets, _RIVER[name])())
    keys = list(rows[0][0])
    X = np.array([[float(x[k]) for k in keys] for x, _ in rows])
    labels = [y for _, y in rows]
    classes = {c: i for i, c in enumerate(sorted(set(labels), key=str))}
    return X, np.array([classes[c] for c in labels])


def classification_environment(
    name: str, rng: np.random.Generator, horizon: int | None = None
) -> BanditEnvironment:
    """A bundled classification set as a bandit: reward 1 iff arm == label (no noise).

    scikit-learn's iris, wine, breast_cancer and digits; river's segment (ImageSegments), phishing
    and banana. Features are standardized;
    digits is reduced to 20 principal components; rows are shuffled by ``rng`` and the first
    ``horizon`` (default: all) are kept, as in the paper's T = min(n, 10,000).
    """
    from sklearn import datasets
    from sklearn.decomposition import PCA

    loaders = {
        "iris": datasets.load_iris,
        "wine": datasets.load_wine,
        "breast_cancer": datasets.load_breast_cancer,
        "digits": datasets.load_digits,
    }
    if name not in DATASETS:
        raise ValueError(f"dataset must be one of {DATASETS}, got {name!r}")
    if name in loaders:
        X, y = loaders[name](return_X_y=True)
    else:
        X, y = _load_river(name)
    X = X.astype(float)
    if name == "digits":
        X = PCA(n_components=20, random_state=0).fit_transform(X)
    X = (X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1.0)
    order = rng.permutation(len(y))
    if horizon is not None:
        order = order[:horizon]
    labels = y[order]
    mu = np.eye(int(y.max()) + 1)[labels]
    return BanditEnvironment(name, X[order], mu, noise=0.0)


def run_bandit(env: BanditEnvironment, agent: BanditAgent, rng: np.random.Generator, label: str = "") -> dict:
    """Play ``agent`` for the environment's horizon.

    Returns ``regret`` (T,) per-round regret max_a mu - mu[arm], ``arms`` (T,), ``rewards`` (T,) and
    ``seconds`` (wall time of the agent's choose and update calls).
    """
    T = env.horizon
    regret, arms, rewards = np.zeros(T), np.zeros(T, dtype=int), np.zeros(T)
    seconds = 0.0
    for t in progress(range(T), f"{label or env.name}: {type(agent).__name__}", total=T):
        x = env.X[t]
        start = time.perf_counter()
        a = agent.choose(x)
        seconds += time.perf_counter() - start
        r = env.reward(t, a, rng)
        start = time.perf_counter()
        agent.update(x, a, r)
        seconds += time.perf_counter() - start
        arms[t], rewards[t] = a, r
        regret[t] = env.mu[t].max() - env.mu[t, a]
    return {"regret": regret, "arms": arms, "rewards": rewards, "seconds": seconds}
