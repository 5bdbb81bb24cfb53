"""The exact case: a Gaussian target ``N(mu, S)`` with the source ``N(0, s0^2 I)``.

``x_t = (1 - t) x0 + t x1`` is Gaussian with mean ``t mu`` and covariance ``C_t = (1 - t)^2 s0^2 I + t^2 S``;
the regression targets of Eq. (6) have the closed-form conditional expectations

    v_t(x) = E[x1 - x0 | x_t = x] = mu + (t S - (1 - t) s0^2 I) C_t^{-1} (x - t mu),
    h_t(x) = E[-grad E(x1) | x_t = x] = -t C_t^{-1} (x - t mu)   (so h / t is the marginal score).

``GaussianMarginalField`` serves them as a ``field(t, x) -> (v, h)`` for :func:`sampler.integrate`.
"""

from __future__ import annotations

import torch


class GaussianMarginalField:
    """The closed-form marginal ``(v_t, h_t)`` for the target ``N(mean, cov)`` and source ``N(0, s0^2 I)``."""

    def __init__(self, mean: torch.Tensor, cov: torch.Tensor, source_scale: float = 1.0):
        self.mean = torch.as_tensor(mean, dtype=torch.float64)
        self.cov = torch.as_tensor(cov, dtype=torch.float64)
        self.s0 = float(source_scale)
        self.d = len(self.mean)

    def __call__(self, t: torch.Tensor, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(v_t(x_i), h_t(x_i))`` at rows ``(t_i, x_i)``; ``t`` of shape ``(n,)``, ``x`` of shape ``(n, d)``."""
        x = x.to(torch.float64)
        t = t.reshape(-1).to(torch.float64).expand(len(x))
        if bool((t == t[0]).all()):
            t = t[:1]  # one time for every row (as in integrate): one d x d solve
        eye = torch.eye(self.d, dtype=torch.float64)
        tt = t[:, None, None]
        c_t = (1 - tt) ** 2 * self.s0**2 * eye + tt**2 * self.cov
        white = (
            torch.linalg.solve(c_t, (x - t[:, None] * self.mean)[..., None])
            if len(t) > 1
            else torch.linalg.solve(c_t[0], (x - t[0] * self.mean).T).T[..., None]
        )
        a = tt * self.cov - (1 - tt) * self.s0**2 * eye
        v = self.mean + ((a @ white)[..., 0] if len(t) > 1 else (white[..., 0] @ a[0].T))
        return v, -t[:, None] * white[..., 0]

    def drift(self, t: torch.Tensor, x: torch.Tensor, gamma: float) -> torch.Tensor:
        """The marginal drift ``v + gamma (1 - t) h`` at rows ``(t_i, x_i)``."""
        v, h = self(t, x)
        return v + gamma * (1 - t.reshape(-1, 1).to(torch.float64)) * h
