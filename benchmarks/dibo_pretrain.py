"""Make the weights ``icml26.dibo`` ships (``src/icml26/dibo/*.pt``, float16, each with its recipe hash)
and time each stage.

    .venv/bin/python benchmarks/dibo_pretrain.py                      # every file, one CPU thread
    .venv/bin/python benchmarks/dibo_pretrain.py --only pretrain      # the pretrained file only
    .venv/bin/python benchmarks/dibo_pretrain.py --only tfbind8 --seeds 1   # one TFBind8 SFT file

1. pretraining of the diffusion model (special markers) on the TF-binding corpora (SIX6 excluded):
   ``pretrain_mdm_special.pt``;
2. from it, per seed: domain adaptation (200 steps) + SFT (600 steps) on TFBind8
   (``tfbind8_sft_mdm_special_seed{0,1,2}.pt``), and DA + SFT (200 + 300 steps: its sequences are four
   times as long) on the default Ehrlich task (``ehrlich_sft_mdm_special_seed0.pt``). Each seed trains
   exactly as the ``paper`` profile's full pipeline trains inner seed ``s`` of runner seed 0 before RL; the
   ``quick`` profile starts its RL stage from these files, one per inner seed.

The recipe of each file (``icml26.dibo.shipped.recipe``) and its hash are stored in it; ``load_shipped``
refuses a file whose recipe is not the library's (remake the files after changing a default or a rule).
Deterministic for a given torch build and thread count. Prints each stage's seconds and loss curve.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch

from icml26.dibo import DiBO, DiBOConfig, shipped, tasks
from icml26.dibo.dibo import ref_landscapes, shipped_weights_name

OUT = Path(__file__).resolve().parents[1] / "src" / "icml26" / "dibo"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", choices=("pretrain", "tfbind8", "ehrlich"), help="remake one kind of file")
    parser.add_argument(
        "--seeds", type=int, nargs="+", help="fine-tuning seeds to make (default: all shipped)"
    )
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    times: dict[str, float] = {}
    cfg = DiBOConfig(seed=0)
    if args.only in (None, "pretrain"):
        torch.manual_seed(0)
        model = DiBO(tasks.tfbind8(), cfg).pretrain()
        name = shipped_weights_name(cfg)
        r = shipped.recipe(cfg, "pretrain", landscapes=ref_landscapes(cfg))
        torch.save(shipped.stamp(model.state_dict(), r), OUT / name)
        shipped.pretrained_digest.cache_clear()
        times[name] = model.history_["pretrain"]["seconds"]
        print(name, json.dumps(model.history_), flush=True)
    for key, make in (("tfbind8", tasks.tfbind8), ("ehrlich", tasks.ehrlich)):
        if args.only not in (None, key):  # --only pretrain skips both
            continue
        task = make()
        for seed in args.seeds if args.seeds is not None else shipped.SFT_SEEDS[key]:
            if seed not in shipped.SFT_SEEDS[key]:
                raise SystemExit(f"--seeds: {key} ships seeds {shipped.SFT_SEEDS[key]}, got {seed}")
            da, sft = shipped.SFT_STEPS[key]
            torch.manual_seed(seed)
            model = DiBO(task, DiBOConfig(seed=seed, adapt_steps=da, sft_steps=sft)).load_shipped("pretrain")
            model.adapt().sft()
            name = shipped_weights_name(cfg, "sft", key, seed)
            r = shipped.recipe(
                DiBOConfig(), "sft", task, seed, parent=shipped.pretrained_digest("mdm_special")
            )
            torch.save(shipped.stamp(model.state_dict(), r), OUT / name)
            times[name] = model.history_["adapt"]["seconds"] + model.history_["sft"]["seconds"]
            print(name, json.dumps({k: model.history_[k] for k in ("adapt", "sft")}), flush=True)
    print(json.dumps({k: round(v, 1) for k, v in times.items()}), f"total {sum(times.values()):.0f} s")
    print("finished", time.strftime("%Y-%m-%d %H:%M:%S"))


if __name__ == "__main__":
    main()
