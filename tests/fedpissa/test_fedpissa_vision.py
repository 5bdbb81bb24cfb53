"""The vision track: Fashion-MNIST clients (rotation shift, label skew) and the shipped tiny ViT."""

from pathlib import Path

import pytest
import torch

from icml26.fedpissa import FedPissa, FedPissaConfig, LoRALinear, add_lora
from icml26.fedpissa.vision import (
    FMNIST_DIR,
    ROTATIONS,
    WEIGHTS,
    TinyViT,
    load_backbone,
    load_fashion_mnist,
    make_vision_clients,
)

pytestmark = [
    pytest.mark.skipif(
        not (Path(FMNIST_DIR) / "train-images-idx3-ubyte.gz").is_file(),
        reason="Debian's dataset-fashion-mnist is missing",
    ),
    pytest.mark.skipif(
        not WEIGHTS.is_file(), reason="run tools/pretrain_fedpissa_vit.py to make the backbone"
    ),
]
torch.set_num_threads(1)


def test_shipped_backbone_is_small_and_pretrained():
    assert WEIGHTS.stat().st_size < 1_000_000
    model = load_backbone(0)
    x, y = load_fashion_mnist("t10k")
    with torch.no_grad():
        feats = model.features(x[:2000])
    # a linear probe on upright t10k features fitted in closed form (ridge) separates the classes
    onehot = torch.nn.functional.one_hot(y[:2000], 10).float()
    f = torch.cat([feats, torch.ones(2000, 1)], 1)
    w = torch.linalg.solve(f[:1000].T @ f[:1000] + 1e-2 * torch.eye(65), f[:1000].T @ onehot[:1000])
    acc = float(((f[1000:] @ w).argmax(1) == y[1000:2000]).float().mean())
    assert acc >= 0.75


def test_vision_clients_are_rotated_skewed_and_drawn_from_the_second_half():
    clients = make_vision_clients(8, 0.3, seed=0, per_client_cap=200)
    x, _ = load_fashion_mnist("train")
    assert all(c.n_train > 0 and len(c.test_y) > 0 for c in clients)
    first = clients[1].train_x[0][0]  # client 1 has a quarter turn: its image un-rotated is in 30,000..59,999
    upright = torch.rot90(first, -ROTATIONS[1], dims=(1, 2))
    hits = (x[30_000:] - upright).abs().flatten(1).amax(1) == 0
    assert bool(hits.any())
    assert not bool(((x[:30_000] - upright).abs().flatten(1).amax(1) == 0).any())


def test_pissa_lora_keeps_the_vit_output_and_a_short_federated_run_works():
    model = TinyViT()
    x = torch.rand(4, 1, 28, 28)
    before = model(x)
    add_lora(model, ["qkv", "fc1"], 4, 4.0, "pissa")
    assert sum(isinstance(m, LoRALinear) for m in model.modules()) == 8
    assert torch.allclose(model(x), before, atol=1e-4)
    clients = make_vision_clients(4, 0.3, seed=1, per_client_cap=60)
    cfg = FedPissaConfig(r=4, alpha=4.0, targets=("qkv", "fc1"), warmup=1, local_steps=2, batch=16)
    res = FedPissa(cfg).run(clients, 2, 0, load_backbone)
    assert 0 <= res.accuracy <= 1 and set(res.mask) == {
        f"blocks.{i}.{n}" for i in range(4) for n in ("attn.qkv", "mlp.fc1")
    }
