"""DIGL: the invariant-barycenter objective and its estimator ("DIGL-style W2-barycenter invariance").

The paper's text beyond its abstract was not available, so the objective is a reconstruction
([inferred]) from the abstract ("the underlying invariant prototype shared by graphs across different
environments as a distribution barycenter", environments "as distortions of the prototype", "a unified
optimization objective"):

    min_{theta, w}  sum_e (n_e / n) R_e(g_w o f_theta)
                    + lam * mean_y sum_e lambda_{e,y} W_2^2(mu_{e,y}, sg[nu_y])
                    (+ beta * Var_e R_e)                                                   (U)

with ``mu_{e,y}`` the empirical distribution of the embeddings z_G = f_theta(G) of the class-y graphs of
environment e in the mini-batch, ``nu_y`` their W2 barycenter (B) with ``lambda_{e,y} ∝ n_e`` over the
environments holding class y, and ``sg`` a stop-gradient: the gradient reaches f_theta through each OT
cost at its optimal plan. The second term is the total distortion energy of the environments around the
prototype (D); it is zero exactly when every environment's class-conditional distribution is the
prototype, i.e. when the representation is invariant across environments.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from icml26.common import check_int, check_positive
from icml26.digl.barycenter import BARYCENTERS, Prototype, barycenter, barycentric_energy, geodesic_step
from icml26.digl.datasets import GraphSet
from icml26.digl.encoder import GraphOODClassifier, check_weight

PREDICTORS = ("head", "prototype")


def env_risks(logits: torch.Tensor, y: torch.Tensor, env: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-environment mean cross-entropies R_e (E_batch,) and the environments' sizes n_e in the batch."""
    ids, counts = torch.unique(env, return_counts=True)
    losses = F.cross_entropy(logits, y, reduction="none")
    return torch.stack([losses[env == e].mean() for e in ids]), counts


def invariance_penalty(
    z: torch.Tensor,
    y: torch.Tensor,
    env: torch.Tensor,
    barycenter_kind: str = "free_support",
    n_iter: int = 10,
    reg: float = 0.1,
    bank: dict[int, torch.Tensor] | None = None,
    bank_size: int = 16,
    bank_rate: float = 0.1,
    normalize: bool = False,
) -> tuple[torch.Tensor, dict[int, Prototype]]:
    """The invariance term of (U): ``mean_y sum_e lambda_{e,y} W_2^2(mu_{e,y}, sg[nu_y])``.

    z (n, d), y (n,), env (n,). A class seen in fewer than two environments of the batch adds nothing
    (no cross-environment information); no such class at all gives an exact zero (still connected to z,
    so the backward pass runs). ``bank`` (class -> (bank_size, d) support, filled here) turns on the EMA
    memory bank: the batch barycenter of ``bank_size`` points starts from the bank's support and the bank moves ``bank_rate`` along the W2 geodesic to it;
    the bank is then the prototype. ``normalize``: divide by the batch's within-class variance
    ``mean_i |z_i - mean_{y_i}|^2`` (with gradient), so that shrinking the embedding cannot lower the term
    [inferred]; without it, W_2^2 on raw embeddings is minimised by scaling z towards 0.
    Returns the penalty and the prototypes used."""
    if z.ndim != 2 or y.shape != (z.shape[0],) or env.shape != (z.shape[0],):
        raise ValueError(
            f"z must be (n, d) with y and env of shape (n,), got {tuple(z.shape)}, {tuple(y.shape)}, {tuple(env.shape)}"
        )
    sizes = {int(e): int(c) for e, c in zip(*torch.unique(env, return_counts=True), strict=True)}
    terms, prototypes = [], {}
    for c in torch.unique(y).tolist():
        in_class = y == c
        envs = sorted({int(e) for e in env[in_class].tolist()})
        if len(envs) < 2:
            continue
        clouds = [z[in_class & (env == e)] for e in envs]
        weights = np.array([sizes[e] for e in envs], dtype=float)
        if bank is not None and barycenter_kind != "bures":
            init = bank.get(c)
            proto = barycenter(clouds, weights, barycenter_kind, bank_size, n_iter, reg, init)
            bank[c] = proto.support if init is None else geodesic_step(init, proto.support, bank_rate)
            proto = Prototype(bank[c], proto.weights, kind=barycenter_kind)
        else:
            proto = barycenter(clouds, weights, barycenter_kind, n_iter=n_iter, reg=reg)
        prototypes[c] = proto
        terms.append(barycentric_energy(clouds, proto, weights, reg))
    if not terms:
        return z.sum() * 0.0, prototypes
    penalty = torch.stack(terms).mean()
    if normalize:
        centred = torch.cat([z[y == c] - z[y == c].mean(0) for c in torch.unique(y)])
        penalty = penalty / ((centred**2).sum(1).mean() + 1e-8)
    return penalty, prototypes


