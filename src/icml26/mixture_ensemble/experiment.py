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
import statistics
from typing import Any

import numpy as np
import torch

from icml26.common import (
    Claim,
    Experiment,
    Plot,
    Result,
    check_device,
    ci95,
    comparison_key,
    mean_ci95,
    median_ci95,
    paired_ci,
    progress,
    seed_everything,
    unit,
)
from icml26.mixture_ensemble.cache import catch_up_error, incremental_decoding_error
from icml26.mixture_ensemble.ensemble import ConventionalEnsemble, MixtureEnsemble
from icml26.mixture_ensemble.exact import chi_square_test, exact_sequence_distribution, sequence_index
from icml26.mixture_ensemble.task import (
    accuracy,
    bpe_tokenizer,
    char_tokenizer,
    make_problems,
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
        out = me.generate(input_ids=[prompt] * n, max_new_tokens=length, top_k=top_k, seed=seed)
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
                input_ids=[prompt] * n, max_new_tokens=length, top_k=top_k, seed=seed
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
                o = me1.generate(input_ids=[prompt], max_new_tokens=length, seed=seed * 100_003 + s)
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


def speed_comparison(
    models: list[torch.nn.Module],
    prompt: list[int],
    tokens: int,
    repeats: int,
    batches: tuple[int, ...] = (1, 2),
    device: str | torch.device = "cpu",
    seed: int = 0,
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """CE vs ME tokens per second with the first 2 and 3 ``models``, side by side in one run.

    Each repeat runs CE then ME on the same prompt batch (interleaved, so load drifts hit both) and
    takes the ratio within the repeat; ``speedup_n{n}_b1`` (batch 1) and ``speedup_n{n}_batched`` (a
    batch > 1) are the median of those paired ratios with its order-statistic 95% interval.
    ``me_tokens_per_s_<key>`` and ``ce_tokens_per_s_<key>`` are the medians of the tokens/s over
    repeats (order-statistic intervals), and the paired bootstrap interval of the ratio of those
    medians, the comparison the claims judge, is stored under
    ``comparison_key(me_tokens_per_s_<key>, ce_tokens_per_s_<key>, "ratio")``.
    """
    if len(models) < 3 or tokens < 1 or repeats < 1 or not batches or min(batches) < 1:
        raise ValueError(
            f"need >= 3 models, tokens >= 1, repeats >= 1 and batch sizes >= 1; got {len(models)} models, "
            f"tokens={tokens}, repeats={repeats}, batches={batches}"
        )
    device = torch.device(device)

    def setting(n: int, batch: int) -> tuple[dict[str, float], dict[str, Any]]:
        """CE and ME with the first ``n`` models at batch size ``batch``: metrics and table row."""
        metrics: dict[str, float] = {}
        ce, me = (
            ConventionalEnsemble(models[:n], device=device),
            MixtureEnsemble(models[:n], device=device),
        )
        ce.generate(input_ids=[prompt], max_new_tokens=2, seed=seed)  # warm-up (allocations, kernels)
        me.generate(input_ids=[prompt], max_new_tokens=2, seed=seed)
        wall, cpu, rate, calls = [], [], {"CE": [], "ME": []}, {}
        for r in progress(range(repeats), f"speed n={n} batch={batch}"):
            pair = {}
            for name, ens in (("CE", ce), ("ME", me)):  # interleaved, so load drifts hit both
                out = ens.generate(
                    input_ids=[prompt] * batch,
                    max_new_tokens=tokens,
                    top_k=10,
                    seed=seed + r,
                    stop_at_eos=False,
                )
                pair[name] = out
                rate[name].append(out.num_tokens / out.seconds)
                calls[name] = sum(out.forward_calls)
            # paired ratios of tokens per second (wall clock and CPU time) within one repeat
            wall.append(
                (pair["ME"].num_tokens / pair["ME"].seconds) / (pair["CE"].num_tokens / pair["CE"].seconds)
            )
            cpu.append(
                (pair["ME"].num_tokens / pair["ME"].cpu_seconds)
                / (pair["CE"].num_tokens / pair["CE"].cpu_seconds)
            )
        key = f"n{n}_b1" if batch == 1 else f"n{n}_batched"
        # the claim metric is a median, so its interval is the order-statistic CI of the median
        metrics[f"speedup_{key}"], metrics[f"speedup_{key}_ci_low"], metrics[f"speedup_{key}_ci_high"] = (
            median_ci95(wall)
        )
        metrics[f"speedup_cpu_{key}"] = statistics.median(cpu)
        for name in ("CE", "ME"):
            k = f"{name.lower()}_tokens_per_s_{key}"
            metrics[k], metrics[f"{k}_ci_low"], metrics[f"{k}_ci_high"] = median_ci95(rate[name])
        # paired by repeat (CE and ME ran back to back on the same prompts): the interval of
        # median(ME tok/s) / median(CE tok/s), the comparison the speed claims judge
        paired = comparison_key(f"me_tokens_per_s_{key}", f"ce_tokens_per_s_{key}", "ratio")
        metrics[f"{paired}_ci_low"], metrics[f"{paired}_ci_high"] = paired_ci(
            rate["ME"], rate["CE"], "ratio", "median", seed=seed
        )
        row = {"members": n, "batch": batch, "tokens": tokens, "repeats": repeats,
               "CE tok/s": metrics[f"ce_tokens_per_s_{key}"], "ME tok/s": metrics[f"me_tokens_per_s_{key}"],
               "ME/CE (median paired)": metrics[f"speedup_{key}"],
               "median 95% CI": f"[{metrics[f'speedup_{key}_ci_low']:.3g}, {metrics[f'speedup_{key}_ci_high']:.3g}]",
               "ratio min": min(wall),
               "ratio max": max(wall), "ME/CE CPU time": metrics[f"speedup_cpu_{key}"],
               "CE forward calls": calls["CE"], "ME forward calls": calls["ME"]}  # fmt: skip
        return metrics, row

    rows, metrics = [], {}
    for n in (2, 3):
        for batch in batches:
            m, row = unit(f"speed_n={n}_batch={batch}", lambda n=n, batch=batch: setting(n, batch))
            metrics.update(m)
            rows.append(row)
    return metrics, rows


def _cache(task_member: torch.nn.Module, speed_model: torch.nn.Module, ids: list[int], prompt_length: int):
    """Catch-up vs full recomputation (§3), in float64 (exact arithmetic up to 1e-15) and float32.

    The claim is checked in float64, where any algorithmic mismatch (a wrong position id, mask or
    cache entry) shows at full size while rounding does not. In float32, chunks of different
    shapes sum in a different order; ``transformers``' own one-token KV cache measured on the same
    tokens is the reference for that rounding level.
    """
    chunks = [prompt_length, 1, 2, 3, 5, 8]
    tiny_ids = char_tokenizer().encode("12+7=19;3+25=28;17+9=26;")
    tiny_chunks = [4, 1, 2, 3, 5, 8]
    metrics = {
        "cache_max_abs_diff_task_member_fp64": catch_up_error(copy.deepcopy(task_member).double(), tiny_ids, tiny_chunks),
        "cache_max_abs_diff_speed_model_fp64": catch_up_error(copy.deepcopy(speed_model).double(), ids, chunks),
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


def _accuracy(config: dict[str, Any], rng: np.random.Generator, seed: int):
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
    prompts = [p.prompt for p in test]
    eval_batch, top_k, seeds = int(config["eval_batch"]), int(config["top_k"]), int(config["eval_seeds"])

    def acc(ensemble, s: int) -> float:
        texts = []
        for start in range(0, len(prompts), eval_batch):
            out = ensemble.generate(prompts=prompts[start : start + eval_batch], max_new_tokens=4,
                                    top_k=top_k, stop_strings=[";"], seed=s * 7919 + start)  # fmt: skip
            texts += out.texts
        return accuracy(texts, test)

    def accuracies(name: str, make_ensemble, label: str | None = None) -> list[float]:
        """Accuracy over the sampling seeds, as the unit ``accuracy_<name>``."""

        def compute() -> list[float]:
            seed_range = range(seeds) if label is None else progress(range(seeds), label)
            return [acc(make_ensemble(s), s) for s in seed_range]

        return unit(f"accuracy_{name}", compute)

    rows, metrics = [], {}
    singles = [
        accuracies(f"member={i}_alone", lambda s, m=m: MixtureEnsemble([m], tokenizers=[tok], device=device))
        for i, m in enumerate(members)
    ]
    for i, values in enumerate(singles):
        rows.append(_acc_row(f"member {i} alone", values))
    for n in (2, 3):
        per = {
            "CE": ConventionalEnsemble(members[:n], tokenizers=[tok] * n, device=device),
            "ME": MixtureEnsemble(members[:n], tokenizers=[tok] * n, device=device),
            "CE truncated (official)": ConventionalEnsemble(
                members[:n], tokenizers=[tok] * n, variant="truncated", device=device
            ),
        }
        slug = {"CE": "CE", "ME": "ME", "CE truncated (official)": "CE_truncated"}
        values = {
            name: accuracies(f"n={n}_{slug[name]}", lambda s, e=e: e, f"accuracy n={n} {name}")
            for name, e in per.items()
        }
        for name, v in values.items():
            rows.append(_acc_row(f"{name}, {n} members", v))
        _gap(metrics, f"n{n}", values["ME"], values["CE"])
        metrics[f"acc_ce_truncated_n{n}"], metrics[f"acc_ce_truncated_n{n}_ci"] = mean_ci95(
            values["CE truncated (official)"]
        )
        metrics[f"acc_best_single_n{n}"] = max(float(np.mean(v)) for v in singles[:n])
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
        rows.append(
            _acc_row(
                "BPE member alone",
                accuracies(
                    "bpe_member_alone", lambda s: MixtureEnsemble([other], tokenizers=[bpe], device=device)
                ),
            )
        )
        values = {
            "CE": accuracies(
                "hetero_CE",
                lambda s: ConventionalEnsemble([members[0], other], tokenizers=toks, device=device),
            ),
            "ME": accuracies(
                "hetero_ME", lambda s: MixtureEnsemble([members[0], other], tokenizers=toks, device=device)
            ),
        }
        for name, v in values.items():
            rows.append(_acc_row(f"{name}, member 0 (chars) + BPE member", v))
        _gap(metrics, "hetero", values["ME"], values["CE"])
    return metrics, rows, members


def _gap(metrics: dict[str, float], key: str, me_values: list[float], ce_values: list[float]) -> None:
    """``acc_me_<key>`` and ``acc_ce_<key>`` (mean over seeds, ``_ci`` half-widths) and the paired 95%
    interval of ``acc_me − acc_ce`` over seeds (ME and CE evaluated on the same problems with the same
    sampling seeds), stored under ``comparison_key(acc_me_<key>, acc_ce_<key>, "difference")``."""
    me, ce = f"acc_me_{key}", f"acc_ce_{key}"
    metrics[me], metrics[f"{me}_ci"] = mean_ci95(me_values)
    metrics[ce], metrics[f"{ce}_ci"] = mean_ci95(ce_values)
    paired = comparison_key(me, ce, "difference")
    metrics[f"{paired}_ci_low"], metrics[f"{paired}_ci_high"] = paired_ci(
        me_values, ce_values, "difference", "mean"
    )


def _acc_row(name: str, values: list[float]) -> dict[str, Any]:
    v = np.asarray(values)
    return {"setting": name, "accuracy": float(v.mean()), "ci95": ci95(v), "seeds": len(v)}


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
        speed_models = [base] + [perturbed_copy(base, 0.02, seed + i) for i in (1, 2)]

        m, tables["cache"] = unit(
            "cache_catch_up", lambda: _cache(task_members[0], base, list(prompt) * 3, len(prompt))
        )
        metrics.update(m)

        m, tables["speed"] = speed_comparison(
            speed_models,
            prompt,
            int(config["speed_tokens"]),
            int(config["speed_repeats"]),
            (1, int(config["speed_batch"])),
            device,
            seed,
        )
        metrics.update(m)
        batches = [1, int(config["speed_batch"])]
        plots = [
            Plot(
                "speedup",
                "ME / CE tokens per second",
                {
                    f"{n} members": (
                        [float(b) for b in batches],
                        [metrics[f"speedup_n{n}_b1"], metrics[f"speedup_n{n}_batched"]],
                    )
                    for n in (2, 3)
                },
                "batch size",
                "speed-up",
                claim="speed_2_members_paper",
                lines={
                    "paper's lower bound 1.78×": 1.78,
                    "rule (2 members) ≥ 1.4": 1.4,
                    "rule (3 members) ≥ 1.9": 1.9,
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
    if int(config["eval_seeds"]) < 2:
        raise ValueError(f"eval_seeds must be >= 2 (the CI needs two), got {config['eval_seeds']}")
    if 6 ** int(config["exact_length"]) > 100_000:
        raise ValueError(f"exact_length {config['exact_length']} is too long to enumerate (6**L <= 100000)")


_COMMON = {"device": "cpu", "threads": 1, "exact_length": 3, "top_k": 10, "hetero_vocab": 120}
PROFILES = {
    "smoke": {**_COMMON, "exact_samples": 600, "exact_batch1_samples": 60, "speed_model": "tiny", "speed_hidden": 64,
              "speed_tokens": 6, "speed_repeats": 1, "speed_batch": 2, "operand_max": 10, "train_problems": 200,
              "train_steps": 20, "test_problems": 20, "eval_batch": 20, "eval_seeds": 2},
    "quick": {**_COMMON, "exact_samples": 4000, "exact_batch1_samples": 150, "speed_model": "smollm2",
              "speed_hidden": 64, "speed_tokens": 48, "speed_repeats": 11, "speed_batch": 2, "operand_max": 30,
              "train_problems": 3000, "train_steps": 500, "test_problems": 200, "eval_batch": 50, "eval_seeds": 5},
    "paper": {**_COMMON, "exact_samples": 20000, "exact_batch1_samples": 2000, "speed_model": "smollm2",
              "speed_hidden": 64, "speed_tokens": 128, "speed_repeats": 11, "speed_batch": 8, "operand_max": 30,
              "train_problems": 5000, "train_steps": 1500, "test_problems": 500, "eval_batch": 50, "eval_seeds": 10},
}  # fmt: skip

# Rough cost model of one runner seed on 2 CPU cores (one torch thread), calibrated on the quick
# (663 s) and paper (2281 s) runs in docs/methods/mixture_ensemble.md and on timed smoke-scale parts.
_SMOLLM2_STEP_S = 0.072  # one cached SmolLM2-135M forward pass, batch 1, one CPU thread (docs: 70 ms)
_TINY_STEP_S = 1.5e-3  # one forward pass of the smoke speed model (hidden 64, 4 layers, vocabulary 512)
_SMOLLM2_BYTES = 134.5e6 * 4  # float32 weights of one SmolLM2 copy
_SMOLLM2_KV_BYTES = 30 * 2 * 3 * 64 * 4  # per token: 30 layers, keys and values, 3 heads of 64, float32


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """Estimated ``(seconds, bytes)`` of one runner seed from the config's sizes (calibration:
    docs/methods/mixture_ensemble.md; the one-time SmolLM2 conversion, ~90 s, is not included).

    Speed dominates quick and paper: per repeat and generated token, CE runs n forward passes and ME
    about 1.3 (one pass with its catch-up chunk), for n = 2 and 3, at batch 1 and ``speed_batch``.
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
    steps = 2.5 * int(config["train_steps"]) + (int(config["train_steps"]) if hetero else 0)
    train = steps * 0.015 + 4 * int(config["train_problems"]) * 2e-5
    member_evals = 3 + (2 + 1.3 + 2) + (3 + 1.3 + 3) + ((1 + 2 + 1.3) if hetero else 0)
    per_problem = 1e-4 + 0.02 / int(config["eval_batch"])
    evaluate = member_evals * int(config["eval_seeds"]) * int(config["test_problems"]) * per_problem
    step = _SMOLLM2_STEP_S if smollm2 else _TINY_STEP_S * max(1.0, (int(config["speed_hidden"]) / 64) ** 2)
    per_token = (2 + 1.3) + (3 + 1.3)
    speed = int(config["speed_repeats"]) * tokens * per_token * (step + step * (1 + 0.1 * (batch - 1)))
    load = 40.0 if smollm2 else 1.0  # cached weights (~5 s) and the float64 cache check (~30 s)
    seconds = 2.0 + exact + train + evaluate + speed + load
    kv = _SMOLLM2_KV_BYTES if smollm2 else 4 * 2 * 64 * 4
    memory = (
        0.6e9  # torch, transformers and the tiny models
        + (5 * _SMOLLM2_BYTES if smollm2 else 0)  # three copies and the float64 one
        + int(config["exact_samples"]) * 4e3  # per-row sampling of every exactness sample at once
        + 3 * batch * (tokens + 64) * kv
        + int(config["train_problems"]) * 400
    )
    return seconds, memory


NAMES = {
    "control_chi2_p": "member 0 alone (χ² p)",
    "cache_max_abs_diff_task_member_fp64": "task member, float64",
    "cache_max_abs_diff_speed_model_fp64": "speed model, float64",
    "cache_max_abs_diff_task_member": "task member, float32",
    "cache_max_abs_diff_speed_model": "speed model, float32",
    "cache_hf_incremental_diff_speed_model": "transformers' one-token KV cache, float32",
    "ce_tokens_per_s_n2_b1": "CE, 2 members (tok/s)",
    "ce_tokens_per_s_n3_b1": "CE, 3 members (tok/s)",
    "speedup_n2_b1": "median paired ME/CE, batch 1",
    "speedup_n3_b1": "median paired ME/CE, batch 1",
    "speedup_cpu_n2_b1": "ME/CE CPU time, batch 1",
    "speedup_cpu_n3_b1": "ME/CE CPU time, batch 1",
    "speedup_n2_batched": "median paired ME/CE, batched",
    "speedup_n3_batched": "median paired ME/CE, batched",
    "acc_ce_n2": "CE (exact mixture)",
    "acc_ce_n3": "CE (exact mixture)",
    "acc_ce_truncated_n2": "CE truncated (official code)",
    "acc_ce_truncated_n3": "CE truncated (official code)",
    "acc_best_single_n2": "best single member",
    "acc_best_single_n3": "best single member",
}

EXPERIMENT = Experiment(
    method="mixture_ensemble",
    title="Rethinking LLM Ensembling from the Perspective of Mixture Models",
    paper="Fu, Jiang, Wu, Liu, Zhou, Yang; ICML 2026; arXiv 2605.00419",
    run=run,
    profiles=PROFILES,
    claims=(
        Claim(
            "exactness",
            "ME samples exactly the CE ensemble distribution (χ² p >= 0.001)",
            "mathematically equivalent",
            "exact_chi2_p_min",
            ">=",
            1e-3,
            kind="paper",
            scale_note="tiny random 1-layer Llama members (vocabulary 6, length-3 continuations); the paper's"
            " identity is for any members",
            controls=("control_chi2_p",),
        ),
        Claim(
            "control_rejected",
            "a single member alone is rejected by the same test (p <= 1e-6)",
            "(our negative control)",
            "control_chi2_p",
            "<=",
            1e-6,
            kind="check",
            scale_note="negative control of the exactness test, same tiny members",
        ),
        Claim(
            "cache_catch_up",
            "lazy KV catch-up logits equal full recomputation (max |Δ| <= 1e-5, float64)"
            " (pending its hardening issue #20)",
            "exact (lazy KV sync)",
            "cache_max_abs_diff_fp64",
            "<=",
            1e-5,
            kind="check",
            scale="exact",
            scale_note="checked exactly after every catch-up chunk of one sequence, for a task member and"
            " the speed model, in float64 where rounding is ~1e-14",
            revised="2026-11-30: cache_max_abs_diff (float32, task member and SmolLM2) <= 1e-5, verdict"
            " then refuted (5.05e-5); the float32 gap is rounding as large as transformers' own KV cache"
            " (5.2e-5), so the rule moved to float64; the original stays as cache_catch_up_original",
            context=("cache_max_abs_diff_task_member_fp64", "cache_max_abs_diff_speed_model_fp64"),
            unit="logit",
        ),
        Claim(
            "cache_catch_up_original",
            "original rule: lazy KV catch-up logits equal full recomputation in float32 (max |Δ| <= 1e-5,"
            " task member and speed model) (pending its hardening issue #20)",
            "exact (lazy KV sync)",
            "cache_max_abs_diff",
            "<=",
            1e-5,
            kind="check",
            scale="exact",
            scale_note="checked exactly after every catch-up chunk of one sequence, for a task member and"
            " the speed model, in float32",
            context=("cache_max_abs_diff_task_member", "cache_max_abs_diff_speed_model"),
            unit="logit",
        ),
        Claim(
            "cache_catch_up_fp32",
            "in float32, catch-up drifts from recomputation no more than 2x transformers' own KV cache",
            "(our rounding check)",
            "cache_max_abs_diff_speed_model",
            "<=",
            2.0,
            kind="check",
            scale_note="one sequence on the speed model; rounding drift is not a per-instance guarantee",
            relative_to=("cache_hf_incremental_diff_speed_model",),
            form="ratio",
        ),
        Claim(
            "speed_2_members",
            "ME/CE tokens per second >= 1.4 with 2 members (batch 1)",
            "1.78–2.68× (our CPU target 1.4)",
            "me_tokens_per_s_n2_b1",
            ">=",
            1.4,
            kind="check",
            scale_note="laptop proxy: SmolLM2-135M and perturbed copies on one CPU thread (paper: 1.5B-7B"
            " models on an H100)",
            relative_to=("ce_tokens_per_s_n2_b1",),
            form="ratio",
            revised="2026-11-30: 16 new tokens, 5 paired repeats, median ± t half-width (commit dc7e6ec),"
            " verdict then inconclusive (1.64 ± 0.32), and at 48 tokens with 7 repeats (icml26 reproduce,"
            " 08:47 UTC) verdict then inconclusive (1.63 [1.39, 1.68]); tokens went to 48 so the shared"
            " prefill weighs less and repeats to 11 with the median's order-statistic interval",
            context=("speedup_n2_b1", "speedup_cpu_n2_b1", "speedup_n2_batched"),
        ),
        Claim(
            "speed_2_members_16_tokens",
            "The first setting of `speed_2_members`: ME/CE tokens per second >= 1.4 with 2 members (batch 1),"
            " 16 new tokens, 5 paired repeats",
            "1.78–2.68× (our CPU target 1.4)",
            "speedup_n2_b1_16_tokens",
            ">=",
            1.4,
            kind="check",
            scale_note="the original setting, too costly to re-measure here: its stored verdict",
            stored="inconclusive (dc7e6ec, 2026-11-30): 1.64 ± 0.32 (median ± t half-width, 5 repeats)",
        ),
        Claim(
            "speed_2_members_7_repeats",
            "The second setting of `speed_2_members`: ME/CE tokens per second >= 1.4 with 2 members"
            " (batch 1), 48 new tokens, 7 paired repeats",
            "1.78–2.68× (our CPU target 1.4)",
            "speedup_n2_b1_7_repeats",
            ">=",
            1.4,
            kind="check",
            scale_note="the original setting, too costly to re-measure here: its stored verdict",
            stored="inconclusive (facfff9, 2026-11-30): 1.63 [1.39, 1.68] (median and its order-statistic"
            " interval, 7 repeats)",
        ),
        Claim(
            "speed_2_members_paper",
            "ME/CE tokens per second >= 1.78 with 2 members (batch 1), the paper's lower bound",
            "1.78–2.68×",
            "me_tokens_per_s_n2_b1",
            ">=",
            1.78,
            kind="paper",
            scale_note="laptop proxy: SmolLM2-135M and perturbed copies on one CPU thread (paper: 1.5B-7B"
            " models on an H100)",
            relative_to=("ce_tokens_per_s_n2_b1",),
            form="ratio",
            context=("speedup_n2_b1", "speedup_cpu_n2_b1", "speedup_n2_batched"),
        ),
        Claim(
            "speed_3_members",
            "ME/CE tokens per second >= 1.9 with 3 members (batch 1)",
            "1.78–2.68× (our CPU target 1.9)",
            "me_tokens_per_s_n3_b1",
            ">=",
            1.9,
            kind="check",
            scale_note="laptop proxy: SmolLM2-135M and perturbed copies on one CPU thread (paper: 1.5B-7B"
            " models on an H100)",
            relative_to=("ce_tokens_per_s_n3_b1",),
            form="ratio",
            revised="2026-11-30: 48 new tokens with 7 paired repeats (run of 08:23 UTC), verdict then"
            " inconclusive (2.07 [1.70, 2.30]); repeats went to 11 to narrow the median's order-statistic"
            " interval (the first setting, 16 tokens and 5 repeats, was toy-verified at 2.15, commit dc7e6ec)",
            context=("speedup_n3_b1", "speedup_cpu_n3_b1", "speedup_n3_batched"),
        ),
        Claim(
            "speed_3_members_7_repeats",
            "The earlier setting of `speed_3_members`: ME/CE tokens per second >= 1.9 with 3 members"
            " (batch 1), 48 new tokens, 7 paired repeats",
            "1.78–2.68× (our CPU target 1.9)",
            "speedup_n3_b1_7_repeats",
            ">=",
            1.9,
            kind="check",
            scale_note="the original setting, too costly to re-measure here: its stored verdict",
            stored="inconclusive (facfff9, 2026-11-30): 2.07 [1.70, 2.30] (median and its order-statistic"
            " interval, 7 repeats)",
        ),
        Claim(
            "speed_3_members_paper",
            "ME/CE tokens per second >= 1.78 with 3 members (batch 1), the paper's lower bound",
            "1.78–2.68×",
            "me_tokens_per_s_n3_b1",
            ">=",
            1.78,
            kind="paper",
            scale_note="laptop proxy: SmolLM2-135M and perturbed copies on one CPU thread (paper: 1.5B-7B"
            " models on an H100)",
            relative_to=("ce_tokens_per_s_n3_b1",),
            form="ratio",
            context=("speedup_n3_b1", "speedup_cpu_n3_b1", "speedup_n3_batched"),
        ),
        Claim(
            "accuracy_2_members",
            "ME accuracy equals CE's within 1 point, 2 members (acc_ME − acc_CE in [−0.01, 0.01])",
            "GSM8K 82.97 vs 83.14 (every ME − CE gap the paper reports is under 0.7 points)",
            "acc_me_n2",
            "in",
            (-0.01, 0.01),
            kind="paper",
            scale_note="laptop proxy: tiny Llama members trained here on offline addition problems"
            " (paper: 1.5B-7B models on GSM8K, MMLU, BBH, ARC)",
            relative_to=("acc_ce_n2",),
            form="difference",
            context=("acc_ce_truncated_n2", "acc_best_single_n2"),
        ),
        Claim(
            "accuracy_3_members",
            "ME accuracy equals CE's within 1 point, 3 members (acc_ME − acc_CE in [−0.01, 0.01])",
            "GSM8K 69.42 vs 69.05 (every ME − CE gap the paper reports is under 0.7 points)",
            "acc_me_n3",
            "in",
            (-0.01, 0.01),
            kind="paper",
            scale_note="laptop proxy: tiny Llama members trained here on offline addition problems"
            " (paper: 1.5B-7B models on GSM8K, MMLU, BBH, ARC)",
            relative_to=("acc_ce_n3",),
            form="difference",
            context=("acc_ce_truncated_n3", "acc_best_single_n3"),
        ),
    ),  # fmt: skip
    description="ME vs CE at CPU scale: exactness, lazy KV cache, speed and accuracy.",
    check=check,
    cost=cost,
    names=NAMES,
)
