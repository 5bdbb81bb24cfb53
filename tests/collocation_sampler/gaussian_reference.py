"""A Gaussian target whose probability-flow ODE has a closed form: the exact reference of several tests."""

import torch

from icml26.collocation_sampler import OU

MU, S = torch.tensor([[1.0, -1.0]], dtype=torch.float64), 0.5


def gaussian_flow(x: torch.Tensor, t0: float, t1: float) -> torch.Tensor:
    """Closed-form PF-ODE map of N(mu, s^2 I) from t0 to t1 (OU): y = m1 mu + (s_1 / s_0)(x - m0 mu)."""
    tt = torch.tensor([t0, t1], dtype=torch.float64)
    m = OU.mean_scale(tt)
    st = torch.sqrt(m**2 * S**2 + OU.noise_var(tt))
    return m[1] * MU + st[1] / st[0] * (x - m[0] * MU)
