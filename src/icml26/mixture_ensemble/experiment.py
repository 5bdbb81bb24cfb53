"""The paper's experiment at CPU scale: exactness, cache catch-up, speed and accuracy of ME vs CE.

Steps (paper §4 scaled down, see docs/methods/mixture_ensemble.md):

1. Exactness (§2.2): two tiny random Llama models whose continuation distribution can be
   enumerated; ME samples vs the exact CE distribution (χ²), with a single-member control.
2. Lazy KV synchronisation (§3): catch-up logits vs full recomputation.
3. Speed (§4, "1.78×–2.68× faster"): tokens/s of CE and ME, 2 and 3 members, batch 1 and > 1,
   measured side by side (SmolLM2-135M and perturbed copies in quick/paper; tiny models in smoke).
4. Accuracy (§4, ME ≈ CE): tiny members trained on offline addition problems, each on a different
   slice; single / CE / ME accuracy, mean ± 95% CI over sampling seeds; and a heterogeneous pair
   (a character-level member with a member that has its own BPE vocabulary) through the union
   vocabulary.
"""

from __future__ import annotations

import copy
import math
import statistics
from typing import Any

import numpy as np
import torch

from icml26.common import (
    Experiment,
    Plot,
    Resources,
    Result,
    check_device,
    ci95,
    comparison_key,
    mean_ci95,
    progress,
    seed_everything,
    unit,
)
from icml26.mixture_ensemble.cache import catch_up_error, incremental_decoding_error
from icml26.mixture_ensemble.claims import (
    BACKGROUND,
    NAMES,
    PAPER_CLAIMS,
    TESTS,
)
from icml26.mixture_ensemble.ensemble import ConventionalEnsemble, MixtureEnsemble
from icml26.mixture_ensemble.exact import chi_square_test, exact_sequence_distribution, sequence_index
from icml26.mixture_ensemble.speed import speed_comparison
from icml26.mixture_ensemble.task import (
    DigitPairProblem,
    bpe_tokenizer,
    char_tokenizer,
    correct,
    make_problems,
    noisy_digit_answers,
    tiny_llama,
    train_member,
)


def perturbed_copy(model: torch.nn.Module, scale: float, seed: int) -> torch.nn.Module:
    """A copy of ``model`` with every weight tensor ``w`` replaced by ``w + scale·std(w)·N(0, 1)``."""
    clone = copy.deepcopy(model)
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in clone.parameters():
            if p.numel() > 1:
                noise = torch.randn(p.shape, generator=gen).to(p.device, p.dtype)
                p.add_(scale * p.std() * noise)
    return clone.eval()


def _peaky_tiny(
    vocab: int, seed: int, scale: float = 8.0, device: torch.device | str = "cpu"
) -> torch.nn.Module:
    """A 1-layer random Llama (no EOS) with weights scaled up so its next-token distributions are far from uniform.

    The weights are drawn and scaled on the CPU (same values on every device), then moved to ``device``.
    """
    model = tiny_llama(vocab, hidden=16, layers=1, heads=2, seed=seed, eos_token_id=None)
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(scale)
    return model.to(device)


