"""transformers-native generation: warpers, greedy, GenerationConfig, logits processors, streamers;
and exactness across tokenizers (char-level + BPE members, χ² against the enumerated CE distribution)."""

import numpy as np
import pytest
import torch
from transformers import (
    GenerationConfig,
    LogitsProcessorList,
    RepetitionPenaltyLogitsProcessor,
    TemperatureLogitsWarper,
    TextStreamer,
    TopKLogitsWarper,
    TopPLogitsWarper,
)

from icml26.mixture_ensemble import ConventionalEnsemble, MixtureEnsemble, chi_square_test, process_logits
from icml26.mixture_ensemble.ensemble import GENERATION_DEFAULTS
from icml26.mixture_ensemble.exact import exact_union_distribution
from icml26.mixture_ensemble.task import bpe_tokenizer, char_tokenizer, make_problems, tiny_llama

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _peaky(vocab, seed, scale=4.0):
    model = tiny_llama(vocab, hidden=16, layers=1, heads=2, seed=seed)
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(scale)
    return model


@pytest.fixture(scope="module")
def pair():
    return [_peaky(12, 1, 2.0), _peaky(12, 2, 2.0)]


@pytest.mark.parametrize(
    ("temperature", "top_k", "top_p"),
    [(1.0, 0, 1.0), (0.7, 0, 1.0), (1.0, 5, 1.0), (1.0, 0, 0.8), (1.3, 7, 0.9), (0.5, 1, 0.3)],
)
def test_process_logits_equals_transformers_warpers(temperature, top_k, top_p):
    """proc = softmax(TopP(TopK(Temperature(logits)))) exactly as transformers builds it, on random logits."""
    g = torch.Generator().manual_seed(3)
    logits = torch.randn(16, 50, generator=g) * 3
    logits[0, :4] = 2.0  # ties at the k-th value are kept, as TopKLogitsWarper keeps them
    ids = torch.zeros(16, 1, dtype=torch.long)
    ref = logits.clone()
    if temperature != 1.0:
        ref = TemperatureLogitsWarper(temperature)(ids, ref)
    if top_k:
        ref = TopKLogitsWarper(top_k)(ids, ref)
    if top_p < 1.0:
        ref = TopPLogitsWarper(top_p)(ids, ref)
    expected = torch.softmax(ref, -1)
    assert torch.equal(process_logits(logits, temperature, top_k, top_p), expected)


def test_defaults_are_transformers_defaults():
    cfg = GenerationConfig()
    if hasattr(cfg, "_get_default_generation_params"):
        defaults = cfg._get_default_generation_params()
        assert {k: defaults[k] for k in GENERATION_DEFAULTS} == GENERATION_DEFAULTS


def test_greedy_is_the_argmax_of_the_full_mixture_and_equal_in_me_and_ce(pair):
    prompt = [[2, 3, 4], [5]]
    me = MixtureEnsemble(pair, [0.4, 0.6]).generate(input_ids=prompt, max_new_tokens=6, do_sample=False)
    ce = ConventionalEnsemble(pair, [0.4, 0.6]).generate(input_ids=prompt, max_new_tokens=6, do_sample=False)
    assert me.tokens == ce.tokens
    assert me.forward_calls == ce.forward_calls == [6, 6]  # greedy ME is the conventional path
    # step 1 by hand: argmax of 0.4 p_1 + 0.6 p_2
    with torch.no_grad():
        p = [torch.softmax(m(torch.tensor([prompt[0]])).logits[0, -1], -1) for m in pair]
    assert me.tokens[0][0] == int((0.4 * p[0] + 0.6 * p[1]).argmax())
    # the default is transformers' do_sample=False
    assert MixtureEnsemble(pair, [0.4, 0.6]).generate(input_ids=prompt, max_new_tokens=6).tokens == me.tokens


def test_generation_config_and_overrides(pair):
    me = MixtureEnsemble(pair)
    cfg = GenerationConfig(do_sample=True, top_k=3, max_new_tokens=4)
    a = me.generate(input_ids=[[2]], generation_config=cfg, seed=5)
    b = me.generate(input_ids=[[2]], do_sample=True, top_k=3, max_new_tokens=4, seed=5)
    assert a.tokens == b.tokens and len(a.tokens[0]) == 4
    c = me.generate(input_ids=[[2]], generation_config=cfg, max_new_tokens=2, seed=5)  # kwargs win
    assert c.tokens[0] == a.tokens[0][:2]
    assert (
        len(me.generate(input_ids=[[2, 3]], do_sample=True, stop_at_eos=False).tokens[0]) == 18
    )  # max_length 20 - prompt 2
    with pytest.raises(ValueError, match=r"sets \['num_beams'\], which this ensemble does not implement"):
        me.generate(input_ids=[[2]], generation_config=GenerationConfig(num_beams=2))
    with pytest.raises(TypeError, match="generation_config must be a transformers.GenerationConfig"):
        me.generate(input_ids=[[2]], generation_config={"do_sample": True})
    with pytest.raises(ValueError, match="temperature must be > 0 when sampling"):
        me.generate(input_ids=[[2]], do_sample=True, temperature=0.0)
    with pytest.raises(TypeError, match="do_sample must be True or False"):
        me.generate(input_ids=[[2]], do_sample=1)
    with pytest.warns(UserWarning, match=r"\['top_k'\] are ignored with do_sample=False"):
        me.generate(input_ids=[[2]], max_new_tokens=2, top_k=3)


