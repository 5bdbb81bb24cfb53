"""An offline task with checkable answers, and tiny members trained on it (CPU-scale stand-in for GSM8K).

Problems are two-number additions written as characters, ``"37+45="`` -> ``"82;"`` (``;`` ends the
answer). Members are small Llama models trained from scratch, each on a different slice of the
problems (by the first operand's range), so that they make different mistakes and ensembling can
help, as with the paper's members of different strengths.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from icml26.common import progress

CHARS = "0123456789+=; "
PAD, EOS = "<pad>", "<eos>"


def char_tokenizer():
    """A character-level Hugging Face tokenizer over :data:`CHARS` (ids: ``<pad>``=0, ``<eos>``=1, then chars)."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {PAD: 0, EOS: 1, **{c: i + 2 for i, c in enumerate(CHARS)}}
    backend = Tokenizer(models.WordLevel(vocab, unk_token=PAD))
    backend.pre_tokenizer = pre_tokenizers.Split(Regex("."), behavior="isolated")
    backend.decoder = decoders.Fuse()
    return PreTrainedTokenizerFast(tokenizer_object=backend, pad_token=PAD, eos_token=EOS)


def bpe_tokenizer(problems: Sequence[Problem], vocab_size: int = 120):
    """A BPE tokenizer trained on ``problems`` (multi-character tokens such as ``"12"``, ``"+7"``).

    Its alphabet is :data:`CHARS`, so it and :func:`char_tokenizer` can spell each other's tokens
    (a heterogeneous pair for the union vocabulary). ``=`` and ``;`` are split off before merging,
    so a prompt tokenizes the same alone as inside a full problem.
    """
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    if vocab_size < len(CHARS) + 2:
        raise ValueError(f"vocab_size must be >= {len(CHARS) + 2} (alphabet and specials), got {vocab_size}")
    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.Split(Regex("[=;]"), behavior="isolated")
    backend.decoder = decoders.Fuse()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=[PAD, EOS], initial_alphabet=list(CHARS), show_progress=False
    )  # its progress bars print blank lines when stdout is not a terminal
    backend.train_from_iterator([p.prompt + p.answer + ";" for p in problems], trainer)
    return PreTrainedTokenizerFast(tokenizer_object=backend, pad_token=PAD, eos_token=EOS)


@dataclass(frozen=True)
class Problem:
    a: int
    b: int

    @property
    def prompt(self) -> str:
        return f"{self.a}+{self.b}="

    @property
    def answer(self) -> str:
        return f"{self.a + self.b}"


@dataclass(frozen=True)
class DigitPairProblem(Problem):
    """The ensemble-gain task: ``"a+b="`` answered by the last digit of ``a`` then the last digit of
    ``b`` (``"17+25="`` -> ``"75"``); each answer digit depends on one operand only."""

    @property
    def answer(self) -> str:
        return f"{self.a % 10}{self.b % 10}"


def make_problems(
    n: int, rng: np.random.Generator, low: int = 0, high: int = 30, second_max: int = 30
) -> list[Problem]:
    """``n`` problems with first operand in ``[low, high)`` and second in ``[0, second_max)``."""
    if n < 1 or not 0 <= low < high or second_max < 1:
        raise ValueError(
            f"need n >= 1, 0 <= low < high and second_max >= 1, got n={n}, low={low}, high={high}, second_max={second_max}"
        )
    a = rng.integers(low, high, n)
    b = rng.integers(0, second_max, n)
    return [Problem(int(x), int(y)) for x, y in zip(a, b, strict=True)]


def correct(texts: Sequence[str], problems: Sequence[Problem]) -> np.ndarray:
    """Per problem, 1.0 when the generated answer matches exactly, else 0.0."""
    if len(texts) != len(problems):
        raise ValueError(f"{len(texts)} answers for {len(problems)} problems")
    return np.array(
        [extract_answer(t) == p.answer for t, p in zip(texts, problems, strict=True)], dtype=float
    )