def _exactness(config: dict[str, Any], seed: int) -> tuple[dict[str, float], list[dict[str, Any]]]:
    device = torch.device(config["device"])
    vocab, length, n = 6, int(config["exact_length"]), int(config["exact_samples"])
    models = [_peaky_tiny(vocab, 1, device=device), _peaky_tiny(vocab, 2, device=device)]
    weights, prompt = [0.3, 0.7], [1, 2]

    def part(top_k: int) -> tuple[list[dict[str, Any]], dict[str, float], list[float]]:
        """One top-k setting: ME per-row samples (and, for top-k 0, the control and batch-1 runs)."""
        rows, metrics, p_values = [], {}, []
        exact = exact_sequence_distribution(models, weights, prompt, length, top_k=top_k).numpy()
        me = MixtureEnsemble(models, weights, draw="per_row", device=device)
        out = me.generate(
            do_sample=True, input_ids=[prompt] * n, max_new_tokens=length, top_k=top_k, seed=seed
        )
        counts = np.bincount([sequence_index(t, vocab) for t in out.tokens], minlength=vocab**length)
        stat, dof, p = chi_square_test(counts, exact)
        tv = 0.5 * float(np.abs(counts / n - exact).sum())
        p_values.append(p)
        rows.append(
            {
                "sampler": "ME per-row",
                "top_k": top_k,
                "samples": n,
                "chi2": stat,
                "dof": dof,
                "p": p,
                "tv": tv,
            }
        )
        if top_k == 0:
            single = MixtureEnsemble(models[:1], device=device).generate(
                do_sample=True, input_ids=[prompt] * n, max_new_tokens=length, top_k=top_k, seed=seed
            )
            c_single = np.bincount([sequence_index(t, vocab) for t in single.tokens], minlength=vocab**length)
            stat_c, dof_c, p_c = chi_square_test(c_single, exact)
            tv_c = 0.5 * float(np.abs(c_single / n - exact).sum())
            rows.append({"sampler": "member 0 alone (control)", "top_k": 0, "samples": n, "chi2": stat_c,
                         "dof": dof_c, "p": p_c, "tv": tv_c})  # fmt: skip
            metrics["control_chi2_p"] = p_c
            # The paper's setting: batch 1, one member draw per step, repeated independent runs.
            n1 = int(config["exact_batch1_samples"])
            me1 = MixtureEnsemble(models, weights, device=device)
            c1 = np.zeros(vocab**length)
            for s in progress(range(n1), "ME batch-1 samples"):
                o = me1.generate(
                    do_sample=True,
                    top_k=0,
                    input_ids=[prompt],
                    max_new_tokens=length,
                    seed=seed * 100_003 + s,
                )
                c1[sequence_index(o.tokens[0], vocab)] += 1
            stat1, dof1, p1 = chi_square_test(c1, exact)
            rows.append({"sampler": "ME batch 1", "top_k": 0, "samples": n1, "chi2": stat1, "dof": dof1, "p": p1,
                         "tv": 0.5 * float(np.abs(c1 / n1 - exact).sum())})  # fmt: skip
            p_values.append(p1)
        return rows, metrics, p_values

    rows, metrics, p_values = [], {}, []
    for top_k in (0, 2):
        r, m, p = unit(f"exactness_top_k={top_k}", lambda top_k=top_k: part(top_k))
        rows += r
        metrics.update(m)
        p_values += p
    metrics["exact_chi2_p_min"] = min(p_values)
    return metrics, rows


def _cache(task_member: torch.nn.Module, speed_model: torch.nn.Module, ids: list[int], prompt_length: int):
    """Catch-up vs full recomputation (§3), in float64 (exact arithmetic up to 1e-15) and float32.

    The claim is checked in float64, where any algorithmic mismatch (a wrong position id, mask or
    cache entry) shows at full size while rounding does not; there every prefix's recomputation is read
    off one causal pass (``one_pass``, one float64 pass instead of six). In float32, chunks of different
    shapes sum in a different order; ``transformers``' own one-token KV cache measured on the same
    tokens is the reference for that rounding level.
    """
    chunks = [prompt_length, 1, 2, 3, 5, 8]
    tiny_ids = char_tokenizer().encode("12+7=19;3+25=28;17+9=26;")
    tiny_chunks = [4, 1, 2, 3, 5, 8]
    metrics = {
        "cache_max_abs_diff_task_member_fp64": catch_up_error(copy.deepcopy(task_member).double(), tiny_ids, tiny_chunks, one_pass=True),
        "cache_max_abs_diff_speed_model_fp64": catch_up_error(copy.deepcopy(speed_model).double(), ids, chunks, one_pass=True),
        "cache_max_abs_diff_task_member": catch_up_error(task_member, tiny_ids, tiny_chunks),
        "cache_max_abs_diff_speed_model": catch_up_error(speed_model, ids, chunks),
        "cache_hf_incremental_diff_speed_model": incremental_decoding_error(speed_model, ids, prompt_length),
    }  # fmt: skip
    metrics["cache_max_abs_diff_fp64"] = max(
        metrics["cache_max_abs_diff_task_member_fp64"], metrics["cache_max_abs_diff_speed_model_fp64"]
    )
    # the original (float32) rule's metric, kept beside the float64 one it was revised to
    metrics["cache_max_abs_diff"] = max(
        metrics["cache_max_abs_diff_task_member"], metrics["cache_max_abs_diff_speed_model"]
    )
    rows = [
        {"model": "task member (chars)", "dtype": "float64", "path": "lazy catch-up", "max abs diff": metrics["cache_max_abs_diff_task_member_fp64"]},
        {"model": "speed model", "dtype": "float64", "path": "lazy catch-up", "max abs diff": metrics["cache_max_abs_diff_speed_model_fp64"]},
        {"model": "task member (chars)", "dtype": "float32", "path": "lazy catch-up", "max abs diff": metrics["cache_max_abs_diff_task_member"]},
        {"model": "speed model", "dtype": "float32", "path": "lazy catch-up", "max abs diff": metrics["cache_max_abs_diff_speed_model"]},
        {"model": "speed model", "dtype": "float32", "path": "transformers one-token cache", "max abs diff": metrics["cache_hf_incremental_diff_speed_model"]},
    ]  # fmt: skip
    return metrics, rows


