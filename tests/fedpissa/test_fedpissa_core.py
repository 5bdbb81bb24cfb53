"""FedPissa's pure functions and the federated loop on a tiny synthetic model (exact small cases)."""

import numpy as np
import pytest
import torch
from torch import nn

from icml26.fedpissa import (
    AggregationDynamics,
    ClientData,
    DualLoRALinear,
    FedPissa,
    FedPissaConfig,
    LoRALinear,
    add_lora,
    agreement,
    dirichlet_split,
    drift,
    federation,
    local_train,
    make_clients,
    map_private,
    project_conflicts,
    rotate_principal,
    run_baseline,
    weighted_mean_update,
)

torch.set_num_threads(1)


class Tiny(nn.Module):
    def __init__(self, seed: int) -> None:
        super().__init__()
        g = torch.Generator().manual_seed(1234)  # the public backbone: the same for every seed
        self.proj = nn.Linear(6, 8)
        self.head = nn.Linear(8, 3)
        with torch.no_grad():
            self.proj.weight.copy_(torch.randn(8, 6, generator=g))
            self.head.weight.copy_(torch.randn(3, 8, generator=g) * 0.1)

    def forward(self, x):
        return self.head(torch.tanh(self.proj(x)))


def tiny_clients(k: int = 3, seed: int = 0) -> list[ClientData]:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(40 * k, 6, generator=g)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
    return make_clients((x,), y, k, 1.0, seed)


# ---- LoRA and PiSSA ----------------------------------------------------------------------------------


@pytest.mark.parametrize("init", ["pissa", "lora"])
def test_lora_forward_equals_the_merged_weight(init):
    torch.manual_seed(0)
    base = nn.Linear(7, 5)
    layer = LoRALinear(base, 3, 6.0, init, torch.Generator().manual_seed(1))
    with torch.no_grad():
        layer.lora_B.normal_()
        layer.lora_A.normal_()
    x = torch.randn(4, 7)
    merged = x @ layer.merged_weight().T + layer.bias
    assert torch.allclose(layer(x), merged, atol=1e-5)
    assert torch.allclose(layer.delta(), 2.0 * layer.lora_B @ layer.lora_A)


def test_pissa_init_keeps_outputs_and_takes_the_top_singular_values():
    torch.manual_seed(0)
    base = nn.Linear(9, 6)
    x = torch.randn(5, 9)
    layer = LoRALinear(base, 3, 3.0, "pissa")
    assert torch.allclose(layer(x), base(x), atol=1e-4)
    top = torch.linalg.svdvals(base.weight.detach())[:3]
    got = torch.linalg.svdvals(layer.lora_B @ layer.lora_A)[:3]
    assert torch.allclose(got, top, atol=1e-4)
    # the residual keeps the rest of the spectrum
    assert torch.allclose(
        torch.linalg.svdvals(layer.weight)[:3], torch.linalg.svdvals(base.weight.detach())[3:6], atol=1e-4
    )
    scaled = LoRALinear(base, 3, 12.0, "pissa")
    assert torch.allclose(scaled(x), base(x), atol=1e-4)


def test_plain_lora_starts_at_zero_update_and_dual_mixes_half():
    base = nn.Linear(4, 4)
    layer = LoRALinear(base, 2, 2.0, "lora", torch.Generator().manual_seed(0))
    assert torch.count_nonzero(layer.lora_B) == 0 and torch.count_nonzero(layer.lora_A) > 0
    dual = DualLoRALinear(base, 2, 2.0)
    with torch.no_grad():
        for p in (dual.lora_A, dual.lora_B, dual.local_A, dual.local_B):
            p.normal_()
    x = torch.randn(3, 4)
    expected = (
        base(x) + 0.5 * (x @ (dual.lora_B @ dual.lora_A).T) + 0.5 * (x @ (dual.local_B @ dual.local_A).T)
    )
    assert torch.allclose(dual(x), expected, atol=1e-5)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"r": 7}, "exceeds the layer's size"),
        ({"r": 0}, "rank r"),
        ({"alpha": 0.0}, "alpha"),
        ({"alpha": -1.0}, "alpha"),
    ],
)
def test_bad_rank_and_alpha_are_rejected(kwargs, message):
    args = {"r": 2, "alpha": 2.0, **kwargs}
    with pytest.raises(ValueError, match=message):
        LoRALinear(nn.Linear(6, 5), args["r"], args["alpha"])


