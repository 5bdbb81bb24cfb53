"""Non-asymptotic error bound of a compression-based maximum-likelihood (ML) inverse solver.

[inferred] The paper's own theorem is not public; this is a bound derived here in the form the abstract
describes (and the Jalali/ZS-NCD line of compression-based denoising). Let ``C`` be a code (the images a
decoder can output from at most ``nR`` bits, so ``|C| <= 2^{nR}``), ``y = A x + n`` with
``n ~ N(0, sigma^2 I_m)``, and the ML solver ``x_hat = argmin_{c in C} ||y - A c||^2``. For ``c*`` the
codeword nearest to ``x`` in the ``A``-norm, with probability at least ``1 - eta``:

    ||A (x - x_hat)|| <= ||A (x - c*)|| + 2 sigma sqrt(2 ln(|C| / eta)).                        (B)

Proof: ``||y - A x_hat|| <= ||y - A c*||`` expands to ``u^2 <= d^2 + 2 <n, A (x_hat - c*)>`` with
``u = ||A(x - x_hat)||``, ``d = ||A(x - c*)||``; a union bound over the ``|C|`` codewords gives
``<n, A (c - c*)> <= sigma ||A (c - c*)|| t`` for all ``c`` at once, ``t = sqrt(2 ln(|C| / eta))``, and
``||A (x_hat - c*)|| <= u + d``; so ``u^2 - 2 sigma t u - (d^2 + 2 sigma t d) <= 0``, i.e. ``u <= d + 2 sigma t``.
Per sample (divide by ``m``), the rate appears in the estimation term ``2 sigma sqrt(2 (nR ln 2 +
ln(1/eta)) / m)``: a larger rate lowers the approximation term ``d`` and raises the estimation term,
which is how the rate-distortion constraint acts as a regulariser. For ``A = I`` it bounds the
per-pixel RMSE; for other ``A`` a lower restricted isometry ``||A v|| >= kappa ||v||`` on code
differences turns it into a bound on ``||x - x_hat||``, divided by ``kappa``.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["ml_decode", "ml_error_bound"]


def ml_error_bound(
    approximation: float, bits: float, sigma: float, samples: int, eta: float = 0.05, kappa: float = 1.0
) -> float:
    """Right side of (B) per sample, as an RMSE: ``(d + 2 sigma sqrt(2 (bits ln 2 + ln(1/eta)))) / (kappa sqrt(m))``.

    approximation: ``d = ||A (x - c*)||`` (not per sample); bits: ``log2 |C|``; samples: ``m``."""
    for name, v in (("approximation", approximation), ("bits", bits), ("sigma", sigma)):
        if not (isinstance(v, int | float) and math.isfinite(v) and v >= 0):
            raise ValueError(f"{name} must be a finite number >= 0, got {v!r}")
    if not (isinstance(samples, int) and samples >= 1):
        raise ValueError(f"samples must be an integer >= 1, got {samples!r}")
    if not 0 < eta < 1 or not kappa > 0:
        raise ValueError(f"need 0 < eta < 1 and kappa > 0, got eta={eta!r}, kappa={kappa!r}")
    t = math.sqrt(2 * (bits * math.log(2) + math.log(1 / eta)))
    return (approximation + 2 * sigma * t) / (kappa * math.sqrt(samples))


def ml_decode(y: np.ndarray, code: np.ndarray, a: np.ndarray | None = None) -> int:
    """Index of the ML codeword ``argmin_c ||y - A c||^2`` (``code`` rows are codewords; ``a`` defaults to I)."""
    ac = code if a is None else code @ a.T
    return int(np.argmin(((ac - y) ** 2).sum(axis=1)))
