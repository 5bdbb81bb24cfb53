"""Every implemented method's claims under the verdict contract (v2 rules, v3 declarations).

The run records behind ``docs/results.md`` are committed under ``docs/runs/<method>/<stamp>/``; their
newest ``quick`` run must have measured every metric, baseline and control that the current claims
name (a control that ``quick`` does not produce would leave its claim inconclusive for every user).
"""

import json
from pathlib import Path

import pytest

from icml26.common import KINDS, SCALES
from icml26.common.config import resolve_config
from icml26.common.registry import METHOD_NAMES, get_experiment, is_implemented

IMPLEMENTED = [m for m in METHOD_NAMES if is_implemented(m)]
RUNS = Path(__file__).resolve().parents[2] / "docs" / "runs"


def newest_quick_run(method: str) -> dict:
    records = sorted((RUNS / method).glob("*/result.json"), reverse=True)
    for path in records:
        run = json.loads(path.read_text())
        if run["profile"] == "quick":
            return run
    raise AssertionError(f"no committed quick run of {method} under {RUNS / method}")


@pytest.mark.parametrize("method", IMPLEMENTED)
def test_every_claim_declares_its_kind_scale_and_controls(method):
    exp = get_experiment(method)
    assert exp.claims
    for c in exp.claims:
        assert c.kind in KINDS and c.scale in SCALES, c.name
        if c.kind == "paper" and not c.relative_to:
            assert c.controls, f"{method}.{c.name}: absolute paper claim without controls"
        if c.scale != "proxy":
            assert c.scale_note, f"{method}.{c.name}: scale {c.scale} without a note"


@pytest.mark.parametrize("method", IMPLEMENTED)
def test_every_method_declares_its_resources_and_cost(method):
    """What a scheduler reserves for one seed: declared CPUs (and GPUs), memory from the cost estimate."""
    exp = get_experiment(method)
    assert exp.resources is not None, f"{method}: declare Experiment(resources=Resources(cpus=...))"
    assert exp.cost is not None, f"{method}: declare Experiment(cost=...) (seconds, bytes per seed)"
    for profile in ("smoke", "quick", "paper"):
        seconds, memory = exp.cost(resolve_config(exp, profile))
        assert seconds > 0 and memory > 0, (method, profile)


@pytest.mark.parametrize("method", IMPLEMENTED)
def test_quick_measures_every_metric_baseline_and_control(method):
    exp = get_experiment(method)
    run = newest_quick_run(method)
    assert set(run["config"]) == set(exp.profiles["quick"]), "the committed run predates the profile's keys"
    missing = [
        f"{c.name}: {key}"
        for c in exp.claims
        if c.name not in run["blocked"] and not c.stored
        for key in (c.metric, *c.relative_to, *c.controls)
        if key not in run["metrics"]
    ]
    assert not missing, f"{method}: quick does not produce {missing}"


DETERMINISTIC = [m for m in IMPLEMENTED if any(c.deterministic for c in get_experiment(m).claims)]


@pytest.mark.parametrize("method", DETERMINISTIC)
def test_deterministic_claims_measure_the_same_value_at_two_seeds(method):
    exp = get_experiment(method)
    config = resolve_config(exp, "smoke", {})
    first, second = exp.run(dict(config), 0).metrics, exp.run(dict(config), 1).metrics
    for c in exp.claims:
        if c.deterministic and not c.stored:
            for key in (c.metric, *c.relative_to):
                assert first[key] == pytest.approx(second[key], rel=1e-9, abs=1e-12), f"{c.name}: {key}"


def test_the_readme_two_seed_example_has_no_zero_width_inconclusive(tmp_path):
    """`icml26 run bad_triangles --profile smoke --seed 0 --seed 1 --set n_random=20` (the README's example):
    exact per-instance claims are judged on the worst seed, and no verdict is undecided by an interval of
    zero width."""
    from icml26.common.runner import run_experiment

    record = run_experiment("bad_triangles", "smoke", [0, 1], {"n_random": "20"}, out=tmp_path)
    assert record.error is None
    per_seed = json.loads((record.directory / "result.json").read_text())["per_seed_metrics"]
    for claim in record.claims:
        assert "±0" not in claim["reason"] and "[0, 0]" not in claim["reason"], claim
        if claim["scale"] == "exact" and claim["statistic"] == "max":
            worst = max(
                float(per_seed[s][get_experiment("bad_triangles").claims[0].metric]) for s in per_seed
            )
            assert worst >= 0
    exact = [c for c in record.claims if c["scale"] == "exact"]
    assert exact and all(c["verdict"] != "inconclusive" for c in exact)
    two_approx = next(c for c in record.claims if c["name"] == "two_approx_lp")
    assert two_approx["measured"] == max(float(per_seed[s]["max_cost_over_lp"]) for s in per_seed)


# ---- contract v3 ------------------------------------------------------------------------------

SRC = Path(__file__).resolve().parents[2] / "src" / "icml26"


@pytest.mark.parametrize("method", IMPLEMENTED)
def test_every_method_declares_the_abstracts_claims(method):
    """2 to 8 PaperClaims quoted from the abstract; every paper test supports one (checked on
    construction); no v2 history strings left (history is Revision data)."""
    exp = get_experiment(method)
    assert 2 <= len(exp.paper_claims) <= 8, f"{method}: {len(exp.paper_claims)} PaperClaims"
    assert all(c.supports for c in exp.claims if c.kind == "paper")
    leftovers = [c.name for c in exp.claims if c.revised or c.stored]
    assert not leftovers, f"{method}: revised=/stored= strings on {leftovers}; use revisions=(Revision(...),)"
    assert (SRC / method / "claims.py").is_file(), f"{method}: declare its claims in claims.py"


@pytest.mark.parametrize("method", IMPLEMENTED)
def test_tests_match_their_lock_or_carry_a_revision(method):
    """Pre-registration: a test that differs from ``claims.lock.json`` needs a new Revision
    (``python tools/lock_claims.py METHOD`` writes the lock)."""
    from icml26.common.claims import LOCK_FILE, unrecorded_changes

    lock = SRC / method / LOCK_FILE
    assert lock.is_file(), f"{method}: no {LOCK_FILE}; run python tools/lock_claims.py {method}"
    assert unrecorded_changes(get_experiment(method), json.loads(lock.read_text())) == []


RECORDS = sorted(RUNS.glob("*/*/result.json"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_committed_records_come_from_committed_code_under_v3(path):
    run = json.loads(path.read_text())
    commit = run.get("versions", {}).get("commit", "")
    assert commit and not commit.endswith("+dirty"), f"{path}: measured by uncommitted code ({commit})"
    if run.get("status") == "partial":  # an interrupted paper run, committed so that it can be resumed
        assert run.get("finished_units"), f"{path}: a partial record with no finished units"
        stored = {
            s: len(list((path.parent / "units" / f"seed_{s}").glob("*.pkl"))) for s in run["finished_units"]
        }
        assert stored == {s: int(n) for s, n in run["finished_units"].items()}, (
            f"{path}: units missing: {stored}"
        )
        return
    assert run.get("status") == "finished", f"{path}: status {run.get('status')!r}, not finished or partial"
    assert run.get("contract") == 3, f"{path}: judged under contract {run.get('contract')}; rejudge it"


def test_no_module_over_800_lines():
    long = {
        str(p.relative_to(SRC)): n for p in SRC.rglob("*.py") if (n := len(p.read_text().splitlines())) > 800
    }
    assert not long, f"modules over 800 lines: {long}"