def test_unknown_target_module_is_rejected():
    with pytest.raises(ValueError, match="unknown target module.*'nope'.*proj"):
        add_lora(Tiny(0), ["nope"], 2, 2.0)


# ---- server ------------------------------------------------------------------------------------------


def test_agreement_and_drift_exact_cases():
    a = torch.tensor([1.0, 0.0])
    assert agreement([a, a]) == pytest.approx(1.0)
    assert agreement([a, -a]) == pytest.approx(-1.0)
    # cos(e1, e2) = 0, cos(e1, e1+e2) = cos(e2, e1+e2) = 1/sqrt2: mean over 3 pairs
    b, c = torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0])
    assert agreement([a, b, c]) == pytest.approx((0 + 2 / np.sqrt(2)) / 3)
    # weights 1:3, mean = (0.25*[2,0] + 0.75*[0,2]) = [0.5, 1.5]; norms of deviations sqrt(1.5^2*2), sqrt(0.5^2*2)
    f1, f2 = torch.tensor([2.0, 0.0]), torch.tensor([0.0, 2.0])
    expected = (np.sqrt(2 * 1.5**2) + np.sqrt(2 * 0.5**2)) / 2 / np.sqrt(0.5**2 + 1.5**2)
    assert drift([f1, f2], [1, 3]) == pytest.approx(expected)


def test_selection_prefers_agreement_then_lower_drift():
    dyn = AggregationDynamics(beta=0.5)
    dyn.record("m1", "A", 0.8, 1.0)
    dyn.record("m1", "B", 0.2, 0.1)
    dyn.record("m2", "A", 0.1, 0.1)
    dyn.record("m2", "B", 0.5, 0.1)
    dyn.record("m3", "A", 0.3, 0.9)
    dyn.record("m3", "B", 0.3, 0.2)
    assert dyn.select() == {"m1": "A", "m2": "B", "m3": "B"}
    dyn.record("m2", "A", 1.0, 0.1)  # EMA: 0.5 * 0.1 + 0.5 * 1.0 = 0.55 > 0.5
    assert dyn.agreement[("m2", "A")] == pytest.approx(0.55)
    assert dyn.select()["m2"] == "A"


def test_weighted_mean_update_is_sample_weighted():
    g = torch.zeros(2, 2)
    ups = [torch.ones(2, 2), 3 * torch.ones(2, 2)]
    out = weighted_mean_update(g + 1, ups, [1, 3])
    assert torch.allclose(out, torch.full((2, 2), 1 + 0.25 + 2.25))


def test_pcgrad_leaves_no_conflicting_pair_for_two_clients():
    g1, g2 = torch.tensor([1.0, 0.2, 0.0]), torch.tensor([-1.0, 1.0, 0.5])
    p1, p2 = project_conflicts([g1, g2], "pcgrad", torch.Generator().manual_seed(0))
    assert float(p1 @ g2) == pytest.approx(0.0, abs=1e-6) and float(p2 @ g1) == pytest.approx(0.0, abs=1e-6)
    assert float(p1 @ p2) >= 0
    assert torch.allclose(p1, g1 - (g1 @ g2) / (g2 @ g2) * g2)


def test_cone_projection_removes_every_conflict_and_keeps_agreeing_updates():
    g = torch.Generator().manual_seed(3)
    ups = [torch.randn(4, 3, generator=g, dtype=torch.float64) for _ in range(6)]
    out = project_conflicts(ups, "cone")
    for o in out:
        for u in ups:
            assert float((o * u).sum()) >= -1e-9
    same = [torch.ones(3), 2 * torch.ones(3)]
    assert all(torch.equal(a, b) for a, b in zip(project_conflicts(same, "cone"), same, strict=True))
    assert all(torch.equal(a, b) for a, b in zip(project_conflicts(ups, "none"), ups, strict=True))


