"""Experiment: does any manipulation raise a source's expected semivalue under the log-score DVF?

Four sources (n = 20/40/60/80) and a hidden validation set (|V| = 200). Source 1 (the smallest)
manipulates; the others are truthful. Paired trials share theta, the data and V across strategies.

1. Synthetic Gaussian linear regression (d = 5, sigma2 = tau2 = 1; theta from the prior in every trial):
   every strategy x {Shapley, Banzhaf, Beta(4,1)} x {log score, information gain, validation MSE,
   dataset size, log score of a mediator whose sigma2 is 4x too large}; the expected value in every
   coalition holding source 1; the two relaxations (budget: scaled or capped rewards; no validation
   set: peer prediction).
2. Synthetic Normal-Inverse-Gamma regression and Dirichlet-Beta naive Bayes, Shapley.
3. Real data (sources and V drawn from the rows each trial), Shapley: diabetes (NIG model),
   breast_cancer and COMPAS (naive Bayes on binary features). These models are misspecified.
3b. The sigma2 trap: Gaussian data with sigma2 = trap_sigma2 (0.25), theta ~ N(0, I), valued with sigma2
   estimated (NIG with the slope prior tau2 = 1, and with the fixed-prior option tau2 = 100, the default
   before empirical Bayes), stated correctly, or assumed 1 (the old default, the control).
3c. Held-out noise levels sigma2 in {1e-4, 1e-2, 1, 100} and y scaled by 0.1 (theta ~ N(0, I)), Shapley:
   the default mechanism (sigma2 and tau2 fitted on V by empirical Bayes) against the fixed priors (NIG
   tau2 = 100, NIG tau2 = 1, Gaussian sigma2 = 1) and the stated truth; and the scale-equivariance gap of
   the values on identical draws (sigma2 = 1 vs y scaled).
4. (F) axioms checked exactly on instances with an empty source and two identical sources.

Strategies: the six of :mod:`.manipulation` plus ``sharpen`` (noise-free fabrication at the source's own
point prediction), where a DVF that scores only the point prediction should barely react.

Every "manipulated - truthful" difference is judged by the pre-registered rule: mean < 0 with
one-sided z > 2, i.e. its interval mean +- 2 SE (stored as the metric's ``_ci``; >= the 95% t interval
for >= 300 trials) below 0. The relative tests compare unit-free gains, ``mean difference / |mean
truthful value|`` per DVF (``..._rel``), paired over trials: the log score's gain minus each naive DVF's,
the strongest (most penalising) naive DVF deciding.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from icml26.common import Experiment, Plot, Resources, Result, progress, unit
from icml26.common.experiment import comparison_key
from icml26.truthful_valuation.claims import (
    BACKGROUND,
    FIXED_PRIORS,
    HELDOUT,
    HELDOUT_SETTINGS,
    MANIPULATIONS,
    NAIVE,
    NAMES,
    OTHER_SETTINGS,
    PAPER_CLAIMS,
    SEMIVALUES,
    TESTS,
    THEOREM,
    Y_SCALE,
)
from icml26.truthful_valuation.claims import SETTING_NAMES as _NAMES
from icml26.truthful_valuation.datasets import load_real, real_trial, synthetic_trial
from icml26.truthful_valuation.empirical_bayes import EmpiricalBayesLinear
from icml26.truthful_valuation.fairness import (
    efficiency_gap,
    equal_split,
    fixed_order_contributions,
    null_player_gap,
    null_players,
    symmetric_pairs,
    symmetry_gap,
)
from icml26.truthful_valuation.mechanism import DEFAULT_TAU2, budgeted_rewards, fixed_prior
from icml26.truthful_valuation.models import (
    BayesianModel,
    GaussianLinearModel,
    NaiveBayesModel,
    NormalInverseGammaModel,
)
from icml26.truthful_valuation.semivalues import exact_semivalues
from icml26.truthful_valuation.truthfulness import (
    Evaluator,
    merge_trials,
    paired_difference,
    run_trials,
    trial_rng,
)
from icml26.truthful_valuation.valuation import game_table

STRATEGIES = ("truthful", *MANIPULATIONS)
_CHUNK = 50  # trials per resumable unit


def _setting(name: str, config: dict[str, Any]) -> tuple[BayesianModel, list[Evaluator], Callable]:
    """The model of the sources, the mediator's evaluators and the trial draw of one setting."""
    d, sizes, nv = config["n_features"], config["sizes"], config["n_validation"]
    if name == "gaussian":
        model: BayesianModel = GaussianLinearModel(d, sigma2=1.0)
        wrong = GaussianLinearModel(d, sigma2=config["misspec_factor"])
        evaluators = [
            Evaluator("log", model, "log_score"),
            Evaluator("ig", model, "information_gain"),
            Evaluator("mse", model, "validation_mse"),
            Evaluator("size", model, "dataset_size"),
            Evaluator("misspec", wrong, "log_score"),
        ]
    elif name == "nig":
        model = NormalInverseGammaModel(d)
        evaluators = [Evaluator(k, model, v) for k, v in _REGRESSION_DVFS]
    elif name == "sigma_trap":  # data with sigma2 = trap_sigma2; mediators estimating, stating or assuming 1
        model = GaussianLinearModel(d, sigma2=config["trap_sigma2"])
        evaluators = [
            Evaluator("log", NormalInverseGammaModel(d), "log_score"),
            Evaluator("vague", NormalInverseGammaModel(d, tau2=DEFAULT_TAU2), "log_score"),
            Evaluator("stated", model, "log_score"),
            Evaluator("wrong", GaussianLinearModel(d, sigma2=1.0), "log_score"),
        ]
    elif name.startswith("heldout_"):  # held-out noise levels (or y scaled): the default prior vs fixed ones
        tag = name[len("heldout_") :]
        scale = Y_SCALE if tag == "yscaled" else 1.0
        data_model = GaussianLinearModel(d, sigma2=1.0 if tag == "yscaled" else HELDOUT[tag])
        # the sources' own model: the truth in the units they see (y scaled: sigma2 and tau2 times scale^2)
        model = GaussianLinearModel(d, sigma2=data_model.sigma2 * scale**2, tau2=scale**2)
        evaluators = [
            Evaluator("eb", EmpiricalBayesLinear(), "log_score"),
            Evaluator("fixed", fixed_prior(d), "log_score"),
            Evaluator("nig1", NormalInverseGammaModel(d), "log_score"),
            Evaluator("wrong", GaussianLinearModel(d, sigma2=1.0), "log_score"),
            Evaluator("stated", model, "log_score"),
        ]

        def draw(rng: np.random.Generator) -> tuple:
            sources, (Xv, yv) = synthetic_trial(data_model, sizes, nv, rng)
            return [(X, scale * y) for X, y in sources], (Xv, scale * yv)

        return model, evaluators, draw
    elif name == "naive_bayes":
        model = NaiveBayesModel(d)
        wrong = NaiveBayesModel(d, beta=config["misspec_factor"] ** 2)
        evaluators = [
            Evaluator("log", model, "log_score"),
            Evaluator("acc", model, "validation_accuracy"),
            Evaluator("size", model, "dataset_size"),
            Evaluator("misspec", wrong, "log_score"),
        ]
    else:
        data = load_real(name)
        width = data[0].shape[1]
        if name == "diabetes":
            model = NormalInverseGammaModel(width)
            evaluators = [Evaluator(k, model, v) for k, v in _REGRESSION_DVFS]
        else:
            model = NaiveBayesModel(width)
            evaluators = [
                Evaluator(k, model, v)
                for k, v in (("log", "log_score"), ("acc", "validation_accuracy"), ("size", "dataset_size"))
            ]
        return model, evaluators, lambda rng: real_trial(data, sizes, nv, rng)
    return model, evaluators, lambda rng: synthetic_trial(model, sizes, nv, rng)


