"""CPU seconds per local step, FedPissa's single LoRA against dual LoRA, on both tracks (the computation ratio).

    python benchmarks/fedpissa_speed.py [--repeats 5] [--steps 50] [--batch 32] [--tracks text,vision]

Interleaved repeats of ``--steps`` Adam steps on one client's data (text: MiniLM's last layer with LoRA on
query/value over cached features, r = 8; vision: the shipped tiny ViT with LoRA on qkv/fc1, r = 4), one
torch thread, ``time.process_time``. Prints the median per step and the ratio's median and min..max over
the paired repeats.
"""

from __future__ import annotations

import argparse

import numpy as np
import torch

from icml26.fedpissa import FedPissa, FedPissaConfig, local_train, make_clients, supersense_task


def _track(name: str):
    if name == "text":
        from icml26.fedpissa.text import TextTop, frozen_features

        texts, labels, _ = supersense_task(10, 300)
        hidden, mask, top = frozen_features(texts, 1)
        clients = make_clients((hidden, mask), torch.from_numpy(labels), 10, 0.1, 0)
        return clients[0], (lambda s: TextTop(top, 10, s)), 8, ("query", "value")
    from icml26.fedpissa.vision import load_backbone, make_vision_clients

    return make_vision_clients(20, 0.3, 0, per_client_cap=600)[0], load_backbone, 4, ("qkv", "fc1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--tracks", default="text,vision")
    args = parser.parse_args()
    tracks = args.tracks.split(",")
    if args.repeats < 1 or args.steps < 1 or args.batch < 1 or not set(tracks) <= {"text", "vision"}:
        parser.error("repeats, steps and batch must be >= 1; tracks a comma list of text, vision")
    torch.set_num_threads(1)
    for name in tracks:
        client, model_fn, r, targets = _track(name)
        models = {}
        for method, init in (("fedpissa", "pissa"), ("dual", "lora")):
            cfg = FedPissaConfig(
                method=method, init=init, r=r, alpha=float(r), targets=targets, batch=args.batch
            )
            models[method] = FedPissa(cfg).build(model_fn, 0)
        times = {m: [] for m in models}
        for rep in range(args.repeats):
            for m, (model, params) in models.items():
                g = torch.Generator().manual_seed(rep)
                cpu = local_train(
                    model,
                    list(params.values()),
                    client.train_x,
                    client.train_y,
                    args.steps,
                    1e-3,
                    args.batch,
                    g,
                )
                times[m].append(cpu / args.steps)
        ratio = np.asarray(times["fedpissa"]) / np.asarray(times["dual"])
        print(
            f"{name}: fedpissa {np.median(times['fedpissa']) * 1e3:.2f} ms/step, dual {np.median(times['dual']) * 1e3:.2f}"
            f" ms/step, ratio {np.median(ratio):.3f} [{ratio.min():.3f}, {ratio.max():.3f}]"
        )


if __name__ == "__main__":
    main()
