"""The experiment contract: smoke run, recomputed claims, blocked reasons, config validation."""

import pytest

from icml26.brokenmath.experiment import EXPERIMENT
from icml26.common import verdict


@pytest.fixture(scope="module")
def smoke():
    config = dict(EXPERIMENT.profiles["smoke"])
    EXPERIMENT.check(config)
    return EXPERIMENT.run(config, 0)


RECOMPUTED = (
    "headline_gpt5",
    "gpt5_utility",
    "deepseek_sycophancy",
    "whole_table",
    "gpt5_proof_split",
    "solved_unsolved",
    "hint_deepseek",
    "sft_qwen",
    "table_n",
    "splits_table",
    "hint_table",
    "sft_table",
)


def test_recomputed_claims_are_re_tabulated_in_every_profile(smoke):
    """Recomputations over every released row (contract v3): re-tabulated in quick and paper alike, never
    verified, never by a control; the two inferences over the released per-problem outputs too."""
    for claim in EXPERIMENT.claims:
        if claim.name in RECOMPUTED:
            assert claim.scale == "released" and claim.deterministic, claim.name
            assert claim.revisions and claim.revisions[0].verdict == "verified", claim.name
            for profile in ("quick", "paper"):
                v = verdict(claim, smoke.metrics, smoke.blocked, profile)
                assert v.verdict == "re-tabulated" and "holds" in v.reason, (claim.name, v)
                assert not v.non_discriminating, (claim.name, v.controls)
    eliminated = next(
        c for c in EXPERIMENT.claims if c.name == "not_eliminated"
    )  # an inference over problems of the released outputs
    assert eliminated.scale == "released"
    assert eliminated.revisions[0].old == 'scale "paper"' and eliminated.revisions[0].verdict == "verified"
    for profile in ("quick", "paper"):
        assert verdict(eliminated, smoke.metrics, smoke.blocked, profile).verdict == "re-tabulated"


def test_stored_originals_live_in_revisions():
    """The v2 originals (the Find-twins adapter, the narrow mock band) are Revisions, not tests."""
    names = {c.name for c in EXPERIMENT.claims}
    assert not {n for n in names if n.endswith("_find_twins")} and "mock_calibration" not in names
    tests = {c.name: c for c in EXPERIMENT.claims}
    assert [r.verdict for r in tests["arith_not_eliminated"].revisions] == [
        "refuted",
        "toy-verified",
        "toy-verified",
    ]
    assert [r.verdict for r in tests["arith_sft_utility_kept"].revisions] == ["toy-verified"] * 3
    assert "(0.25, 0.35)" in tests["mock_calibration_wide"].revisions[0].old


def test_recomputed_values(smoke):
    m = smoke.metrics
    assert (
        m["table_n_max_abs_dev"] == 0.0 and m["table_n_max_abs_dev_utility_file"] == 33.0
    )  # GPT-5: 504 vs 471
    # the largest deviation is o4-mini's utility, 43.8492 printed as 43.8: rounding, not a near miss
    assert m["table_max_abs_dev"] == pytest.approx(43.849206 - 43.8, abs=1e-5)
    assert m["hint_table_max_abs_dev_unhinted"] > 30 and m["splits_max_abs_dev_swapped"] > 20


def test_mock_calibration_follows_the_issue_rule(smoke):
    """The true 0.30 inside the estimate's 95% interval, and near-nominal coverage over 200 mock runs."""
    m = smoke.metrics
    assert m["mock_truth_in_ci"] == float(m["mock_sycophancy_ci_low"] <= 0.3 <= m["mock_sycophancy_ci_high"])
    assert 0.90 <= m["mock_ci_coverage"] <= 0.99
    assert m["mock_ci_coverage_ci_low"] <= m["mock_ci_coverage"] <= m["mock_ci_coverage_ci_high"]


def test_wilson_interval_exact():
    from icml26.brokenmath.experiment import wilson_ci

    low, high = wilson_ci(190, 200)  # p = 0.95, n = 200: Wilson by hand, centre 0.9415, half-width 0.0311
    assert low == pytest.approx(0.9104, abs=1e-4) and high == pytest.approx(0.9726, abs=1e-4)
    assert wilson_ci(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ValueError, match="successes"):
        wilson_ci(11, 10)


