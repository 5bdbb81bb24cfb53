"""C²R: contrastive curriculum for robust dataset distillation.

Li et al., "Mind Your Margin and Boundary: Are Your Distilled Datasets Truly Robust?", ICML 2026
(arXiv:2605.20606). Reconstructed from the abstract and a secondary note; see docs/methods/c2r.md.

>>> from icml26.c2r import C2R, load_pool, evaluate_robustness, train_network
>>> distilled = C2R(iterations=100).distill(x, y, ipc=10, seed=0, pool=load_pool(x, y, "fashion_mnist"))
>>> evaluate_robustness(train_network(distilled.images, distilled.labels, seed=0), x_test, y_test)
"""

from icml26.c2r.contrastive import (
    ClassQueue,
    crl_loss,
    mean_alignment_loss,
    projected_topk,
    random_projection,
)
from icml26.c2r.curriculum import attack_aware_batches, uniform_batches
from icml26.c2r.data import load, load_digits_images, load_fashion_mnist
from icml26.c2r.distill import C2R, DM, METHODS, DistilledSet, Distiller, RandomSubset, ROMELike
from icml26.c2r.evaluate import ATTACKS, correct_under_attack, evaluate_robustness, train_network
from icml26.c2r.ls_pgd import BackwardCounter, LineSearchPGD
from icml26.c2r.margins import logit_margin, perturbation_score, pgd, robust_hinge
from icml26.c2r.nets import ConvNet3, make_net
from icml26.c2r.pool import load_pool, train_pool

__all__ = [
    "ATTACKS",
    "C2R",
    "DM",
    "METHODS",
    "BackwardCounter",
    "ClassQueue",
    "ConvNet3",
    "DistilledSet",
    "Distiller",
    "LineSearchPGD",
    "ROMELike",
    "RandomSubset",
    "attack_aware_batches",
    "correct_under_attack",
    "crl_loss",
    "evaluate_robustness",
    "load",
    "load_digits_images",
    "load_fashion_mnist",
    "load_pool",
    "logit_margin",
    "make_net",
    "mean_alignment_loss",
    "perturbation_score",
    "pgd",
    "projected_topk",
    "random_projection",
    "robust_hinge",
    "train_network",
    "train_pool",
    "uniform_batches",
]