def tost_margin(rows: int, sd: float = math.sqrt(0.5), power: float = 0.8) -> float:
    """The equivalence margin ``δ`` that a TOST on ``rows`` paired rows detects with ``power``.

    The accuracy claims hold when the 95% interval of ``acc_ME − acc_CE`` lies inside ``(−δ, δ)``,
    i.e. two one-sided tests at α = 0.025 each. With the true difference 0 that happens with
    probability ``power`` when ``δ = (z_0.975 + z_{(1+power)/2}) · σ_d / √rows``. ``σ_d``, the
    standard deviation of one row's difference of two 0/1 outcomes, is at most ``√(2p(1−p)) ≤ √0.5``
    for independent draws (the planning value; correlation through the shared problem lowers it).
    """
    if rows < 2 or not 0 < power < 1 or sd <= 0:
        raise ValueError(f"need rows >= 2, 0 < power < 1 and sd > 0; got {rows}, {power}, {sd}")
    z = statistics.NormalDist().inv_cdf
    return (z(0.975) + z((1 + power) / 2)) * sd / math.sqrt(rows)


def _accuracy(config: dict[str, Any], rng: np.random.Generator, seed: int):
    """Accuracy of members, CE, ME and the official truncated CE; every row is one independent
    generation (``draw="per_row"``: each row draws its own members), ME and CE on the same rows
    with the same sampling seed. Intervals are over rows."""
    # Problems come from the numpy ``rng`` and training batches from a CPU generator inside
    # ``train_member``, so the draws are the same on every device; only the models move.
    device = torch.device(config["device"])
    tok = char_tokenizer()
    top = int(config["operand_max"])
    # Members see different slices of the first operand, so their mistakes differ.
    slices = [(0, (2 * top) // 3), (top // 3, top), (0, top)]
    steps = [int(config["train_steps"]), int(config["train_steps"]), int(config["train_steps"]) // 2]
    n_train = int(config["train_problems"])

    def train(i: int, low: int, high: int, k: int) -> torch.nn.Module:
        data = make_problems(n_train, rng, low, high, top)
        return train_member(data, tok, steps=k, seed=seed * 10 + i, device=device)

    members = []
    for i, ((low, high), k) in enumerate(progress(list(zip(slices, steps, strict=True)), "train members")):
        members.append(
            unit(
                f"accuracy_train_member={i}",
                lambda i=i, lo=low, hi=high, k=k: train(i, lo, hi, k),
                rngs=(rng,),
            )
        )
    test = make_problems(int(config["test_problems"]), rng, 0, top, top)
    eval_batch, top_k = int(config["eval_batch"]), int(config["top_k"])

    def scores(ensemble, problems) -> np.ndarray:
        """Per row: 1 when the sampled answer is right (top-k, per-member processing, T = 1)."""
        prompts, out = [p.prompt for p in problems], []
        for start in range(0, len(prompts), eval_batch):
            gen = ensemble.generate(prompts=prompts[start : start + eval_batch], max_new_tokens=4,
                                    do_sample=True, top_k=top_k, stop_strings=[";"], seed=seed * 7919 + start)  # fmt: skip
            out.append(correct(gen.texts, problems[start : start + eval_batch]))
        return np.concatenate(out)

    def evaluate(name: str, make, problems=test) -> np.ndarray:
        return unit(f"accuracy_{name}", lambda: scores(make(), problems))

    def me(models, toks):
        return MixtureEnsemble(models, tokenizers=toks, draw="per_row", device=device)

    def ce(models, toks, variant="exact"):
        return ConventionalEnsemble(models, tokenizers=toks, variant=variant, device=device)

    rows, metrics = [], {}
    singles = [evaluate(f"member={i}_alone", lambda m=m: me([m], [tok])) for i, m in enumerate(members)]
    for i, v in enumerate(singles):
        rows.append(_acc_row(f"member {i} alone", v))
    for n in progress((2, 3), "accuracy ME / CE"):
        values = {
            "CE": evaluate(f"n={n}_CE", lambda n=n: ce(members[:n], [tok] * n)),
            "ME": evaluate(f"n={n}_ME", lambda n=n: me(members[:n], [tok] * n)),
            "CE truncated (official)": evaluate(f"n={n}_CE_truncated",
                                                lambda n=n: ce(members[:n], [tok] * n, "truncated")),
        }  # fmt: skip
        for name, v in values.items():
            rows.append(_acc_row(f"{name}, {n} members", v))
        _gap(metrics, f"n{n}", values["ME"], values["CE"])
        metrics[f"acc_ce_truncated_n{n}"], metrics[f"acc_ce_truncated_n{n}_ci"] = mean_ci95(
            values["CE truncated (official)"]
        )
        metrics[f"acc_best_single_n{n}"] = max(float(np.mean(v)) for v in singles[:n])
    metrics["tost_rows"] = float(len(test))
    metrics["tost_margin_80pct_power"] = tost_margin(len(test))
    # The ensemble-gain task (revised twice, see the claim `ensemble_gain`): the answer is the last
    # digit of a, then the last digit of b; member 0 is trained with the first answer digit random,
    # member 1 with the second, so each knows one digit and is at chance on the other.
    gain_low, gain_high = 10, max(20, top)

    def gain_problems(count: int) -> list[DigitPairProblem]:
        drawn = make_problems(count, rng, gain_low, gain_high, gain_high - gain_low)
        return [DigitPairProblem(p.a, p.b + gain_low) for p in drawn]  # both operands in [10, high)

    gain_test = gain_problems(int(config["test_problems"]))

    def train_gain(digit: int) -> torch.nn.Module:
        data = gain_problems(n_train)
        answers = noisy_digit_answers(data, digit, rng)
        return train_member(data, tok, steps=2 * int(config["train_steps"]), seed=seed * 10 + 5 + digit,
                            device=device, answers=answers)  # fmt: skip

    gain_members = [unit(f"gain_train_member={d}", lambda d=d: train_gain(d), rngs=(rng,)) for d in (0, 1)]
    gain = {
        **{f"member {d} alone (noisy {'first' if d == 0 else 'second'} digit)":
           evaluate(f"gain_member={d}_alone", lambda m=m: me([m], [tok]), gain_test)
           for d, m in enumerate(gain_members)},
        "CE": evaluate("gain_CE", lambda: ce(gain_members, [tok, tok]), gain_test),
        "ME": evaluate("gain_ME", lambda: me(gain_members, [tok, tok]), gain_test),
    }  # fmt: skip
    for name, v in gain.items():
        rows.append(_acc_row(f"gain task: {name}", v))
    for d in (0, 1):
        key = f"acc_gain_member{d}"
        metrics[key], metrics[f"{key}_ci"] = mean_ci95(list(gain.values())[d])
    _gap(metrics, "gain", gain["ME"], gain["CE"])
    for d in (0, 1):
        for name in ("me", "ce"):
            diff = gain[name.upper()] - list(gain.values())[d]  # paired by row (the same problems)
            mean, half = mean_ci95(diff)
            k = comparison_key(f"acc_{name}_gain", f"acc_gain_member{d}", "difference")
            metrics[f"{k}_ci_low"], metrics[f"{k}_ci_high"] = mean - half, mean + half
    if int(config["hetero_vocab"]) > 0:
        # A member with its own BPE vocabulary: ensembled with member 0 through the union vocabulary.
        def train_bpe() -> tuple[Any, torch.nn.Module]:
            data = make_problems(n_train, rng, 0, top, top)
            bpe = bpe_tokenizer(data, int(config["hetero_vocab"]))
            other = train_member(
                data, bpe, steps=int(config["train_steps"]), seed=seed * 10 + 9, device=device
            )
            return bpe, other

        bpe, other = unit("accuracy_train_bpe_member", train_bpe, rngs=(rng,))
        toks = [tok, bpe]
        rows.append(_acc_row("BPE member alone", evaluate("bpe_member_alone", lambda: me([other], [bpe]))))
        values = {
            "CE": evaluate("hetero_CE", lambda: ce([members[0], other], toks)),
            "ME": evaluate("hetero_ME", lambda: me([members[0], other], toks)),
        }
        for name, v in values.items():
            rows.append(_acc_row(f"{name}, member 0 (chars) + BPE member", v))
        _gap(metrics, "hetero", values["ME"], values["CE"])
    return metrics, rows, members


def _gap(metrics: dict[str, float], key: str, me_values: np.ndarray, ce_values: np.ndarray) -> None:
    """``acc_me_<key>`` and ``acc_ce_<key>`` (mean over rows, ``_ci`` half-widths) and the paired 95%
    t-interval of ``acc_me − acc_ce`` over rows (ME and CE generated on the same problems, every row
    an independent draw), stored under ``comparison_key(acc_me_<key>, acc_ce_<key>, "difference")``."""
    me, ce = f"acc_me_{key}", f"acc_ce_{key}"
    metrics[me], metrics[f"{me}_ci"] = mean_ci95(me_values)
    metrics[ce], metrics[f"{ce}_ci"] = mean_ci95(ce_values)
    mean, half = mean_ci95(np.asarray(me_values) - np.asarray(ce_values))
    paired = comparison_key(me, ce, "difference")
    metrics[f"{paired}_ci_low"], metrics[f"{paired}_ci_high"] = mean - half, mean + half


def _acc_row(name: str, values: np.ndarray) -> dict[str, Any]:
    v = np.asarray(values, dtype=float)
    return {"setting": name, "accuracy": float(v.mean()), "ci95": ci95(v), "rows": len(v)}


def run(config: dict[str, Any], seed: int) -> Result:
    """Run the four parts of the experiment and return metrics, tables and a plot."""
    rng = seed_everything(seed)
    device = torch.device(config["device"])
    threads = int(config["threads"])
    old_threads = torch.get_num_threads()
    if threads > 0:
        torch.set_num_threads(threads)
    try:
        metrics, tables, notes, blocked = {}, {}, [], {}
        m, tables["exactness"] = _exactness(config, seed)
        metrics.update(m)

        m, tables["accuracy"], task_members = _accuracy(config, rng, seed)
        metrics.update(m)

        if config["speed_model"] == "smollm2":
            from icml26.mixture_ensemble.smollm2 import load_smollm2

            base, tokenizer = load_smollm2(device)
            prompt = tokenizer.encode("Question: Natalia sold clips to 48 of her friends in April. Answer:")
            notes.append("speed and cache members: SmolLM2-135M-Instruct (offline GGUF) and perturbed copies")
        else:
            # initialised on the CPU (same weights on every device), then moved
            base = tiny_llama(512, hidden=int(config["speed_hidden"]), layers=4, heads=4, seed=seed).to(
                device
            )
            prompt = [int(t) for t in rng.integers(2, 512, 16)]
            notes.append(f"speed members: random Llama, hidden {config['speed_hidden']} (smoke scale)")
        # perturbed_copy draws its noise on the CPU and moves it to the model's device
        speed_models = [base] + [
            perturbed_copy(base, 0.02, seed + i) for i in range(1, int(config["speed_members"]))
        ]

        m, tables["cache"] = unit(
            "cache_catch_up", lambda: _cache(task_members[0], base, list(prompt) * 3, len(prompt))
        )
        metrics.update(m)

        members = tuple(range(2, int(config["speed_members"]) + 1))
        batches = (1, int(config["speed_batch"]))
        m, tables["speed"], tables["speed_profile"] = speed_comparison(
            speed_models, prompt, int(config["speed_tokens"]), int(config["speed_repeats"]), batches, members,
            device, seed,
        )  # fmt: skip
        metrics.update(m)
        plots = [
            Plot(
                "speedup",
                "ME / CE tokens per second",
                {
                    f"{n} members": (
                        [float(b) for b in batches],
                        [metrics[f"speedup_n{n}_b1"], metrics[f"speedup_n{n}_batched"]],
                    )
                    for n in members
                },
                "batch size",
                "speed-up",
                claim="speed_2_members_paper",
                lines={
                    "paper's lower bound 1.78×": 1.78,
                    "ME = CE": 1.0,
                    "ideal, 2 members": 2.0,
                    "ideal, 3 members": 3.0,
                },
            )  # fmt: skip
        ]
        if device.type == "cpu":
            notes.append(
                f"threads={torch.get_num_threads()}; CPU timings on a shared machine; the paper used 7B models on H100"
            )
        else:
            notes.append(f"device={device}; timings on this accelerator; the paper used 7B models on H100")
        notes += [
            "accuracy task: offline addition problems with operands < "
            f"{config['operand_max']}, tiny Llama members trained here (stand-in for GSM8K)",
            "CE is the exact mixture of per-member-processed distributions; the official code's truncated "
            "CE is reported beside it",
            f"accuracy rows are independent generations (per-row member draws); {config['test_problems']} rows"
            f" give a TOST margin of {metrics['tost_margin_80pct_power']:.4f} at 80% power (sigma_d <= sqrt(0.5))",
            "gain task: 'a+b=' answered by a's last digit then b's; two members trained with the first (member 0)"
            " or second (member 1) answer digit"
            " randomised, operands in [10, operand_max), 2 x train_steps; errors are complementary by construction",
        ]
        return Result(metrics=metrics, tables=tables, plots=plots, blocked=blocked, notes=notes)
    finally:
        torch.set_num_threads(old_threads)


def check(config: dict[str, Any]) -> None:
    """Reject out-of-range configs and devices torch cannot use here."""
    check_device(config["device"])
    if config["speed_model"] not in ("tiny", "smollm2"):
        raise ValueError(f"speed_model must be 'tiny' or 'smollm2', got {config['speed_model']!r}")
    for key in ("exact_samples", "exact_batch1_samples", "exact_length", "speed_tokens", "speed_repeats",
                "speed_batch", "train_problems", "train_steps", "test_problems", "eval_batch", "operand_max"):  # fmt: skip
        if int(config[key]) < 1:
            raise ValueError(f"{key} must be >= 1, got {config[key]}")
    if int(config["hetero_vocab"]) != 0 and int(config["hetero_vocab"]) < 16:
        raise ValueError(
            f"hetero_vocab must be 0 (off) or >= 16 (BPE vocabulary size), got {config['hetero_vocab']}"
        )
    if int(config["speed_batch"]) < 2:
        raise ValueError(f"speed_batch is the batched setting and must be >= 2, got {config['speed_batch']}")
    if int(config["speed_members"]) not in (3, 4):
        raise ValueError(
            f"speed_members must be 3 or 4 (members 2..speed_members), got {config['speed_members']}"
        )
    if int(config["test_problems"]) < 20:
        raise ValueError(
            f"test_problems must be >= 20 (rows of the accuracy intervals), got {config['test_problems']}"
        )
    if 6 ** int(config["exact_length"]) > 100_000:
        raise ValueError(f"exact_length {config['exact_length']} is too long to enumerate (6**L <= 100000)")


_COMMON = {
    "device": "cpu",
    "threads": 1,
    "exact_length": 3,
    "top_k": 10,
    "hetero_vocab": 120,
    "speed_members": 3,
}
PROFILES = {
    "smoke": {**_COMMON, "exact_samples": 600, "exact_batch1_samples": 60, "speed_model": "tiny", "speed_hidden": 64,
              "speed_tokens": 6, "speed_repeats": 2, "speed_batch": 4, "operand_max": 10, "train_problems": 200,
              "train_steps": 20, "test_problems": 40, "eval_batch": 40},
    "quick": {**_COMMON, "exact_samples": 4000, "exact_batch1_samples": 150, "speed_model": "smollm2",
              "speed_hidden": 64, "speed_tokens": 16, "speed_repeats": 4, "speed_batch": 4, "operand_max": 30,
              "train_problems": 3000, "train_steps": 400, "test_problems": 4000, "eval_batch": 500},
    "paper": {**_COMMON, "exact_samples": 20000, "exact_batch1_samples": 2000, "speed_model": "smollm2",
              "speed_hidden": 64, "speed_tokens": 128, "speed_repeats": 12, "speed_batch": 8, "operand_max": 30,
              "train_problems": 5000, "train_steps": 1500, "test_problems": 60000, "eval_batch": 1000,
              "speed_members": 4},
}  # fmt: skip

# Rough cost model of one runner seed on 2 cores (one torch thread), from the sizes.
_SMOLLM2_STEP_S = 0.072  # one cached SmolLM2-135M forward pass, batch 1, one CPU thread (docs: 70 ms)
_TINY_STEP_S = 1.5e-3  # one forward pass of the smoke speed model (hidden 64, 4 layers, vocabulary 512)
_SMOLLM2_BYTES = 134.5e6 * 4  # float32 weights of one SmolLM2 copy
_SMOLLM2_KV_BYTES = 30 * 2 * 3 * 64 * 4  # per token: 30 layers, keys and values, 3 heads of 64, float32


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """Estimated ``(seconds, bytes)`` of one runner seed from the config's sizes (calibration:
    docs/methods/mixture_ensemble.md; the one-time SmolLM2 conversion, ~90 s, is not included).

    Speed: per repeat and generated token, CE runs n forward passes and ME about 1.3 (one pass with
    its catch-up chunk), for every n in 2..speed_members, at batch 1 and ``speed_batch`` (the profile
    split comes from the timed repeats themselves). Accuracy: ~15 evaluations of every row.
    """
    length, tokens, batch = (
        int(config["exact_length"]),
        int(config["speed_tokens"]),
        int(config["speed_batch"]),
    )
    smollm2 = config["speed_model"] == "smollm2"
    exact = (
        1.0
        + 3 * int(config["exact_samples"]) * length * 1.5e-5
        + int(config["exact_batch1_samples"]) * length * 1.5e-3
    )
    hetero = int(config["hetero_vocab"]) > 0
    steps = 4.5 * int(config["train_steps"]) + (int(config["train_steps"]) if hetero else 0)
    train = steps * 0.015 + 6 * int(config["train_problems"]) * 2e-5
    evaluations = 3 + 6 + 4 + (3 if hetero else 0)
    evaluate = evaluations * int(config["test_problems"]) * (2e-4 + 0.02 / int(config["eval_batch"]))
    step = _SMOLLM2_STEP_S if smollm2 else _TINY_STEP_S * max(1.0, (int(config["speed_hidden"]) / 64) ** 2)
    per_token = sum(n + 1.3 for n in range(2, int(config["speed_members"]) + 1))
    speed = int(config["speed_repeats"]) * tokens * per_token * (step + step * (1 + 0.1 * (batch - 1)))
    # cached weights (~5 s) and the cache check (~20 s: float64 catch-ups against one reference pass,
    # float32 ones and the library's cache against a pass per prefix)
    load = 25.0 if smollm2 else 1.0
    seconds = 2.0 + exact + train + evaluate + speed + load
    kv = _SMOLLM2_KV_BYTES if smollm2 else 4 * 2 * 64 * 4
    copies = int(config["speed_members"]) + 2  # the members, the float64 copy and a deep copy
    memory = (
        0.6e9  # torch, transformers and the tiny models
        + (copies * _SMOLLM2_BYTES if smollm2 else 0)
        + int(config["exact_samples"]) * 4e3  # per-row sampling of every exactness sample at once
        + int(config["speed_members"]) * batch * (tokens + 64) * kv
        + int(config["train_problems"]) * 400
        + int(config["eval_batch"]) * 4e4
    )
    return seconds, memory


from icml26.common.schema import Choice, Device, Int  # noqa: E402 (the schema block sits beside the experiment)

SCHEMA = {  # each profile key's type and range (icml26.common.schema); check() keeps the cross-key rules
    "device": Device(),
    "threads": Int(1, 256),
    "exact_length": Int(1, 6),  # 6**L sequences are enumerated
    "top_k": Int(1, 10**5),
    "hetero_vocab": Int(0, 10**6),
    "speed_members": Int(3, 4),
    ("exact_samples", "exact_batch1_samples", "train_problems"): Int(1, 10**7),
    "speed_model": Choice(("tiny", "smollm2")),
    ("speed_hidden", "speed_tokens"): Int(1, 4096),
    "speed_repeats": Int(1, 1000),
    "speed_batch": Int(2, 1024),
    ("operand_max", "train_steps"): Int(1, 10**6),
    "test_problems": Int(20, 10**7),
    "eval_batch": Int(1, 10**5),
}


EXPERIMENT = Experiment(
    method="mixture_ensemble",
    title="Rethinking LLM Ensembling from the Perspective of Mixture Models",
    paper="Fu, Jiang, Wu, Liu, Zhou, Yang; ICML 2026; arXiv 2605.00419",
    run=run,
    profiles=PROFILES,
    claims=TESTS,
    paper_claims=PAPER_CLAIMS,
    background=BACKGROUND,
    description="ME vs CE at CPU scale: exactness, lazy KV cache, speed, accuracy and the ensemble gain.",
    check=check,
    schema=SCHEMA,
    cost=cost,
    names=NAMES,
    resources=Resources(cpus=1),  # one torch thread per seed (config key threads); memory from cost()
)
