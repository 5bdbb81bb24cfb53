"""LoRA SFT on a tiny random Llama with SmolLM2's tokenizer: loss falls, adapter round trip, unload restores."""

import pytest
import torch

from icml26.brokenmath import brokenarith
from icml26.brokenmath.arith_sft import SHIPPED, heldout_pairs, sft_data, training_pairs
from icml26.brokenmath.sft import load_adapter, save_adapter, train_lora
from icml26.common.smollm2 import GGUF_FILE, smollm2_cache, smollm2_folder


@pytest.fixture(scope="module")
def tokenizer():
    from transformers import AutoTokenizer

    if (smollm2_cache() / "tokenizer.json").is_file():
        return AutoTokenizer.from_pretrained(smollm2_cache())
    try:
        return AutoTokenizer.from_pretrained(smollm2_folder(), gguf_file=GGUF_FILE)
    except ValueError as exc:
        pytest.skip(str(exc))


def _tiny(tokenizer):
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=tokenizer.bos_token_id,
        pad_token_id=tokenizer.eos_token_id,
    )
    return LlamaForCausalLM(config).eval()


def test_heldout_disjoint_from_training():
    n = SHIPPED["n_pairs"]
    seen = {f.meta["quantity"] for f, _ in training_pairs(n)}
    held = heldout_pairs(30, seed=0)
    assert len(held) == 30 and not seen & {f.meta["quantity"] for f, _ in held}
    data = sft_data(n, 0.5, 0)
    assert sum(it.is_adversarial for it, _ in data) == n == sum(not it.is_adversarial for it, _ in data)


def test_lora_trains_round_trips_and_unloads(tokenizer, tmp_path, one_torch_thread):
    model = _tiny(tokenizer)
    ids = torch.tensor([[1, 2, 3, 4]])
    before = model(ids).logits.detach().clone()
    data = [(it, brokenarith.teacher_response(it)) for pair in brokenarith.generate(4, seed=9) for it in pair]
    peft_model, losses = train_lora(
        model, tokenizer, data, epochs=3, lr=1e-2, batch_size=4, messages=brokenarith.arith_messages
    )
    assert len(losses) == 6 and losses[-1] < losses[0]
    tuned = peft_model(ids).logits.detach().clone()
    assert not torch.allclose(tuned, before)
    save_adapter(peft_model, tmp_path, {"note": "test"})
    fresh = load_adapter(_tiny(tokenizer), tmp_path)
    assert torch.allclose(fresh(ids).logits, tuned, atol=1e-3)  # float16 on disk
    base = peft_model.unload()
    assert torch.allclose(base(ids).logits, before, atol=1e-6)
    with pytest.raises(ValueError, match="no LoRA adapter"):
        load_adapter(_tiny(tokenizer), tmp_path / "missing")
    with pytest.raises(ValueError, match="non-empty"):
        train_lora(_tiny(tokenizer), tokenizer, [])


def test_encode_masks_the_prompt_and_keeps_the_reply(tokenizer):
    """The loss is on the reply tokens only (paper: SFT on the model's responses): every prompt position is -100,
    every reply position (and the closing end-of-sequence token) is its own id."""
    from icml26.brokenmath.sft import _encode

    item = brokenarith.generate(1, seed=9)[0][0]
    reply = brokenarith.teacher_response(item)
    messages = brokenarith.arith_messages(item)
    ids, labels = _encode(tokenizer, messages, reply)
    prompt = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    n_prompt = len(tokenizer(prompt, add_special_tokens=False)["input_ids"])
    assert len(ids) == len(labels) > n_prompt
    assert labels[:n_prompt] == [-100] * n_prompt
    assert labels[n_prompt:] == ids[n_prompt:] and labels[-1] == tokenizer.eos_token_id
    assert tokenizer.decode(ids[n_prompt:-1]) == reply
