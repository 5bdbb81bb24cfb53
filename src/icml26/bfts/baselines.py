"""The paper's baselines, behind the same ``choose(x)`` / ``update(x, arm, reward)`` interface.

Random; LinTS and LinUCB (disjoint per-arm ridge models with an intercept); epsilon-greedy on the same
ridge means; tree-ensemble TS (random forest or XGBoost per arm, TE-TS style Gaussian from leaf
statistics, Nilsson et al. 2024); NeuralTS with a diagonal design matrix (Zhang et al. 2021). All get
the shared warm start of :class:`~icml26.bfts.agent.BanditAgent`; the tree and neural agents refit on
the same refresh schedule as BFTS.
"""

from __future__ import annotations

import contextlib
import json
import math

import numpy as np

from icml26.bfts.agent import BanditAgent
from icml26.bfts.schedule import SCHEDULES, refresh_fires
from icml26.common import check_int


class RandomAgent(BanditAgent):
    """Plays a uniformly random arm."""

    name = "Random"

    def _choose(self, x: np.ndarray) -> int:
        return int(self.rng.integers(self.n_arms))


class _RidgeArms(BanditAgent):
    """Per-arm Bayesian ridge regression on [x, 1]: B_a = lam I + sum x x^T, b_a = sum r x."""

    def __init__(self, n_arms: int, n_features: int, lam: float = 1.0, **kwargs: object) -> None:
        super().__init__(n_arms, n_features, **kwargs)  # type: ignore[arg-type]
        if not (math.isfinite(lam) and lam > 0):
            raise ValueError(f"lam must be a positive finite number, got {lam!r}")
        d = n_features + 1
        self.lam = float(lam)
        self.B_ = np.stack([self.lam * np.eye(d) for _ in range(self.n_arms)])
        self.b_ = np.zeros((self.n_arms, d))
        self.B_inv_ = np.stack([np.eye(d) / self.lam for _ in range(self.n_arms)])

    def _learn(self, x: np.ndarray, arm: int, reward: float) -> None:
        z = np.append(x, 1.0)
        self.B_[arm] += np.outer(z, z)
        self.b_[arm] += reward * z
        # Sherman-Morrison keeps B^-1 exact in O(d^2) per round
        Bz = self.B_inv_[arm] @ z
        self.B_inv_[arm] -= np.outer(Bz, Bz) / (1.0 + z @ Bz)

    def posterior(self, arm: int) -> tuple[np.ndarray, np.ndarray]:
        """Ridge posterior of arm ``arm``: mean B^-1 b (d,) and covariance v^2 B^-1 (d, d), d = p + 1."""
        if not 0 <= arm < self.n_arms:
            raise ValueError(f"arm must be in [0, {self.n_arms}), got {arm}")
        return self.B_inv_[arm] @ self.b_[arm], self.B_inv_[arm].copy()

    def _means(self, z: np.ndarray) -> np.ndarray:
        return np.einsum("kij,kj,i->k", self.B_inv_, self.b_, z)


class LinTS(_RidgeArms):
    """Linear Thompson sampling: theta_a ~ N(B_a^-1 b_a, v^2 B_a^-1), play argmax theta_a^T [x, 1]."""

    name = "LinTS"

    def __init__(
        self, n_arms: int, n_features: int, v: float = 1.0, lam: float = 1.0, **kwargs: object
    ) -> None:
        super().__init__(n_arms, n_features, lam=lam, **kwargs)
        if not (math.isfinite(v) and v > 0):
            raise ValueError(f"v must be a positive finite number, got {v!r}")
        self.v = float(v)

    def posterior(self, arm: int) -> tuple[np.ndarray, np.ndarray]:
        mean, cov = super().posterior(arm)
        return mean, self.v**2 * cov

    def _choose(self, x: np.ndarray) -> int:
        z = np.append(x, 1.0)
        mean = self._means(z)
        sd = self.v * np.sqrt(np.einsum("i,kij,j->k", z, self.B_inv_, z))
        return int(np.argmax(mean + sd * self.rng.standard_normal(self.n_arms)))


