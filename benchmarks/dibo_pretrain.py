"""Make the weights ``icml26.dibo`` ships (``src/icml26/dibo/*.pt``, float16) and time each stage.

    .venv/bin/python benchmarks/dibo_pretrain.py                 # all three files, one CPU thread
    .venv/bin/python benchmarks/dibo_pretrain.py --only tfbind8  # one SFT file from the shipped pretrained one
    .venv/bin/python benchmarks/dibo_pretrain.py --only pretrain # the pretrained file only

1. pretraining of the diffusion model (special markers) on the TF-binding corpora (SIX6 excluded):
   ``pretrain_mdm_special.pt``;
2. from it: domain adaptation (200 steps) + SFT (600 steps) on TFBind8 (``tfbind8_sft_mdm_special.pt``) and
   DA + SFT (200 + 300 steps: its sequences are twice as long) on the default Ehrlich task
   (``ehrlich_sft_mdm_special.pt``). The ``quick``
   profile starts its RL stage from these; the ``paper`` profile runs every stage from the pretrained file
   (and pretrains the natural-marker and causal variants itself).

Deterministic for a given torch build and thread count (seed 0; the shipped files: `--threads 2`). Prints one line of seconds per stage.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch

from icml26.dibo import DiBO, DiBOConfig, tasks
from icml26.dibo.dibo import shipped_weights_name

OUT = Path(__file__).resolve().parents[1] / "src" / "icml26" / "dibo"


STAGE_STEPS = {"tfbind8": (200, 600), "ehrlich": (200, 300)}  # (DA, SFT) steps from the pretrained file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", choices=("pretrain", "tfbind8", "ehrlich"), help="remake one file only")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    tf, eh = tasks.tfbind8(), tasks.ehrlich()
    times: dict[str, float] = {}
    cfg = DiBOConfig(seed=0)
    if args.only in (None, "pretrain"):
        torch.manual_seed(0)
        model = DiBO(tf, cfg).pretrain()
        name = shipped_weights_name(cfg)
        torch.save(model.state_dict(), OUT / name)
        times[name] = model.history_["pretrain"]["seconds"]
        print(name, model.history_, flush=True)
    for task in (tf, eh):
        key = task.name.split(":", 1)[0]
        if args.only not in (None, key):  # --only pretrain skips both
            continue
        torch.manual_seed(0)
        da, sft = STAGE_STEPS[key]
        stage_cfg = DiBOConfig(seed=0, adapt_steps=da, sft_steps=sft)
        model = DiBO(task, stage_cfg).load_shipped("pretrain")
        model.adapt().sft()
        name = shipped_weights_name(cfg, "sft", task.name.split(":", 1)[0])
        torch.save(model.state_dict(), OUT / name)
        times[name] = model.history_["adapt"]["seconds"] + model.history_["sft"]["seconds"]
        print(name, model.history_, flush=True)
    print(json.dumps({k: round(v, 1) for k, v in times.items()}), f"total {sum(times.values()):.0f} s")
    print("finished", time.strftime("%Y-%m-%d %H:%M:%S"))


if __name__ == "__main__":
    main()