def _strength(model: BayesianModel, config: dict[str, Any]) -> float:
    return config["strength_regression"] if model.task == "regression" else config["strength_classes"]


_REGRESSION_DVFS = (
    ("log", "log_score"),
    ("ig", "information_gain"),
    ("mse", "validation_mse"),
    ("size", "dataset_size"),
)


def _trials(
    name: str,
    config: dict[str, Any],
    n_trials: int,
    seed: int,
    semivalues: tuple[str, ...],
    strategies: tuple[str, ...] = STRATEGIES,
) -> dict:
    """All paired trials of one setting, in resumable chunks."""
    model, evaluators, draw = _setting(name, config)
    chunks = []
    for start in progress(range(0, n_trials, _CHUNK), name):
        trials = range(start, min(start + _CHUNK, n_trials))
        chunks.append(
            unit(
                f"{name}_trials={trials.start}-{trials.stop}",
                lambda trials=trials: run_trials(
                    draw,
                    model,
                    evaluators,
                    strategies,
                    semivalues,
                    trials,
                    seed,
                    copy_from=config["copy_from"],
                    strength=_strength(model, config),
                    peer=name == "gaussian",
                ),
            )
        )
    return merge_trials(chunks)


def _record(
    metrics: dict, rows: list, key: str, manipulated: np.ndarray, truthful: np.ndarray, **row: Any
) -> None:
    """Store ``key`` (mean paired difference), ``key_ci`` (2 SE), ``key_z`` and ``key_paid`` (ex-post share),
    and, for a ``..._diff`` key, ``..._rel``: the relative gain ``mean difference / |mean truthful value|``
    (unit-free, so DVFs on different scales compare) with its ``_ci`` (2 SE / |mean truthful value|)."""
    diff = paired_difference(manipulated, truthful)
    metrics[key], metrics[key + "_ci"] = diff.mean, 2 * diff.se
    metrics[key + "_z"], metrics[key + "_paid"] = diff.z, diff.paid_share
    metrics[key + "_paid_ci"] = 1.96 * math.sqrt(diff.paid_share * (1 - diff.paid_share) / diff.n_trials)
    rows.append({**row, "mean": diff.mean, "se": diff.se, "z": diff.z, "paid_share": diff.paid_share})
    if key.endswith("_diff"):
        scale = _scale(truthful)
        metrics[key[:-5] + "_rel"], metrics[key[:-5] + "_rel_ci"] = diff.mean / scale, 2 * diff.se / scale


