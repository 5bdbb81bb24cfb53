"""How far is the cross-environment W2 from its finite-sample floor? (by hand, ~3 CPU-minutes)

``python benchmarks/digl_w2_floor.py``: SP-Motif b = 0.9 (1,500 / 600 / 600 graphs, seeds 0 and 1),
10 epochs, ERM and DIGL (free-support) at lam 1 and 10. On the ID-validation graphs prints the
standardised cross-environment W2 (``diagnostics.env_w2``), its floor (the same W2 with environment ids
shuffled within each class: mean and std over 5 shuffles) and the relative excess the ``w2_*`` tests
judge, beside the env-probe gap and the accuracies.
"""

import numpy as np
import torch

from icml26.digl import DIGL, ERM, load_split
from icml26.digl.diagnostics import env_probe, env_w2, shuffle_within_class


def main() -> None:
    torch.set_num_threads(1)
    for seed in (0, 1):
        s = load_split("spurious_motif_0.9", seed, 1500, 600, 600)
        runs = [("erm", ERM(epochs=10, batch_size=64, random_state=seed))]
        runs += [
            (f"digl lam={lam:g}", DIGL(lam=lam, epochs=10, batch_size=64, random_state=seed))
            for lam in (1.0, 10.0)
        ]
        for name, est in runs:
            est.fit(s.train, s.val)
            z, y, env = est.embed(s.id_val), s.id_val.y, s.id_val.env
            rng = np.random.default_rng(0)
            floor = [env_w2(z, y, shuffle_within_class(y, env, rng)) for _ in range(5)]
            w2 = env_w2(z, y, env)
            probe, major = env_probe(z, y, env)
            print(
                f"seed {seed} {name:12s} w2 {w2:.3f} floor {np.mean(floor):.3f} +- {np.std(floor):.3f}"
                f" excess {(w2 - np.mean(floor)) / np.mean(floor):+.3f} probe_gap {probe - major:+.3f}"
                f" id {est.score(s.id_val):.3f} ood {est.score(s.test):.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
