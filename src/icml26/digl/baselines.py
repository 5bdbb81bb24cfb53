"""The baselines of the graph-OOD literature (as benchmarked by GOOD), over the same GIN, head and loop.

Each overrides only :meth:`objective`, one mini-batch's loss, with its one penalty weight:

- ERM: the mean cross-entropy.
- IRM (Arjovsky et al. 2019, IRMv1): ``sum_e R_e + lam * sum_e |d R_e(w * logits) / d w|_{w=1}^2``.
- VREx (Krueger et al. 2021): ``mean_e R_e + lam * Var_e R_e``.
- GroupDRO (Sagawa et al. 2020): ``sum_e q_e R_e``, ``q_e ∝ q_e exp(step_size * R_e)`` updated per batch.
- Coral (Sun & Saenko 2016, Deep CORAL as in DomainBed/GOOD): ``mean CE + lam * mean_{e<e'}
  (|m_e - m_e'|^2 + |S_e - S_e'|_F^2)`` of the embeddings' means and covariances.
- Mixup (Zhang et al. 2018) on graph embeddings (manifold mixup): ``z~ = t z_i + (1 - t) z_j``,
  ``t ~ Beta(alpha, alpha)``, loss ``t CE(y_i) + (1 - t) CE(y_j)``. [simplified]: GOOD's
  MixupForGraph mixes node features of paired graphs.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from icml26.digl.digl import env_risks
from icml26.digl.encoder import GraphOODClassifier, check_weight


class ERM(GraphOODClassifier):
    """Empirical risk minimisation: the mean cross-entropy over the batch."""


class _Weighted(GraphOODClassifier):
    """A baseline with one penalty weight ``lam`` (the other parameters as :class:`GraphOODClassifier`)."""

    def __init__(self, encoder=None, lam: float = 1.0, **kwargs) -> None:
        super().__init__(encoder, **kwargs)
        self.lam = lam

    @classmethod
    def _get_param_names(cls):
        return sorted({"lam", *GraphOODClassifier._get_param_names()})

    def _check_params(self) -> None:
        super()._check_params()
        check_weight("lam", self.lam)


class IRM(_Weighted):
    """IRMv1: the squared gradient of each environment's risk with respect to a dummy scale on the logits."""

    def objective(self, z, y, env):
        logits = self.head_(z)
        scale = torch.ones((), requires_grad=True, device=z.device)
        risks, _ = env_risks(logits * scale, y, env)
        grads = torch.stack([torch.autograd.grad(r, scale, create_graph=True)[0] for r in risks])
        penalty = (grads**2).sum()
        return risks.sum() + self.lam * penalty, penalty


class VREx(_Weighted):
    """V-REx: the variance of the environments' risks."""

    def objective(self, z, y, env):
        risks, _ = env_risks(self.head_(z), y, env)
        penalty = risks.var(unbiased=False)
        return risks.mean() + self.lam * penalty, penalty


class Coral(_Weighted):
    """Deep CORAL across environments: squared differences of embedding means and covariances, per pair."""

    def objective(self, z, y, env):
        loss = F.cross_entropy(self.head_(z), y)
        groups = [z[env == e] for e in torch.unique(env)]
        groups = [g for g in groups if g.shape[0] >= 2]
        terms = []
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                a, b = groups[i], groups[j]
                terms.append(
                    ((a.mean(0) - b.mean(0)) ** 2).mean() + ((torch.cov(a.T) - torch.cov(b.T)) ** 2).mean()
                )
        penalty = torch.stack(terms).mean() if terms else z.sum() * 0.0
        return loss + self.lam * penalty, penalty


class GroupDRO(GraphOODClassifier):
    """Group DRO: exponentiated-gradient weights over the environments' risks (``step_size`` > 0)."""

    def __init__(self, encoder=None, step_size: float = 0.01, **kwargs) -> None:
        super().__init__(encoder, **kwargs)
        self.step_size = step_size

    @classmethod
    def _get_param_names(cls):
        return sorted({"step_size", *GraphOODClassifier._get_param_names()})

    def _check_params(self) -> None:
        super()._check_params()
        check_weight("step_size", self.step_size, zero=False)

    def _setup(self, train) -> None:
        self.q_ = torch.ones(len(self.env_ids_), device=self.device) / len(self.env_ids_)
        self._env_index = {int(e): i for i, e in enumerate(self.env_ids_)}

    def objective(self, z, y, env):
        ids = torch.unique(env)
        risks, _ = env_risks(self.head_(z), y, env)
        slots = torch.as_tensor([self._env_index[int(e)] for e in ids], device=z.device)
        with torch.no_grad():
            self.q_[slots] *= torch.exp(self.step_size * risks.detach())
            self.q_ /= self.q_.sum()
        q = self.q_[slots] / self.q_[slots].sum()
        return (q * risks).sum(), z.new_zeros(())


class Mixup(GraphOODClassifier):
    """Manifold mixup of graph embeddings within the batch, ``t ~ Beta(alpha, alpha)``."""

    def __init__(self, encoder=None, alpha: float = 0.4, **kwargs) -> None:
        super().__init__(encoder, **kwargs)
        self.alpha = alpha

    @classmethod
    def _get_param_names(cls):
        return sorted({"alpha", *GraphOODClassifier._get_param_names()})

    def _check_params(self) -> None:
        super()._check_params()
        check_weight("alpha", self.alpha, zero=False)

    def _setup(self, train) -> None:
        self._rng = np.random.default_rng(self.random_state + 1)  # keeps torch's generator as ERM's

    def objective(self, z, y, env):
        t = float(self._rng.beta(self.alpha, self.alpha))
        perm = torch.as_tensor(self._rng.permutation(z.shape[0]), device=z.device)
        logits = self.head_(t * z + (1 - t) * z[perm])
        loss = t * F.cross_entropy(logits, y) + (1 - t) * F.cross_entropy(logits, y[perm])
        return loss, z.new_zeros(())
