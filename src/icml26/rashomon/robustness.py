"""Reactive robustness: after a white-box attack on the deployed model, switch within the Rashomon set.

The attacker knows the deployed model f0 (e.g. the optimal tree) and perturbs every point it can move
to the other label within ``eps`` (:func:`adversarial_examples`). The defender, without retraining,
switches to the member of R with the best accuracy on the attacked half A and is scored on the
disjoint half B (the predecessor selects and scores on the same points, which is optimistic) [inferred].
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from icml26.rashomon.attacks import _check_eps, adversarial_examples, evasion_distance
from icml26.rashomon.trees import BoxModel, check_labels

SURVIVAL_MARGIN = 0.05  # a member "survives" when its accuracy under the attack is >= clean - 5 points


def _check_models(R: Sequence[BoxModel], f0: BoxModel) -> None:
    if not isinstance(f0, BoxModel):
        raise TypeError(
            f"f0 must be a BoxModel (ThresholdBinarizer.boxes or sklearn_boxes), got {type(f0).__name__}"
        )
    if len(R) == 0 or not all(isinstance(m, BoxModel) for m in R):
        raise TypeError("R must be a non-empty sequence of BoxModel members")
    widths = {m.lo.shape[1] for m in R} | {f0.lo.shape[1]}
    if len(widths) != 1:
        raise ValueError(f"the members and f0 work on different numbers of features: {sorted(widths)}")


def halves(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The selection half A and the scoring half B of ``n`` points (a seeded permutation cut in two)."""
    perm = np.random.default_rng(seed).permutation(n)
    return perm[: n // 2], perm[n // 2 :]


def select_and_score(ok_select: np.ndarray, A: np.ndarray, B: np.ndarray, ok_score: Any = None) -> float:
    """Pick the row of ``ok_select`` (models x points, correct or not) with the best accuracy on half A,
    return its accuracy on half B of ``ok_score`` (default ``ok_select``); ties go to the first row."""
    ok_select = np.asarray(ok_select, dtype=bool)
    ok_score = ok_select if ok_score is None else np.asarray(ok_score, dtype=bool)
    best = int(np.argmax(ok_select[:, A].mean(axis=1)))
    return float(ok_score[best, B].mean())


def reactive_defense(
    R: Sequence[BoxModel],
    f0: BoxModel,
    X: Any,
    y: Any,
    eps: float,
    seed: int = 0,
    X_adv: Any = None,
) -> dict[str, float]:
    """Attack f0 at ``eps`` on (X, y); select the member best on half A of the attacked points, score it on B.

    ``X_adv``: points already attacked (rows matching ``X``); then no attack is run and ``eps`` is only
    recorded. Returns ``f0_clean``, ``f0_adv`` (f0's accuracy on attacked half B), ``switched_adv`` and
    ``switched_clean`` (the selected member on attacked / clean half B), ``best_index`` and
    ``survival`` (share of R whose accuracy on all attacked points is >= its clean accuracy - 5 points).
    """
    _check_models(R, f0)
    X = np.asarray(X, dtype=float)
    y = check_labels(y, X.shape[0])
    eps = _check_eps(eps)
    if X.shape[0] < 4:
        raise ValueError(f"reactive_defense needs >= 4 points (two halves), got {X.shape[0]}")
    if X_adv is None:
        X_adv = adversarial_examples(X, y, f0, eps)
    else:
        X_adv = np.asarray(X_adv, dtype=float)
        if X_adv.shape != X.shape or not np.isfinite(X_adv).all():
            raise ValueError(f"X_adv must be finite with the shape of X {X.shape}, got {X_adv.shape}")
    A, B = halves(X.shape[0], seed)
    adv_pred = np.array([m.predict(X_adv) for m in R])
    clean_pred = np.array([m.predict(X) for m in R])
    adv_ok, clean_ok = adv_pred == y, clean_pred == y
    best = int(np.argmax(adv_ok[:, A].mean(axis=1)))
    f0_adv_ok = f0.predict(X_adv) == y
    f0_clean_ok = f0.predict(X) == y
    return {
        "f0_clean": float(f0_clean_ok[B].mean()),
        "f0_adv": float(f0_adv_ok[B].mean()),
        "switched_adv": float(adv_ok[best, B].mean()),
        "switched_clean": float(clean_ok[best, B].mean()),
        "best_index": float(best),
        "survival": survival_share(adv_ok, clean_ok),
    }


def survival_share(adv_ok: np.ndarray, clean_ok: np.ndarray, margin: float = SURVIVAL_MARGIN) -> float:
    """Share of members (rows) whose attacked accuracy is >= their clean accuracy - ``margin``."""
    return float(np.mean(adv_ok.mean(axis=1) >= clean_ok.mean(axis=1) - margin - 1e-12))


def own_attack_selection(R: Sequence[BoxModel], X: Any, y: Any, eps: float, seed: int = 0) -> float:
    """The alternative of picking a member for its own robustness: every member under its own exact
    white-box attack at ``eps``; the member best on half A, scored (under its own attack) on half B."""
    if len(R) == 0 or not all(isinstance(m, BoxModel) for m in R):
        raise TypeError("R must be a non-empty sequence of BoxModel members")
    X = np.asarray(X, dtype=float)
    y = check_labels(y, X.shape[0])
    eps = _check_eps(eps)
    A, B = halves(X.shape[0], seed)
    ok = np.array([evasion_distance(X, y, m) > eps for m in R])
    return select_and_score(ok, A, B)


def pool_selection(models: Sequence[Any], X_adv: Any, y: Any, seed: int = 0) -> float:
    """The alternative of switching to any model of a pool (fitted objects with ``predict``, e.g. CARTs
    not in R): the one best on half A of the points already attacked, scored on half B."""
    if len(models) == 0:
        raise ValueError("the pool must hold at least one model")
    X_adv = np.asarray(X_adv, dtype=float)
    y = check_labels(y, X_adv.shape[0])
    A, B = halves(X_adv.shape[0], seed)
    ok = np.array([np.asarray(m.predict(X_adv)) == y for m in models])
    return select_and_score(ok, A, B)
