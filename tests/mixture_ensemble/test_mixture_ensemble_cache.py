"""Lazy KV synchronisation: catch-up logits equal full recomputation; call accounting."""

import pytest
import torch

from icml26.mixture_ensemble import (
    ConventionalEnsemble,
    LazyMember,
    MixtureEnsemble,
    catch_up_error,
    incremental_decoding_error,
)
from icml26.mixture_ensemble.task import tiny_llama

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _gpt2(vocab=20):
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    cfg = GPT2Config(
        vocab_size=vocab, n_embd=32, n_layer=2, n_head=2, bos_token_id=0, eos_token_id=1, n_positions=64
    )
    return GPT2LMHeadModel(cfg).eval()


@pytest.mark.parametrize("make", [lambda: tiny_llama(20, hidden=32, seed=0), _gpt2])
def test_catch_up_equals_full_recompute(make):
    ids = [int(t) for t in torch.randint(2, 20, (50,), generator=torch.Generator().manual_seed(0))]
    chunks = [5, 1, 2, 3, 4, 5, 6, 7, 8, 9]  # catch-up chunk lengths 1..9 after a 5-token prompt
    assert catch_up_error(make(), ids, chunks) <= 1e-5


def test_catch_up_is_exact_in_float64_and_at_library_rounding_in_float32():
    """float64 removes rounding, so any mismatch left is algorithmic; float32 matches the library's cache."""
    model = tiny_llama(40, hidden=64, layers=3, heads=4, seed=2)
    ids = [int(t) for t in torch.randint(2, 40, (40,), generator=torch.Generator().manual_seed(1))]
    chunks = [6, 1, 2, 3, 5, 8]
    assert catch_up_error(model.double(), ids, chunks) <= 1e-12
    model = model.float()
    ours, library = catch_up_error(model, ids, chunks), incremental_decoding_error(model, ids, 6)
    assert library <= 1e-5 and ours <= max(2 * library, 1e-6)
    with pytest.raises(ValueError, match="prompt_length must be in"):
        incremental_decoding_error(model, ids, len(ids))


def test_ragged_batch_equals_per_row_recompute():
    """Left-padded prompts of different lengths and uneven chunks (mid-sequence padding) stay exact."""
    model = tiny_llama(20, hidden=32, seed=1)
    rows = [[3, 4, 5, 6, 7], [8, 9]]
    member = LazyMember(model, 2, pad_id=0)
    member.append(rows)
    member.catch_up()
    extra = [[10], [11, 12, 13]]
    member.append(extra)
    lazy = member.catch_up()
    with torch.no_grad():
        for b in range(2):
            full = model(torch.tensor([rows[b] + extra[b]])).logits[0, -1]
            assert (lazy[b] - full).abs().max().item() <= 1e-5
    assert member.forward_calls == 2 and member.tokens_forwarded == 7 + 4


def test_call_accounting():
    models = [tiny_llama(20, hidden=16, layers=1, heads=2, seed=s, eos_token_id=None) for s in range(3)]
    steps, prompt = 12, [[2, 3, 4]]
    ce = ConventionalEnsemble(models).generate(
        do_sample=True, top_k=0, input_ids=prompt, max_new_tokens=steps, seed=0
    )
    assert ce.forward_calls == [steps] * 3
    assert ce.tokens_forwarded == [3 + steps - 1] * 3
    me = MixtureEnsemble(models).generate(
        do_sample=True, top_k=0, input_ids=prompt, max_new_tokens=steps, seed=0
    )
    assert sum(me.forward_calls) == steps  # one forward pass per generated token
    for i in range(3):
        picks = [t for t, m in enumerate(me.selected) if m == i]
        assert me.forward_calls[i] == len(picks)
        # a member processes the prompt plus every token sampled before its last selection
        assert me.tokens_forwarded[i] == (3 + picks[-1] if picks else 0)


def test_catch_up_needs_tokens():
    member = LazyMember(tiny_llama(20, hidden=16, layers=1, heads=2), 1)
    with pytest.raises(ValueError, match="catch_up called with empty buffers"):
        member.catch_up()
    with pytest.raises(ValueError, match="expected 1 rows of token ids"):
        member.append([[1], [2]])
    with pytest.raises(ValueError, match="chunk lengths"):
        catch_up_error(member.model, [1, 2, 3], [2, 5])
