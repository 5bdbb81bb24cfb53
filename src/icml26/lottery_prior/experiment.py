"""Experiment: Lottery Prior against classical and deep-prior baselines on zero-shot restoration.

1. Denoising (AWGN sigma = {sigma}/255) of fixed crops of scikit-image's bundled photos: Lottery Prior
   with ``members_max`` random draws (its first ``members`` are the ensemble the claims judge; K in
   ``k_curve`` are read as subsets of the same run), the same ensemble with one shared W0, BM3D,
   NL-means, TV, wavelet, and a small DIP and Deep Decoder given LP's CPU seconds (DIP also at its
   fixed step budget and at its oracle best step). PSNR/SSIM, bits per pixel, effective parameters.
2. No early stopping: LP (``es_draws`` one-draw runs, batched) and DIP run 3x their budget on the
   first ``es_images`` images; gap = PSNR at 3x - best PSNR up to 1x.
3. Rate knob: PSNR and bpp over ``sweep_lams`` (K = 1, ``sweep_seeds`` draws batched as members).
4. Noisy super-resolution x{sr_factor} (sigma = {sr_sigma}/255) against bicubic; inpainting of 50% random
   pixels and of a central block against biharmonic; denoising at sigma = 15/255 beside BM3D.
5. The bound of ``bound.py`` on random finite codes; K members batched against one after another.

Every interval is a Student-t interval over images (each image has its own lottery seeds, so the
spread carries the randomness of the draws and of the images).
"""

from __future__ import annotations

import functools
import math
import time
from typing import Any

import numpy as np
import torch

from icml26.common import (
    Experiment,
    Plot,
    Resources,
    Result,
    check_device,
    comparison_key,
    mean_ci95,
    paired_ci,
    progress,
    ratio_of_means_ci,
    seed_everything,
    unit,
)
from icml26.lottery_prior import baselines as B
from icml26.lottery_prior.bound import ml_decode, ml_error_bound
from icml26.lottery_prior.claims import BACKGROUND, NAMES, PAPER_CLAIMS, TESTS
from icml26.lottery_prior.data import IMAGES, load
from icml26.lottery_prior.ops import Denoise, Inpaint, SuperResolution, to_numpy
from icml26.lottery_prior.solver import LotteryPrior


def psnr(truth: np.ndarray, estimate: np.ndarray) -> float:
    """PSNR in dB of the clipped estimate (``skimage.metrics.peak_signal_noise_ratio``, data range 1)."""
    from skimage.metrics import peak_signal_noise_ratio

    return float(peak_signal_noise_ratio(truth, np.clip(estimate, 0, 1), data_range=1.0))


def ssim(truth: np.ndarray, estimate: np.ndarray) -> float:
    from skimage.metrics import structural_similarity

    axis = -1 if truth.ndim == 3 else None
    return float(structural_similarity(truth, np.clip(estimate, 0, 1), data_range=1.0, channel_axis=axis))


def _lp(cfg: dict[str, Any], seed: int, **over: Any) -> LotteryPrior:
    kw = {"keep": cfg["keep"], "lam": cfg["lam"], "members": cfg["members_max"], "seed": seed,
          "steps": cfg["steps"], "device": cfg["device"]}  # fmt: skip
    kw.update(over)
    return LotteryPrior(**kw)


def _observe(op: Any, img: np.ndarray, seed: int) -> np.ndarray:
    return to_numpy(op.observe(img, np.random.default_rng(seed)))


