"""Public API: bad input, stop strings and EOS, ragged batches, and the experiment's smoke run."""

import math

import numpy as np
import pytest
import torch

from icml26.common import verdict
from icml26.common.config import resolve_config
from icml26.mixture_ensemble import ConventionalEnsemble, MixtureEnsemble
from icml26.mixture_ensemble.experiment import EXPERIMENT, check
from icml26.mixture_ensemble.task import accuracy, char_tokenizer, extract_answer, make_problems, tiny_llama

pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture(scope="module")
def pair():
    return [tiny_llama(16, hidden=16, layers=1, heads=2, seed=s) for s in (0, 1)]


@pytest.mark.parametrize(
    ("weights", "error", "match"),
    [
        ([0.5, -0.5], ValueError, "weights must be finite and > 0"),
        ([0.0, 1.0], ValueError, "weights must be finite and > 0"),
        ([1.0, math.inf], ValueError, "weights must be finite and > 0"),
        ([1.0], ValueError, "weights has 1 entries but there are 2 models"),
        ("ab", TypeError, "weights must be a sequence"),
        ([1e308, 1e308], ValueError, "do not sum to 1 after normalisation"),
    ],
)
def test_bad_weights(pair, weights, error, match):
    with pytest.raises(error, match=match):
        MixtureEnsemble(pair, weights)


def test_weights_are_normalised(pair):
    assert MixtureEnsemble(pair, [1, 3]).weights.tolist() == [0.25, 0.75]


def test_bad_models_and_options(pair):
    with pytest.raises(TypeError, match="models must be a non-empty list"):
        MixtureEnsemble([])
    with pytest.raises(TypeError, match=r"models\[1\] must be a torch.nn.Module"):
        MixtureEnsemble([pair[0], "gpt2"])
    with torch.device("meta"):
        on_meta = tiny_llama(16, hidden=16, layers=1, heads=2)
    with pytest.raises(ValueError, match="models are on different devices"):
        MixtureEnsemble([pair[0], on_meta])
    with pytest.raises(ValueError, match="draw must be 'shared' or 'per_row'"):
        MixtureEnsemble(pair, draw="random")
    with pytest.raises(ValueError, match="variant must be 'exact' or 'truncated'"):
        ConventionalEnsemble(pair, variant="unite")
    with pytest.raises(ValueError, match="give one tokenizer per model"):
        MixtureEnsemble(pair, tokenizers=[char_tokenizer()])


def test_bad_generate_arguments(pair):
    me = MixtureEnsemble(pair)
    with pytest.raises(ValueError, match="max_new_tokens must be an int >= 1"):
        me.generate(input_ids=[[2]], max_new_tokens=0)
    with pytest.raises(ValueError, match="give exactly one of input_ids"):
        me.generate()
    with pytest.raises(ValueError, match="text prompts need tokenizers"):
        me.generate(prompts=["1+1="])
    with pytest.raises(ValueError, match="stop_strings need tokenizers"):
        me.generate(input_ids=[[2]], stop_strings=[";"])
    with pytest.raises(ValueError, match=r"prompt token ids must lie in \[0, 16\)"):
        me.generate(input_ids=[[2, 99]])
    with pytest.raises(ValueError, match="every prompt needs at least one token"):
        me.generate(input_ids=[[]])
    with pytest.raises(TypeError, match="input_ids must be a LongTensor"):
        me.generate(input_ids="12")
    with pytest.raises(ValueError, match="seed must be a non-negative int"):
        me.generate(input_ids=[[2]], seed=-1)
    with pytest.raises(ValueError, match="top_k must be an int >= 0"):
        me.generate(input_ids=[[2]], top_k=-1)


def test_stop_strings_eos_and_ragged_batch(pair):
    tok = char_tokenizer()
    me = MixtureEnsemble(pair, tokenizers=[tok, tok])
    out = me.generate(prompts=["1+2=", "13+25="], max_new_tokens=12, stop_strings=[";", "+"], seed=0)
    assert len(out.texts) == 2
    for b, text in enumerate(out.texts):
        assert ";" not in text and "+" not in text
        assert len(out.tokens[b]) <= 12
        ended_early = len(out.tokens[b]) < 12
        full = tok.decode(out.member_tokens[0][b], skip_special_tokens=True)
        if ended_early:  # a row stops at EOS (id 1) or as soon as a stop string appears
            assert out.tokens[b][-1] == tok.eos_token_id or any(s in full for s in (";", "+"))


