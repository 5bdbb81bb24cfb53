"""Offline baselines on the same 500-design pool (no oracle queries):

- random: ``n`` uniformly random sequences;
- exhaustive ridge: one-hot ridge regression (``scikit-learn``) fit on the pool, then the top ``n``
  designs outside the pool by its prediction over all 4**8 8-mers (TFBind8 only);
- pool evolution: ``nevergrad``'s discrete (1+1) evolution started from the pool's best designs,
  maximising the same ridge surrogate; the ``n`` distinct non-pool designs it asked with the highest
  surrogate values;
- GP-EI: a ``botorch`` GP on one-hot designs, the top ``n`` non-pool sequences by analytic EI;
- CbAS (simplified: a position-wise categorical generative model, a ridge-ensemble oracle);
- COMs (simplified: a conservative MLP on design-bench-style logits of the softened one-hot, gradient
  ascent, argmax projection).

Every baseline sees only the pool (x, y) and returns ``n`` distinct ``(n, L)`` int64 designs outside it.
"""

from __future__ import annotations

import warnings

import nevergrad as ng
import numpy as np
from sklearn.linear_model import Ridge

from icml26.dibo.corpus import Pool
from icml26.dibo.tasks import all_8mers, dna_index


def one_hot(x: np.ndarray, alphabet_size: int) -> np.ndarray:
    """``(n, L)`` indices -> ``(n, L * alphabet_size)`` one-hot features."""
    return np.eye(alphabet_size)[np.asarray(x)].reshape(len(x), -1)


def random_designs(alphabet_size: int, length: int, n: int, rng: np.random.Generator) -> np.ndarray:
    return rng.integers(alphabet_size, size=(n, length))


def fit_ridge(pool: Pool, alpha: float = 1.0) -> Ridge:
    return Ridge(alpha=alpha).fit(one_hot(pool.x, len(pool.task.alphabet)), pool.y)


def ridge_exhaustive(pool: Pool, n: int = 128, alpha: float = 1.0) -> np.ndarray:
    """The ``n`` 8-mers outside the pool with the highest ridge prediction (TFBind8: all 65,536 ranked)."""
    if pool.task.alphabet != "ACGT" or pool.task.length != 8:
        raise ValueError(f"exhaustive ridge enumerates 8-mers over ACGT; task {pool.task.name!r} is not one")
    x = all_8mers()
    pred = fit_ridge(pool, alpha).predict(one_hot(x, 4))
    pred[dna_index(pool.x)] = -np.inf
    return x[np.argsort(-pred, kind="stable")[:n]]


def pool_evolution(
    pool: Pool, n: int, rng: np.random.Generator, budget: int = 2000, starts: int = 10
) -> np.ndarray:
    """nevergrad DiscreteOnePlusOne on the ridge surrogate, seeded with the pool's ``starts`` best designs."""
    a, length = len(pool.task.alphabet), pool.task.length
    model = fit_ridge(pool)
    param = ng.p.Choice(list(range(a)), repetitions=length)
    param.random_state = np.random.RandomState(int(rng.integers(2**31)))
    opt = ng.optimizers.DiscreteOnePlusOne(parametrization=param, budget=budget, num_workers=1)
    for x in pool.x[-starts:]:
        opt.suggest(tuple(int(v) for v in x))
    seen_pool = {x.tobytes() for x in pool.x}
    asked: dict[bytes, tuple[float, np.ndarray]] = {}
    for _ in range(budget):
        cand = opt.ask()
        x = np.asarray(cand.value, dtype=np.int64)
        value = float(model.predict(one_hot(x[None], a))[0])
        opt.tell(cand, -value)
        if x.tobytes() not in seen_pool:
            asked[x.tobytes()] = (value, x)
    best = sorted(asked.values(), key=lambda t: -t[0])[:n]
    return np.stack([x for _, x in best])


# ---------------------------------------------------------------- shared helpers


def _check_inputs(pool: Pool, n: int, rng: np.random.Generator | None = None) -> None:
    if not isinstance(pool, Pool):
        raise TypeError(f"pool must be an icml26.dibo.corpus.Pool, got {type(pool).__name__}")
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise ValueError(f"n (the number of designs) must be an integer >= 1, got {n!r}")
    free = len(pool.task.alphabet) ** pool.task.length - len(np.unique(pool.x, axis=0))
    if n > free:
        raise ValueError(f"n={n} exceeds the {free} sequences outside the pool")
    if rng is not None and not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")