class LinUCB(_RidgeArms):
    """LinUCB: play argmax theta_hat_a^T z + alpha sqrt(z^T B_a^-1 z), z = [x, 1]."""

    name = "LinUCB"

    def __init__(
        self, n_arms: int, n_features: int, alpha: float = 1.0, lam: float = 1.0, **kwargs: object
    ) -> None:
        super().__init__(n_arms, n_features, lam=lam, **kwargs)
        if not (math.isfinite(alpha) and alpha >= 0):
            raise ValueError(f"alpha must be a finite number >= 0, got {alpha!r}")
        self.alpha = float(alpha)

    def _choose(self, x: np.ndarray) -> int:
        z = np.append(x, 1.0)
        width = np.sqrt(np.einsum("i,kij,j->k", z, self.B_inv_, z))
        return int(np.argmax(self._means(z) + self.alpha * width))


class EpsilonGreedy(_RidgeArms):
    """epsilon-greedy on per-arm ridge means: a random arm with probability epsilon."""

    name = "eps-greedy"

    def __init__(
        self, n_arms: int, n_features: int, epsilon: float = 0.1, lam: float = 1.0, **kwargs: object
    ) -> None:
        super().__init__(n_arms, n_features, lam=lam, **kwargs)
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon!r}")
        self.epsilon = float(epsilon)

    def _choose(self, x: np.ndarray) -> int:
        if self.rng.random() < self.epsilon:
            return int(self.rng.integers(self.n_arms))
        return int(np.argmax(self._means(np.append(x, 1.0))))


class _ScheduledRefit(BanditAgent):
    """Refits a model on all data when the refresh index jumps (as BFTS does)."""

    def __init__(self, n_arms: int, n_features: int, schedule: str = "log", **kwargs: object) -> None:
        super().__init__(n_arms, n_features, **kwargs)  # type: ignore[arg-type]
        if schedule not in SCHEDULES:
            raise ValueError(f"schedule must be one of {SCHEDULES}, got {schedule!r}")
        self.schedule = schedule
        self.fitted_ = False

    def _learn(self, x: np.ndarray, arm: int, reward: float) -> None:
        if self.t < max(self.n_warm, 1) or len(set(self.arms_)) < self.n_arms:
            return
        if not self.fitted_ or refresh_fires(self.t, self.schedule):
            self._refit(np.asarray(self.X_), np.asarray(self.arms_), np.asarray(self.rewards_))
            self.fitted_ = True

    def _refit(self, X: np.ndarray, arms: np.ndarray, y: np.ndarray) -> None:
        raise NotImplementedError


