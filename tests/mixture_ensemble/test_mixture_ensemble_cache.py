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
    assert catch_up_error(model, ids, chunks, one_pass=True) <= 1e-12  # the experiment's float64 reference
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


def test_preallocated_path_gives_the_same_logits_as_the_concatenating_one():
    """Issue #20 "go toward the limit": the in-place mask buffer (grown past its 64 first slots here)
    feeds the model exactly what the previous release's concatenation fed it: equal logits bit for bit."""
    model = tiny_llama(20, hidden=32, seed=3)
    gen = torch.Generator().manual_seed(5)
    new, old = LazyMember(model, 3, pad_id=0), LazyMember(model, 3, pad_id=0, preallocate=False)
    prompts = [[3, 4, 5, 6, 7], [8, 9], [10]]
    for member in (new, old):
        member.append(prompts)
    for step in range(30):  # 5 + ~3 tokens a step per row: the buffer doubles at least once
        assert torch.equal(new.catch_up(), old.catch_up()), step
        assert torch.equal(new.attention_mask, old.attention_mask)
        rows = [
            torch.randint(2, 20, (int(k),), generator=gen).tolist()
            for k in torch.randint(0, 5, (3,), generator=gen)
        ]
        rows[step % 3] = rows[step % 3] or [2]  # at least one row has a token
        for member in (new, old):
            member.append(rows)
    assert new.attention_mask.shape[1] > 64 and new._mask.shape[1] >= new.attention_mask.shape[1]
    assert (new.forward_calls, new.tokens_forwarded) == (old.forward_calls, old.tokens_forwarded)
    with pytest.raises(TypeError, match="preallocate must be True or False"):
        LazyMember(model, 1, preallocate=1)
    with pytest.raises(ValueError, match="batch_size must be an int >= 1"):
        LazyMember(model, 0)


@pytest.mark.parametrize("make", ["ME shared", "ME per_row", "CE exact", "CE truncated"])
def test_old_and_new_catch_up_paths_give_identical_tokens(make):
    """For a fixed seed the previous release's path (``preallocate=False``) and the new one generate
    the same tokens, member draws, calls and token counts (ragged prompts, batch 3, top-k 5)."""
    models = [tiny_llama(24, hidden=16, layers=1, heads=2, seed=s, eos_token_id=None) for s in range(3)]
    kind, option = make.split()

    def build(preallocate: bool):
        if kind == "ME":
            return MixtureEnsemble(models, [0.2, 0.3, 0.5], draw=option, preallocate=preallocate)
        return ConventionalEnsemble(models, [0.2, 0.3, 0.5], variant=option, preallocate=preallocate)

    outs = [
        build(p).generate(
            input_ids=[[2, 3, 4], [5], [6, 7]], max_new_tokens=40, do_sample=True, top_k=5, seed=11
        )
        for p in (True, False)
    ]
    assert outs[0].tokens == outs[1].tokens and outs[0].member_tokens == outs[1].member_tokens
    assert outs[0].selected == outs[1].selected
    assert (outs[0].forward_calls, outs[0].tokens_forwarded) == (
        outs[1].forward_calls,
        outs[1].tokens_forwarded,
    )
    with pytest.raises(TypeError, match="preallocate must be True or False"):
        MixtureEnsemble(models, preallocate="yes")


def test_one_causal_pass_is_the_recomputation_of_every_prefix():
    """The cache checks' reference: row i of one uncached pass equals a separate pass over ids[: i + 1]."""
    from icml26.mixture_ensemble.cache import _prefix_logits

    model = tiny_llama(30, hidden=32, layers=2, seed=4).double()
    ids = torch.randint(2, 30, (1, 24), generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        full = _prefix_logits(model, ids)
        for i in range(ids.shape[1]):
            assert (full[i] - model(input_ids=ids[:, : i + 1]).logits[0, -1]).abs().max() <= 1e-12
