"""The speed measurement: alternated order, settings, ratio to the ideal, the profile split, chunk costs."""

import math

import pytest

from icml26.mixture_ensemble import speed
from icml26.mixture_ensemble.ensemble import MixtureEnsemble
from icml26.mixture_ensemble.task import tiny_llama

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def models():
    return [tiny_llama(32, hidden=16, layers=1, heads=2, seed=s, eos_token_id=None) for s in range(3)]


def test_order_alternates_and_every_setting_is_measured(models, monkeypatch):
    calls = []
    real = speed._generate

    def spy(ens, prompt, batch, tokens, seed):
        calls.append((type(ens).__name__[:1], batch, tokens))
        return real(ens, prompt, batch, tokens, seed)

    monkeypatch.setattr(speed, "_generate", spy)
    m, rows, profile = speed.speed_comparison(
        models, [2, 3], tokens=3, repeats=4, batches=(1, 4), members=(2, 3)
    )
    timed = [c[0] for c in calls if c[2] == 3]  # the timed repeats and the profiled generations
    per_setting = len(timed) // 4
    first = timed[:per_setting]
    assert first[:8] == ["C", "M", "M", "C", "C", "M", "M", "C"]  # CE first, then ME first, ...
    assert {(r["members"], r["batch"]) for r in rows} == {(2, 1), (2, 4), (3, 1), (3, 4)}
    for n in (2, 3):
        for key in (f"n{n}_b1", f"n{n}_batched"):
            assert m[f"ideal_fraction_{key}"] == pytest.approx(m[f"speedup_{key}"] / n)
    assert len(profile) == 8 and {p["ensemble"] for p in profile} == {"CE", "ME"}
    for key in ("n2_b1", "n3_batched"):  # the claim's interval contains the bootstrap's
        paired = f"me_tokens_per_s_{key}__over__ce_tokens_per_s_{key}"
        assert m[f"{paired}_ci_low"] <= m[f"speedup_{key}_bootstrap_ci_low"]
        assert m[f"{paired}_ci_high"] >= m[f"speedup_{key}_bootstrap_ci_high"]


def test_speedup_interval_is_the_wider_of_bootstrap_and_log_t():
    # log-ratios ln2, ln4, ln2, ln4: mean 1.5 ln2, sd ln2 / sqrt(3), t_{0.975, 3} = 3.18245
    half = 3.182446305284263 * math.log(2) / math.sqrt(3) / 2
    low, high = speed.speedup_ci95([2, 4, 2, 4], [1, 1, 1, 1], (3.0, 3.0))
    assert (low, high) == pytest.approx((2**1.5 * math.exp(-half), 2**1.5 * math.exp(half)))
    assert speed.speedup_ci95([2, 4, 2, 4], [1, 1, 1, 1], (0.5, 10.0)) == (0.5, 10.0)
    with pytest.raises(ValueError, match="needs >= 2 paired positive rates"):
        speed.speedup_ci95([2.0], [1.0], (1.0, 1.0))
    with pytest.raises(ValueError, match="needs >= 2 paired positive rates"):
        speed.speedup_ci95([2.0, 0.0], [1.0, 1.0], (1.0, 1.0))


def test_profile_split_adds_up_and_attributes_catch_up(models):
    me = MixtureEnsemble(models[:2])
    split = speed.profile_split(me, [2, 3, 4], batch=1, tokens=12, seed=0)
    parts = ("prefill", "decode", "catch_up", "sampling", "python")
    assert sum(split[k] for k in parts) == pytest.approx(split["total"], rel=1e-9)
    assert split["catch_up"] > 0 and split["prefill"] > 0 and split["sampling"] > 0
    assert not hasattr(me, "_draw") or me._draw.__func__ is MixtureEnsemble._draw  # the timer is removed
    assert not me.models[0]._forward_hooks and not me.models[0]._forward_pre_hooks


def test_chunk_costs_and_bad_settings(models):
    costs = speed.chunk_costs(models[0], [2, 3, 4], (1, 4), repeats=3)
    assert set(costs) == {1, 4} and all(v > 0 for v in costs.values())
    with pytest.raises(ValueError, match="chunk lengths >= 1"):
        speed.chunk_costs(models[0], [2], (0,))
    with pytest.raises(ValueError, match="at most one above 1"):
        speed.speed_comparison(models, [2], tokens=2, repeats=1, batches=(2, 4))


def test_profile_from_the_repeats_or_one_extra_generation(models, monkeypatch):
    """``profile="repeats"`` (default) splits the timed repeats themselves: no extra generation runs and
    the split sums over the repeats; ``"extra"`` (the previous release) profiles one more per ensemble."""
    counts = {}
    for profile in ("repeats", "extra"):
        calls = []
        real = speed._generate
        monkeypatch.setattr(
            speed, "_generate", lambda *a, real=real, calls=calls: calls.append(a[3]) or real(*a)
        )
        m, rows, prof = speed.speed_comparison(
            models, [2, 3], tokens=3, repeats=3, batches=(1,), members=(2,), profile=profile
        )
        monkeypatch.undo()
        counts[profile] = sum(1 for t in calls if t == 3)
        assert {p["generations"] for p in prof} == ({3} if profile == "repeats" else {1})
        for p in prof:
            parts = sum(p[f"{k} s"] for k in ("prefill", "decode", "catch_up", "sampling", "python"))
            assert parts == pytest.approx(p["total s"], rel=1e-9)
    assert counts == {"repeats": 6, "extra": 8}  # 3 repeats x (CE, ME), plus one profiled each
    with pytest.raises(ValueError, match="profile must be 'repeats' or 'extra'"):
        speed.speed_comparison(models, [2], tokens=2, repeats=1, batches=(1,), profile="after")