def test_logits_processor_hook_is_applied_per_member(pair):
    """A processor that bans token 7 in every member: never sampled; it sees each member's own ids."""
    seen = []

    def ban_seven(input_ids, scores):
        seen.append(input_ids.shape)
        return scores.index_fill(-1, torch.tensor([7]), float("-inf"))

    out = MixtureEnsemble(pair, draw="per_row").generate(
        input_ids=[[2, 3]] * 200, max_new_tokens=3, do_sample=True, top_k=0, logits_processor=ban_seven
    )
    assert all(7 not in t for t in out.tokens)
    assert seen[0] == (200, 2) and seen[-1][1] == 4
    # a transformers LogitsProcessorList works the same way, in ME and in greedy mode
    lp = LogitsProcessorList([RepetitionPenaltyLogitsProcessor(1.5)])
    MixtureEnsemble(pair).generate(input_ids=[[2]], max_new_tokens=3, do_sample=True, logits_processor=lp)
    MixtureEnsemble(pair).generate(input_ids=[[2]], max_new_tokens=3, logits_processor=lp)
    with pytest.raises(ValueError, match="logits_processor must return a tensor of shape"):
        MixtureEnsemble(pair).generate(
            input_ids=[[2]], max_new_tokens=1, do_sample=True, logits_processor=lambda i, s: s[:, :3]
        )
    with pytest.raises(TypeError, match="logits_processor must be a LogitsProcessorList or a callable"):
        MixtureEnsemble(pair).generate(input_ids=[[2]], max_new_tokens=1, logits_processor=3)


def test_text_streamer_prints_member_zero_text(capsys):
    tok = char_tokenizer()
    model = _peaky(len(tok.get_vocab()), 4, 2.0)
    me = MixtureEnsemble([model, _peaky(len(tok.get_vocab()), 5, 2.0)], tokenizers=[tok, tok])
    out = me.generate(
        prompts=["1+2="],
        max_new_tokens=5,
        do_sample=True,
        streamer=TextStreamer(tok, skip_prompt=True),
        seed=1,
    )
    printed = capsys.readouterr().out
    assert printed.strip() == out.texts[0].strip()
    with pytest.raises(ValueError, match="a streamer supports batch size 1 only"):
        me.generate(prompts=["1+", "2+"], max_new_tokens=2, streamer=TextStreamer(tok))
    with pytest.raises(TypeError, match="streamer must have put"):
        me.generate(prompts=["1+"], max_new_tokens=2, streamer=object())


@pytest.fixture(scope="module")
def char_and_bpe():
    """Two members with different tokenizers: character-level (16 ids) and a 40-token BPE."""
    toks = [char_tokenizer(), bpe_tokenizer(make_problems(300, np.random.default_rng(0), 0, 30, 30), 40)]
    models = [_peaky(len(t.get_vocab()), s) for s, t in enumerate(toks)]
    return models, toks


def _fit(ensemble_samples, exact):
    keys = list(exact)
    index = {s: i for i, s in enumerate(keys)}
    counts = np.zeros(len(keys) + 1)  # the last cell: anything outside the exact support
    for t in ensemble_samples:
        counts[index.get(tuple(t), len(keys))] += 1
    return chi_square_test(counts, np.append([exact[k] for k in keys], 0.0))


def test_me_is_exact_across_tokenizers_over_three_steps(char_and_bpe):
    """ME samples of 3 union tokens (re-encoded for each member, lazy catch-up of several ids) fit
    the enumerated CE distribution; the official truncated mixture (mix, then truncate) fails the
    same test."""
    models, toks = char_and_bpe
    weights, prompt, n, length, top_k = [0.3, 0.7], "12+", 6000, 3, 3
    me = MixtureEnsemble(models, weights, tokenizers=toks, draw="per_row")
    assert me.mapping is not None and not me.mapping.shared
    exact = exact_union_distribution(me, prompt, length, top_k=top_k)
    assert sum(exact.values()) == pytest.approx(1.0, abs=1e-6) and len(exact) > 50
    # some union token is several ids for the character member (a BPE merge)
    assert any(len(me._encode(0, u)) > 1 for seq in exact for u in seq)
    samples = me.generate(prompts=[prompt] * n, max_new_tokens=length, do_sample=True, top_k=top_k, seed=0)
    _, dof, p = _fit(samples.tokens, exact)
    assert dof >= 30 and p > 1e-3
    control = ConventionalEnsemble(models, weights, tokenizers=toks, variant="truncated").generate(
        prompts=[prompt] * n, max_new_tokens=length, do_sample=True, top_k=top_k, seed=0
    )
    assert _fit(control.tokens, exact)[2] < 1e-6
    shared = MixtureEnsemble(models, weights, tokenizers=toks)  # batch 1, one draw per step (the paper's)
    runs = [shared.generate(prompts=[prompt], max_new_tokens=length, do_sample=True, top_k=top_k, seed=s)
            for s in range(300)]  # fmt: skip
    assert _fit([r.tokens[0] for r in runs], exact)[2] > 1e-3