def _codes(x: np.ndarray, alphabet_size: int) -> np.ndarray:
    """``(n, L)`` designs -> their base-``alphabet_size`` integer codes ``(n,)`` (for set membership)."""
    x = np.asarray(x, dtype=np.int64)
    return x @ (alphabet_size ** np.arange(x.shape[1] - 1, -1, -1, dtype=np.int64))


def all_sequences(alphabet_size: int, length: int) -> np.ndarray:
    """Every sequence as an ``(alphabet_size**length, length)`` index array, in base-``alphabet_size`` order."""
    codes = np.arange(alphabet_size**length, dtype=np.int64)
    return (
        codes[:, None] // (alphabet_size ** np.arange(length - 1, -1, -1, dtype=np.int64))
    ) % alphabet_size


def _top_new(x: np.ndarray, score: np.ndarray, pool: Pool, n: int) -> np.ndarray:
    """The ``n`` distinct designs of ``x`` outside the pool with the highest ``score`` (stable order)."""
    a = len(pool.task.alphabet)
    codes = _codes(x, a)
    order = np.argsort(-np.asarray(score, dtype=float), kind="stable")
    _, first = np.unique(codes[order], return_index=True)
    order = order[np.sort(first)]
    order = order[~np.isin(codes[order], _codes(pool.x, a))]
    return np.asarray(x[order[:n]], dtype=np.int64)


# ---------------------------------------------------------------- GP-EI (botorch)

GP_EI_MAX_CANDIDATES = 2**17