def noisy_digit_answers(problems: Sequence[Problem], digit: int, rng: np.random.Generator) -> list[str]:
    """Training answers with one digit replaced by a uniform random digit (``digit`` 0: tens, 1: units).

    A member trained on them learns the other digit and is uniform on this one; two members noisy on
    different digits err complementarily, the case where a token-level mixture beats each member
    (the ensemble-gain task). Every answer must have two digits.
    """
    if digit not in (0, 1):
        raise ValueError(f"digit must be 0 (tens) or 1 (units), got {digit!r}")
    out = []
    for p in problems:
        if len(p.answer) != 2:
            raise ValueError(f"noisy-digit answers need two-digit answers, got {p.prompt}{p.answer}")
        chars = list(p.answer)
        chars[digit] = str(int(rng.integers(0, 10)))
        out.append("".join(chars))
    return out


def extract_answer(text: str) -> str:
    """The generated answer: text up to the first ``;`` (the stop string), stripped."""
    return text.split(";", 1)[0].strip()


def accuracy(texts: Sequence[str], problems: Sequence[Problem]) -> float:
    """Exact-match accuracy of generated answers."""
    if len(texts) != len(problems):
        raise ValueError(f"{len(texts)} answers for {len(problems)} problems")
    return float(np.mean([extract_answer(t) == p.answer for t, p in zip(texts, problems, strict=True)]))


def tiny_llama(
    vocab_size: int,
    hidden: int = 64,
    layers: int = 2,
    heads: int = 4,
    seed: int = 0,
    eos_token_id: int | None = 1,
) -> torch.nn.Module:
    """A randomly initialised small ``LlamaForCausalLM`` (``hidden`` width, ``layers`` blocks)."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=vocab_size,
        hidden_size=hidden,
        intermediate_size=2 * hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=heads,
        max_position_embeddings=256,
        bos_token_id=None,
        eos_token_id=eos_token_id,
        pad_token_id=0,
        tie_word_embeddings=True,
    )
    return LlamaForCausalLM(config).eval()


def train_member(
    problems: Sequence[Problem],
    tokenizer,
    steps: int,
    batch_size: int = 64,
    lr: float = 3e-3,
    hidden: int = 64,
    layers: int = 2,
    seed: int = 0,
    device: str | torch.device = "cpu",
    answers: Sequence[str] | None = None,
) -> torch.nn.Module:
    """Train a tiny Llama on ``"a+b=c;"`` strings (next-token loss on the answer only); returns it in eval mode.

    ``answers`` replaces the true answers (e.g. :func:`noisy_digit_answers`), one per problem.
    """
    if steps < 1:
        raise ValueError(f"steps must be >= 1, got {steps}")
    if answers is not None and len(answers) != len(problems):
        raise ValueError(f"{len(answers)} answers for {len(problems)} problems")
    model = tiny_llama(len(tokenizer.get_vocab()), hidden=hidden, layers=layers, seed=seed).to(device).train()
    answers = [p.answer for p in problems] if answers is None else list(answers)
    texts = [p.prompt + a + ";" for p, a in zip(problems, answers, strict=True)]
    encoded = [tokenizer.encode(t) for t in texts]
    prompt_len = [len(tokenizer.encode(p.prompt)) for p in problems]
    width = max(len(e) for e in encoded)
    ids = torch.zeros(len(texts), width, dtype=torch.long)
    labels = torch.full((len(texts), width), -100, dtype=torch.long)
    for i, (e, k) in enumerate(zip(encoded, prompt_len, strict=True)):
        ids[i, : len(e)] = torch.tensor(e)
        labels[i, k : len(e)] = torch.tensor(e[k:])
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    warm = max(1, steps // 10)  # linear warm-up, then linear decay to 0
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda t: min(1.0, (t + 1) / warm) * (1.0 - t / steps))
    for _ in progress(range(steps), f"train member {seed}"):
        idx = torch.randint(0, len(texts), (batch_size,), generator=gen)
        loss = model(input_ids=ids[idx].to(device), labels=labels[idx].to(device)).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    return model.eval()
