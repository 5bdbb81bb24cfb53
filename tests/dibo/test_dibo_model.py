"""Objectives and decoding of the masked-diffusion LM: masking rules and loss normalisations, exactly."""

import numpy as np
import pytest
import torch
from torch.nn import functional as F

from icml26.dibo import DiBO, DiBOConfig, tasks
from icml26.dibo.corpus import MASK, PAD, Pool, encode_items, layouts
from icml26.dibo.decoding import fill_autoregressive, fill_one_step, fill_remasking
from icml26.dibo.model import (
    EPS,
    DiffusionLM,
    adaptation_loss,
    ar_rl_loss,
    corrupt,
    pretraining_loss,
    rl_loss,
    sft_loss,
)


class Recorder(torch.nn.Module):
    """Wraps a model and keeps the last input it saw."""

    def __init__(self, model):
        super().__init__()
        self.model, self.seen = model, None

    def forward(self, tokens):
        self.seen = tokens.clone()
        return self.model(tokens)


@pytest.fixture(scope="module")
def batch():
    pool = Pool(tasks.tfbind8())
    rng = np.random.default_rng(0)
    train, _ = layouts(8, "special")
    items = pool.rl_items(6, rng)
    rows = encode_items(train, rng.integers(8, size=6), pool.x[items["prompt"]], pool.y[items["prompt"]],
                        pool.x[items["anchor"]], "ACGT")  # fmt: skip
    return (
        torch.as_tensor(rows),
        torch.as_tensor(train[0].span),
        torch.as_tensor(items["reward"], dtype=torch.float32),
    )


@pytest.fixture(scope="module")
def model():
    torch.manual_seed(0)
    return DiffusionLM(d_model=32, n_layers=1, n_heads=2, d_ff=64).eval()


def test_corruption_rate_follows_llada(batch):
    tokens, span, _ = batch
    big = tokens.repeat(200, 1)
    noisy, masked, p = corrupt(big, big != PAD, torch.Generator().manual_seed(0))
    assert torch.all((p >= 0) & (p <= 1 - EPS))
    assert torch.equal(noisy == MASK, masked) and not masked[big == PAD].any()
    rate = masked.sum(1).float() / (big != PAD).sum(1)
    assert abs(float((rate - p.squeeze(1)).mean())) < 0.01  # mean over 1200 sequences


def test_sft_never_masks_prompt_tokens(batch, model):
    tokens, span, _ = batch
    rec = Recorder(model)
    for seed in range(20):
        sft_loss(rec, tokens, span, torch.Generator().manual_seed(seed))
        outside = torch.ones(tokens.shape[1], dtype=torch.bool)
        outside[span] = False
        assert torch.equal(rec.seen[:, outside], tokens[:, outside])
        assert (rec.seen[:, span] == MASK).any()


def _manual_rows(model, tokens, noisy, masked, p):
    """Per row, the hand sum over its masked positions of CE / p."""
    logits = model(noisy)
    rows = [0.0] * tokens.shape[0]
    for b, i in masked.nonzero().tolist():
        rows[b] += F.cross_entropy(logits[b, i][None], tokens[b, i][None]).item() / p[b, 0].item()
    return np.array(rows)


def test_pretraining_loss_is_divided_by_b_times_t(batch, model):
    tokens, _, _ = batch
    loss = pretraining_loss(model, tokens, torch.Generator().manual_seed(3))
    noisy, masked, p = corrupt(tokens, tokens != PAD, torch.Generator().manual_seed(3))
    assert loss.item() == pytest.approx(
        _manual_rows(model, tokens, noisy, masked, p).sum() / tokens.numel(), rel=1e-5
    )


def test_adaptation_loss_is_per_sequence_over_its_length(batch, model):
    tokens, _, _ = batch
    loss = adaptation_loss(model, tokens, torch.Generator().manual_seed(3))
    noisy, masked, p = corrupt(tokens, tokens != PAD, torch.Generator().manual_seed(3))
    lengths = (tokens != PAD).sum(1).numpy()
    assert len(set(lengths.tolist())) > 1  # templates of different lengths: B * T would weigh them otherwise
    expected = (_manual_rows(model, tokens, noisy, masked, p) / lengths).mean()
    assert loss.item() == pytest.approx(expected, rel=1e-5)


def test_sft_loss_is_per_sequence_over_its_number_masked(batch, model):
    tokens, span, _ = batch
    maskable = torch.zeros_like(tokens, dtype=torch.bool)
    maskable[:, span] = True
    for seed in (4, 5):
        loss = sft_loss(model, tokens, span, torch.Generator().manual_seed(seed))
        noisy, masked, p = corrupt(tokens, maskable, torch.Generator().manual_seed(seed))
        counts = masked.sum(1).numpy()
        assert masked.any() and len(set(counts.tolist())) > 1  # pooled counts would differ from per-row
        expected = (_manual_rows(model, tokens, noisy, masked, p) / np.maximum(counts, 1)).mean()
        assert loss.item() == pytest.approx(expected, rel=1e-5)


