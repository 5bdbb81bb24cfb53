"""Exact small cases for the parts the other tests check only loosely: the penalty's environment weights,
the memory bank, the baselines' penalties and losses, the diagnostics, pooling and model selection."""

import math

import networkx as nx
import numpy as np
import pytest
import torch
import torch.nn.functional as F

from icml26.digl import (
    DIGL,
    ERM,
    IRM,
    Coral,
    GINEncoder,
    GraphSet,
    Mixup,
    Prototype,
    VREx,
    env_risks,
    invariance_penalty,
    spurious_motif,
    to_pyg,
)
from icml26.digl.diagnostics import env_probe, env_w2, env_w2_excess, standardise_within_class


def built(cls, **kw):
    est = cls(hidden=4, num_layers=1, **kw)
    est.classes_, est.env_ids_ = np.arange(3), np.arange(2)
    est._build(3)
    est._setup(None)
    return est


def test_penalty_weights_environments_by_their_size():
    # one class, env 0: four points at 0, env 1: two at 1; lambda = (4/6, 2/6): the barycenter is delta_{1/3}
    z = torch.tensor([[0.0], [0.0], [0.0], [0.0], [1.0], [1.0]], dtype=torch.float64)
    y, env = torch.zeros(6, dtype=torch.long), torch.tensor([0, 0, 0, 0, 1, 1])
    penalty, protos = invariance_penalty(z, y, env, n_iter=20)
    assert torch.allclose(protos[0].support, torch.full((4, 1), 1 / 3, dtype=torch.float64))
    assert float(penalty) == pytest.approx(2 / 3 * (1 / 3) ** 2 + 1 / 3 * (2 / 3) ** 2, rel=1e-9)


def test_memory_bank_moves_along_the_geodesic_at_its_rate():
    y, env = torch.zeros(4, dtype=torch.long), torch.tensor([0, 0, 1, 1])
    bank: dict = {}
    first = torch.tensor([[0.0], [0.0], [2.0], [2.0]], dtype=torch.float64)  # barycenter: two points at 1
    invariance_penalty(first, y, env, bank=bank, bank_size=2, bank_rate=0.5)
    assert torch.allclose(bank[0], torch.ones(2, 1, dtype=torch.float64))
    second = first + 4.0  # barycenter at 5: the bank moves half way, to 3
    penalty, protos = invariance_penalty(second, y, env, bank=bank, bank_size=2, bank_rate=0.5)
    assert torch.allclose(bank[0], torch.full((2, 1), 3.0, dtype=torch.float64))
    assert torch.equal(protos[0].support, bank[0])
    assert float(penalty) == pytest.approx(0.5 * 1.0 + 0.5 * 9.0)  # W2^2 of {4, 4} and {6, 6} to {3, 3}


def test_normalized_penalty_has_no_gradient_along_a_rescaling():
    g = torch.Generator().manual_seed(1)
    z = torch.randn(18, 3, generator=g, dtype=torch.float64, requires_grad=True)
    y, env = torch.tensor([0, 1, 2] * 6), torch.repeat_interleave(torch.arange(3), 6)
    penalty, _ = invariance_penalty(z, y, env, normalize=True)
    penalty.backward()
    # scale-free, so d/da penalty(a z) = <z, grad> = 0 at a = 1 (the raw term gives 2 * penalty)
    assert float((z.detach() * z.grad).sum()) == pytest.approx(0.0, abs=1e-6)  # +1e-8 in the normaliser
    assert float(penalty.detach()) > 0.1


def test_env_risks_are_per_environment_means():
    logits = torch.tensor(
        [[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 3.0], [1.0, 1.0, 1.0], [0.0, 2.0, 0.0]]
    )
    y, env = torch.tensor([0, 0, 2, 1, 1]), torch.tensor([1, 1, 1, 0, 0])
    risks, sizes = env_risks(logits, y, env)
    losses = F.cross_entropy(logits, y, reduction="none")
    assert torch.allclose(risks, torch.stack([losses[3:].mean(), losses[:3].mean()]))
    assert sizes.tolist() == [2, 3]


def head_logits(est, z):
    with torch.no_grad():
        return est.head_(z)