def _scale(truthful: np.ndarray) -> float:
    """``|mean truthful value|`` (the relative gain's denominator); 1 if it is 0 (a null source)."""
    return float(abs(np.mean(truthful))) or 1.0


def _paired_relative(
    metrics: dict, ours: str, naive: str, trials: dict, prefix: str, ev: str, sv: str, s: str
) -> None:
    """The paired 95% interval (2 SE over trials) of ``ours_rel - naive_rel`` under its comparison key."""
    per_dvf = []
    for name in ("log", ev):
        manipulated, truthful = (
            trials[f"phi/{name}/{sv}/{s}"][:, 0],
            trials[f"phi/{name}/{sv}/truthful"][:, 0],
        )
        per_dvf.append((manipulated - truthful) / _scale(truthful))
    gap = per_dvf[0] - per_dvf[1]
    metrics[comparison_key(ours, naive, "difference") + "_ci"] = (
        2 * float(gap.std(ddof=1)) / math.sqrt(gap.size)
    )


def _fairness(config: dict[str, Any], seed: int) -> dict[str, float]:
    """(F) on instances [D_a, copy of D_a, D_b, empty, D_c]: relative gaps of efficiency (Shapley),
    symmetry (sources 1, 2) and null player (source 4), for every semivalue and DVF, and the controls."""
    d = config["n_features"]
    model = GaussianLinearModel(d, sigma2=1.0)
    gaps = {k: 0.0 for k in ("eff", "banzhaf_eff", "sym", "fixed_sym", "null", "split_null")}
    for t in range(config["fairness_instances"]):
        rng = trial_rng(seed, t, 999)
        (a, b, c), validation = synthetic_trial(model, config["sizes"][1:], config["n_validation"], rng)
        sources = [a, a, b, (np.empty((0, d)), np.empty(0)), c]
        stats = np.stack([model.statistics(X, y) for X, y in sources])
        for dvf in ("log_score", "information_gain", "validation_mse", "dataset_size"):
            table = game_table(model, stats, dvf, validation)
            # the gaps are maxima over detected twins / null players: a missed detection would make them 0
            if (0, 1) not in symmetric_pairs(table) or 3 not in null_players(table):
                raise RuntimeError(
                    f"fairness instance {t}, {dvf}: the twins or the empty source were not detected"
                )
            scale = 1.0 + abs(table[-1])
            phis = {k: exact_semivalues(table, v) for k, v in SEMIVALUES.items()}
            gaps["eff"] = max(gaps["eff"], efficiency_gap(phis["shapley"], table) / scale)
            gaps["banzhaf_eff"] = max(gaps["banzhaf_eff"], efficiency_gap(phis["banzhaf"], table) / scale)
            for phi in phis.values():
                gaps["sym"] = max(gaps["sym"], symmetry_gap(phi, table) / scale)
                gaps["null"] = max(gaps["null"], null_player_gap(phi, table) / scale)
            gaps["fixed_sym"] = max(
                gaps["fixed_sym"], symmetry_gap(fixed_order_contributions(table), table) / scale
            )
            gaps["split_null"] = max(gaps["split_null"], null_player_gap(equal_split(table), table) / scale)
    return gaps


