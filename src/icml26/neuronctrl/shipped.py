"""The shipped weights' training config (its hash is checked when the weights are loaded)."""

from pathlib import Path

WEIGHTS = Path(__file__).resolve().parent / "weights" / "ecs_rd.pt"

TRAIN_CONFIG = {
    "benchmark": "ecs_rd",
    "train_morphs": [0, 1, 2, 3, 4, 5],  # test morphologies are seeds >= 100 (unseen)
    "val_morphs": [50, 51],
    "episodes": 6,
    "steps": 100,
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