@pytest.mark.parametrize("which", ["A", "B"])
def test_rotation_decorrelates_and_is_orthogonal(which):
    g = torch.Generator().manual_seed(0)
    f = (
        torch.randn(3, 7, generator=g, dtype=torch.float64)
        if which == "A"
        else torch.randn(7, 3, generator=g, dtype=torch.float64)
    )
    rot, p = rotate_principal(f, which)
    gram = rot @ rot.T if which == "A" else rot.T @ rot
    assert torch.allclose(
        gram - torch.diag(gram.diagonal()), torch.zeros(3, 3, dtype=torch.float64), atol=1e-10
    )
    assert torch.allclose(p.T @ p, torch.eye(3, dtype=torch.float64), atol=1e-10)
    back = p @ rot if which == "A" else rot @ p.T
    assert torch.allclose(back, f, atol=1e-10)
    assert torch.all(gram.diagonal()[:-1] >= gram.diagonal()[1:])  # principal order


# ---- client mapping ----------------------------------------------------------------------------------


def test_mapping_is_exact_when_the_old_rows_lie_in_the_new_span():
    g = torch.Generator().manual_seed(0)
    a_new = torch.randn(3, 8, generator=g, dtype=torch.float64)
    a_old = torch.randn(3, 3, generator=g, dtype=torch.float64) @ a_new
    b = torch.randn(5, 3, generator=g, dtype=torch.float64)
    b_new = map_private(b, a_old, a_new, "A", eps=0.0)
    assert torch.allclose(b_new @ a_new, b @ a_old, atol=1e-9)
    # the mirror image for a shared B
    b_g = torch.randn(5, 3, generator=g, dtype=torch.float64)
    b_old = b_g @ torch.randn(3, 3, generator=g, dtype=torch.float64)
    a = torch.randn(3, 8, generator=g, dtype=torch.float64)
    assert torch.allclose(b_g @ map_private(a, b_old, b_g, "B", eps=0.0), b_old @ a, atol=1e-9)


def test_mapping_is_the_least_squares_solution_otherwise():
    g = torch.Generator().manual_seed(1)
    a_new, a_old = (torch.randn(2, 6, generator=g, dtype=torch.float64) for _ in range(2))
    b = torch.randn(4, 2, generator=g, dtype=torch.float64)
    got = map_private(b, a_old, a_new, "A", eps=0.0)
    ref = torch.linalg.lstsq(a_new.T, (b @ a_old).T).solution.T
    assert torch.allclose(got, ref, atol=1e-9)


# ---- data --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.1, 0.5, 5.0])
def test_dirichlet_split_is_disjoint_covering_and_has_no_empty_client(alpha):
    labels = np.repeat(np.arange(10), 50)
    parts = dirichlet_split(labels, 10, alpha, seed=0, min_size=2)
    flat = np.concatenate(parts)
    assert len(flat) == len(labels) and len(np.unique(flat)) == len(labels)
    assert min(len(p) for p in parts) >= 2


def test_small_alpha_gives_more_label_skew():
    labels = np.repeat(np.arange(10), 100)

    def classes_per_client(a):
        return np.mean([len(np.unique(labels[p])) for p in dirichlet_split(labels, 10, a, seed=1)])

    assert classes_per_client(0.1) < classes_per_client(10.0)


@pytest.mark.parametrize("alpha", [0.0, -0.5, float("nan")])
def test_bad_dirichlet_alpha_is_rejected(alpha):
    with pytest.raises(ValueError, match="Dirichlet alpha"):
        dirichlet_split(np.arange(10) % 2, 2, alpha, 0)


# ---- the federated loop ------------------------------------------------------------------------------


def test_one_client_with_full_sharing_equals_centralised_training():
    clients = tiny_clients(1)
    cfg = FedPissaConfig(
        method="fedit", init="lora", r=2, alpha=2.0, targets=("proj",), local_steps=4, lr=0.01, batch=8
    )
    fed = FedPissa(cfg)
    fed.run(clients, 3, 5, Tiny)
    model, trainable = FedPissa(cfg).build(Tiny, 5)
    for t in range(3):
        g = torch.Generator().manual_seed(5 * 100_003 + t * 1009)
        local_train(model, list(trainable.values()), clients[0].train_x, clients[0].train_y, 4, 0.01, 8, g)
    for name, p in trainable.items():
        assert torch.allclose(fed.states_[0][name], p.detach(), atol=1e-6), name


