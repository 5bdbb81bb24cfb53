"""DIGL and the baselines as estimators: the lam = 0 identity, shapes, variants, baselines' penalties, bad input."""

import numpy as np
import pytest
import torch
from sklearn.base import clone

from icml26.digl import DIGL, ERM, IRM, Coral, GraphSet, GroupDRO, Mixup, VREx, spurious_motif

SMALL = dict(epochs=2, batch_size=16, hidden=8, num_layers=2)
ONE = {**SMALL, "epochs": 1}


@pytest.fixture(scope="module")
def split():
    return spurious_motif(0.9, 0, n_train=48, n_val=12, n_test=12, n_id_val=12)


def params(est):
    return [p.detach().clone() for p in [*est.encoder_.parameters(), *est.head_.parameters()]]


def test_lam0_runs_the_digl_path_and_equals_erm_bit_for_bit(split, one_torch_thread):
    erm = ERM(**SMALL, random_state=3).fit(split.train, split.val)
    digl = DIGL(lam=0.0, **SMALL, random_state=3).fit(split.train, split.val)
    assert all(torch.equal(a, b) for a, b in zip(params(erm), params(digl), strict=True))
    assert [h["val_acc"] for h in erm.history_] == [h["val_acc"] for h in digl.history_]
    assert all(h["penalty"] > 0 for h in digl.history_)  # the barycenters were computed
    moved = DIGL(lam=1.0, **SMALL, random_state=3).fit(split.train, split.val)
    assert not all(torch.equal(a, b) for a, b in zip(params(erm), params(moved), strict=True))


def test_fit_predict_embed_shapes_and_sklearn_api(split, one_torch_thread):
    est = DIGL(lam=0.1, **SMALL).fit(split.train, split.val)
    assert est.embed(split.test).shape == (12, 8)
    proba = est.predict_proba(split.test)
    assert proba.shape == (12, 3) and np.allclose(proba.sum(1), 1.0)
    assert set(est.predict(split.test)) <= {0, 1, 2} and 0.0 <= est.score(split.test) <= 1.0
    assert 1 <= est.best_epoch_ <= 2 and len(est.history_) == 2
    assert est.get_params()["lam"] == 0.1 and clone(est).get_params() == est.get_params()
    for cls, key in ((IRM, "lam"), (GroupDRO, "step_size"), (Mixup, "alpha")):
        assert key in cls().get_params()


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(barycenter="bures"),
        dict(barycenter="sinkhorn"),
        dict(memory=4),
        dict(predict_with="prototype"),
        dict(beta=1.0),
    ],
)
def test_variants_train_and_predict(split, kwargs, one_torch_thread):
    est = DIGL(lam=1.0, **ONE, **kwargs).fit(split.train, split.val)
    assert np.isfinite([h["loss"] for h in est.history_]).all()
    assert est.predict_proba(split.test).shape == (12, 3)
    if "memory" in kwargs:
        assert all(v.shape == (4, 8) for v in est.bank_.values()) and est.bank_
    if "predict_with" in kwargs:
        assert set(est.prototypes_) == {0, 1, 2}


def test_pseudo_environments_by_kmeans_when_ids_are_missing(split, one_torch_thread):
    unlabeled = GraphSet(split.train.graphs, split.train.y)
    est = DIGL(lam=0.1, pseudo_envs=2, pseudo_env_epochs=1, **ONE).fit(unlabeled)
    assert set(np.unique(est.pseudo_env_ids_)) == {0, 1}


@pytest.mark.parametrize("cls", [ERM, IRM, VREx, GroupDRO, Coral, Mixup])
def test_each_baseline_trains(split, cls, one_torch_thread):
    est = cls(**ONE).fit(split.train, split.val)
    assert np.isfinite(est.history_[-1]["loss"]) and 0.0 <= est.score(split.test) <= 1.0


def built(cls, **kw):
    est = cls(hidden=4, num_layers=1, **kw)
    est.classes_, est.env_ids_ = np.arange(2), np.arange(2)
    est._build(2)
    est._setup(None)
    return est


def test_baseline_penalties_vanish_when_environments_coincide_and_not_otherwise():
    g = torch.Generator().manual_seed(0)
    base = torch.randn(6, 4, generator=g)
    y, env = torch.tensor([0, 1, 0] * 4), torch.repeat_interleave(torch.arange(2), 6)
    same, other = torch.cat([base, base]), torch.cat([base, 3 * base + 1])
    for cls in (VREx, Coral):
        est = built(cls, lam=1.0)
        assert float(est.objective(same, y, env)[1].detach()) == pytest.approx(0.0, abs=1e-7)
        assert float(est.objective(other, y, env)[1].detach()) > 1e-3
    irm = built(IRM, lam=1.0)
    assert float(irm.objective(other, y, env)[1].detach()) >= 0.0


def test_groupdro_upweights_the_worse_environment():
    est = built(GroupDRO, step_size=1.0)
    z = torch.zeros(8, 4)
    y = torch.tensor([0, 1, 0, 1, 0, 0, 0, 0])
    env = torch.repeat_interleave(torch.arange(2), 4)
    with torch.no_grad():
        est.head_.weight.zero_()
        est.head_.bias.copy_(torch.tensor([2.0, -2.0]))  # env 0 (half class 1) has the larger risk
    est.objective(z, y, env)
    assert est.q_[0] > est.q_[1]


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: DIGL(lam=-0.1), "lam must be a finite number >= 0"),
        (lambda: DIGL(barycenter="gromov"), "barycenter must be one of"),
        (lambda: DIGL(barycenter="bures", memory=4), "memory .* needs barycenter free_support or sinkhorn"),
        (lambda: DIGL(predict_with="knn"), "predict_with must be one of"),
        (lambda: DIGL(pseudo_envs=1), "pseudo_envs must be 0"),
        (lambda: DIGL(epochs=0), "epochs must be an integer >= 1"),
        (lambda: VREx(lam=float("nan")), "lam must be a finite number >= 0"),
        (lambda: GroupDRO(step_size=0.0), "step_size must be > 0"),
    ],
)
def test_bad_hyperparameters_are_rejected_before_training(split, make, message):
    with pytest.raises(ValueError, match=message):
        make().fit(split.train)


def test_bad_training_data_is_rejected(split):
    one_env = GraphSet(split.train.graphs, split.train.y, np.zeros(48, dtype=int))
    with pytest.raises(ValueError, match=">= 2 training environments"):
        DIGL(**SMALL).fit(one_env)
    with pytest.raises(ValueError, match="needs environment ids .* or set pseudo_envs"):
        DIGL(**SMALL).fit(GraphSet(split.train.graphs, split.train.y))
    gap = np.where(split.train.y == 1, 2, split.train.y)  # class 1 absent from every environment
    with pytest.raises(ValueError, match="every class present"):
        DIGL(**SMALL).fit(GraphSet(split.train.graphs, gap, split.train.env))
    with pytest.raises(ValueError, match="must be a GraphSet"):
        DIGL(**SMALL).fit([1, 2, 3])
    with pytest.raises(ValueError, match="not fitted"):
        DIGL().predict(split.test)