def fit_gp(train_x: np.ndarray, train_y: np.ndarray):
    """``botorch``'s ``SingleTaskGP`` (default kernel and priors, ``Standardize`` outcome transform) on
    float64 ``(n, d)`` features, fit by ``fit_gpytorch_mll`` (type-II maximum likelihood). An
    ``OptimizationWarning`` of the fit (no convergence) is re-issued as a ``RuntimeWarning`` naming GP-EI."""
    import torch
    from botorch.exceptions.warnings import OptimizationWarning
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from gpytorch.mlls import ExactMarginalLogLikelihood

    x = torch.as_tensor(np.asarray(train_x, dtype=np.float64))
    y = torch.as_tensor(np.asarray(train_y, dtype=np.float64)).reshape(-1, 1)
    if x.ndim != 2 or x.shape[0] != y.shape[0] or not torch.isfinite(y).all():
        raise ValueError(
            f"GP-EI needs train_x (n, d) and n finite labels: got {tuple(x.shape)}, {tuple(y.shape)}"
        )
    model = SingleTaskGP(x, y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", OptimizationWarning)
        fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
    for w in caught:
        if issubclass(w.category, OptimizationWarning):
            warnings.warn(f"GP-EI baseline: the GP hyperparameter fit did not converge cleanly: {w.message}",
                          RuntimeWarning, stacklevel=2)  # fmt: skip
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return model.eval()


def log_ei(model, best_f: float, candidates: np.ndarray, chunk: int = 8192) -> np.ndarray:
    """Analytic log expected improvement (``LogExpectedImprovement``'s formula): log EI(x) =
    log h((mu(x) - best_f) / sigma(x)) + log sigma(x), h(z) = z Phi(z) + phi(z) (Jones et al., 1998).

    Each chunk's marginal posterior is taken as one non-batched set (only its diagonal variance is formed,
    ~10x faster than the acquisition's per-point batches), then botorch's own ``_log_ei_helper``;
    ``test_log_ei_matches_botorch_acquisition`` checks it equals ``LogExpectedImprovement``."""
    import torch
    from botorch.acquisition.analytic import _log_ei_helper

    out = []
    with torch.no_grad():
        for s in range(0, len(candidates), chunk):
            post = model.posterior(torch.as_tensor(np.asarray(candidates[s : s + chunk], dtype=np.float64)))
            mean, sigma = post.mean.squeeze(-1), post.variance.clamp_min(1e-12).sqrt().squeeze(-1)
            out.append((_log_ei_helper((mean - best_f) / sigma) + sigma.log()).numpy())
    return np.concatenate(out)


def gp_ei(pool: Pool, n: int = 128) -> np.ndarray:
    """GP-EI: the ``n`` sequences outside the pool with the highest analytic EI under a GP on one-hot x.

    The GP (``fit_gp``) is fit on the pool's 500 one-hot designs and labels only; EI's incumbent is the
    pool's best label. ``[inferred]`` Offline BO as one round with a batch of ``n``: the top-``n`` by
    (sequential, non-batch) EI over every sequence, a standard offline simplification (no fantasies, no
    q-EI). The candidate set is every sequence, so only ``alphabet**length <= 2**17`` is accepted
    (TFBind8: 65,536); larger spaces raise ``ValueError``. Deterministic (no ``rng``).
    """
    _check_inputs(pool, n)
    a, length = len(pool.task.alphabet), pool.task.length
    if a**length > GP_EI_MAX_CANDIDATES:
        raise ValueError(
            f"GP-EI ranks every sequence; {a}**{length} = {a**length} exceeds {GP_EI_MAX_CANDIDATES}"
            " (accepted: tasks with at most 2**17 sequences, e.g. TFBind8)"
        )
    cand = all_sequences(a, length)
    score = log_ei(fit_gp(one_hot(pool.x, a), pool.y), float(pool.y.max()), one_hot(cand, a))
    return _top_new(cand, score, pool, n)


# ---------------------------------------------------------------- CbAS (position-wise categorical)


def pwm_fit(
    x: np.ndarray, alphabet_size: int, weights: np.ndarray | None = None, pseudo: float = 0.5
) -> np.ndarray:
    """Weighted maximum-likelihood position weight matrix ``(L, A)``: theta_la ∝ sum_i w_i [x_il = a] + pseudo.

    Weights are rescaled to sum to ``len(x)`` first, so ``pseudo`` is a fixed prior strength."""
    x = np.asarray(x, dtype=np.int64)
    w = np.ones(len(x)) if weights is None else np.asarray(weights, dtype=float)
    if w.shape != (len(x),) or not np.all(np.isfinite(w)) or w.min() < 0 or w.sum() <= 0:
        raise ValueError("PWM weights must be finite, non-negative, one per design, with a positive sum")
    w = w * (len(x) / w.sum())
    counts = np.full((x.shape[1], alphabet_size), float(pseudo))
    for pos in range(x.shape[1]):
        counts[pos] += np.bincount(x[:, pos], weights=w, minlength=alphabet_size)
    return counts / counts.sum(axis=1, keepdims=True)


def pwm_log_prob(theta: np.ndarray, x: np.ndarray) -> np.ndarray:
    """log p(x | theta) = sum_l log theta[l, x_l] for ``(n, L)`` designs."""
    x = np.asarray(x, dtype=np.int64)
    return np.log(theta)[np.arange(x.shape[1]), x].sum(axis=1)


def pwm_sample(theta: np.ndarray, m: int, rng: np.random.Generator) -> np.ndarray:
    """``m`` designs drawn position-wise independently from ``theta`` ``(L, A)``."""
    u = rng.random((m, theta.shape[0], 1))
    return np.minimum((u > np.cumsum(theta, axis=1)[None]).sum(axis=2), theta.shape[1] - 1).astype(np.int64)


def cbas_weights(
    log_p0: np.ndarray, log_pt: np.ndarray, mu: np.ndarray, sigma: np.ndarray, gamma: float
) -> np.ndarray:
    """CbAS sample weights (Brookes et al., 2019, Algorithm 1): w = p0(x) / p_t(x) * P(y >= gamma | x),
    with the oracle's Gaussian predictive: P(y >= gamma | x) = 1 - Phi((gamma - mu) / sigma)."""
    from scipy.stats import norm

    return np.exp(log_p0 - log_pt) * norm.sf((gamma - mu) / sigma)


class RidgeEnsemble:
    """``k`` one-hot ridge regressors on bootstrap resamples of the pool (a deep-ensemble stand-in) and
    their Gaussian predictive: mu = mean of members; ``[inferred]`` sigma^2 = variance across members + the
    members' mean residual variance on the pool (the label noise, computed once), so that
    P(y >= gamma | x) is a probability about y rather than about the ensemble mean."""

    def __init__(self, pool: Pool, rng: np.random.Generator, k: int = 5, alpha: float = 1.0) -> None:
        self.alphabet_size = a = len(pool.task.alphabet)
        feats = one_hot(pool.x, a)
        self.models = []
        for _ in range(k):
            idx = rng.integers(len(pool.y), size=len(pool.y))
            self.models.append(Ridge(alpha=alpha).fit(feats[idx], pool.y[idx]))
        self.noise = np.mean([np.mean((m.predict(feats) - pool.y) ** 2) for m in self.models])

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(mu, sigma)`` at ``(n, L)`` designs."""
        preds = np.stack([m.predict(one_hot(x, self.alphabet_size)) for m in self.models])
        return preds.mean(0), np.sqrt(preds.var(0) + self.noise)


def cbas_search(
    pool: Pool,
    rng: np.random.Generator,
    iterations: int = 20,
    samples: int = 1000,
    quantile: float = 0.9,
    top_fraction: float = 0.2,
    pseudo: float = 0.5,
    ensemble: int = 5,
) -> tuple[np.ndarray, RidgeEnsemble]:
    """CbAS's adaptive-sampling loop (see ``cbas``): the final PWM ``(L, A)`` and the oracle ensemble."""
    a = len(pool.task.alphabet)
    oracle = RidgeEnsemble(pool, rng, ensemble)
    top = pool.x[np.argsort(pool.y, kind="stable")[-max(1, int(round(top_fraction * len(pool.y)))) :]]
    theta0 = pwm_fit(top, a, pseudo=pseudo)
    theta, gamma = theta0, -np.inf
    for _ in range(iterations):
        x = pwm_sample(theta, samples, rng)
        mu, sigma = oracle.predict(x)
        gamma = max(gamma, float(np.quantile(mu, quantile)))
        w = cbas_weights(pwm_log_prob(theta0, x), pwm_log_prob(theta, x), mu, sigma, gamma)
        if not np.isfinite(w).all() or w.sum() <= 0:
            raise RuntimeError("CbAS: all sample weights vanished (threshold above every sample's support)")
        theta = pwm_fit(x, a, w, pseudo)
    return theta, oracle


def cbas(
    pool: Pool,
    n: int = 128,
    rng: np.random.Generator | None = None,
    iterations: int = 20,
    samples: int = 1000,
    quantile: float = 0.9,
    top_fraction: float = 0.2,
    pseudo: float = 0.5,
    ensemble: int = 5,
) -> np.ndarray:
    """Conditioning by Adaptive Sampling (Brookes, Park & Listgarten, ICML 2019, arXiv 1901.10060), simplified.

    ``[inferred]`` simplifications: the generative model is a position-wise categorical (PWM) instead of a
    VAE, so p0(x) and p_t(x) are exact (no ELBO); the oracle is an ensemble of ``ensemble`` one-hot ridge
    regressors on bootstrap resamples (``RidgeEnsemble``) instead of neural nets; ``[inferred]`` p0 is
    fit on the pool's top ``top_fraction`` by label (the official code and design-baselines fit the prior
    on the whole training set). Algorithm 1:
    p0 = PWM fit by maximum likelihood on those designs; p_1 = p0. For
    t = 1..T: draw M samples from p_t; gamma_t = max(gamma_{t-1}, Q-quantile of the predicted means of the
    samples) (non-decreasing, as the official ``weighted_ml_opt`` keeps ``y_star``; Q = 0.9); weights w_i = p0(x_i)/p_t(x_i) P(y >= gamma_t |
    x_i) (``cbas_weights``); p_{t+1} = the weighted MLE (with ``pseudo`` counts per letter).
    Defaults T = 20, M = 1000, Q = 0.9 [paper: Q = 0.9; T, M inferred for CPU]. Output: M samples
    from the final p_{T+1} (more draws if needed), the ``n`` distinct non-pool designs with the highest
    predicted mean ``[inferred]`` (design-baselines returns unranked samples of the final model; the
    official code reports the sample with the highest oracle prediction).
    """
    _check_inputs(pool, n, rng)
    if rng is None:
        rng = np.random.default_rng(0)
    if not (0 < quantile < 1 and 0 < top_fraction <= 1 and pseudo > 0):
        raise ValueError(
            f"need 0 < quantile < 1, 0 < top_fraction <= 1, pseudo > 0; got {quantile}, {top_fraction}, {pseudo}"
        )
    for name, v in (("iterations", iterations), ("samples", samples), ("ensemble", ensemble)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
    theta, oracle = cbas_search(pool, rng, iterations, samples, quantile, top_fraction, pseudo, ensemble)
    found = np.empty((0, pool.task.length), dtype=np.int64)
    for _ in range(20):
        found = np.concatenate([found, pwm_sample(theta, samples, rng)])
        out = _top_new(found, oracle.predict(found)[0], pool, n)
        if len(out) == n:
            return out
    raise RuntimeError(
        f"CbAS: the final model gave only {len(out)} distinct non-pool designs, fewer than n={n}"
    )


# ---------------------------------------------------------------- COMs (torch)


def _mlp(d: int, hidden: int):
    import torch

    return torch.nn.Sequential(
        torch.nn.Linear(d, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, 1),
    )  # fmt: skip


def gradient_ascent(f, x0, steps: int, lr: float, trajectory: bool = False):
    """x_{k+1} = x_k + lr * grad_x f(x_k) for ``steps`` steps (COMs' ascent update; detached). With ``trajectory``,
    every iterate x_1..x_steps stacked ``(steps, n, d)``; else the last."""
    import torch

    x, path = x0.detach().clone(), []
    for _ in range(steps):
        x = x.detach().requires_grad_(True)
        (g,) = torch.autograd.grad(f(x).sum(), x)
        x = (x + lr * g).detach()
        path.append(x)
    return torch.stack(path) if trajectory else x


def train_coms_model(
    x: np.ndarray,
    y: np.ndarray,
    seed: int,
    alpha: float = 0.1,
    tau: float = 2.0,
    alpha_lr: float = 0.01,
    hidden: int = 256,
    epochs: int = 200,
    batch: int = 128,
    lr: float = 3e-4,
    ascent_steps: int = 20,
    ascent_lr: float | None = None,
):
    """Conservative objective model f_theta (Trabucco et al., 2021, eqs. 3-4): per mini-batch minimise

        E_{(x,y)~D}[(f(x) - y)^2] + alpha * (E_{x~mu}[f(x)] - E_{x~D}[f(x)])

    with mu = the batch's points after ``ascent_steps`` gradient-ascent steps on the current f (eq. 4,
    detached), and alpha tuned by dual descent on log alpha: minimise alpha * (tau - gap), so alpha grows
    while the overestimation gap exceeds tau (the paper's Lagrangian form, as design-baselines' ``coms``
    trains it; ``alpha`` is the initial multiplier, 0 disables the conservative term). ``x``: ``(n, d)``
    relaxed designs; ``y``: labels (standardised here). Defaults = design-baselines' final discrete-task
    settings (``scripts/coms-tf-bind-8.sh`` at f179461, "update launch scripts to match final
    hyperparameters"; the same for TFBind10, GFP, UTR): alpha0 0.1, alpha lr 0.01, tau 2.0, Adam lr 3e-4,
    batch 128, 2 ReLU layers, particle lr 2.0 sqrt(d) (``coms_step_size``), except ``[inferred]`` for CPU:
    width 256 (paper: 2048), 20 ascent steps in training (paper: 50), and 200 epochs = 800 Adam steps on
    the 500-design pool (design-baselines: 50 epochs over a ~32k-design set; the pool is fit to Spearman
    > 0.99 either way). (The first version took the continuous-task values alpha0 1.0, tau 0.5, particle
    lr 0.05 sqrt(d): at 0.245 per step in logit space the ascents never left their pool starts.)
    Returns the model in eval mode.
    """
    import torch

    if ascent_lr is None:
        ascent_lr = coms_step_size(x.shape[1])
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        xt = torch.as_tensor(np.asarray(x, dtype=np.float32))
        yt = torch.as_tensor(np.asarray((y - y.mean()) / (y.std() + 1e-12), dtype=np.float32))
        f = _mlp(xt.shape[1], hidden)
        opt = torch.optim.Adam(f.parameters(), lr=lr)
        log_alpha = torch.tensor(float(np.log(alpha)) if alpha > 0 else 0.0, requires_grad=True)
        alpha_opt = torch.optim.Adam([log_alpha], lr=alpha_lr)
        g = torch.Generator().manual_seed(seed)
        for _ in range(epochs):
            perm = torch.randperm(len(xt), generator=g)
            for s in range(0, len(xt), batch):
                idx = perm[s : s + batch]
                xb, yb = xt[idx], yt[idx]
                pred = f(xb).squeeze(-1)
                loss = ((pred - yb) ** 2).mean()
                if alpha > 0:
                    xa = gradient_ascent(lambda z: f(z).squeeze(-1), xb, ascent_steps, ascent_lr)
                    gap = f(xa).mean() - pred.mean()
                    loss = loss + log_alpha.exp().detach() * gap
                    alpha_opt.zero_grad()
                    (log_alpha.exp() * (tau - gap.detach())).backward()
                    alpha_opt.step()
                opt.zero_grad()
                loss.backward()
                opt.step()
    return f.eval()


def to_logits(x: np.ndarray, alphabet_size: int, soft: float = 0.6) -> np.ndarray:
    """Designs -> ``(n, L (A - 1))`` logits, as design-baselines relaxes discrete inputs ``[inferred]``: the
    one-hot is softened to ``soft`` on the letter and the rest spread evenly, then log-odds against letter 0."""
    p = soft * np.eye(alphabet_size)[np.asarray(x)] + (1 - soft) / alphabet_size
    return (np.log(p[..., 1:]) - np.log(p[..., :1])).reshape(len(x), -1)


def from_logits(z: np.ndarray, length: int, alphabet_size: int) -> np.ndarray:
    """Logits ``(n, L (A - 1))`` -> designs by argmax per position (letter 0 has logit 0)."""
    z = np.asarray(z).reshape(len(z), length, alphabet_size - 1)
    return np.concatenate([np.zeros((len(z), length, 1)), z], axis=2).argmax(axis=2).astype(np.int64)


def coms_step_size(d: int) -> float:
    """Ascent step 2.0 * sqrt(d): design-baselines' final particle learning rate for the discrete tasks
    (``--particle-lr 2.0`` in ``scripts/coms-tf-bind-8.sh``; 0.05 is its continuous-task value), scaled by
    the square root of the input dimension as its ``coms_cleaned`` code does (TFBind8 logits: d = 24)."""
    return 2.0 * float(np.sqrt(d))


def coms(
    pool: Pool,
    n: int = 128,
    rng: np.random.Generator | None = None,
    alpha: float = 0.1,
    steps: int = 50,
    **train_kwargs: object,
) -> np.ndarray:
    """Conservative Objective Models (Trabucco, Kumar, Geng & Levine, ICML 2021, arXiv 2107.06882), simplified.

    Inputs are logits (``to_logits``: softened one-hot, log-odds against letter 0, as design-baselines
    relaxes discrete tasks ``[inferred]``; no input noise). f is trained by ``train_coms_model`` (eq. 3-4)
    on the pool's logits and standardised y (``alpha``: the initial Lagrange multiplier, 0.1; 0 turns the
    conservative term off). Then ``steps`` = 50 gradient-ascent steps (the paper's update) on f of
    step ``coms_step_size`` from every pool design, best-labelled first; each end point is projected to a
    design by argmax per position. Output: the final projections of the top-``n`` starts (start order) that
    are new, filled up ``[inferred]`` (duplicates and pool hits are common: the conservative model keeps
    ascents near the data) by the other projections of every iterate of every start, ranked by f at the
    projected design.
    torch on CPU with one thread, seeded by ``rng``.
    """
    _check_inputs(pool, n, rng)
    if rng is None:
        rng = np.random.default_rng(0)
    if not isinstance(steps, (int, np.integer)) or isinstance(steps, bool) or steps < 1:
        raise ValueError(f"steps must be an integer >= 1, got {steps!r}")
    if isinstance(alpha, bool) or not (isinstance(alpha, (int, float)) and 0 <= alpha < float("inf")):
        raise ValueError(f"alpha must be a number >= 0, got {alpha!r}")
    import torch

    a, length = len(pool.task.alphabet), pool.task.length
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        feats = to_logits(pool.x, a)  # not standardised: design-baselines' TFBind8 runs --no-normalize-xs
        f = train_coms_model(feats, pool.y, int(rng.integers(2**31)), alpha=alpha, **train_kwargs)
        order = np.argsort(-pool.y, kind="stable")
        x0 = torch.as_tensor(feats[order], dtype=torch.float32)
        path = gradient_ascent(lambda z: f(z).squeeze(-1), x0, steps, coms_step_size(feats.shape[1]), True)
    finally:
        torch.set_num_threads(threads)
    # first the final projections of the top-n starts (start order), then every other projection of
    # every iterate, ranked by f at the projected design
    designs = from_logits(path.flip(0).reshape(-1, path.shape[-1]).numpy(), length, a)
    with torch.no_grad():
        value = f(torch.as_tensor(to_logits(designs, a), dtype=torch.float32)).squeeze(-1).numpy()
    first = np.arange(len(designs)) < n
    rank = np.where(first, value.max() + 1 + n - np.arange(len(designs)), value)
    out = _top_new(designs, rank, pool, n)
    if len(out) < n:
        raise RuntimeError(f"COMs: ascent trajectories from all {len(order)} pool designs hold only {len(out)}"
                           f" distinct non-pool designs, fewer than n={n}")  # fmt: skip
    return out