def _worst_coalition(metrics: dict, key: str, manipulated: np.ndarray, truthful: np.ndarray) -> None:
    """The coalition (holding the manipulator) whose mean paired difference has the highest upper bound."""
    diffs = [paired_difference(manipulated[:, c], truthful[:, c]) for c in range(manipulated.shape[1])]
    worst = max(diffs, key=lambda p: p.mean + 2 * p.se)
    metrics[key], metrics[key + "_ci"], metrics[key + "_paid"] = worst.mean, 2 * worst.se, worst.paid_share


def _difference_plot(name: str, metrics: dict, prefix: str, labels: dict[str, str], claim: str) -> Plot:
    x = list(range(1, len(MANIPULATIONS) + 1))
    series = {}
    for key, label in labels.items():
        means = [metrics[f"{prefix}_{key}_{s}_diff"] for s in MANIPULATIONS]
        half = [metrics[f"{prefix}_{key}_{s}_diff_ci"] for s in MANIPULATIONS]
        series[label] = (x, means)
        series[f"{label} +2SE"] = (x, [m + h for m, h in zip(means, half, strict=True)])
    return Plot(
        name=name,
        title=f"{_NAMES.get(prefix, prefix)}: manipulated - truthful E[value of source 1]",
        series=series,
        xlabel="manipulation: " + ", ".join(f"{i}={s}" for i, s in enumerate(MANIPULATIONS, 1)),
        ylabel="paired difference (log score unless named)",
        claim=claim,
        lines={"rule: < 0": 0.0},
    )


