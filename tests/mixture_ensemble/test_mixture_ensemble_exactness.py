"""ME samples exactly the CE distribution: step level (4σ), sequence level (χ² vs enumeration), controls."""

import numpy as np
import pytest
import torch

from icml26.mixture_ensemble import (
    ConventionalEnsemble,
    MixtureEnsemble,
    chi_square_test,
    exact_sequence_distribution,
    mixture,
    process_logits,
    sequence_index,
    truncated_mixture,
)
from icml26.mixture_ensemble.task import tiny_llama

V = 6
PROMPT = [1, 2]
WEIGHTS = [0.3, 0.7]


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _peaky(seed, scale=4.0):
    model = tiny_llama(V, hidden=16, layers=1, heads=2, seed=seed, eos_token_id=None)
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(scale)
    return model


@pytest.fixture(scope="module")
def members():
    return [_peaky(1), _peaky(2)]


def _step_probs(models, weights, top_k):
    with torch.no_grad():
        probs = [process_logits(m(torch.tensor([PROMPT])).logits[:, -1], top_k=top_k) for m in models]
    return mixture(probs, weights)[0].double().numpy()


@pytest.mark.parametrize("top_k", [0, 2])
def test_step_frequencies_within_4_sigma(members, top_k):
    n = 20_000
    out = MixtureEnsemble(members, WEIGHTS, draw="per_row").generate(
        do_sample=True, input_ids=[PROMPT] * n, max_new_tokens=1, top_k=top_k, seed=3
    )
    freq = np.bincount([t[0] for t in out.tokens], minlength=V) / n
    p = _step_probs(members, WEIGHTS, top_k)
    sigma = np.sqrt(p * (1 - p) / n) + 1e-12
    assert np.all(np.abs(freq - p) <= 4 * sigma + 1e-9), (freq, p)


def test_sequence_distribution_chi_square(members):
    """4,000 independent ME sequences of length 3 vs the enumerated CE distribution (p > 0.001)."""
    n, length = 4000, 3
    exact = exact_sequence_distribution(members, WEIGHTS, PROMPT, length).numpy()
    assert exact.sum() == pytest.approx(1.0, abs=1e-6)
    out = MixtureEnsemble(members, WEIGHTS, draw="per_row").generate(
        do_sample=True, top_k=0, input_ids=[PROMPT] * n, max_new_tokens=length, seed=0
    )
    counts = np.bincount([sequence_index(t, V) for t in out.tokens], minlength=V**length)
    _, dof, p = chi_square_test(counts, exact)
    assert dof >= 10
    assert p > 1e-3
    # negative control: member 0 alone is a different distribution and must be rejected
    single = MixtureEnsemble(members[:1]).generate(
        do_sample=True, top_k=0, input_ids=[PROMPT] * n, max_new_tokens=length, seed=0
    )
    c_single = np.bincount([sequence_index(t, V) for t in single.tokens], minlength=V**length)
    assert chi_square_test(c_single, exact)[2] < 1e-6


def test_conventional_sampler_matches_the_same_distribution(members):
    n, length = 3000, 2
    exact = exact_sequence_distribution(members, WEIGHTS, PROMPT, length, top_k=3).numpy()
    out = ConventionalEnsemble(members, WEIGHTS).generate(
        do_sample=True, input_ids=[PROMPT] * n, max_new_tokens=length, top_k=3, seed=1
    )
    counts = np.bincount([sequence_index(t, V) for t in out.tokens], minlength=V**length)
    assert chi_square_test(counts, exact)[2] > 1e-3


def test_batch_one_shared_draw_matches(members):
    """The paper's setting (batch 1, one draw per step), repeated: still the CE distribution."""
    length, runs = 2, 200
    exact = exact_sequence_distribution(members, WEIGHTS, PROMPT, length).numpy()
    me = MixtureEnsemble(members, WEIGHTS)
    counts = np.zeros(V**length)
    for s in range(runs):
        out = me.generate(do_sample=True, top_k=0, input_ids=[PROMPT], max_new_tokens=length, seed=s)
        assert len(out.selected) == length and out.forward_calls[0] + out.forward_calls[1] == length
        counts[sequence_index(out.tokens[0], V)] += 1
    assert chi_square_test(counts, exact)[2] > 1e-3


def test_official_truncated_mixture_is_a_different_distribution(members):
    with torch.no_grad():
        raw = [torch.softmax(m(torch.tensor([PROMPT])).logits[:, -1], -1) for m in members]
    exact = mixture([process_logits(r.log(), top_k=2) for r in raw], WEIGHTS)
    trunc = truncated_mixture(raw, WEIGHTS, top_k=2)
    assert (
        0.5 * (exact - trunc).abs().sum().item() > 0.01
    )  # deterministic, so any clear gap shows they differ


def test_single_member_greedy_equals_generate():
    model = tiny_llama(V, hidden=16, layers=1, heads=2, seed=5, eos_token_id=None)
    out = MixtureEnsemble([model]).generate(input_ids=[PROMPT], max_new_tokens=6, do_sample=False)
    ref = model.generate(torch.tensor([PROMPT]), max_new_tokens=6, do_sample=False, pad_token_id=0)
    assert out.tokens[0] == ref[0, len(PROMPT) :].tolist()


def test_seeds_repeat(members):
    me = MixtureEnsemble(members, WEIGHTS)
    a = me.generate(do_sample=True, top_k=0, input_ids=[PROMPT, [3]], max_new_tokens=5, seed=11)
    b = me.generate(do_sample=True, top_k=0, input_ids=[PROMPT, [3]], max_new_tokens=5, seed=11)
    c = me.generate(do_sample=True, top_k=0, input_ids=[PROMPT, [3]], max_new_tokens=5, seed=12)
    assert a.tokens == b.tokens and a.selected == b.selected
    assert (a.tokens, a.selected) != (c.tokens, c.selected)