class TreeEnsembleTS(_ScheduledRefit):
    """Tree-ensemble TS (TE-TS): per arm a random forest (``model="rf"``) or XGBoost (``"xgb"``);
    sample f(x, a) ~ N(mu_a(x), nu^2 s_a^2(x)) with s^2 the mean over trees of the reward variance in
    x's leaf divided by the leaf's count (the leaf-statistics Gaussian of Nilsson et al. 2024).
    """

    def __init__(
        self,
        n_arms: int,
        n_features: int,
        model: str = "rf",
        n_estimators: int = 100,
        nu: float = 1.0,
        **kwargs: object,
    ) -> None:
        super().__init__(n_arms, n_features, **kwargs)
        if model not in ("rf", "xgb"):
            raise ValueError(f"model must be 'rf' or 'xgb', got {model!r}")
        self.model = model
        self.name = "RF-TS" if model == "rf" else "XGB-TS"
        self.n_estimators = check_int("n_estimators", n_estimators)
        self.nu = float(nu)

    def _make(self, seed: int) -> object:
        if self.model == "rf":
            from sklearn.ensemble import RandomForestRegressor

            return RandomForestRegressor(
                n_estimators=self.n_estimators, min_samples_leaf=2, max_features=0.5, random_state=seed
            )
        from xgboost import XGBRegressor

        return XGBRegressor(
            n_estimators=self.n_estimators, max_depth=4, learning_rate=0.1, n_jobs=1, random_state=seed
        )

    def _refit(self, X: np.ndarray, arms: np.ndarray, y: np.ndarray) -> None:
        with _one_thread(self.model):
            self._refit_models(X, arms, y)

    def _refit_models(self, X: np.ndarray, arms: np.ndarray, y: np.ndarray) -> None:
        self.models_ = []
        for a in range(self.n_arms):
            Xa, ya = X[arms == a], y[arms == a]
            seed = int(self.rng.integers(2**31 - 1))
            if self.model == "rf":
                est = _fit_random_forest(Xa, ya, self.n_estimators, seed)
            else:
                est = self._make(seed)
                est.fit(Xa, ya)  # type: ignore[attr-defined]
            forest = _Forest(est, self.model)
            leaves = forest.apply(Xa)  # (n_a, n_trees)
            size = forest.n_nodes
            # per tree and leaf: the reward variance in the leaf over its count
            s2 = np.full((leaves.shape[1], size), float(np.var(ya)) if ya.size > 1 else 1.0)
            for j in range(leaves.shape[1]):
                cnt = np.bincount(leaves[:, j], minlength=size)
                mean = np.bincount(leaves[:, j], weights=ya, minlength=size) / np.maximum(cnt, 1)
                var = np.bincount(leaves[:, j], weights=ya**2, minlength=size) / np.maximum(cnt, 1) - mean**2
                seen = cnt > 0
                s2[j, seen] = np.maximum(var[seen], 0.0) / cnt[seen]
            self.models_.append((forest, s2))

    def _choose(self, x: np.ndarray) -> int:
        if not self.fitted_:
            return int(self.rng.integers(self.n_arms))
        draws = np.empty(self.n_arms)
        with _one_thread(self.model):
            predictions = [forest.predict_one(x) for forest, _ in self.models_]
        for a, ((mu, leaves), (_, s2)) in enumerate(zip(predictions, self.models_, strict=True)):
            var = float(np.mean(s2[np.arange(leaves.size), leaves]))
            draws[a] = mu + self.nu * math.sqrt(var) * self.rng.standard_normal()
        return int(np.argmax(draws))


def _one_thread(model: str) -> contextlib.AbstractContextManager:
    """XGBoost's global thread count at one for XGB-TS (the models already train and predict on one
    thread; its DMatrix set-up otherwise starts a thread per core, which only costs CPU time on a
    shared machine and changes no value)."""
    if model != "xgb":
        return contextlib.nullcontext()
    import xgboost

    return xgboost.config_context(nthread=1)


class _FittedTrees:
    """The fitted trees of a random forest (``estimators_``), all :class:`_Forest` reads of one."""

    def __init__(self, estimators: list) -> None:
        self.estimators_ = estimators


def _fit_random_forest(X: np.ndarray, y: np.ndarray, n_estimators: int, seed: int) -> _FittedTrees:
    """The trees ``RandomForestRegressor(n_estimators, min_samples_leaf=2, max_features=0.5,
    random_state=seed).fit(X, y)`` grows (scikit-learn 1.9), grown one after another without its
    per-tree clone / get_params / joblib overhead: the same float32 data, the same per-tree seeds
    (``randint(2^31 - 1)`` from ``RandomState(seed)``), the same bootstrap counts as sample weights.
    ``tests/bfts`` checks the trees equal the forest's, node for node.
    """
    from sklearn.tree import DecisionTreeRegressor

    X32 = np.asarray(X, dtype=np.float32)
    y2 = np.ascontiguousarray(np.reshape(np.asarray(y, dtype=np.float64), (-1, 1)))
    if not np.isfinite(X32).all():  # the forest's missing-value path: leave it to scikit-learn
        from sklearn.ensemble import RandomForestRegressor

        est = RandomForestRegressor(
            n_estimators=n_estimators, min_samples_leaf=2, max_features=0.5, random_state=seed
        ).fit(X, y)
        return _FittedTrees(est.estimators_)
    n = X32.shape[0]
    random_state = np.random.RandomState(seed)
    max_int = np.iinfo(np.int32).max
    trees = []
    for _ in range(n_estimators):
        tree = DecisionTreeRegressor(
            min_samples_leaf=2, max_features=0.5, random_state=random_state.randint(max_int)
        )
        indices = np.random.RandomState(tree.random_state).randint(0, n, n).astype(np.int32)
        tree._fit(X32, y2, sample_weight=np.bincount(indices, minlength=n), check_input=False)
        trees.append(tree)
    return _FittedTrees(trees)