def test_fine_tuning_exempts_biases_and_norms_from_weight_decay():
    model = DiBO(tasks.tfbind8(), DiBOConfig(d_model=32, n_layers=1, n_heads=2, d_ff=64))
    decay, no_decay = model._param_groups("sft")
    names = {id(p): n for n, p in model.model.named_parameters()}
    assert no_decay["weight_decay"] == 0.0 and decay["weight_decay"] == 0.01
    assert all(p.ndim == 1 for p in no_decay["params"])  # biases (in_proj_bias too) and norm weights
    assert {names[id(p)] for p in no_decay["params"]} >= {
        "norm.weight",
        "head.bias",
        "encoder.layers.0.norm1.weight",
    }
    assert all(p.ndim > 1 for p in decay["params"]) and len(decay["params"]) + len(no_decay["params"]) == len(
        names
    )
    (everything,) = model._param_groups("pretrain")
    assert len(everything["params"]) == len(names) and everything["weight_decay"] == 0.01


def test_rl_masks_the_whole_span_and_weights_probabilities(batch, model):
    tokens, span, reward = batch
    rec = Recorder(model)
    loss = rl_loss(rec, tokens, span, reward, sigma=0.5)
    assert torch.all(rec.seen[:, span] == MASK)
    outside = torch.ones(tokens.shape[1], dtype=torch.bool)
    outside[span] = False
    assert torch.equal(rec.seen[:, outside], tokens[:, outside])
    probs = model(rec.seen).softmax(-1)
    manual = -np.mean(
        [reward[b].item() / 0.5 * probs[b, i, tokens[b, i]].item() for b in range(6) for i in span]
    )
    assert loss.item() == pytest.approx(manual, rel=1e-5)


def test_gradients_flow_and_a_positive_reward_raises_the_response_probability(batch):
    tokens, span, _ = batch
    torch.manual_seed(1)
    m = DiffusionLM(d_model=32, n_layers=1, n_heads=2, d_ff=64)
    reward = torch.ones(tokens.shape[0])
    opt = torch.optim.SGD(m.parameters(), lr=0.5)
    before = rl_loss(m, tokens, span, reward, 1.0)
    before.backward()
    assert all(p.grad is not None and torch.isfinite(p.grad).all() for p in m.parameters())
    opt.step()
    assert rl_loss(m, tokens, span, reward, 1.0).item() < before.item()


def test_causal_model_ignores_the_future(batch):
    tokens, span, reward = batch
    torch.manual_seed(2)
    m = DiffusionLM(d_model=32, n_layers=2, n_heads=2, d_ff=64, causal=True).eval()
    changed = tokens.clone()
    changed[:, -1] = MASK
    with torch.no_grad():
        torch.testing.assert_close(m(tokens)[:, :-1], m(changed)[:, :-1])
    assert torch.isfinite(ar_rl_loss(m, tokens, span, reward, 1.0))


def test_decoders_fill_only_the_span(batch, model):
    tokens, span, _ = batch
    one = fill_one_step(model, tokens, span)
    assert one.shape == (tokens.shape[0], len(span)) and not (one == MASK).any() and not (one == PAD).any()
    for steps in (1, 3, len(span)):
        out = fill_remasking(model, tokens, span, steps)
        assert not (out == MASK).any()
    torch.testing.assert_close(fill_remasking(model, tokens, span, 1), one)  # one pass = one-step argmax
    with pytest.raises(ValueError, match="remasking steps"):
        fill_remasking(model, tokens, span, 0)
    causal = DiffusionLM(d_model=32, n_layers=1, n_heads=2, d_ff=64, causal=True).eval()
    assert fill_autoregressive(causal, tokens, span).shape == one.shape


def test_bad_configs_and_inputs_are_rejected():
    with pytest.raises(ValueError, match="markers must be one of"):
        DiBOConfig(markers="xml")
    with pytest.raises(ValueError, match="decoding must be one of"):
        DiBOConfig(decoding="beam")
    with pytest.raises(ValueError, match="batch_size must be an integer >= 1"):
        DiBOConfig(batch_size=0)
    with pytest.raises(TypeError, match="task must be a dibo Task"):
        DiBO("tfbind8")
    with pytest.raises(ValueError, match="cannot be both"):
        DiBO(tasks.tfbind8(), DiBOConfig(pretrain_landscapes=("SIX6_REF_R2",))).pretraining_landscapes()
    with pytest.raises(ValueError, match="tokens must have shape"):
        DiffusionLM(d_model=32, n_layers=1, n_heads=2, d_ff=64)(torch.zeros(3, dtype=torch.long))


@pytest.mark.filterwarnings("ignore:propose:RuntimeWarning")  # a 3-step model may find fewer than n
def test_proposals_are_distinct_valid_designs():
    cfg = DiBOConfig(
        d_model=32, n_layers=1, n_heads=2, d_ff=64, sft_steps=3, max_attempts=256, prompt_batch=64
    )
    model = DiBO(tasks.tfbind8(), cfg).sft()
    prop = model.propose(n=32, seed=0)
    assert len(prop.x) == len({r.tobytes() for r in prop.x}) <= 32
    assert prop.attempts <= 256 and 0 <= prop.validity <= 1
    assert np.all((prop.x >= 0) & (prop.x < 4))
    with pytest.raises(ValueError, match="n must be an integer >= 1"):
        model.propose(n=0)
