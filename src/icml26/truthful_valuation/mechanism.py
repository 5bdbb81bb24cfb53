"""The mechanism: sources submit datasets, the mediator values coalitions and rewards with semivalues.

0. The mediator's prior: by default fitted on its validation set ``V`` alone by empirical Bayes
   (:mod:`.empirical_bayes`, type-II maximum likelihood of ``sigma2`` and ``tau2``), or a fixed prior.
1. Each submission ``D~_i`` is reduced to its sufficient statistics (cached once per source).
2. A coalition's value ``v(C)`` is the DVF of the posterior of its summed statistics, on the
   mediator's validation set ``V`` unknown to the sources (:mod:`.valuation`).
3. Each source's value is its semivalue ``phi_i`` (:mod:`.semivalues`): exact enumeration of the
   ``2^n`` coalitions for ``n <= 10``, Monte Carlo beyond (``method="monte_carlo"``).
4. Rewards are the values, or with a limited budget ``B`` [inferred]: ``"scale"``
   ``r = phi * min(1, B / sum_j phi_j)`` or ``"cap"`` ``r_i = min(phi_i, B / n)``.

``dvf="peer_prediction"`` is the no-validation-set relaxation [inferred] (pass no validation set; the
semivalue and method do not apply and must stay at their defaults): values are
:func:`.valuation.peer_prediction_scores` and no coalition is valued.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from icml26.truthful_valuation.empirical_bayes import EmpiricalBayesLinear
from icml26.truthful_valuation.models import (
    BayesianModel,
    Dataset,
    GaussianLinearModel,
    NormalInverseGammaModel,
    check_dataset,
)
from icml26.truthful_valuation.semivalues import (
    EXACT_LIMIT,
    Semivalue,
    exact_semivalues,
    monte_carlo_semivalues,
)
from icml26.truthful_valuation.valuation import (
    DVF,
    DVFS,
    NEEDS_VALIDATION,
    check_dvf,
    coalition_values,
    game_table,
    peer_prediction_scores,
)

BUDGET_RULES = ("scale", "cap")
# the slope prior of the named fixed-prior option FIXED_PRIOR (NIG, theta | sigma2 ~ N(0, sigma2 tau2 I)),
# the default before empirical Bayes. It was chosen after a 40-trial unit test on data with sigma2 = 0.25
# (tau2 = 1 let duplication pay there), the case it is then checked on; it is a fixed number in y's units,
# and duplication pays under it on data with sigma2 = 1e-2 (or whenever y is scaled by 0.1).
DEFAULT_TAU2 = 100.0
FIXED_PRIOR_TAU2 = DEFAULT_TAU2


def fixed_prior(n_features: int, intercept: bool = False) -> NormalInverseGammaModel:
    """The named fixed-prior option (the default before empirical Bayes): NIG with ``a0 = 2``, ``b0 = 1``
    and ``tau2 =`` :data:`FIXED_PRIOR_TAU2`. Not scale-equivariant: right only for some scales of y."""
    return NormalInverseGammaModel(n_features, tau2=FIXED_PRIOR_TAU2, intercept=intercept)


@dataclass
class Valuation:
    """What :meth:`Mechanism.value` returns.

    values: each source's semivalue ``phi_i`` (or peer-prediction score), ``(n,)``.
    rewards: what each source is paid, ``(n,)`` (equal to ``values`` without a budget).
    coalitions: ``{members (sorted tuple): v}`` for every coalition valued (all ``2^n`` when exact).
    standard_errors: Monte Carlo standard errors of ``values`` (zeros when exact).
    table: ``table[mask] = v(coalition of mask)`` when exact, else empty.
    model: the model that valued the coalitions (with the empirical-Bayes default, the Gaussian linear
    model fitted on the validation set); None for a user DVF.
    """

    values: np.ndarray
    rewards: np.ndarray
    coalitions: dict[tuple[int, ...], float]
    standard_errors: np.ndarray
    table: np.ndarray = field(default_factory=lambda: np.empty(0))
    model: BayesianModel | None = None

    @property
    def grand_value(self) -> float:
        """``v(N)`` (nan when it was not valued)."""
        n = len(self.values)
        return self.coalitions.get(tuple(range(n)), math.nan)

    def coalition_value(self, members: Sequence[int]) -> float:
        """``v(C)`` of the coalition of source indices ``members`` (any order, no repeats), if it was valued."""
        n = len(self.values)
        if isinstance(members, str | bytes) or not isinstance(members, Sequence | set | frozenset):
            raise TypeError(f"members must be a collection of source indices, got {type(members).__name__}")
        bad = [
            m for m in members if isinstance(m, bool) or not isinstance(m, int | np.integer) or not 0 <= m < n
        ]
        if bad:
            raise ValueError(f"coalition indices must be integers in 0..{n - 1} (the sources), got {bad}")
        key = tuple(sorted(int(m) for m in members))
        if len(set(key)) != len(key):
            raise ValueError(f"coalition members must not repeat, got {list(members)}")
        if key not in self.coalitions:
            raise KeyError(
                f"coalition {key} was not valued (Monte Carlo values only the coalitions it sampled)"
            )
        return self.coalitions[key]


def budgeted_rewards(values: np.ndarray, budget: float | None, rule: str = "scale") -> np.ndarray:
    """Rewards under a budget ``B`` [inferred]: ``"scale"`` shrinks all values by ``min(1, B / sum phi)``
    (when the sum is positive; a non-positive sum is paid as is, it spends nothing); ``"cap"`` pays at
    most ``B / n`` each. ``None``: the values themselves."""
    if rule not in BUDGET_RULES:
        raise ValueError(f"budget rule must be one of {', '.join(BUDGET_RULES)}, got {rule!r}")
    values = np.asarray(values, dtype=float)
    if values.ndim != 1 or values.size == 0 or not np.isfinite(values).all():
        raise ValueError(f"values must be a non-empty 1-D array of finite numbers, got shape {values.shape}")
    if budget is None:
        return values.copy()
    _check_budget(budget)
    if rule == "cap":
        return np.minimum(values, budget / len(values))
    total = float(values.sum())
    return values * min(1.0, budget / total) if total > 0 else values.copy()


def _check_budget(budget: object) -> None:
    if (
        isinstance(budget, bool)
        or not isinstance(budget, int | float)
        or not (math.isfinite(budget) and budget > 0)
    ):
        raise ValueError(f"budget must be None or a finite number > 0, got {budget!r}")


class Mechanism:
    """Truthful and fair data valuation: a DVF on a hidden validation set, rewarded by a semivalue.

    ``Mechanism(model, dvf="log_score", semivalue="shapley", budget=None).value(sources, validation)``.
    ``model=None`` (the default) is :class:`~.empirical_bayes.EmpiricalBayesLinear` ``()``: a Gaussian
    linear model of the sources' width whose noise ``sigma2`` and slope prior ``tau2`` are fitted on the
    validation set by type-II maximum likelihood (scale-equivariant in y; pass
    ``EmpiricalBayesLinear(intercept=True)`` for an intercept). A :class:`~.models.BayesianModel` is a
    *fixed* prior used as given (e.g. :func:`fixed_prior`, the old NIG default): a wrong stated ``sigma2``
    or ``tau2`` is not truthful. ``dvf``: a name of :data:`~.valuation.DVFS`, ``"peer_prediction"``, or
    a user DVF (:class:`~.valuation.DVF`: ``dvf(coalition_datasets, validation) -> float``, e.g.
    :class:`~.dvfs.GaussianProcessLogScore`, :class:`~.dvfs.LaplaceLogisticLogScore`); with a user DVF
    ``model`` stays None. ``semivalue``: ``"shapley"``, ``"banzhaf"``, ``"beta(4,1)"`` or a
    :class:`Semivalue`. ``method``: ``"exact"`` (``n <= 10``) or ``"monte_carlo"`` with ``n_samples``
    permutations / coalition draws.
    """

    def __init__(
        self,
        model: BayesianModel | None = None,
        dvf: str | DVF = "log_score",
        semivalue: str | Semivalue = "shapley",
        budget: float | None = None,
        *,
        budget_rule: str = "scale",
        method: str = "exact",
        n_samples: int = 1000,
        seed: int = 0,
    ) -> None:
        custom = not isinstance(dvf, str)
        if custom:
            if not callable(dvf):
                raise TypeError(
                    f"dvf must be a DVF name ({', '.join((*DVFS, 'peer_prediction'))}) or a callable"
                    f" dvf(coalition_datasets, validation) -> float, got {type(dvf).__name__}"
                )
            if model is not None:
                raise ValueError("a user DVF values raw coalition data itself; leave model=None")
        elif model is not None and not isinstance(model, BayesianModel | EmpiricalBayesLinear):
            raise TypeError(
                "model must be None (empirical Bayes on the validation set), an EmpiricalBayesLinear or a"
                f" fixed-prior BayesianModel, got {type(model).__name__}"
            )
        elif dvf == "peer_prediction":
            if model is None or isinstance(model, EmpiricalBayesLinear):
                raise ValueError(
                    "dvf 'peer_prediction' has no validation set to fit the prior on; pass a fixed-prior"
                    " model (e.g. fixed_prior(d) or GaussianLinearModel(d, sigma2=..., tau2=...))"
                )
        else:
            if dvf not in DVFS:
                raise ValueError(f"dvf {dvf!r} is not one of {', '.join((*DVFS, 'peer_prediction'))}")
            check_dvf(model if isinstance(model, BayesianModel) else GaussianLinearModel(1, sigma2=1.0), dvf)
        if budget is not None:
            _check_budget(budget)
        if budget_rule not in BUDGET_RULES:
            raise ValueError(f"budget_rule must be one of {', '.join(BUDGET_RULES)}, got {budget_rule!r}")
        if method not in ("exact", "monte_carlo"):
            raise ValueError(f"method must be 'exact' or 'monte_carlo', got {method!r}")
        if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 2:
            raise ValueError(f"n_samples must be an integer >= 2, got {n_samples!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
        if dvf == "peer_prediction" and (Semivalue.parse(semivalue).kind != "shapley" or method != "exact"):
            raise ValueError(
                "dvf 'peer_prediction' values no coalitions, so semivalue and method do not apply;"
                " leave them at their defaults ('shapley', 'exact')"
            )
        if model is None and not custom:
            model = EmpiricalBayesLinear()
        self.prior = model if isinstance(model, EmpiricalBayesLinear) else None
        self.model, self.dvf, self.semivalue = model, dvf, Semivalue.parse(semivalue)
        self._custom, self._estimated = custom, self.prior is not None
        self.budget, self.budget_rule, self.method = budget, budget_rule, method
        self.n_samples, self.seed = n_samples, seed

    def __repr__(self) -> str:
        return (
            f"Mechanism({self.model!r}, dvf={self.dvf!r}, semivalue={self.semivalue.name!r},"
            f" budget={self.budget!r}, method={self.method!r})"
        )

    def _check_sources(self, sources: Sequence[Dataset]) -> None:
        one_dataset = isinstance(sources, tuple) and len(sources) == 2 and np.ndim(sources[0]) == 2
        if not isinstance(sources, Sequence) or one_dataset:
            raise TypeError("sources must be a list of (X, y) datasets, one per source")
        if len(sources) == 0:
            raise ValueError("sources must hold at least one dataset")
        if self._estimated:  # empirical Bayes: statistics [X'X, X'y, n, y'y] need no hyperparameters
            first = sources[0]
            width = np.shape(first[0])[1] if isinstance(first, tuple | list) and np.ndim(first[0]) == 2 else 0
            if width < 1:
                raise ValueError("source 0: X must be 2-D (points, features) with at least one feature")
            if not isinstance(self.model, GaussianLinearModel) or self.model.n_features != width:
                self.model = GaussianLinearModel(width, sigma2=1.0, intercept=self.prior.intercept)

    def source_statistics(self, sources: Sequence[Dataset]) -> np.ndarray:
        """Validated sufficient statistics of each submission, ``(n, k)``."""
        self._check_sources(sources)
        if self._custom:
            raise ValueError("a user DVF has no sufficient statistics; call value() directly")
        checked = [self.model.check_data(s, f"source {i}") for i, s in enumerate(sources)]
        return np.stack([self.model.statistics(X, y) for X, y in checked])

    def value(self, sources: Sequence[Dataset], validation: Dataset | None = None) -> Valuation:
        """Value every source; ``validation`` is the mediator's ``(X, y)`` (required by
        ``log_score``, ``validation_mse`` and ``validation_accuracy``; passed as is to a user DVF)."""
        if self._custom:
            return self._value_custom(sources, validation)
        stats = self.source_statistics(sources)
        n = len(stats)
        model = self.model
        if self.dvf == "peer_prediction":
            if validation is not None:
                raise ValueError(
                    "dvf 'peer_prediction' is the relaxation without a validation set; pass validation=None"
                )
            checked = [model.check_data(s, f"source {i}") for i, s in enumerate(sources)]
            values = peer_prediction_scores(model, checked)
            return Valuation(
                values, budgeted_rewards(values, self.budget, self.budget_rule), {}, np.zeros(n), model=model
            )
        if self.dvf in NEEDS_VALIDATION or self._estimated:
            if validation is None:
                need = "the empirical-Bayes prior is fitted on it" if self._estimated else "the DVF scores it"
                raise ValueError(
                    f"dvf {self.dvf!r} with this model needs a validation set (X, y) ({need}); got None"
                )
            validation = model.check_data(validation, "validation")
            if len(validation[1]) == 0:
                raise ValueError(f"dvf {self.dvf!r} needs a non-empty validation set; got 0 points")
        if self._estimated:  # the prior fitted on the validation set only: no submission moves it
            model = self.prior.fit(validation)
        if self.method == "exact":
            if n > EXACT_LIMIT:
                raise ValueError(
                    f"exact enumeration handles n <= {EXACT_LIMIT} sources, got {n}; pass method='monte_carlo'"
                )
            table = game_table(model, stats, self.dvf, validation)
            values = exact_semivalues(table, self.semivalue)
            coalitions = {tuple(i for i in range(n) if m >> i & 1): float(table[m]) for m in range(2**n)}
            errors = np.zeros(n)
        else:
            cache: dict[int, float] = {}

            def value_of(mask: int) -> float:
                if mask not in cache:
                    members = [i for i in range(n) if mask >> i & 1]
                    cache[mask] = float(coalition_values(model, stats[members].sum(0), self.dvf, validation))
                return cache[mask]

            rng = np.random.default_rng(self.seed)
            values, errors = monte_carlo_semivalues(value_of, n, self.semivalue, self.n_samples, rng)
            coalitions = {tuple(i for i in range(n) if m >> i & 1): v for m, v in cache.items()}
            table = np.empty(0)
        return Valuation(
            values, budgeted_rewards(values, self.budget, self.budget_rule), coalitions, errors, table, model
        )

    def _value_custom(self, sources: Sequence[Dataset], validation: Dataset | None) -> Valuation:
        """Values with a user DVF: each coalition's raw datasets go to ``dvf(datasets, validation)``."""
        self._check_sources(sources)
        checked = [check_dataset(s, f"source {i}") for i, s in enumerate(sources)]
        widths = {X.shape[1] for X, _ in checked}
        if len(widths) > 1:
            raise ValueError(
                f"every source must have the same number of features, got widths {sorted(widths)}"
            )
        n = len(checked)
        cache: dict[int, float] = {}

        def value_of(mask: int) -> float:
            if mask not in cache:
                members = [checked[i] for i in range(n) if mask >> i & 1]
                out = np.asarray(self.dvf(members, validation), dtype=float)  # type: ignore[operator]
                if out.shape not in ((), (1,)) or not np.isfinite(out).all():
                    raise ValueError(f"the user DVF must return one finite number, got {out!r} for {mask:b}")
                cache[mask] = float(out.reshape(()))
            return cache[mask]

        if self.method == "exact":
            if n > EXACT_LIMIT:
                raise ValueError(
                    f"exact enumeration handles n <= {EXACT_LIMIT} sources, got {n}; pass method='monte_carlo'"
                )
            table = np.array([value_of(m) for m in range(2**n)])
            values, errors = exact_semivalues(table, self.semivalue), np.zeros(n)
        else:
            rng = np.random.default_rng(self.seed)
            values, errors = monte_carlo_semivalues(value_of, n, self.semivalue, self.n_samples, rng)
            table = np.empty(0)
        coalitions = {tuple(i for i in range(n) if m >> i & 1): v for m, v in sorted(cache.items())}
        return Valuation(
            values, budgeted_rewards(values, self.budget, self.budget_rule), coalitions, errors, table
        )