class _Forest:
    """A fitted scikit-learn random forest or XGBoost model with fast single-row leaf lookup."""

    def __init__(self, est: object, kind: str) -> None:
        self.est, self.kind = est, kind
        if kind == "rf":
            trees = [t.tree_ for t in est.estimators_]  # type: ignore[attr-defined]
            self.n_nodes = max(t.node_count for t in trees)
            shape = (len(trees), self.n_nodes)
            self.left = np.full(shape, -1, dtype=np.int64)
            self.right = np.full(shape, -1, dtype=np.int64)
            self.feature = np.zeros(shape, dtype=np.int64)
            self.threshold = np.zeros(shape)
            self.value = np.zeros(shape)
            for j, t in enumerate(trees):
                n = t.node_count
                self.left[j, :n], self.right[j, :n] = t.children_left, t.children_right
                self.feature[j, :n] = np.maximum(t.feature, 0)
                self.threshold[j, :n], self.value[j, :n] = t.threshold, t.value[:, 0, 0]
        else:
            # node ids run from 0 to num_nodes - 1 in every tree (the JSON model; a fraction of
            # trees_to_dataframe's cost)
            model = json.loads(est.get_booster().save_raw("json"))  # type: ignore[attr-defined]
            trees = model["learner"]["gradient_booster"]["model"]["trees"]
            self.n_nodes = max(int(t["tree_param"]["num_nodes"]) for t in trees)

    def _xgb_leaves(self, X: np.ndarray) -> np.ndarray:
        import xgboost

        booster = self.est.get_booster()  # type: ignore[attr-defined]
        return (
            np.asarray(booster.predict(xgboost.DMatrix(X, nthread=1), pred_leaf=True))
            .reshape(X.shape[0], -1)
            .astype(int)
        )

    def apply(self, X: np.ndarray) -> np.ndarray:
        """Leaf index of every row in every tree; (n, n_trees)."""
        if self.kind == "xgb":
            return self._xgb_leaves(X)
        rows = np.arange(self.left.shape[0])[:, None]
        cur = np.zeros((self.left.shape[0], X.shape[0]), dtype=np.int64)
        cols = np.arange(X.shape[0])[None, :]
        while True:
            internal = self.left[rows, cur] >= 0
            if not internal.any():
                return cur.T
            go_left = X[cols, self.feature[rows, cur]] <= self.threshold[rows, cur]
            cur = np.where(internal, np.where(go_left, self.left[rows, cur], self.right[rows, cur]), cur)

    def predict_one(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        """The ensemble's prediction at x (p,) and its leaf in every tree (n_trees,)."""
        leaves = self.apply(x[None, :])[0]
        if self.kind == "rf":
            return float(np.mean(self.value[np.arange(leaves.size), leaves])), leaves
        return float(self.est.predict(x[None, :])[0]), leaves  # type: ignore[attr-defined]


class NeuralTS(_ScheduledRefit):
    """NeuralTS (Zhang et al. 2021) with a diagonal design matrix.

    One MLP f(z; theta) on the arm-block encoding z = x placed in arm a's block (K*p inputs); score
    ~ N(f(z), nu^2 lam g^T U^-1 g / m) with g = grad_theta f(z), U = lam I + sum g g^T kept diagonal
    and updated every round; the network is retrained on all data (Adam, warm-started) on the refresh
    schedule.
    """

    name = "NeuralTS"

    def __init__(
        self,
        n_arms: int,
        n_features: int,
        hidden: int = 32,
        lam: float = 1.0,
        nu: float = 0.1,
        epochs: int = 50,
        lr: float = 0.01,
        device: str = "cpu",
        **kwargs: object,
    ) -> None:
        super().__init__(n_arms, n_features, **kwargs)
        import torch

        self.hidden = check_int("hidden", hidden)
        self.epochs = check_int("epochs", epochs)
        self.lam, self.nu, self.lr = float(lam), float(nu), float(lr)
        self.device = torch.device(device)
        gen = torch.Generator().manual_seed(int(self.rng.integers(2**31 - 1)))
        self.net_ = self._make_net(gen)
        n_params = sum(p.numel() for p in self.net_.parameters())
        self.U_ = torch.full((n_params,), self.lam, device=self.device)
        self.grads_: dict[bytes, tuple[float, object]] = {}

    def _make_net(self, gen: object) -> object:
        import torch
        from torch import nn

        net = nn.Sequential(
            nn.Linear(self.n_arms * self.n_features, self.hidden), nn.ReLU(), nn.Linear(self.hidden, 1)
        )
        with torch.no_grad():
            for p in net.parameters():
                p.copy_(torch.randn(p.shape, generator=gen) * (1.0 / math.sqrt(max(p.shape[-1], 1))))
        return net.to(self.device)

    def _encode(self, x: np.ndarray, arm: int) -> np.ndarray:
        z = np.zeros(self.n_arms * self.n_features, dtype=np.float32)
        z[arm * self.n_features : (arm + 1) * self.n_features] = x
        return z

    def _grad(self, z: np.ndarray) -> tuple[float, object]:
        """f(z) and g = grad_theta f(z) / sqrt(m) for the one-hidden-layer MLP, written out.

        With h = W1 z + b1 and f = w2 . relu(h) + b2: grad_W1 = (w2 * [h > 0]) z^T, grad_b1 = w2 * [h > 0],
        grad_w2 = relu(h), grad_b2 = 1; each entry a single product, so bit for bit what autograd
        gives, without its graph. Kept until the next refit (the played arm's g is asked for twice).
        """
        import torch
        from torch.nn import functional

        key = z.tobytes()
        if key in self.grads_:
            return self.grads_[key]
        first, _, last = self.net_  # type: ignore[misc]
        with torch.no_grad():
            zt = torch.as_tensor(z, device=self.device)[None, :]
            h = functional.linear(zt, first.weight, first.bias)
            a = torch.relu(h)
            out = functional.linear(a, last.weight, last.bias)[0, 0]
            gh = last.weight[0] * (h[0] > 0)
            one = torch.ones(1, device=self.device)
            g = torch.cat([torch.outer(gh, zt[0]).reshape(-1), gh, a[0], one]) / math.sqrt(self.hidden)
        if len(self.grads_) >= 64:
            self.grads_.clear()
        self.grads_[key] = (float(out), g)
        return self.grads_[key]

    def _choose(self, x: np.ndarray) -> int:
        import torch

        scores = np.empty(self.n_arms)
        for a in range(self.n_arms):
            mean, g = self._grad(self._encode(x, a))
            sd = self.nu * math.sqrt(self.lam * float(torch.sum(g * g / self.U_)))
            scores[a] = mean + sd * self.rng.standard_normal()
        return int(np.argmax(scores))

    def _learn(self, x: np.ndarray, arm: int, reward: float) -> None:
        _, g = self._grad(self._encode(x, arm))
        self.U_ += g * g
        super()._learn(x, arm, reward)

    def _refit(self, X: np.ndarray, arms: np.ndarray, y: np.ndarray) -> None:
        import torch

        self.grads_.clear()  # the network changes
        Z = np.stack([self._encode(x, int(a)) for x, a in zip(X, arms, strict=True)])
        Zt = torch.as_tensor(Z, device=self.device)
        yt = torch.as_tensor(y, dtype=torch.float32, device=self.device)
        params = list(self.net_.parameters())
        # plain Adam written out: torch.optim imports torch._dynamo, seconds of start-up for one optimizer
        m1 = [torch.zeros_like(p) for p in params]
        m2 = [torch.zeros_like(p) for p in params]
        decay = self.lam / max(len(y), 1)
        for step in range(1, self.epochs + 1):
            self.net_.zero_grad()
            loss = torch.mean((self.net_(Zt)[:, 0] - yt) ** 2)
            loss.backward()
            with torch.no_grad():
                for p, a, b in zip(params, m1, m2, strict=True):
                    g = p.grad + decay * p
                    a.mul_(0.9).add_(g, alpha=0.1)
                    b.mul_(0.999).addcmul_(g, g, value=0.001)
                    p.sub_(self.lr * (a / (1 - 0.9**step)) / ((b / (1 - 0.999**step)).sqrt() + 1e-8))
