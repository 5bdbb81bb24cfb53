"""The shipped weights' training config (its hash is checked when the weights are loaded)."""

from pathlib import Path

WEIGHT_DIR = Path(__file__).resolve().parent / "weights"
WEIGHTS = WEIGHT_DIR / "ecs_rd.pt"
#: training seeds of the learned parts shipped for ecs_rd (seed 0 is ``WEIGHTS``)
TRAIN_SEEDS = (0, 1)

TRAIN_CONFIG = {
    "benchmark": "ecs_rd",
    "train_morphs": [0, 1, 2, 3, 4, 5],  # test morphologies are seeds >= 100 (unseen)
    "val_morphs": [50, 51],
    "episodes": 6,
    "steps": 100,
    "observer_prior": "harmonic",
    "hidden": 16,
    "layers": 3,
    "obs_iters": 400,
    "op_iters": 300,
    "batch": 16,
    "rollout": 4,
    "labels": 300,
    "label_horizon": 4,
    "label_pop": 24,
    "label_iters": 3,
    "chunk": 2,
    "gen_hidden": 128,
    "gen_iters": 3000,
    "distill_iters": 2000,
    "conformal_alpha": 0.1,
    "k_samples": 16,
    "ode_steps": 8,
    "seed": 0,
}


#: dbs and astro_k train with about half the iterations and labels of ecs_rd (the CPU budget of this
#: build; their learned parts are therefore less trained) [inferred]
SMALLER = {"obs_iters": 200, "op_iters": 150, "labels": 150, "gen_iters": 1500, "distill_iters": 1000}


def train_config(benchmark: str = "ecs_rd", seed: int = 0) -> dict:
    """The training config of ``benchmark`` with training seed ``seed`` (seed 0 of ecs_rd: TRAIN_CONFIG)."""
    if benchmark not in ("ecs_rd", "dbs", "astro_k"):
        raise ValueError(f"benchmark {benchmark!r} is unknown; accepted: ecs_rd, dbs, astro_k")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return {
        **TRAIN_CONFIG,
        **(SMALLER if benchmark != "ecs_rd" else {}),
        "benchmark": benchmark,
        "seed": seed,
    }


def weights_path(benchmark: str = "ecs_rd", seed: int = 0) -> Path:
    """Where the shipped weights of (benchmark, training seed) live."""
    train_config(benchmark, seed)
    return WEIGHTS if (benchmark, seed) == ("ecs_rd", 0) else WEIGHT_DIR / f"{benchmark}_seed{seed}.pt"


def load_shipped(alpha: float = 0.5, seed: int = 0):
    """(multi-step NeuronCtrl, distilled NeuronCtrl) with the shipped weights (config hash checked)."""
    from icml26.neuronctrl.controller import NeuronCtrl, load_models

    _, mods, extra = load_models(WEIGHTS, TRAIN_CONFIG)
    multi = NeuronCtrl(mods["observer"], mods["operator"], mods["generator"], "qp", k_samples=TRAIN_CONFIG["k_samples"],
                       ode_steps=TRAIN_CONFIG["ode_steps"], chunk=TRAIN_CONFIG["chunk"], alpha=alpha,
                       margin=extra["margin"], seed=seed)  # fmt: skip
    return multi, multi.distill(mods["policy"])