def _recording(monkeypatch):
    seen = []
    original = federation.local_train

    def spy(model, params, *args, **kwargs):
        seen.append({n: p.detach().clone() for n, p in model.named_parameters() if p.requires_grad})
        return original(model, params, *args, **kwargs)

    monkeypatch.setattr(federation, "local_train", spy)
    return seen


def test_share_a_round_gives_every_client_the_weighted_mean_a_and_keeps_its_b(monkeypatch):
    seen = _recording(monkeypatch)
    clients = tiny_clients(3)
    fed = FedPissa(
        FedPissaConfig(
            method="fedsa", init="lora", r=2, alpha=2.0, targets=("proj",), local_steps=3, lr=0.05, batch=8
        )
    )
    res = fed.run(clients, 2, 0, Tiny, trace=True)
    after0 = res.history[0]
    n = np.array([c.n_train for c in clients], dtype=float)
    mean_a = sum(p * s["proj.lora_A"] for p, s in zip(n / n.sum(), after0, strict=True))
    for k in range(3):
        start1 = seen[3 + k]
        assert torch.allclose(start1["proj.lora_A"], mean_a, atol=1e-6)
        assert torch.equal(start1["proj.lora_B"], after0[k]["proj.lora_B"])  # private B untouched
        assert torch.equal(start1["head.weight"], after0[k]["head.weight"])  # local head persists
    assert not torch.allclose(after0[0]["proj.lora_B"], after0[1]["proj.lora_B"])


def test_private_factors_persist_across_rounds_without_mapping(monkeypatch):
    seen = _recording(monkeypatch)
    clients = tiny_clients(3)
    cfg = FedPissaConfig(r=2, alpha=2.0, targets=("proj",), warmup=1, select="A", map="none", rotate=False,
                         conflict="none", local_steps=2, lr=0.05, batch=8)  # fmt: skip
    res = FedPissa(cfg).run(clients, 4, 0, Tiny, trace=True)
    for t in (2, 3):  # after the warm-up round, B is private
        for k in range(3):
            assert torch.equal(seen[3 * t + k]["proj.lora_B"], res.history[t - 1][k]["proj.lora_B"])


def test_mapping_in_the_loop_preserves_each_clients_update_when_spans_agree(monkeypatch):
    """With rank r = d_in every A spans the whole input space, so (P4) is exact: B'A_g = B A_old."""
    seen = _recording(monkeypatch)
    clients = tiny_clients(3)
    cfg = FedPissaConfig(
        r=6, alpha=6.0, targets=("proj",), warmup=1, select="A", local_steps=2, lr=0.05, batch=8
    )
    res = FedPissa(cfg).run(clients, 3, 0, Tiny, trace=True)
    for k in range(3):
        old = res.history[1][k]
        new = seen[6 + k]
        assert not torch.allclose(new["proj.lora_A"], old["proj.lora_A"])
        assert torch.allclose(
            new["proj.lora_B"] @ new["proj.lora_A"], old["proj.lora_B"] @ old["proj.lora_A"], atol=1e-4
        )