def run(config: dict[str, Any], seed: int) -> Result:
    metrics: dict[str, float] = {}
    rows: list[dict[str, Any]] = []
    expected: list[dict[str, Any]] = []

    # 1. Synthetic Gaussian: every strategy x semivalue x DVF, coalitions, relaxations.
    g = _trials("gaussian", config, config["n_trials"], seed, tuple(SEMIVALUES.values()))
    for ev in ("log", "ig", "mse", "size", "misspec"):
        for sk, sv in SEMIVALUES.items():
            truthful = g[f"phi/{ev}/{sv}/truthful"]
            for s in MANIPULATIONS:
                prefix = "gaussian" if ev == "log" else f"gaussian_{ev}"
                _record(
                    metrics,
                    rows,
                    f"{prefix}_{sk}_{s}_diff",
                    g[f"phi/{ev}/{sv}/{s}"][:, 0],
                    truthful[:, 0],
                    setting="gaussian",
                    dvf=ev,
                    semivalue=sv,
                    strategy=s,
                )
    for sk, sv in SEMIVALUES.items():
        for s in THEOREM:
            for ev in NAIVE["gaussian"]:
                _paired_relative(
                    metrics, f"gaussian_{sk}_{s}_rel", f"gaussian_{ev}_{sk}_{s}_rel", g, "gaussian", ev, sv, s
                )
    for s in STRATEGIES:
        phi = g[f"phi/log/shapley/{s}"]
        expected.append(
            {
                "setting": "gaussian",
                "strategy": s,
                **{f"E_phi_{j + 1}": float(v) for j, v in enumerate(phi.mean(0))},
            }
        )
    for s in MANIPULATIONS:
        for ev in ("log", "ig"):
            prefix = "gaussian_coalitions" if ev == "log" else "gaussian_ig_coalitions"
            _worst_coalition(metrics, f"{prefix}_{s}_diff", g[f"coal/{ev}/{s}"], g[f"coal/{ev}/truthful"])
        truthful_phi = g["phi/log/shapley/truthful"]
        for rule in ("scale", "cap"):
            paid = [budgeted_rewards(p, config["budget"], rule)[0] for p in g[f"phi/log/shapley/{s}"]]
            base = [budgeted_rewards(p, config["budget"], rule)[0] for p in truthful_phi]
            _record(
                metrics,
                rows,
                f"gaussian_budget_{rule}_{s}_diff",
                np.array(paid),
                np.array(base),
                setting="gaussian",
                dvf=f"log, budget {rule}",
                semivalue="shapley",
                strategy=s,
            )
        _record(
            metrics,
            rows,
            f"gaussian_peer_{s}_diff",
            g[f"peer/{s}"][:, 0],
            g["peer/truthful"][:, 0],
            setting="gaussian",
            dvf="peer prediction",
            semivalue="-",
            strategy=s,
        )

    # 2-3. Other models and the real datasets, Shapley only.
    for name in OTHER_SETTINGS:
        r = _trials(name, config, config["n_trials_other"], seed, ("shapley",))
        evaluators = sorted({k.split("/")[1] for k in r if k.startswith("phi/")})
        for ev in evaluators:
            prefix = name if ev == "log" else f"{name}_{ev}"
            for s in MANIPULATIONS:
                _record(
                    metrics,
                    rows,
                    f"{prefix}_shapley_{s}_diff",
                    r[f"phi/{ev}/shapley/{s}"][:, 0],
                    r[f"phi/{ev}/shapley/truthful"][:, 0],
                    setting=name,
                    dvf=ev,
                    semivalue="shapley",
                    strategy=s,
                )
        for s in THEOREM:
            for ev in NAIVE[name]:
                _paired_relative(
                    metrics,
                    f"{name}_shapley_{s}_rel",
                    f"{name}_{ev}_shapley_{s}_rel",
                    r,
                    name,
                    ev,
                    "shapley",
                    s,
                )
        for s in STRATEGIES:
            phi = r[f"phi/log/shapley/{s}"]
            expected.append(
                {
                    "setting": name,
                    "strategy": s,
                    **{f"E_phi_{j + 1}": float(v) for j, v in enumerate(phi.mean(0))},
                }
            )

    # 3b. The sigma2 trap: data with sigma2 = trap_sigma2, valued by NIG (estimated), the stated sigma2,
    # and the old default sigma2 = 1 (the control: truthfulness should fail there).
    trap = _trials("sigma_trap", config, config["n_trials_other"], seed, ("shapley",), ("truthful", *THEOREM))
    for ev in ("log", "vague", "stated", "wrong"):
        prefix = "sigma_trap" if ev == "log" else f"sigma_trap_{ev}"
        for s in THEOREM:
            _record(
                metrics,
                rows,
                f"{prefix}_shapley_{s}_diff",
                trap[f"phi/{ev}/shapley/{s}"][:, 0],
                trap[f"phi/{ev}/shapley/truthful"][:, 0],
                setting="sigma_trap",
                dvf=ev,
                semivalue="shapley",
                strategy=s,
            )

    # 3c. Held-out noise levels and y scaled: the default (empirical Bayes on V) against the fixed priors.
    heldout = {}
    for tag in HELDOUT_SETTINGS:
        name = f"heldout_{tag}"
        h = heldout[tag] = _trials(
            name, config, config["n_trials_heldout"], seed, ("shapley",), ("truthful", *THEOREM)
        )
        for ev in ("eb", *FIXED_PRIORS, "stated"):
            for s in THEOREM:
                _record(
                    metrics,
                    rows,
                    f"{name}_{ev}_shapley_{s}_diff",
                    h[f"phi/{ev}/shapley/{s}"][:, 0],
                    h[f"phi/{ev}/shapley/truthful"][:, 0],
                    setting=name,
                    dvf=ev,
                    semivalue="shapley",
                    strategy=s,
                )
    # scale-equivariance: the same draws at sigma2 = 1 and with y scaled (every strategy, every source)
    for ev, key in (("eb", "eb_scale_gap"), ("fixed", "fixed_scale_gap")):
        gap = 0.0
        for s in ("truthful", *THEOREM):
            base, scaled = heldout["1"][f"phi/{ev}/shapley/{s}"], heldout["yscaled"][f"phi/{ev}/shapley/{s}"]
            gap = max(gap, float(np.max(np.abs(scaled - base) / (1 + np.abs(base)))))
        metrics[key] = gap

    # 4. (F) axioms, exactly.
    gaps = unit("fairness", lambda: _fairness(config, seed))
    metrics.update(
        max_efficiency_gap=gaps["eff"],
        banzhaf_efficiency_gap=gaps["banzhaf_eff"],
        max_symmetry_gap=gaps["sym"],
        fixed_order_symmetry_gap=gaps["fixed_sym"],
        max_null_player_gap=gaps["null"],
        equal_split_null_player_gap=gaps["split_null"],
    )

    plots = [
        _difference_plot(
            "gaussian_semivalues",
            metrics,
            "gaussian",
            {k: k for k in SEMIVALUES},
            "T_gaussian_shapley_duplicate",
        ),
        _difference_plot(
            "gaussian_dvfs",
            metrics,
            "gaussian",
            {"shapley": "log score"},
            "T_gaussian_shapley_fabricate",
        ),
        _difference_plot(
            "real_data", metrics, "diabetes", {"shapley": "diabetes"}, "T_diabetes_shapley_duplicate"
        ),
    ]
    for ev, label in (("ig", "information gain"), ("misspec", "sigma2 x4 (misspecified)")):
        for s in MANIPULATIONS:
            metrics[f"gaussian_{ev}view_{s}_diff"] = metrics[f"gaussian_{ev}_shapley_{s}_diff"]
            metrics[f"gaussian_{ev}view_{s}_diff_ci"] = metrics[f"gaussian_{ev}_shapley_{s}_diff_ci"]
        plots[1].series.update(_difference_plot("", metrics, "gaussian", {f"{ev}view": label}, "").series)
    for name in ("breast_cancer", "compas", "nig", "naive_bayes"):
        plots[2].series.update(_difference_plot("", metrics, name, {"shapley": _NAMES[name]}, "").series)
    plots[2].title = "Shapley, log score: manipulated - truthful E[phi_1] by setting"

    notes = [
        "Intervals are mean +- 2 SE over paired trials (the pre-registered one-sided z > 2 rule).",
        "copy appends another source's data: not a function of the source's own data, so outside the"
        " strategies the (reconstructed) truthfulness argument covers.",
        "Real datasets: the models (NIG linear on diabetes, naive Bayes on breast_cancer/COMPAS) are"
        " misspecified and sources are subsamples of one finite table, so strict propriety need not give"
        " truthfulness there.",
        "Relative gains divide by the mean truthful value of source 1 under each DVF; the interval of a"
        " difference of relative gains is paired over trials (its denominator's sampling error ignored).",
        "sharpen and the sigma2 trap are ours [inferred]: the paper's own list of manipulations and its"
        " experiments could not be read.",
        "Held-out settings (heldout_*): the default mechanism fits sigma2 and tau2 on each trial's validation"
        " set (type-II ML); the levels sigma2 in {1e-4, 1e-2, 1, 100} and y scaled by 0.1 were named by the"
        " outside review, not chosen here. 'stated' is the oracle prior; 'fixed', 'nig1', 'wrong' are the"
        " fixed-prior options (controls).",
    ]
    return Result(
        metrics=metrics,
        tables={"paired_differences": rows, "expected_semivalues": expected},
        plots=plots,
        notes=notes,
    )