class DIGL(GraphOODClassifier):
    """DIGL-style W2-barycenter invariance on a GIN: minimises (U) by Adam on mini-batches.

    Parameters beyond :class:`GraphOODClassifier`'s: ``lam`` (the invariance weight, >= 0; ``lam=0``
    still computes the barycenters), ``barycenter`` (``free_support`` (the headline), ``bures`` or
    ``sinkhorn``), ``n_iter`` (barycenter fixed-point steps), ``reg`` (entropic strength relative to the
    mean cost), ``beta`` (the optional ``Var_e R_e`` weight), ``memory`` (0: a fresh barycenter per batch;
    k > 0: an EMA memory bank of k support points per class, ``memory_rate`` per step), ``predict_with``
    (``head``: g_w; ``prototype``: the nearest class prototype in W2, prototypes computed on the training
    set after fitting), ``pseudo_envs`` (0: environment ids must be given; m >= 2: when they are missing,
    m pseudo-environments by k-means on the embeddings of an ERM model trained ``pseudo_env_epochs``),
    ``normalize`` (``False``, the default: raw W_2^2 as in (U), which the encoder can lower by scaling its
    embeddings down; ``True``: the term relative to the batch's within-class variance [inferred]).
    """

    def __init__(
        self,
        encoder: torch.nn.Module | None = None,
        lam: float = 0.1,
        barycenter: str = "free_support",
        n_iter: int = 10,
        reg: float = 0.1,
        beta: float = 0.0,
        memory: int = 0,
        memory_rate: float = 0.1,
        predict_with: str = "head",
        pseudo_envs: int = 0,
        pseudo_env_epochs: int = 5,
        normalize: bool = False,
        hidden: int = 64,
        num_layers: int = 3,
        pool: str = "mean",
        epochs: int = 20,
        batch_size: int = 128,
        lr: float = 1e-3,
        random_state: int = 0,
        device: str = "cpu",
    ) -> None:
        super().__init__(encoder, hidden, num_layers, pool, epochs, batch_size, lr, random_state, device)
        self.lam = lam
        self.barycenter = barycenter
        self.n_iter = n_iter
        self.reg = reg
        self.beta = beta
        self.memory = memory
        self.memory_rate = memory_rate
        self.predict_with = predict_with
        self.pseudo_envs = pseudo_envs
        self.pseudo_env_epochs = pseudo_env_epochs
        self.normalize = normalize

    def _check_params(self) -> None:
        super()._check_params()
        check_weight("lam", self.lam)
        check_weight("beta", self.beta)
        if self.barycenter not in BARYCENTERS:
            raise ValueError(f"barycenter must be one of {', '.join(BARYCENTERS)}, got {self.barycenter!r}")
        check_int("n_iter", self.n_iter)
        check_positive("reg", self.reg)
        check_int("memory", self.memory, 0)
        if self.memory and self.barycenter == "bures":
            raise ValueError(
                "memory (the EMA bank of support points) needs barycenter free_support or sinkhorn"
            )
        if not 0 < check_positive("memory_rate", self.memory_rate) <= 1:
            raise ValueError(f"memory_rate must be in (0, 1], got {self.memory_rate!r}")
        if self.predict_with not in PREDICTORS:
            raise ValueError(
                f"predict_with must be one of {', '.join(PREDICTORS)}, got {self.predict_with!r}"
            )
        check_int("pseudo_envs", self.pseudo_envs, 0)
        if self.pseudo_envs == 1:
            raise ValueError("pseudo_envs must be 0 (environment ids given) or >= 2, got 1")
        check_int("pseudo_env_epochs", self.pseudo_env_epochs)
        if not isinstance(self.normalize, bool):
            raise ValueError(f"normalize must be True or False, got {self.normalize!r}")

    def _environments(self, train: GraphSet) -> np.ndarray:
        if train.env is not None:
            return train.env
        if not self.pseudo_envs:
            raise ValueError(
                "DIGL needs environment ids (GraphSet.env) on the training set; or set pseudo_envs=m >= 2"
                " to infer m pseudo-environments by k-means on ERM embeddings"
            )
        from sklearn.cluster import KMeans

        erm = GraphOODClassifier(
            self.encoder,
            self.hidden,
            self.num_layers,
            self.pool,
            self.pseudo_env_epochs,
            self.batch_size,
            self.lr,
            self.random_state,
            self.device,
        )
        erm._environments = lambda t: np.arange(len(t)) % 2  # type: ignore[method-assign]  # ERM ignores envs
        erm.fit(train)
        km = KMeans(self.pseudo_envs, n_init=10, random_state=self.random_state).fit(erm.embed(train))
        self.pseudo_env_ids_ = km.labels_.astype(np.int64)
        return self.pseudo_env_ids_

    def _setup(self, train: GraphSet) -> None:
        self.bank_ = {} if self.memory else None
        self.prototypes_ = None

    def objective(
        self, z: torch.Tensor, y: torch.Tensor, env: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(U) on one mini-batch: cross-entropy + lam * invariance + beta * Var_e R_e."""
        logits = self.head_(z)
        penalty, _ = invariance_penalty(
            z,
            y,
            env,
            self.barycenter,
            self.n_iter,
            self.reg,
            self.bank_,
            self.memory,
            self.memory_rate,
            self.normalize,
        )
        loss = F.cross_entropy(logits, y) + self.lam * penalty
        if self.beta:
            risks, _ = env_risks(logits, y, env)
            loss = loss + self.beta * risks.var(unbiased=False)
        return loss, penalty

    def fit(self, train: GraphSet, val: GraphSet | None = None) -> DIGL:
        super().fit(train, val)
        if self.predict_with == "prototype":
            self.prototypes_ = self.class_prototypes(train)
        return self

    def class_prototypes(self, graphs: GraphSet, n_support: int = 32) -> dict[int, Prototype]:
        """nu_y over a whole set: the barycenter of its environments' class-y embeddings (``lambda_e ∝ n_e``)."""
        z = self._embed(graphs).double()
        env = np.zeros(len(graphs), dtype=np.int64) if graphs.env is None else graphs.env
        kind = "free_support" if self.barycenter == "bures" else self.barycenter
        out = {}
        for c in self.classes_.tolist():
            envs = [e for e in np.unique(env) if np.any((graphs.y == c) & (env == e))]
            clouds = [z[torch.as_tensor((graphs.y == c) & (env == e))] for e in envs]
            weights = np.array([np.sum(env == e) for e in envs], dtype=float)
            out[c] = barycenter(clouds, weights, kind, n_support=n_support, n_iter=self.n_iter, reg=self.reg)
        return out

    def predict_proba(self, graphs: GraphSet) -> np.ndarray:
        if self.predict_with == "head" or self.prototypes_ is None:
            return super().predict_proba(graphs)
        z = self._embed(graphs).double()
        # W_2^2(delta_z, nu_y) = sum_i b_i |z - x_i|^2; probabilities by a softmax of the negative distance
        dist = torch.stack(
            [
                ((z[:, None, :] - p.support.double()[None]) ** 2).sum(-1) @ p.weights.double()
                for p in (self.prototypes_[c] for c in self.classes_.tolist())
            ],
            1,
        )
        return torch.softmax(-dist, 1).numpy()