def _denoise_image(cfg: dict[str, Any], name: str, index: int, seed: int, es: bool) -> dict[str, Any]:
    """Part 1 (and 2 when ``es``) on one image: every method's PSNR/SSIM, bits, parameters and seconds."""
    img = load(name, cfg["size"])
    sigma = cfg["sigma"] / 255
    op = Denoise(sigma)
    lottery = 1000 * seed + index  # this image's lottery seed
    y = _observe(op, img, lottery)
    out: dict[str, Any] = {}
    sol = _lp(cfg, lottery).solve(y, op)
    k = cfg["members"]
    out["lp"] = psnr(img, sol.members[:k].mean(0))
    out["lp_ssim"] = ssim(img, sol.members[:k].mean(0))
    out["lp_single"] = float(np.mean([psnr(img, m) for m in sol.members[:k]]))
    out["lp_k"] = {
        kk: psnr(img, sol.members[:kk].mean(0)) for kk in cfg["k_curve"] if kk <= cfg["members_max"]
    }
    out["lp_bpp"], out["lp_params"] = sol.bpp, sol.effective_params
    out["lp_seconds"] = sol.seconds * k / cfg["members_max"]  # LP's K = members share of the batched run
    shared = _lp(cfg, lottery, members=k, shared_w0=True).solve(y, op)
    out["lp_shared"] = psnr(img, shared.estimate)
    # classical
    classical = (("bm3d", B.bm3d_denoise),) if cfg["bm3d"] else ()
    for key, fn in (*classical, ("nlm", B.nlm_denoise), ("wavelet", B.wavelet_denoise)):
        t = time.process_time()
        out[key] = psnr(img, fn(y, sigma))
        out[f"{key}_seconds"] = time.process_time() - t
    out["tv"] = psnr(img, B.tv_denoise(y))
    # deep priors at LP's CPU seconds (DIP also at its fixed budget and its oracle best step)
    channels = 1 if img.ndim == 2 else 3
    budget = out["lp_seconds"]
    dip = B.DeepImagePrior(channels)
    fixed = cfg["dip_steps"] * (cfg["es_factor"] if es else 1)
    every = max(cfg["dip_steps"] // 20, 1)
    _, snaps, done, secs = B.fit_prior(dip, y, op, fixed, lottery, seconds=budget, snapshot_every=every,
                                       input_noise=1 / 30)  # fmt: skip
    timed = [s for s, (t, _) in snaps.items() if t <= budget] or [min(snaps)]
    out["dip"] = psnr(img, snaps[max(timed)][1])
    curve = {s: psnr(img, e) for s, (_, e) in snaps.items()}
    out["dip_fixed"] = curve[max(s for s in curve if s <= cfg["dip_steps"])]
    out["dip_best"] = max(v for s, v in curve.items() if s <= cfg["dip_steps"])
    out["dip_params"], out["dip_seconds_per_step"] = B.n_params(dip), secs / done
    if es:
        out["dip_es_gap"] = curve[max(curve)] - out["dip_best"]
        out["dip_curve"] = curve
    dd = B.DeepDecoder(channels)
    est, _, done, secs = B.fit_prior(dd, y, op, 1, lottery, seconds=budget)
    out["dd"], out["dd_params"], out["dd_seconds_per_step"] = psnr(img, est), B.n_params(dd), secs / done
    if es:  # LP, one draw, 3x its step budget
        n = cfg["steps"] * cfg["es_factor"]
        marks = tuple(range(0, n + 1, max(cfg["steps"] // 10, 1)))
        long = _lp(cfg, lottery, members=cfg["es_draws"], steps=n, eval_at=marks).solve(y, op)
        gaps = []
        for j in range(cfg["es_draws"]):  # each member is an independent one-draw run
            curve_j = {s: psnr(img, e[j]) for s, e in long.snapshots.items() if s > 0}
            gaps.append(curve_j[max(curve_j)] - max(v for s, v in curve_j.items() if s <= cfg["steps"]))
            out.setdefault("lp_curve", curve_j)
        out["lp_es_gaps"] = gaps
    return out


def _sweep(cfg: dict[str, Any], name: str, index: int, seed: int) -> dict[str, Any]:
    """Part 3 on one image: PSNR and bpp of each draw at every lambda (same lottery seeds for every lambda)."""
    img = load(name, cfg["sweep_size"])
    op = Denoise(cfg["sigma"] / 255)
    lottery = 1000 * seed + 100 + index
    y = _observe(op, img, lottery)
    rows = {}
    for lam in cfg["sweep_lams"]:
        sol = _lp(cfg, lottery, members=cfg["sweep_seeds"], lam=float(lam), steps=cfg["sweep_steps"]).solve(
            y, op
        )
        rows[float(lam)] = ([psnr(img, m) for m in sol.members], list(sol.member_latent_bpp))
    return rows


def _tasks(cfg: dict[str, Any], name: str, index: int, seed: int) -> dict[str, float]:
    """Part 4 on one image: super-resolution, random and block inpainting, sigma = 15 denoising."""
    img = load(name, cfg["size"])
    lottery = 1000 * seed + 200 + index
    out: dict[str, float] = {}
    k = cfg["members"]
    sr = SuperResolution(cfg["sr_factor"], cfg["sr_sigma"] / 255)
    y = _observe(sr, img, lottery)
    out["lp_sr"] = psnr(img, _lp(cfg, lottery, members=k).solve(y, sr).estimate)
    out["bicubic_sr"] = psnr(img, B.bicubic(y, cfg["sr_factor"]))
    for key, mask in (
        ("", Inpaint.random_mask(img.shape[:2], cfg["inpaint_keep"], np.random.default_rng(lottery))),
        ("_block", Inpaint.block_mask(img.shape[:2])),
    ):
        op = Inpaint(mask, cfg["inpaint_sigma"] / 255)
        y = _observe(op, img, lottery + 1)
        out[f"lp_inpaint{key}"] = psnr(img, _lp(cfg, lottery, members=k).solve(y, op).estimate)
        out[f"biharmonic{key}"] = psnr(img, B.biharmonic(y, mask))
    op = Denoise(15 / 255)
    y = _observe(op, img, lottery + 2)
    out["lp_s15"] = psnr(img, _lp(cfg, lottery, members=k).solve(y, op).estimate)
    if cfg["bm3d"]:
        out["bm3d_s15"] = psnr(img, B.bm3d_denoise(y, 15 / 255))
    return out


def _bound_coverage(trials: int, rng: np.random.Generator) -> list[bool]:
    """Part 5a: does (B) hold for the ML decoder of a random 64-word code in R^20 (eta = 0.05)?"""
    m, words, sigma = 20, 64, 0.3
    held = []
    for _ in range(trials):
        a = rng.normal(size=(m, m)) / math.sqrt(m)
        code = rng.normal(size=(words, m))
        x = code[0] + 0.05 * rng.normal(size=m)
        y = a @ x + sigma * rng.normal(size=m)
        d = min(float(np.linalg.norm(a @ (x - c))) for c in code)
        err = float(np.linalg.norm(a @ (x - code[ml_decode(y, code, a)]))) / math.sqrt(m)
        held.append(err <= ml_error_bound(d, math.log2(words), sigma, m, 0.05))
    return held


def _batching(cfg: dict[str, Any], seed: int, repeats: int = 3) -> dict[str, list[float]]:
    """Part 5b: CPU seconds of K members batched in one solve against K one-member solves (``repeats`` pairs)."""
    img = load(cfg["images"][0], cfg["size"])
    op = Denoise(cfg["sigma"] / 255)
    y = _observe(op, img, seed)
    k, steps = cfg["members"], cfg["perf_steps"]
    out: dict[str, list[float]] = {"batched": [], "sequential": []}
    for r in range(repeats):
        out["batched"].append(_lp(cfg, seed + r, members=k, steps=steps).solve(y, op).seconds)
        alone = [
            _lp(cfg, 100 * (seed + r) + j, members=1, steps=steps).solve(y, op).seconds for j in range(k)
        ]
        out["sequential"].append(sum(alone))
    return out


def _store(metrics: dict[str, float], key: str, values: list[float]) -> None:
    metrics[key], metrics[f"{key}_ci"] = mean_ci95(values)


def _compare(
    metrics: dict[str, float], ours: str, base: str, a: list[float], b: list[float], form: str
) -> None:
    if len(a) < 2:
        return
    if form == "ratio":
        low, high = ratio_of_means_ci(a, b)
    else:
        low, high = paired_ci(a, b, form="difference")
    key = comparison_key(ours, base, form)
    metrics[f"{key}_ci_low"], metrics[f"{key}_ci_high"] = low, high


def run(config: dict[str, Any], seed: int) -> Result:
    """Parts 1-5 of the module docstring."""
    check(config)
    rng = seed_everything(seed)
    torch.set_num_threads(1)
    metrics: dict[str, float] = {}
    result = Result(metrics=metrics)
    images = list(config["images"])

    # 1-2. denoising on every image
    rows = []
    for i, name in enumerate(progress(images, "denoising")):
        es = i < config["es_images"]
        rows.append(
            unit(f"denoise_{name}", functools.partial(_denoise_image, config, name, i, seed, es), (rng,))
        )
    shared_keys = set.intersection(*(set(r) for r in rows))
    per = {
        k: [r[k] for r in rows] for k in rows[0] if k in shared_keys and isinstance(rows[0][k], float | int)
    }
    for key in (
        "lp",
        "lp_single",
        "lp_shared",
        "bm3d",
        "nlm",
        "tv",
        "wavelet",
        "dip",
        "dip_fixed",
        "dip_best",
        "dd",
    ):
        if key in per:
            _store(metrics, f"{key}_psnr", per[key])
    _store(metrics, "lp_ssim", per["lp_ssim"])
    _store(metrics, "lp_bpp", per["lp_bpp"])
    for key in ("bm3d", "nlm", "dip", "dip_fixed", "dd", "tv", "wavelet", "lp_shared"):
        if key in per:
            _compare(metrics, "lp_psnr", f"{key}_psnr", per["lp"], per[key], "ratio")
    _compare(metrics, "lp_psnr", "lp_single_psnr", per["lp"], per["lp_single"], "difference")
    for kk in config["k_curve"]:
        if kk <= config["members_max"]:
            _store(metrics, f"lp_k{kk}_psnr", [r["lp_k"][kk] for r in rows])
    if {1, 2} <= set(config["k_curve"]):
        _compare(metrics, "lp_k2_psnr", "lp_k1_psnr", [r["lp_k"][2] for r in rows], [r["lp_k"][1] for r in rows],
                 "difference")  # fmt: skip
    # parameters depend on the image size only: exact values, zero-width intervals
    for key in ("lp_params", "dip_params", "dd_params"):
        metrics[key], metrics[f"{key}_ci"] = float(np.mean(per[key])), 0.0
    for key in ("lp_seconds", "bm3d_seconds", "dip_seconds_per_step", "dd_seconds_per_step"):
        if key in per:
            _store(metrics, key, per[key])
    es_rows = rows[: config["es_images"]]
    _store(metrics, "lp_es_gap", [g for r in es_rows for g in r["lp_es_gaps"]])
    _store(metrics, "dip_es_gap", [r["dip_es_gap"] for r in es_rows])
    result.tables["denoising"] = [
        {"image": n, **{k: round(r[k], 3) for k in per if k.endswith(("lp", "single", "shared")) or k in (
            "bm3d", "nlm", "tv", "wavelet", "dip", "dip_fixed", "dip_best", "dd", "lp_bpp")}}
        for n, r in zip(images, rows, strict=True)
    ]  # fmt: skip
    result.plots.append(Plot(
        "psnr_vs_steps", "PSNR against steps (3x budget), first image", {
            "Lottery Prior (K=1)": (list(es_rows[0]["lp_curve"]), list(es_rows[0]["lp_curve"].values())),
            "DIP": (list(es_rows[0]["dip_curve"]), list(es_rows[0]["dip_curve"].values())),
        }, xlabel="step", ylabel="PSNR (dB)", claim="no_early_stopping",
    ))  # fmt: skip

    # 3. rate knob
    sweeps = [
        unit(f"sweep_{n}", functools.partial(_sweep, config, n, i, seed), (rng,))
        for i, n in enumerate(progress(config["sweep_images"], "lambda sweep"))
    ]
    lams = [float(v) for v in config["sweep_lams"]]
    inst = {lam: [p for s in sweeps for p in s[lam][0]] for lam in lams}  # (image, draw) instances
    means = [float(np.mean(inst[lam])) for lam in lams]
    best = lams[1 + int(np.argmax(means[1:-1]))]  # the best interior lambda by the mean
    _store(metrics, "sweep_interior_best_psnr", inst[best])
    _store(metrics, "sweep_lam0_psnr", inst[lams[0]])
    _store(metrics, "sweep_lam_top_psnr", inst[lams[-1]])
    for base, lam in (("sweep_lam0_psnr", lams[0]), ("sweep_lam_top_psnr", lams[-1])):
        _compare(metrics, "sweep_interior_best_psnr", base, inst[best], inst[lam], "difference")
    metrics["sweep_best_lam"] = best
    bpp = np.array([[b for s in sweeps for b in s[lam][1]] for lam in lams]).T  # (instances, lams)
    _store(metrics, "sweep_bpp_min_drop", list((bpp[:, :-1] - bpp[:, 1:]).min(axis=1)))
    result.tables["lambda_sweep"] = [
        {"lam": lam, "psnr": round(m, 3), "latent_bpp": round(float(bpp[:, j].mean()), 4)}
        for j, (lam, m) in enumerate(zip(lams, means, strict=True))
    ]
    result.plots.append(Plot("lambda_sweep", "PSNR against the rate weight lambda (0 plotted at 1e-5)",
                             {"PSNR": ([max(v, 1e-5) for v in lams], means)}, xlabel="lambda", ylabel="PSNR (dB)",
                             logx=True, claim="rate_interior_max"))  # fmt: skip

    # 4. other tasks
    tasks = [
        unit(f"tasks_{n}", functools.partial(_tasks, config, n, i, seed), (rng,))
        for i, n in enumerate(progress(config["task_images"], "SR / inpainting / sigma 15"))
    ]
    for key in tasks[0]:
        _store(metrics, f"{key}_psnr", [t[key] for t in tasks])
    for ours, base in (
        ("lp_sr", "bicubic_sr"),
        ("lp_inpaint", "biharmonic"),
        ("lp_inpaint_block", "biharmonic_block"),
    ):
        _compare(metrics, f"{ours}_psnr", f"{base}_psnr", [t[ours] for t in tasks], [t[base] for t in tasks],
                 "difference")  # fmt: skip

    # 5. the bound and batching
    held = unit("bound", functools.partial(_bound_coverage, config["bound_trials"], rng), (rng,))
    _store(metrics, "bound_coverage", [float(h) for h in held])
    perf = unit("batching", functools.partial(_batching, config, seed), (rng,))
    metrics["batched_speedup"] = float(np.mean(perf["sequential"]) / np.mean(perf["batched"]))
    metrics["batched_speedup_ci_low"], metrics["batched_speedup_ci_high"] = ratio_of_means_ci(
        perf["sequential"], perf["batched"], nonnegative=True
    )
    metrics["lp_seconds_per_image"] = metrics["lp_seconds"]

    result.blocked["denoise_sota_paper_scale"] = (
        "the paper's benchmarks (Kodak/Set9-type sets at full resolution) are not available offline and its GPU "
        "budgets (about 1e5 steps per image) are out of reach of 2 CPU cores; only the abstract is public"
    )
    result.notes.append(
        f"images {', '.join(images)} at {config['size']}^2; LP {config['steps']} steps, K = {config['members']} "
        f"of {config['members_max']}; DIP/DD at LP's CPU seconds ({metrics['lp_seconds']:.1f} s per image)"
    )
    return result


def check(config: dict[str, Any]) -> None:
    """``ValueError`` for a config outside what the experiment supports."""
    for key in ("images", "sweep_images", "task_images"):
        if not config[key] or any(n not in IMAGES for n in config[key]):
            raise ValueError(f"{key} must be a non-empty list of {', '.join(IMAGES)}, got {config[key]!r}")
    for key in ("size", "sweep_size"):
        if config[key] not in (32, 64, 128, 256):
            raise ValueError(
                f"{key} must be 32, 64, 128 or 256 (divisible by the Deep Decoder's 32), got {config[key]!r}"
            )
    for key in ("members", "members_max", "steps", "sweep_steps", "sweep_seeds", "dip_steps", "es_factor",
                "bound_trials", "perf_steps", "sr_factor", "es_draws"):  # fmt: skip
        if isinstance(config[key], bool) or not isinstance(config[key], int) or config[key] < 1:
            raise ValueError(f"{key} must be an integer >= 1, got {config[key]!r}")
    if not config["members"] <= config["members_max"]:
        raise ValueError(
            f"members ({config['members']}) must not exceed members_max ({config['members_max']})"
        )
    if not 0 <= config["es_images"] <= len(config["images"]) or config["es_images"] < 1:
        raise ValueError(f"es_images must be in [1, {len(config['images'])}], got {config['es_images']!r}")
    if len(config["sweep_lams"]) < 3 or sorted(config["sweep_lams"]) != list(config["sweep_lams"]):
        raise ValueError(f"sweep_lams must be >= 3 increasing values, got {config['sweep_lams']!r}")
    if not 0 < config["keep"] <= 1:
        raise ValueError(f"keep must lie in (0, 1], got {config['keep']!r}")
    if config["size"] % config["sr_factor"]:
        raise ValueError(f"sr_factor {config['sr_factor']} must divide size {config['size']}")
    if not isinstance(config["bm3d"], bool):
        raise ValueError(f"bm3d must be true or false, got {config['bm3d']!r}")
    check_device(config["device"])


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """Rough CPU seconds and bytes of one seed on one core (about 50 ms per 64^2 step of a small ensemble)."""
    px = (config["size"] / 64) ** 2
    step = 0.025 * (1 + config["members_max"] / 2) * px
    per_image = step * config["steps"] * 3 + 0.037 * px * config["dip_steps"] + 5 * px
    es = config["es_images"] * (0.03 * px * config["steps"] * config["es_factor"] * 2)
    sweep = len(config["sweep_images"]) * len(config["sweep_lams"]) * config["sweep_steps"] * 0.03
    tasks = len(config["task_images"]) * 4 * step * config["steps"]
    return len(config["images"]) * per_image + es + sweep + tasks + 2 * config["perf_steps"] * step, 2e9


_COMMON = {
    "sigma": 25,
    "keep": 0.7,
    "lam": 1e-3,
    "k_curve": [1, 2, 4],
    "es_factor": 3,
    "es_draws": 2,
    "sweep_lams": [0.0, 1e-4, 1e-3, 1e-2, 1e-1],
    "sr_factor": 4,
    "sr_sigma": 10,
    "inpaint_keep": 0.5,
    "inpaint_sigma": 10,
    "device": "cpu",
    "bm3d": True,
}
_SMOKE = {**_COMMON, "images": ["camera"], "size": 32, "members": 2, "members_max": 2, "steps": 8,
          "dip_steps": 6, "bm3d": False, "es_images": 1, "sweep_images": ["camera"], "sweep_size": 32, "sweep_seeds": 2,
          "sweep_steps": 6, "task_images": ["camera"], "bound_trials": 40, "perf_steps": 2}  # fmt: skip
_QUICK = {**_COMMON, "images": ["astronaut", "camera"], "size": 64, "members": 2, "members_max": 2,
          "steps": 200, "dip_steps": 200, "es_images": 1, "sweep_images": ["coffee"], "sweep_size": 32,
          "sweep_seeds": 2, "sweep_steps": 200, "task_images": ["astronaut"], "bound_trials": 400,
          "perf_steps": 20}  # fmt: skip
_PAPER = {**_COMMON, "images": ["astronaut", "coffee", "camera"], "size": 128, "members": 4, "members_max": 8,
          "steps": 1000, "dip_steps": 1800, "es_images": 3, "sweep_images": ["astronaut", "coffee", "camera"],
          "sweep_size": 64, "sweep_seeds": 2, "sweep_steps": 1000, "task_images": ["astronaut", "camera"],
          "bound_trials": 2000, "perf_steps": 50}  # fmt: skip

from icml26.common.schema import Bool, Choice, Device, Float, Int, ListOf  # noqa: E402 (the schema block sits beside the experiment)

SCHEMA = {  # each profile key's type and range (icml26.common.schema); check() keeps the cross-key rules
    "sigma": Float(0, 255, low_open=True),  # noise level on the 0-255 scale
    ("sr_sigma", "inpaint_sigma"): Float(0, 255),
    ("keep", "inpaint_keep"): Float(0, 1, low_open=True),
    "lam": Float(0, 10),
    "k_curve": ListOf(Int(1, 1000), 1, 64),
    ("es_factor", "sr_factor"): Int(1, 32),
    ("es_draws", "sweep_seeds"): Int(1, 1000),
    "sweep_lams": ListOf(Float(0, 10), 3, 64, increasing=True),
    "device": Device(),
    "bm3d": Bool(),
    ("images", "sweep_images", "task_images"): ListOf(Choice(tuple(IMAGES)), 1, len(IMAGES), distinct=True),
    ("size", "sweep_size"): Int(32, 256),
    ("members", "members_max"): Int(1, 64),
    ("steps", "dip_steps", "sweep_steps"): Int(1, 10**6),
    "es_images": Int(1, 100),
    "bound_trials": Int(1, 10**7),
    "perf_steps": Int(1, 10**5),
}


EXPERIMENT = Experiment(
    method="lottery_prior",
    title="Lottery Prior: Randomized Neural Compression for Zero-Shot Inverse Problems",
    paper="Wu, You, Dragotti, Gunduz, ICML 2026 (arXiv id not identified; only the abstract is public)",
    run=run,
    profiles={"smoke": _SMOKE, "quick": _QUICK, "paper": _PAPER},
    check=check,
    schema=SCHEMA,
    cost=cost,
    resources=Resources(cpus=1),
    names=NAMES,
    claims=TESTS,
    paper_claims=PAPER_CLAIMS,
    background=BACKGROUND,
)