@torch.no_grad()
def _string_space_reference(models, toks, weights, prompt, length, top_k):
    """The CE distribution of ``length`` pieces enumerated over *strings*, from the tokenizers' own
    ``get_vocab`` / ``encode`` and :func:`process_logits` only (none of ME's mapping, ``_encode`` or
    ``_member_probs``): each member reads its encoding of the prompt plus its encoding of each piece."""
    names = [{i: s for s, i in tok.get_vocab().items()} for tok in toks]
    frontier, finished = {(): 1.0}, {}
    for _ in range(length):
        grown = {}
        for prefix, mass in frontier.items():
            step = {}
            for model, tok, name, w in zip(models, toks, names, weights, strict=True):
                ids = tok.encode(prompt) + [t for piece in prefix for t in tok.encode(piece)]
                logits = model(input_ids=torch.tensor([ids])).logits[:, -1, :]
                for special in set(tok.all_special_ids) - {tok.eos_token_id}:  # not a text piece
                    logits[0, special] = float("-inf")
                for t, p in enumerate(process_logits(logits, top_k=top_k)[0].tolist()):
                    piece = None if t == tok.eos_token_id else name[t]
                    step[piece] = step.get(piece, 0.0) + w * p
            for piece, p in step.items():
                if p > 0:
                    (finished if piece is None else grown)[(*prefix, piece)] = mass * p
        frontier = grown
    return {**finished, **frontier}


def test_union_reference_matches_an_independent_string_space_enumeration(char_and_bpe):
    """exact_union_distribution (built on ME's own re-encoding and per-member probabilities) equals the
    same distribution enumerated from the tokenizers' encode and vocabularies alone."""
    models, toks = char_and_bpe
    weights, prompt, length, top_k = [0.3, 0.7], "12+", 3, 3
    me = MixtureEnsemble(models, weights, tokenizers=toks)
    union = exact_union_distribution(me, prompt, length, top_k=top_k)

    def text(u):
        return None if u == me.mapping.eos_union_id else me.mapping.key(u).decode("utf-8")

    ours = {tuple(text(u) for u in seq): p for seq, p in union.items()}
    reference = _string_space_reference(models, toks, weights, prompt, length, top_k)
    assert len(ours) == len(union) and set(ours) == set(reference) and len(reference) > 50
    assert max(abs(ours[k] - reference[k]) for k in reference) < 1e-6


def test_exact_union_distribution_rejects_bad_input(char_and_bpe, pair):
    models, toks = char_and_bpe
    me = MixtureEnsemble(models, tokenizers=toks)
    with pytest.raises(ValueError, match="needs an ensemble built with tokenizers="):
        exact_union_distribution(MixtureEnsemble(pair), "1", 1)
    with pytest.raises(ValueError, match="length must be an int >= 1"):
        exact_union_distribution(me, "1", 0)
    with pytest.raises(ValueError, match="more than 10 continuations"):
        exact_union_distribution(me, "1", 2, max_sequences=10)


def test_old_and_new_catch_up_paths_agree_across_tokenizers():
    """Members of different tokenizers (re-encoded tokens of several ids, mid-sequence padding):
    the previous release's catch-up path and the new one give identical texts and tokens."""
    toks = [char_tokenizer(), bpe_tokenizer(make_problems(300, np.random.default_rng(0), 0, 30, 30), 40)]
    models = [
        tiny_llama(len(t.get_vocab()), hidden=16, layers=1, heads=2, seed=s) for s, t in enumerate(toks)
    ]
    outs = [
        MixtureEnsemble(models, tokenizers=toks, draw="per_row", preallocate=p).generate(
            prompts=["12+7=", "3+25=", "17+9="], max_new_tokens=8, do_sample=True, top_k=0, seed=3
        )
        for p in (True, False)
    ]
    assert outs[0].tokens == outs[1].tokens and outs[0].member_tokens == outs[1].member_tokens
    assert outs[0].texts == outs[1].texts


def test_text_prompts_are_encoded_as_each_tokenizer_encodes_them():
    """Prompts are batch-encoded once per distinct tokenizer: the same ids as ``tokenizer.encode``."""
    toks = [char_tokenizer(), bpe_tokenizer(make_problems(300, np.random.default_rng(0), 0, 30, 30), 40)]
    models = [
        tiny_llama(len(t.get_vocab()), hidden=16, layers=1, heads=2, seed=s) for s, t in enumerate(toks)
    ]
    prompts = ["12+7=", "3+25=", "17+9="]
    ids = MixtureEnsemble(models + models[:1], tokenizers=toks + toks[:1])._prompt_ids(None, prompts)
    assert ids == [[t.encode(p) for p in prompts] for t in toks + toks[:1]]
