"""The plots' link to the tests: which test each task's convergence plot illustrates, and its rule line."""

from __future__ import annotations

from icml26.flow_optimizer.claims import TESTS, display_name

# the claim each plot illustrates, by the metric tag of its task
PLOT_CLAIMS = {
    "rastrigin": "orders_rastrigin10",
    "ackley": "outperforms_ackley10",
    "ackley_small_budget": "orders_ackley10",
    "rastrigin_zero_shot": "zero_shot_outperforms_rastrigin100",
    "ackley_zero_shot": "orders_ackley100",
    "ik": "ik_outperforms10",
    "ik_zero_shot": "ik_zero_shot100",
}


def rule_line(name: str, metrics: dict[str, float]) -> dict[str, float]:
    """Claim ``name``'s rule on its plot's scale: the value FlowOptimizer's final median must stay below,
    from the strongest (lowest) of the claim's baselines measured in this run; none if it is not positive
    (the plots are on a log scale)."""
    claim = next(c for c in TESTS if c.name == name)
    assert claim.op in ("<", "<=") and claim.relative_to, name  # upper bounds against baselines
    measured = {b: metrics[b] for b in claim.relative_to if b in metrics}
    if not measured:
        return {}
    best = min(measured, key=measured.__getitem__)
    value = measured[best] * claim.threshold if claim.form == "ratio" else measured[best] + claim.threshold
    scale = f"{claim.threshold:g} × " if claim.form == "ratio" and claim.threshold != 1 else "below "
    return {f"rule: {scale}{display_name(best)}": value} if value > 0 else {}