def test_vrex_and_irm_penalties_exactly():
    g = torch.Generator().manual_seed(2)
    z = torch.randn(8, 4, generator=g)
    y, env = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1]), torch.repeat_interleave(torch.arange(2), 4)
    vrex = built(VREx, lam=2.0)
    loss, penalty = vrex.objective(z, y, env)
    risks, _ = env_risks(head_logits(vrex, z), y, env)
    assert float(penalty.detach()) == pytest.approx(float(risks.var(unbiased=False)), rel=1e-6)
    assert float(loss) == pytest.approx(float(risks.mean() + 2.0 * risks.var(unbiased=False)), rel=1e-6)
    irm = built(IRM, lam=1.0)
    _, penalty = irm.objective(z, y, env)
    logits = head_logits(irm, z)
    expected = 0.0
    for e in range(2):  # d CE(w * L, y) / dw at w = 1 is mean_i <softmax(L_i) - onehot(y_i), L_i>
        L, t = logits[env == e], y[env == e]
        grad = ((torch.softmax(L, 1) - F.one_hot(t, 3)) * L).sum(1).mean()
        expected += float(grad) ** 2
    assert float(penalty) == pytest.approx(expected, rel=1e-5)


def test_coral_penalty_matches_means_and_covariances():
    g = torch.Generator().manual_seed(3)
    z = torch.randn(10, 4, generator=g)
    y, env = torch.zeros(10, dtype=torch.long), torch.repeat_interleave(torch.arange(2), 5)
    _, penalty = built(Coral, lam=1.0).objective(z, y, env)
    a, b = z[:5].numpy(), z[5:].numpy()
    expected = np.mean((a.mean(0) - b.mean(0)) ** 2) + np.mean((np.cov(a.T) - np.cov(b.T)) ** 2)
    assert float(penalty) == pytest.approx(expected, rel=1e-5)


def test_mixup_mixes_embeddings_and_labels_with_one_coefficient():
    g = torch.Generator().manual_seed(4)
    z, y = torch.randn(6, 4, generator=g), torch.tensor([0, 1, 2, 0, 1, 2])
    est = built(Mixup, alpha=1.0, random_state=7)
    loss, _ = est.objective(z, y, torch.zeros(6, dtype=torch.long))
    rng = np.random.default_rng(8)  # Mixup's generator: random_state + 1
    t = float(rng.beta(1.0, 1.0))
    perm = torch.as_tensor(rng.permutation(6))
    logits = head_logits(est, t * z + (1 - t) * z[perm])
    expected = t * F.cross_entropy(logits, y) + (1 - t) * F.cross_entropy(logits, y[perm])
    assert float(loss) == pytest.approx(float(expected), rel=1e-6)


def test_beta_adds_the_variance_of_the_environment_risks():
    g = torch.Generator().manual_seed(5)
    z = torch.randn(8, 4, generator=g)
    y, env = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1]), torch.repeat_interleave(torch.arange(2), 4)
    est = built(DIGL, lam=0.0, beta=3.0)
    loss, _ = est.objective(z, y, env)
    logits = head_logits(est, z)
    risks, _ = env_risks(logits, y, env)
    expected = F.cross_entropy(logits, y) + 3.0 * risks.var(unbiased=False)
    assert float(loss) == pytest.approx(float(expected), rel=1e-6)


def test_mean_and_sum_pooling_differ_by_the_node_count():
    graphs = GraphSet([nx.path_graph(3), nx.cycle_graph(5)], np.zeros(2))
    batch = to_pyg(graphs).batch([0, 1], "cpu")
    torch.manual_seed(0)
    enc = GINEncoder(hidden=4, num_layers=2, pool="mean")
    with torch.no_grad():
        mean = enc(batch)
        enc.pool = "sum"
        total = enc(batch)
    assert torch.allclose(total, mean * torch.tensor([[3.0], [5.0]]), atol=1e-5)


def test_fit_keeps_the_epoch_with_the_best_validation_accuracy(one_torch_thread):
    s = spurious_motif(0.9, 1, n_train=48, n_val=24, n_test=3, n_id_val=3)
    est = ERM(epochs=4, batch_size=16, hidden=8, num_layers=2).fit(s.train, s.val)
    accs = [h["val_acc"] for h in est.history_]
    assert est.best_epoch_ == 1 + int(np.argmax(accs)) and est.score(s.val) == pytest.approx(max(accs))


def test_prototype_classifier_picks_the_nearest_prototype(one_torch_thread):
    s = spurious_motif(0.9, 2, n_train=48, n_val=3, n_test=12, n_id_val=3)
    est = DIGL(lam=0.1, predict_with="prototype", epochs=1, batch_size=16, hidden=4, num_layers=1)
    est.fit(s.train)
    z = torch.as_tensor(est.embed(s.test), dtype=torch.float64)
    # three one-point prototypes at the first three test embeddings: each is nearest to itself
    est.prototypes_ = {c: Prototype(z[c : c + 1], torch.ones(1, dtype=torch.float64)) for c in range(3)}
    assert est.predict(s.test)[:3].tolist() == [0, 1, 2]
    dist = ((z[:, None, :] - z[None, :3, :]) ** 2).sum(-1)
    assert np.array_equal(est.predict(s.test), dist.argmin(1).numpy())


