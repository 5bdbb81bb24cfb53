"""The experiment's smoke profile end to end, its config check and the CLI's bad-input path."""

import math
import subprocess
import sys

import numpy as np
import pytest
import torch

from icml26.lottery_prior.data import IMAGES, load
from icml26.lottery_prior.experiment import EXPERIMENT, check, interior_best

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def test_smoke_run_measures_every_claim():
    config = dict(EXPERIMENT.profiles["smoke"])
    result = EXPERIMENT.run(config, 0)
    smoke_off = {"bm3d_psnr"}  # BM3D is switched off in smoke (bm3d=False) for speed
    for claim in EXPERIMENT.claims:
        if claim.name in result.blocked:
            continue
        for key in (claim.metric, *claim.relative_to, *claim.controls):
            assert key in result.metrics or key in smoke_off, (claim.name, key)
    assert set(result.blocked) == {"denoise_sota_paper_scale"}
    m = result.metrics
    assert all(
        math.isfinite(m[k]) for k in ("lp_psnr", "dip_psnr", "dd_psnr", "lp_bpp", "sweep_bpp_min_drop")
    )
    assert m["lp_params"] < m["dd_params"] and m["bound_coverage"] >= 0.9
    assert {r["lam"] for r in result.tables["lambda_sweep"]} == set(config["sweep_lams"])


def test_config_check_rejects_bad_settings():
    config = dict(EXPERIMENT.profiles["quick"])
    check(config)
    for bad, match in (
        ({"images": ["lena"]}, "images must be"),
        ({"size": 48}, "size must be"),
        ({"members": 3, "members_max": 2}, "must not exceed"),
        ({"keep": 0.0}, "keep must lie"),
        ({"sweep_lams": [0.1, 0.0, 1.0]}, "increasing"),
        ({"steps": 0}, "steps must be"),
        ({"device": "tpu:7"}, "device"),
    ):
        with pytest.raises(ValueError, match=match):
            check({**config, **bad})


def test_images_are_bundled_crops():
    for name in IMAGES:
        img = load(name, 32)
        assert img.shape[:2] == (32, 32) and img.min() >= 0 and img.max() <= 1
    assert load("astronaut", 64).shape == (64, 64, 3) and load("camera", 64).shape == (64, 64)
    with pytest.raises(ValueError, match="unknown image"):
        load("lena", 64)
    assert np.array_equal(load("coins", 32), load("coins", 32))


def test_cli_rejects_a_bad_config_with_exit_2():
    proc = subprocess.run(
        [sys.executable, "-m", "icml26", "run", "lottery_prior", "--profile", "smoke", "--set", "size=48"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and "size must be" in proc.stderr + proc.stdout
    assert "Traceback" not in proc.stderr


def test_interior_best_selects_on_draw_0_and_measures_on_the_other_draws():
    """No winner's curse: lambda is chosen from draw 0 only; the values are the other draws' per-image means."""
    lams = [0.0, 1e-3, 1e-2, 1e-1]
    # draw 0 prefers 1e-3; draw 1 (held out) prefers 1e-2: selection must follow draw 0
    image_a = {
        0.0: ([20.0, 20.0], []),
        1e-3: ([25.0, 21.0], []),
        1e-2: ([22.0, 30.0], []),
        1e-1: ([19.0, 18.0], []),
    }
    image_b = {0.0: ([21.0, 22.0, 24.0], []), 1e-3: ([26.0, 23.0, 25.0], []), 1e-2: ([20.0, 29.0, 27.0], []),
               1e-1: ([18.0, 17.0, 19.0], [])}  # fmt: skip
    best, held = interior_best([image_a, image_b], lams)
    assert best == 1e-3  # draw-0 means: 1e-3 -> 25.5, 1e-2 -> 21 (endpoints never chosen)
    assert held[1e-3] == [21.0, 24.0] and held[0.0] == [20.0, 23.0] and held[1e-1] == [18.0, 18.0]
    # an endpoint best on draw 0 is never chosen: the test is about the interior
    ends_high = {
        0.0: ([30.0, 20.0], []),
        1e-3: ([22.0, 21.0], []),
        1e-2: ([23.0, 22.0], []),
        1e-1: ([31.0, 18.0], []),
    }
    assert interior_best([ends_high], lams)[0] == 1e-2
    with pytest.raises(ValueError, match="2 draws"):
        interior_best([{lam: ([20.0], []) for lam in lams}], lams)


def test_config_check_needs_two_sweep_draws():
    with pytest.raises(ValueError, match="sweep_seeds"):
        check({**EXPERIMENT.profiles["quick"], "sweep_seeds": 1})


def test_shared_control_differs_from_the_ensemble_only_in_w0():
    """The ensemble_vs_shared_w0 control: same seeds, scores and modules as LP's first K members, one W0."""
    from icml26.lottery_prior.experiment import _lp, shared_control

    cfg = {**EXPERIMENT.profiles["smoke"], "members": 2, "members_max": 3}
    control, own = shared_control(cfg, 7), _lp(cfg, 7)
    assert control.members == 2 and control.shared_w0 and not own.shared_w0
    shape = (1, 32, 32)
    c_net, _ = control.build(shape)
    o_net, _ = own.build(shape)
    for c_layer, o_layer in zip(c_net.layers, o_net.layers, strict=True):
        assert torch.equal(c_layer.w0[0], c_layer.w0[1])  # one W0 for every member
        assert torch.equal(c_layer.w0[0], o_layer.w0[0]) and not torch.equal(o_layer.w0[0], o_layer.w0[1])
        assert torch.equal(c_layer.scores, o_layer.scores[:2])  # same score initialisation
    c_w = c_net.modnet.convs[0].weight
    assert torch.equal(c_w, o_net.modnet.convs[0].weight[: c_w.shape[0]])  # same module initialisation


def test_ensemble_scores_exact():
    """lp: PSNR of the mean of the first k members; lp_single: the mean of their PSNRs; lp_k: prefixes."""
    from icml26.lottery_prior.experiment import ensemble_scores

    truth = np.full((4, 4), 0.5)
    members = np.stack([truth + 0.1, truth - 0.1, truth + 0.2])  # MSE 0.01, 0.01, 0.04
    out = ensemble_scores(truth, members, 2, [1, 2, 4])
    assert out["lp"] > 100  # the first two cancel exactly
    assert out["lp_single"] == pytest.approx(20.0)  # both singles at MSE 0.01 -> 20 dB
    assert out["lp_k"][1] == pytest.approx(20.0) and out["lp_k"][2] > 100 and 4 not in out["lp_k"]
    three = ensemble_scores(truth, members, 3, [3])
    assert three["lp_single"] == pytest.approx((20 + 20 + 10 * math.log10(1 / 0.04)) / 3)
    assert three["lp"] == pytest.approx(10 * math.log10(1 / (0.2 / 3) ** 2))