def _check(config: dict[str, Any]) -> None:
    sizes = config["sizes"]
    if not (
        isinstance(sizes, list | tuple)
        and len(sizes) >= 2
        and all(isinstance(m, int) and not isinstance(m, bool) and m >= 1 for m in sizes)
    ):
        raise ValueError(f"sizes must list >= 2 source sizes (integers >= 1), got {sizes!r}")
    if len(sizes) > 10:
        raise ValueError(f"at most 10 sources (exact enumeration), got {len(sizes)}")
    for key in (
        "n_trials",
        "n_trials_other",
        "n_trials_heldout",
        "fairness_instances",
        "n_validation",
        "n_features",
    ):
        value = config[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < (2 if "trials" in key else 1):
            raise ValueError(
                f"{key} must be an integer >= {2 if 'trials' in key else 1}, got {config[key]!r}"
            )
    if not (isinstance(config["copy_from"], int) and 1 <= config["copy_from"] < len(sizes)):
        raise ValueError(
            f"copy_from must name another source, 1..{len(sizes) - 1}, got {config['copy_from']!r}"
        )
    strength = config["strength_classes"]
    if isinstance(strength, bool) or not isinstance(strength, int | float) or not 0 < strength <= 1:
        raise ValueError(
            f"strength_classes is a flip probability in (0, 1], got {config['strength_classes']!r}"
        )
    for key in ("strength_regression", "budget", "misspec_factor", "trap_sigma2"):
        value = config[key]
        if isinstance(value, bool) or not (
            isinstance(value, int | float) and math.isfinite(value) and value > 0
        ):
            raise ValueError(f"{key} must be a finite number > 0, got {config[key]!r}")
    if sum(sizes) + config["n_validation"] > 442:
        raise ValueError(
            "sources + validation set exceed the 442 rows of diabetes; lower sizes or n_validation"
        )


def _cost(config: dict[str, Any]) -> tuple[float, float]:
    """About 0.2 s per Gaussian trial and 0.3 s per trial of the five other settings together, on a shared
    2-core machine (quick measured 104-149 s for 300 + 300 trials); memory is small (the runner process)."""
    seconds = (
        0.2 * config["n_trials"]
        + 0.3 * config["n_trials_other"]
        + 0.4 * config["n_trials_heldout"]
        + 0.05 * config["fairness_instances"]
    )
    return seconds, 3e8


_BASE = {
    "sizes": [20, 40, 60, 80],
    "n_features": 5,
    "n_validation": 200,
    "strength_regression": 1.0,
    "strength_classes": 0.3,
    "copy_from": 1,
    "budget": 100.0,
    "misspec_factor": 4.0,
    "trap_sigma2": 0.25,
}
_SMOKE = {**_BASE, "n_trials": 20, "n_trials_other": 10, "n_trials_heldout": 10, "fairness_instances": 3}
_QUICK = {**_BASE, "n_trials": 300, "n_trials_other": 300, "n_trials_heldout": 200, "fairness_instances": 20}
_PAPER = {
    **_BASE,
    "n_trials": 1000,
    "n_trials_other": 1000,
    "n_trials_heldout": 600,
    "fairness_instances": 100,
}

from icml26.common.schema import Float, Int, ListOf  # noqa: E402 (the schema block sits beside the experiment)

SCHEMA = {  # each profile key's type and range (icml26.common.schema); check() keeps the cross-key rules
    "sizes": ListOf(Int(1, 442), 4, 4),  # four sources: the copier's trials draw three beside source 0
    "n_features": Int(1, 1000),
    "n_validation": Int(1, 442),  # diabetes rows
    ("strength_regression", "misspec_factor", "trap_sigma2"): Float(0, 1000, low_open=True),
    "strength_classes": Float(0, 1, low_open=True),
    "copy_from": Int(1, 3),
    "budget": Float(0, 1e9, low_open=True),
    ("n_trials", "n_trials_other", "n_trials_heldout"): Int(2, 10**6),
    "fairness_instances": Int(1, 10**5),
}


EXPERIMENT = Experiment(
    method="truthful_valuation",
    title="Incentivizing Truthfulness and Collaborative Fairness in Bayesian Learning",
    paper="Sim, Fan, Tian, Xu, Jaillet & Low, ICML 2026, arXiv:2605.11889",
    run=run,
    profiles={"smoke": _SMOKE, "quick": _QUICK, "paper": _PAPER},
    claims=TESTS,
    paper_claims=PAPER_CLAIMS,
    background=BACKGROUND,
    description=__doc__ or "",
    check=_check,
    schema=SCHEMA,
    cost=_cost,
    resources=Resources(cpus=1),
    names=NAMES,
)