def test_class_prototypes_weight_environments_by_size(one_torch_thread):
    s = spurious_motif(0.9, 3, n_train=48, n_val=3, n_test=6, n_id_val=3)
    est = DIGL(lam=0.0, epochs=1, batch_size=16, hidden=4, num_layers=1).fit(s.train)
    graphs = GraphSet(s.test.graphs, np.zeros(6), np.array([0, 0, 0, 0, 1, 1]))
    est.classes_ = np.array([0])
    est._embed = lambda _: torch.tensor([[0.0]] * 4 + [[1.0]] * 2, dtype=torch.float64)
    proto = est.class_prototypes(graphs, n_support=2)[0]
    assert torch.allclose(proto.support, torch.full((2, 1), 1 / 3, dtype=torch.float64))


def test_env_w2_is_the_standardised_distance_exactly():
    # one class: env 0 at {0, 2}, env 1 at {4, 6}; pooled within-class std sqrt(5); W2 = 4 / sqrt(5)
    z, y, env = np.array([[0.0], [2.0], [4.0], [6.0]]), np.zeros(4, dtype=int), np.array([0, 0, 1, 1])
    assert env_w2(z, y, env) == pytest.approx(4 / math.sqrt(5))


def test_standardisation_uses_the_within_class_spread():
    rng = np.random.default_rng(6)
    y = np.repeat([0, 1], 50)
    z = rng.normal(size=(100, 2)) * [1.0, 3.0] + 20.0 * y[:, None]  # classes far apart
    zs = standardise_within_class(z, y)
    centred = np.concatenate([zs[y == c] - zs[y == c].mean(0) for c in (0, 1)])
    assert np.allclose(centred.std(0), 1.0)


def test_w2_excess_is_near_zero_without_environment_structure_and_large_with_it():
    rng = np.random.default_rng(7)
    y, env = np.tile([0, 1, 2], 100), rng.integers(3, size=300)
    z = rng.normal(size=(300, 8)) + 3.0 * y[:, None]
    excess, w2, null = env_w2_excess(z, y, env, n_perm=20, seed=0)
    assert abs(excess) < 0.1 and w2 == pytest.approx(env_w2(z, y, env)) and null > 1.0
    shifted = z + 1.5 * env[:, None]
    assert env_w2_excess(shifted, y, env, n_perm=5)[0] > 0.5
    with pytest.raises(ValueError, match="n_perm must be an integer >= 1"):
        env_w2_excess(z, y, env, n_perm=0)


def test_probe_majority_rate_is_the_largest_environment_share():
    rng = np.random.default_rng(8)
    y = np.repeat([0, 1], 60)
    env = np.tile(np.repeat([0, 1], [40, 20]), 2)  # 2/3 of each class in env 0
    _, major = env_probe(rng.normal(size=(120, 3)), y, env)
    assert major == pytest.approx(2 / 3)


def featured(labels, key="x"):
    graphs = []
    for c in labels:
        g = nx.path_graph(4)
        nx.set_node_attributes(g, {v: np.eye(3)[c] for v in g}, key)
        graphs.append(g)
    return graphs


def test_node_features_are_read_when_named(one_torch_thread):
    # every graph is the same path; only the node features carry the label
    y = np.tile([0, 1, 2], 20)
    train = GraphSet(featured(y), y, np.repeat([0, 1], 30), features="x")
    est = ERM(epochs=30, batch_size=20, hidden=8, num_layers=2, lr=1e-2).fit(train)
    assert est.in_channels_ == 3 and est.score(train) == 1.0
    plain = GraphSet(train.graphs, y, train.env)
    blind = ERM(epochs=30, batch_size=20, hidden=8, num_layers=2, lr=1e-2).fit(plain)
    assert blind.score(plain) < 0.5  # constant features: the paths are indistinguishable
    with pytest.raises(ValueError, match="the model was trained on 3"):
        est.predict(GraphSet(train.graphs, y))
    with pytest.raises(ValueError, match="has no feature attribute 'feat'"):
        est.predict(GraphSet(train.graphs, y, features="feat"))
    with pytest.raises(ValueError, match="features must be a node attribute name"):
        GraphSet(train.graphs, y, features=3)
