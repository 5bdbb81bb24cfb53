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
    "not_eliminated",
)


def test_recomputed_claims_hold_and_discriminate(smoke):
    for claim in EXPERIMENT.claims:
        if claim.name in RECOMPUTED:
            v = verdict(claim, smoke.metrics, smoke.blocked, "quick")
            assert v.verdict == "toy-verified", (claim.name, v)
            assert not v.non_discriminating, (claim.name, v.controls)
    assert (
        verdict(
            next(c for c in EXPERIMENT.claims if c.name == "headline_gpt5"),
            smoke.metrics,
            smoke.blocked,
            "paper",
        ).verdict
        == "verified"
    )


def test_blocked_claims_name_a_reason(smoke):
    assert "endpoint" in smoke.blocked["live_frontier"]
    assert all(reason for reason in smoke.blocked.values())
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
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    from icml26.brokenmath import arith_sft, experiment
    from icml26.brokenmath.backends import smollm2_cache

    if not (smollm2_cache() / "tokenizer.json").is_file():
        pytest.skip("needs the SmolLM2 tokenizer cache (run load_smollm2 once)")
    tok = AutoTokenizer.from_pretrained(smollm2_cache())
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
        "real_graded_share",
        "arith_base_sycophancy",
        "arith_sft_sycophancy",
        "arith_hint_sycophancy",
        "arith_base_utility",
        "arith_sft_utility",
        "arith_teacher_sycophancy",
    ):
        assert key in trained.metrics, key
    assert trained.metrics["real_graded_share"] == 1.0 and trained.metrics["arith_teacher_sycophancy"] == 0.0
    assert not any("lora" in n for n, _ in model.named_modules())  # LoRA unloaded again
