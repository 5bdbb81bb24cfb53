"""Heterogeneous vocabularies: byte normalisation, the union mapping, re-encoding and exactness in union space."""

import numpy as np
import pytest
import torch

from icml26.mixture_ensemble import (
    ConventionalEnsemble,
    MixtureEnsemble,
    VocabularyMapping,
    chi_square_test,
    mixture,
    process_logits,
    token_key,
)
from icml26.mixture_ensemble.task import char_tokenizer, tiny_llama

CORPUS = [f"{a}+{b}={a + b};" for a in range(40) for b in range(0, 40, 3)]


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _bpe(vocab_size):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<pad>", "<eos>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    backend.train_from_iterator(CORPUS, trainer)
    return PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>", eos_token="<eos>")


@pytest.fixture(scope="module")
def hetero():
    toks = [_bpe(262), _bpe(320)]
    assert len(toks[0].get_vocab()) != len(toks[1].get_vocab())
    models = []
    for seed, tok in enumerate(toks):
        model = tiny_llama(len(tok.get_vocab()), hidden=16, layers=1, heads=2, seed=seed)
        with torch.no_grad():
            for p in model.parameters():
                p.mul_(3.0)
        models.append(model)
    return models, toks


def test_token_key_normalisation():
    assert token_key("Ġhello", byte_level=True) == b" hello"
    assert token_key("Ċ", byte_level=True) == b"\n"
    assert token_key("▁hello", byte_level=False) == b" hello"
    assert token_key("<0x0A>", byte_level=False) == b"\n"
    assert token_key("Ġ", byte_level=True) == token_key("▁", byte_level=False)


def test_union_mapping_round_trip(hetero):
    _, toks = hetero
    mapping = VocabularyMapping(toks)
    assert not mapping.shared
    assert mapping.union_size >= max(len(t.get_vocab()) for t in toks) - 1  # <pad> is special, unmapped
    for i, tok in enumerate(toks):
        for tid in range(len(tok.get_vocab())):
            uid = int(mapping.to_union[i][tid])
            if uid < 0 or uid == mapping.eos_union_id:
                continue
            text = tok.decode([tid])
            for j, other in enumerate(toks):
                assert other.decode(mapping.encode(j, uid)) == text
    eos = mapping.eos_union_id
    assert [mapping.encode(j, eos) for j in range(2)] == [[t.eos_token_id] for t in toks]


def test_one_step_exact_in_union_space(hetero):
    models, toks = hetero
    weights, prompt, n = [0.4, 0.6], "12+", 5000
    mapping = VocabularyMapping(toks)
    with torch.no_grad():
        probs = []
        for i, (m, t) in enumerate(zip(models, toks, strict=True)):
            logits = m(torch.tensor([t.encode(prompt)])).logits[:, -1]
            logits = logits.masked_fill(~mapping.mask(i), float("-inf"))
            probs.append(mapping.to_union_probs(i, process_logits(logits, top_k=5)))
    exact = mixture(probs, weights)[0].double().numpy()
    out = MixtureEnsemble(models, weights, tokenizers=toks, draw="per_row").generate(
        do_sample=True, prompts=[prompt] * n, max_new_tokens=1, top_k=5, seed=0
    )
    counts = np.bincount([t[0] for t in out.tokens], minlength=mapping.union_size)
    assert chi_square_test(counts, exact / exact.sum())[2] > 1e-3


def test_members_see_the_same_text(hetero):
    models, toks = hetero
    for ens in (MixtureEnsemble(models, tokenizers=toks), ConventionalEnsemble(models, tokenizers=toks)):
        out = ens.generate(do_sample=True, top_k=0, prompts=["3+4=", "17+2"], max_new_tokens=6, seed=2)
        for b in range(2):
            texts = [toks[j].decode(out.member_tokens[j][b], skip_special_tokens=True) for j in range(2)]
            assert texts[0] == texts[1] == out.texts[b]


def test_unmappable_vocabularies_are_rejected():
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    backend = Tokenizer(models.WordLevel({"<pad>": 0, "<eos>": 1, "a": 2, "b": 3}, unk_token="<pad>"))
    backend.pre_tokenizer = pre_tokenizers.Split(Regex("."), behavior="isolated")
    backend.decoder = decoders.Fuse()
    letters = PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>", eos_token="<eos>")
    digits = char_tokenizer()
    with pytest.raises(ValueError, match="cannot spell .* tokens of the other members"):
        VocabularyMapping([digits, letters])
    models_ = [tiny_llama(16, hidden=16, layers=1, heads=2), tiny_llama(4, hidden=16, layers=1, heads=2)]
    with pytest.raises(ValueError, match="shared or mappable vocabulary"):
        MixtureEnsemble(models_, tokenizers=[digits, letters])
    with pytest.raises(ValueError, match="different vocabulary sizes"):
        MixtureEnsemble(models_)
    with pytest.raises(TypeError, match="needs get_vocab"):
        VocabularyMapping([digits, object()])
