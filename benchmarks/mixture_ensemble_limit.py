"""Issue #20 "go toward the limit": the previous release's generation path and the new one, side by side.

    python benchmarks/mixture_ensemble_limit.py --model smollm2 --tokens 16 --repeats 6 --batches 1,4
    python benchmarks/mixture_ensemble_limit.py --model smollm2 --probe-only   # StaticCache, torch.compile

**Old path** (``preallocate=False``, ``profile="extra"``): each catch-up concatenates the attention
mask and builds its chunk row by row, and the profile split is one more generation after the timed
repeats. **New path** (``preallocate=True``, ``profile="repeats"``): the mask is written into a
growing buffer, the chunk is built from whole rows, positions continue per-row counts, and the timed
repeats run under the profiler's hooks (so their cost is inside the new path's figures). Both feed
the model the same tensors (same tokens for a seed: ``tests/mixture_ensemble/test_mixture_ensemble_cache.py``).

In every repeat the four generations (CE and ME, old and new) run in an order that rotates and
reverses from repeat to repeat, on the same prompt batch and seed. Printed per setting: median
tokens/s of each; new/old tokens-per-second ratios of CE and of ME (median of the within-repeat
ratios, 95% interval as in the speed claims: ``speed.speedup_ci95``); ME/CE and its fraction of
the ideal ``n×`` before and after; and the seconds per generation each path spends (the quick
profile runs ``(repeats + 1)`` generations per ensemble and setting with the old path, ``repeats``
with the new one).

``--probe-only`` checks the two library levers on the speed model's cached passes (median of
``--probe-repeats`` passes, one token and a 4-token chunk): ``transformers.StaticCache`` instead of
the dynamic cache, and ``torch.compile`` of the model (when it compiles here within the time).
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import time

import torch

from icml26.common import paired_ci
from icml26.mixture_ensemble.ensemble import ConventionalEnsemble, MixtureEnsemble
from icml26.mixture_ensemble.experiment import perturbed_copy
from icml26.mixture_ensemble.speed import _generate, _Profiler, profile_split, speedup_ci95
from icml26.mixture_ensemble.task import tiny_llama

RUNS = ("CE old", "ME old", "CE new", "ME new")


def _interval(a: list[float], b: list[float]) -> str:
    ratios = [x / y for x, y in zip(a, b, strict=True)]
    low, high = speedup_ci95(a, b, paired_ci(a, b, "ratio", "median", seed=0))
    return f"{statistics.median(ratios):.3f} [{low:.3f}, {high:.3f}]"


def compare(models, prompt, n: int, batch: int, tokens: int, repeats: int) -> dict[str, str]:
    """One setting: the four generations per repeat in rotating order; the summary row."""
    ens = {
        "CE old": ConventionalEnsemble(models[:n], preallocate=False),
        "ME old": MixtureEnsemble(models[:n], preallocate=False),
        "CE new": ConventionalEnsemble(models[:n]),
        "ME new": MixtureEnsemble(models[:n]),
    }
    for e in ens.values():
        _generate(e, prompt, batch, 2, 0)  # warm-up
    rate = {k: [] for k in RUNS}
    seconds = dict.fromkeys(RUNS, 0.0)
    with _Profiler(ens["CE new"]) as ce_prof, _Profiler(ens["ME new"]) as me_prof:
        profilers = {"CE new": ce_prof, "ME new": me_prof}
        for r in range(repeats):
            order = RUNS[r % 4 :] + RUNS[: r % 4]
            order = order[::-1] if (r // 4) % 2 else order
            for k in order:
                t = time.perf_counter()
                out = profilers[k].generate(prompt, batch, tokens, r) if k in profilers else _generate(ens[k], prompt, batch, tokens, r)  # fmt: skip
                seconds[k] += time.perf_counter() - t
                rate[k].append(out.num_tokens / out.seconds)
    for k in ("CE old", "ME old"):  # the old path's extra profiled generation
        t = time.perf_counter()
        profile_split(ens[k], prompt, batch, tokens, 0)
        seconds[k] += time.perf_counter() - t
    med = {k: statistics.median(v) for k, v in rate.items()}
    ratio_old = [m / c for m, c in zip(rate["ME old"], rate["CE old"], strict=True)]
    ratio_new = [m / c for m, c in zip(rate["ME new"], rate["CE new"], strict=True)]
    return {
        "members": str(n), "batch": str(batch),
        **{f"{k} tok/s": f"{med[k]:.3g}" for k in RUNS},
        "CE new/old": _interval(rate["CE new"], rate["CE old"]),
        "ME new/old": _interval(rate["ME new"], rate["ME old"]),
        "ME/CE old": _interval(rate["ME old"], rate["CE old"]),
        "ME/CE new": _interval(rate["ME new"], rate["CE new"]),
        "ideal fraction old": f"{statistics.median(ratio_old) / n:.3f}",
        "ideal fraction new": f"{statistics.median(ratio_new) / n:.3f}",
        "s per setting old": f"{seconds['CE old'] + seconds['ME old']:.1f}",
        "s per setting new": f"{seconds['CE new'] + seconds['ME new']:.1f}",
    }  # fmt: skip


@torch.no_grad()
def probe(
    model: torch.nn.Module, prompt: list[int], repeats: int, compile_timeout: float
) -> list[dict[str, str]]:
    """Median seconds of a cached 1-token and 4-token pass: dynamic cache, StaticCache, torch.compile."""
    from transformers import DynamicCache, StaticCache

    cache_arg = "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"
    ids = torch.tensor([prompt])

    def timed(run, make_cache, k: int) -> float:
        times = []
        for _ in range(repeats):
            cache = make_cache()
            run(input_ids=ids, use_cache=True, **{cache_arg: cache})
            chunk = torch.tensor([prompt[:1] * k])
            position = torch.arange(len(prompt), len(prompt) + k)
            t = time.perf_counter()
            run(
                input_ids=chunk,
                use_cache=True,
                logits_to_keep=1,
                cache_position=position,
                **{cache_arg: cache},
            )
            times.append(time.perf_counter() - t)
        return statistics.median(times)

    rows = []
    variants = {
        "DynamicCache": (model, lambda: DynamicCache(config=model.config)),
        "StaticCache": (model, lambda: StaticCache(config=model.config, max_cache_len=len(prompt) + 16)),
    }
    for name, (run, make) in variants.items():
        try:
            c1, c4 = timed(run, make, 1), timed(run, make, 4)
            rows.append({"variant": name, "c(1) ms": f"{1e3 * c1:.1f}", "c(4) ms": f"{1e3 * c4:.1f}",
                         "c(4)/c(1)": f"{c4 / c1:.2f}"})  # fmt: skip
        except Exception as err:  # noqa: BLE001 (report what the library does here)
            rows.append({"variant": name, "c(1) ms": f"failed: {type(err).__name__}: {err}"[:120]})
    if compile_timeout is None:
        return rows
    start = time.perf_counter()
    try:
        compiled = torch.compile(model, dynamic=True)
        make = variants["DynamicCache"][1]
        timed(compiled, make, 1)  # compiles
        took = time.perf_counter() - start
        if took > compile_timeout:
            rows.append(
                {
                    "variant": "torch.compile",
                    "c(1) ms": f"compiled in {took:.0f} s (> {compile_timeout:.0f} s)",
                }
            )
        else:
            c1, c4 = timed(compiled, make, 1), timed(compiled, make, 4)
            rows.append({"variant": f"torch.compile (compile {took:.0f} s)", "c(1) ms": f"{1e3 * c1:.1f}",
                         "c(4) ms": f"{1e3 * c4:.1f}", "c(4)/c(1)": f"{c4 / c1:.2f}"})  # fmt: skip
    except Exception as err:  # noqa: BLE001
        rows.append({"variant": "torch.compile", "c(1) ms": f"failed: {type(err).__name__}: {err}"[:160]})
    return rows


def _print(rows: list[dict[str, str]]) -> None:
    keys = list(dict.fromkeys(k for r in rows for k in r))
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for r in rows:
        print("| " + " | ".join(r.get(k, "") for k in keys) + " |")
    print(flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("tiny", "smollm2"), default="tiny")
    parser.add_argument("--tokens", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=6)
    parser.add_argument("--batches", default="1,4")
    parser.add_argument("--members", default="2,3")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument(
        "--probe-only", action="store_true", help="only the StaticCache / torch.compile probe"
    )
    parser.add_argument("--probe-repeats", type=int, default=9)
    parser.add_argument("--compile-timeout", type=float, default=300.0)
    parser.add_argument("--skip-compile", action="store_true", help="leave torch.compile out of the probe")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    if args.model == "smollm2":
        from icml26.mixture_ensemble import load_smollm2

        base, tokenizer = load_smollm2("cpu")
        prompt = tokenizer.encode("Question: Natalia sold clips to 48 of her friends in April. Answer:")
    else:
        base = tiny_llama(512, hidden=256, layers=4, heads=4, seed=0)
        prompt = list(range(2, 18))
    if args.probe_only:
        _print(probe(base, prompt, args.probe_repeats, None if args.skip_compile else args.compile_timeout))
        return
    members = [int(n) for n in args.members.split(",")]
    models = [base] + [perturbed_copy(base, 0.02, s) for s in range(1, max(members))]
    rows = []
    for b in (int(x) for x in args.batches.split(",")):
        for n in members:
            rows.append(compare(models, prompt, n, b, args.tokens, args.repeats))
            _print(rows[-1:])  # each setting as it finishes
    _print(rows)


if __name__ == "__main__":
    main()
