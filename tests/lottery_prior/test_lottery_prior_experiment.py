"""The experiment's smoke profile end to end, its config check and the CLI's bad-input path."""

import math
import subprocess
import sys

import numpy as np
import pytest

from icml26.lottery_prior.data import IMAGES, load
from icml26.lottery_prior.experiment import EXPERIMENT, check

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