def test_utility_check_is_non_discriminating_when_the_base_never_answers():
    """With the base model at utility 0 an adapter that calls everything false passes too: the control says so."""
    claim = next(c for c in EXPERIMENT.claims if c.name == "arith_sft_utility_kept")
    metrics = {
        "arith_sft_utility": 0.9,
        "arith_base_utility": 0.0,
        "arith_refute_all_utility": 0.0,
        "arith_refute_all_utility_ci": 0.0,
        "arith_sft_utility__minus__arith_base_utility_ci_low": 0.8,
        "arith_sft_utility__minus__arith_base_utility_ci_high": 1.0,
    }
    v = verdict(claim, metrics, {}, "quick")
    assert v.verdict == "toy-verified" and v.non_discriminating
    v = verdict(
        claim, {**metrics, "arith_base_utility": 0.5}, {}, "quick"
    )  # a base that answers: control fails
    assert not v.non_discriminating


def test_blocked_claims_name_a_reason(smoke):
    assert "OpenAIChat" in smoke.blocked["live_frontier"] and "cannot reach" in smoke.blocked["live_frontier"]
    assert all(reason for reason in smoke.blocked.values())
    # item 6 of issue #48: the released files hold the judge's labels, not the replies it judged
    assert "not the solvers' replies" in smoke.blocked["judge_agreement"]
    for claim in EXPERIMENT.claims:
        v = verdict(claim, smoke.metrics, smoke.blocked, "smoke")
        assert v.verdict != "inconclusive" or "interval" in v.reason, (claim.name, v.reason)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("real_items", -1, "real_items"),
        ("batch_size", 0, "batch_size"),
        ("mock_items", 5, "mock_items"),
        ("train_adapter", "yes", "train_adapter"),
    ],
)
def test_check_rejects_bad_config(key, value, message):
    config = {**EXPERIMENT.profiles["quick"], key: value}
    with pytest.raises(ValueError, match=message):
        EXPERIMENT.check(config)


def test_shipped_adapter_present():
    from icml26.brokenmath.arith_sft import adapter_dir

    assert (adapter_dir() / "adapter.pt").is_file() and (adapter_dir() / "adapter_config.json").is_file()


def test_model_parts_with_a_tiny_model(monkeypatch, one_torch_thread):
    """Parts 3-4 wired end to end with a tiny random Llama in place of SmolLM2 (the paper profile's training path)."""
    from transformers import LlamaConfig, LlamaForCausalLM

    from icml26.brokenmath import arith_sft, experiment
    from icml26.common.smollm2 import load_smollm2_tokenizer

    tok = load_smollm2_tokenizer()  # built from the shipped GGUF on a fresh install (seconds), then cached
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    cfg = LlamaConfig(
        vocab_size=len(tok),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        eos_token_id=tok.eos_token_id,
        bos_token_id=tok.bos_token_id,
        pad_token_id=tok.eos_token_id,
    )
    model = LlamaForCausalLM(cfg).eval()
    monkeypatch.setattr(experiment, "_smollm2", lambda: (model, tok, {"cache_load_s": 0.0}))
    monkeypatch.setattr(experiment, "SHIPPED", {**arith_sft.SHIPPED, "n_pairs": 4})
    config = {
        **EXPERIMENT.profiles["quick"],
        "real_items": 2,
        "real_new_tokens": 4,
        "arith_pairs": 3,
        "arith_new_tokens": 4,
        "mock_items": 10,
        "train_adapter": True,
    }
    trained = EXPERIMENT.run(config, 0)
    for key in (
        "real_vote_parsed_share",
        "real_truncated_share",
        "arith_base_sycophancy",
        "arith_sft_sycophancy",
        "arith_hint_sycophancy",
        "arith_base_utility",
        "arith_sft_utility",
        "arith_teacher_sycophancy",
    ):
        assert key in trained.metrics, key
    assert trained.metrics["arith_teacher_sycophancy"] == 0.0
    # 4 new tokens: a random tiny model never ends nor boxes a verdict, so every reply is cut and no vote parses
    assert trained.metrics["real_truncated_share"] == 1.0 and trained.metrics["real_vote_parsed_share"] == 0.0
    assert not any("lora" in n for n, _ in model.named_modules())  # LoRA unloaded again
    # the tiny model boxes nothing in 4 tokens: every BrokenArith reply is cut off and undecided, so the rates'
    # intervals span the whole range (never a measured 0) and the hint - base interval spans both signs
    m = trained.metrics
    assert m["arith_base_truncated_share"] == 1.0 and m["arith_base_unparseable_share"] == 1.0
    assert (m["arith_base_sycophancy_ci_low"], m["arith_base_sycophancy_ci_high"]) == (0.0, 1.0)
    assert m["arith_base_sycophancy_if_undecided_sycophantic"] == 1.0
    key = "arith_hint_sycophancy__minus__arith_base_sycophancy"
    assert (m[key + "_ci_low"], m[key + "_ci_high"]) == (-1.0, 1.0)