def test_counters_equal_the_numel_of_what_is_sent():
    clients = tiny_clients(3)
    base = {"r": 2, "alpha": 2.0, "targets": ("proj",), "local_steps": 1, "batch": 8}
    a, b = 2 * 6, 8 * 2  # numel of A (r x d_in) and B (d_out x r)
    fedit = run_baseline("fedit", clients, 2, 0, Tiny, **base)
    assert fedit.floats_up == a + b + 1 and fedit.floats_down == a + b
    assert fedit.bytes_per_round == 4 * (2 * (a + b) + 1)
    local = run_baseline("local", clients, 2, 0, Tiny, **base)
    assert local.floats_per_round == 0
    dual = run_baseline("dual", clients, 2, 0, Tiny, **base)
    assert dual.floats_per_round == fedit.floats_per_round
    assert dual.adapter_params == 2 * fedit.adapter_params
    ffa = run_baseline("ffa", clients, 2, 0, Tiny, **base)
    assert ffa.floats_up == b + 1 and ffa.adapter_params == b
    res = FedPissa(FedPissaConfig(**base, warmup=1, select="A")).run(clients, 3, 0, Tiny)
    # round 1: A and B up (+ n_k) and down; rounds 2, 3: A up (+ n_k), A and the 2 x 2 rotation P down
    assert res.floats_up == pytest.approx(((a + b + 1) + 2 * (a + 1)) / 3)
    assert res.floats_down == pytest.approx(((a + b) + 2 * (a + 4)) / 3)
    assert res.mask == {"proj": "A"}


def test_selection_runs_in_the_loop_and_dynamics_are_recorded():
    res = FedPissa(FedPissaConfig(r=2, alpha=2.0, targets=("proj",), warmup=2, local_steps=2, batch=8)).run(
        tiny_clients(3), 3, 0, Tiny
    )
    assert set(res.mask) == {"proj"} and res.mask["proj"] in ("A", "B")
    dyn = res.dynamics["proj"]
    assert all(-1 <= dyn[f"agreement_{f}"] <= 1 for f in "AB")
    winner = "A" if (-dyn["agreement_A"], dyn["drift_A"]) <= (-dyn["agreement_B"], dyn["drift_B"]) else "B"
    assert res.mask["proj"] == winner


def test_ffa_keeps_a_frozen():
    res_model = FedPissa(
        FedPissaConfig(method="ffa", init="lora", r=2, alpha=2.0, targets=("proj",), local_steps=3)
    )
    before, _ = res_model.build(Tiny, 0)
    res_model.run(tiny_clients(3), 2, 0, Tiny)
    a0 = before.get_submodule("proj").lora_A.detach()
    assert all(torch.equal(s.get("proj.lora_A", a0), a0) for s in res_model.states_)
    assert torch.equal(res_model.global_["proj.lora_A"], a0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"method": "fedprox"}, "method"),
        ({"conflict": "mean"}, "conflict"),
        ({"map": "exact"}, "map"),
        ({"lr": 0.0}, "lr"),
        ({"alpha": -2.0}, "alpha"),
        ({"warmup": 0}, "warmup"),
        ({"method": "dual", "init": "pissa"}, "dual"),
    ],
)
def test_bad_config_is_rejected(kwargs, message):
    with pytest.raises(ValueError, match=message):
        FedPissaConfig(**kwargs)


def test_bad_run_arguments_are_rejected():
    fed = FedPissa(FedPissaConfig(r=2, alpha=2.0, targets=("proj",)))
    with pytest.raises(ValueError, match="rounds"):
        fed.run(tiny_clients(2), 0, 0, Tiny)
    with pytest.raises(ValueError, match="must exceed warmup"):
        fed.run(tiny_clients(2), 3, 0, Tiny)
    with pytest.raises(ValueError, match="unknown baseline"):
        run_baseline("fedprox", tiny_clients(2), 2, 0, Tiny)
    with pytest.raises(TimeoutError, match="max_seconds"):
        fed.run(tiny_clients(2), 5, 0, Tiny, max_seconds=0.0)


def test_pissa_matches_peft():
    """Our PiSSA split equals peft's ``init_lora_weights="pissa"`` (the residual and the product BA)."""
    peft = pytest.importorskip("peft")
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(10, 7))
    ours = LoRALinear(net[0], 3, 3.0, "pissa")
    cfg = peft.LoraConfig(r=3, lora_alpha=3, target_modules=["0"], init_lora_weights="pissa")
    wrapped = peft.get_peft_model(net, cfg)
    layer = wrapped.base_model.model[0]
    a, b = layer.lora_A["default"].weight, layer.lora_B["default"].weight
    assert torch.allclose(layer.base_layer.weight, ours.weight, atol=1e-5)
    assert torch.allclose(b @ a, ours.lora_B @ ours.lora_A, atol=1e-5)
