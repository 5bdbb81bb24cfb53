"""Per-member processing, the mixture and the official truncated mixture: exact small cases by hand."""

import math

import pytest
import torch

from icml26.mixture_ensemble import mixture, process_logits, truncated_mixture


def _logits(p):
    return torch.tensor([p]).log()


def test_process_identity_is_softmax():
    p = [0.5, 0.3, 0.15, 0.05]
    assert torch.allclose(process_logits(_logits(p)), torch.tensor([p]), atol=1e-6)


def test_top_k_by_hand():
    out = process_logits(_logits([0.5, 0.3, 0.15, 0.05]), top_k=2)
    assert torch.allclose(out, torch.tensor([[0.625, 0.375, 0.0, 0.0]]), atol=1e-6)


def test_top_p_keeps_the_crossing_token():
    # mass before 0.15 is 0.8 < 0.85 so it is kept; mass before 0.05 is 0.95 >= 0.85 so it is dropped
    out = process_logits(_logits([0.5, 0.3, 0.15, 0.05]), top_p=0.85)
    assert torch.allclose(out, torch.tensor([[0.5, 0.3, 0.15, 0.0]]) / 0.95, atol=1e-6)


def test_temperature_by_hand():
    out = process_logits(torch.tensor([[0.0, math.log(3.0)]]), temperature=0.5)
    assert torch.allclose(out, torch.tensor([[0.1, 0.9]]), atol=1e-6)  # 1:9 = 1:3**2


def test_greedy_is_one_hot():
    assert process_logits(torch.tensor([[0.1, 2.0, -1.0]]), temperature=0).tolist() == [[0.0, 1.0, 0.0]]


def test_mixture_and_truncated_mixture_differ_by_hand():
    p1 = torch.tensor([[0.6, 0.3, 0.1, 0.0]])
    p2 = torch.tensor([[0.0, 0.1, 0.3, 0.6]])
    w = [0.5, 0.5]
    # ME/CE-exact: truncate each member to top-1, then mix -> tokens 0 and 3, 1/2 each
    exact = mixture([process_logits(p.clamp_min(1e-30).log(), top_k=1) for p in (p1, p2)], w)
    assert torch.allclose(exact, torch.tensor([[0.5, 0.0, 0.0, 0.5]]), atol=1e-6)
    # official CE: mix raw (0.3, 0.2, 0.2, 0.3), restrict to union of top-1 {0, 3}, then top-1 of the mixture
    trunc = truncated_mixture([p1, p2], w, top_k=1)
    assert trunc.sum().item() == pytest.approx(1.0)
    assert trunc.max().item() == pytest.approx(1.0)  # one token only: not the exact ensemble
    trunc2 = truncated_mixture([p1, p2], w, top_k=2)  # union {0,1,2,3}; mixture top-2 of ties keeps two
    assert torch.allclose(trunc2.sum(), torch.tensor(1.0))


def test_rows_sum_to_one_random():
    g = torch.Generator().manual_seed(0)
    logits = torch.randn(5, 50, generator=g)
    for kw in ({}, {"top_k": 7}, {"top_p": 0.3}, {"temperature": 1.7, "top_k": 3, "top_p": 0.9}):
        out = process_logits(logits, **kw)
        assert torch.allclose(out.sum(-1), torch.ones(5), atol=1e-6)
        assert (out >= 0).all()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"temperature": -1.0}, ValueError, "temperature must be >= 0"),
        ({"temperature": float("nan")}, TypeError, "temperature must be a finite"),
        ({"top_k": -2}, ValueError, "top_k must be an int >= 0"),
        ({"top_k": 1.5}, ValueError, "top_k must be an int"),
        ({"top_p": 0.0}, ValueError, r"top_p must be a float in \(0, 1\]"),
        ({"top_p": 1.5}, ValueError, r"top_p must be a float in \(0, 1\]"),
    ],
)
def test_bad_sampling_parameters(kwargs, error, match):
    with pytest.raises(error, match=match):
        process_logits(torch.zeros(1, 3), **kwargs)


def test_bad_shapes():
    with pytest.raises(ValueError, match=r"logits must have shape \(batch, vocab\)"):
        process_logits(torch.zeros(3))
    with pytest.raises(ValueError, match="need one probability tensor per weight"):
        mixture([torch.ones(1, 2)], [0.5, 0.5])


@pytest.mark.parametrize(
    "bad_row",
    [[float("nan"), 0.0, 1.0], [float("-inf")] * 3, [float("inf"), 0.0, 0.0]],
    ids=["nan", "all -inf", "+inf"],
)
@pytest.mark.parametrize("temperature", [1.0, 0.0])
def test_rows_without_a_distribution_are_rejected(bad_row, temperature):
    logits = torch.tensor([[0.0, 1.0, 2.0], bad_row, [float("-inf"), 0.0, float("-inf")]])
    with pytest.raises(ValueError, match=r"logits row 1 \(of 1 bad rows: \[1\]\) has a NaN"):
        process_logits(logits, temperature=temperature)
    # a row with one finite entry is a distribution (a point mass), not an error
    assert process_logits(logits[[0, 2]]).tolist()[1] == [0.0, 1.0, 0.0]