def test_task_helpers():
    rng = np.random.default_rng(0)
    problems = make_problems(5, rng, 0, 10, 10)
    assert all(0 <= p.a < 10 and 0 <= p.b < 10 for p in problems)
    assert extract_answer(" 17;3") == "17"
    assert accuracy([p.answer + ";" for p in problems], problems) == 1.0
    with pytest.raises(ValueError, match="0 <= low < high"):
        make_problems(5, rng, 5, 5)


def test_experiment_smoke_run():
    config = dict(EXPERIMENT.profiles["smoke"])
    result = EXPERIMENT.run(config, seed=0)
    for claim in EXPERIMENT.claims:
        assert claim.metric in result.metrics or claim.name in result.blocked
        for key in claim.baselines:
            assert key in result.metrics
        assert verdict(claim, result.metrics, result.blocked, "smoke").verdict in {
            "toy-verified",
            "refuted",
            "inconclusive",
        }
    m = result.metrics
    assert m["cache_max_abs_diff_fp64"] <= 1e-12 and m["cache_max_abs_diff_task_member"] <= 1e-5
    assert m["control_chi2_p"] < 1e-6 and m["exact_chi2_p_min"] > 1e-3
    assert 0.0 <= m["acc_me_n2"] <= 1.0 and 0.0 <= m["acc_ce_n3"] <= 1.0
    assert m["speedup_n2_b1"] > 0 and m["speedup_n3_b1"] > 0
    assert {"exactness", "accuracy", "cache", "speed"} <= set(result.tables)
    speed = result.tables["speed"]
    assert all(row["ME forward calls"] < row["CE forward calls"] for row in speed)


def test_experiment_config_check():
    config = dict(EXPERIMENT.profiles["smoke"])
    check(config)
    with pytest.raises(ValueError, match="speed_model must be 'tiny' or 'smollm2'"):
        check({**config, "speed_model": "gpt2"})
    with pytest.raises(ValueError, match="eval_seeds must be >= 2"):
        check({**config, "eval_seeds": 1})
    with pytest.raises(ValueError, match="exact_length 9 is too long"):
        check({**config, "exact_length": 9})


def test_experiment_device_key_is_checked():
    assert resolve_config(EXPERIMENT, "smoke")["device"] == "cpu"
    assert {p["device"] for p in EXPERIMENT.profiles.values()} == {"cpu"}
    if torch.cuda.device_count() > 7:
        pytest.skip("this machine has a cuda:7")
    with pytest.raises(ValueError, match=r"device 'cuda:7' is not available here; accepted: cpu"):
        resolve_config(EXPERIMENT, "smoke", {"device": "cuda:7"})
    with pytest.raises(ValueError, match=r"device 'gpu' is not a torch device.*; accepted: cpu"):
        resolve_config(EXPERIMENT, "smoke", {"device": "gpu"})


def test_stop_at_eos_false_generates_fixed_length(pair):
    out = ConventionalEnsemble(pair).generate(input_ids=[[2], [3, 4]], max_new_tokens=10, stop_at_eos=False)
    assert [len(t) for t in out.tokens] == [10, 10]
    assert out.forward_calls == [10, 10]


def test_speed_comparison_rejects_bad_settings():
    from icml26.mixture_ensemble.experiment import speed_comparison

    models = [tiny_llama(16, hidden=16, layers=1, heads=2, seed=s) for s in range(3)]
    with pytest.raises(ValueError, match="need >= 3 models"):
        speed_comparison(models[:2], [2, 3], tokens=2, repeats=1)
    with pytest.raises(ValueError, match="batch sizes >= 1"):
        speed_comparison(models, [2, 3], tokens=2, repeats=1, batches=(0,))
