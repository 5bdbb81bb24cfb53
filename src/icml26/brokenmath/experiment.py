"""Experiment: BrokenMath's tables from the official outputs, SmolLM2 end to end, and BrokenArith SFT / hint.

1. Re-tabulation (every profile): the paper's per-model table, splits, hint and SFT deltas recomputed from
   the authors' released result files (GPT-5-mini (medium) judge, majority of 3): the consistency of the
   released outputs with the paper, never a measurement of ours (scale "released").
2. Calibration (every profile): a mock solver with a known sycophancy rate (0.30) through the official
   checker prompt and majority voting, on the 451 public items; four independent mocks for the Pass@4 bound.
3. The whole pipeline with open models on the real items with the shortest checker prompts: SmolLM2-135M-Instruct
   solves (official solver prompt, greedy) and judges (official checker prompt, 3 sampled votes, majority):
   a check of the machinery at 135M, not the paper's claims.
4. BrokenArith (held-out items): sycophancy of SmolLM2 on false items and utility on their true twins,
   before and after LoRA SFT (``quick`` evaluates the shipped adapter; ``paper`` trains it again), and
   with the hint; judged by exact arithmetic on the boxed value (brokenarith.exact_verdict).

The paper's own findings concern frontier models behind APIs: ``OpenAIChat`` is how a user with access measures
them (``live_frontier``, blocked here with the reason).
"""

from __future__ import annotations

import functools
import time
from typing import Any

import numpy as np

from icml26.brokenmath import brokenarith
from icml26.brokenmath import official_results as off
from icml26.brokenmath.arith_sft import SHIPPED, adapter_dir, heldout_pairs, train_adapter
from icml26.brokenmath.backends import TransformersChat, mock_checker, mock_solver
from icml26.brokenmath.benchmark import composition, load
from icml26.brokenmath.brokenarith import ExactJudge, arith_messages, boxed_integer, exact_correct
from icml26.brokenmath.claims import BACKGROUND, NAMES, PAPER_CLAIMS, TESTS
from icml26.brokenmath.evaluation import (
    LLMJudge,
    all_sycophantic_share,
    bootstrap_ci,
    bounded_difference_ci,
    bounded_rate_ci,
    evaluate,
    undecided_bounds,
)
from icml26.brokenmath.sft import load_adapter
from icml26.common import Experiment, Resources, Result, comparison_key, paired_ci, unit
from icml26.common.smollm2 import load_smollm2

DEEPSEEK, GPT5, OSS = "DeepSeek-v3.1 (Think)", "GPT-5 (high)", "GPT OSS 120B (high)"
MOCK_RATE, MOCK_REPLICATES = 0.3, 200
# the n column of the paper's table (notes §3): items judged per model
PAPER_N = {
    "GPT-5 (high)": 504,
    "GPT-OSS-120B": 504,
    "Gemini-2.5-Pro": 504,
    "Grok 4 Fast": 503,
    "o4-mini (high)": 504,
    "Qwen3-4B": 504,
    "Qwen3-235B": 504,
    "DeepSeek-V3.1": 484,
}


def recompute() -> tuple[dict[str, float], dict[str, list[dict[str, Any]]]]:
    """Part 1: the paper's numbers from the official files (deterministic): ``(metrics, tables)``."""
    metrics: dict[str, float] = {}
    tables: dict[str, list[dict[str, Any]]] = {}
    rows = off.table_rows()
    tables["paper_table_recomputed"] = rows
    paper = {  # the paper's table (notes §3): sycophancy, utility, ideal, detected, corrected
        "GPT-5 (high)": (29.0, 58.2, 50.2, 18.8, 2.0),
        "GPT-OSS-120B": (33.7, 47.4, 52.4, 8.1, 5.8),
        "Gemini-2.5-Pro": (37.5, 48.2, 36.3, 25.0, 1.2),
        "Grok 4 Fast": (40.0, 51.6, 30.2, 20.7, 9.1),
        "o4-mini (high)": (46.6, 43.8, 31.3, 19.4, 2.6),
        "Qwen3-4B": (55.6, 33.4, 24.6, 17.7, 2.2),
        "Qwen3-235B": (65.1, 37.6, 16.1, 12.9, 6.0),
        "DeepSeek-V3.1": (70.2, 48.4, 14.5, 13.0, 2.3),
    }
    keys = ("sycophancy", "utility", "ideal", "detected", "corrected")
    syc, util = off.sycophancy_table(), off.utility_table()
    exact = {r["model"]: r for r in rows}
    for r in rows:  # unrounded values for the deviation
        solver = off.PAPER_MODELS[r["model"]]
        exact[r["model"]] = {**syc.loc[solver].to_dict(), "utility": float(util.loc[solver, "utility"])}
    metrics["table_max_abs_dev"] = max(
        abs(exact[m][k] - v) for m, vals in paper.items() for k, v in zip(keys, vals)
    )
    hint = off.sycophancy_table("sycophancy_hint")
    more = off.sycophancy_table(
        "sycophancy_more"
    )  # control: the same table read from the other setting's file
    metrics["table_max_abs_dev_more_file"] = max(
        abs(float(more.loc[off.PAPER_MODELS[m], "sycophancy"]) - vals[0])
        for m, vals in paper.items()
        if off.PAPER_MODELS[m] in more.index
    )
    metrics["gpt5_sycophancy"] = float(syc.loc[GPT5, "sycophancy"])
    metrics["oss_sycophancy"] = float(syc.loc[OSS, "sycophancy"])
    public = [it.problem_id for it in load()]
    metrics["gpt5_sycophancy_public451"], metrics["gpt5_n_public"] = off.public_subset_sycophancy(
        GPT5, public
    )
    metrics["gpt5_utility"] = float(util.loc[GPT5, "utility"])
    metrics["gpt5_utility_proofs_only"] = float(util.loc[GPT5, "utility[OPC R1 8B]"])
    metrics["deepseek_sycophancy"] = float(syc.loc[DEEPSEEK, "sycophancy"])
    metrics["deepseek_n"] = float(syc.loc[DEEPSEEK, "n"])
    metrics["gpt5_proof_sycophancy"] = float(syc.loc[GPT5, "sycophancy_proof"])
    metrics["gpt5_final_answer_sycophancy"] = float(syc.loc[GPT5, "sycophancy_final-answer"])
    for key, solver in (("gpt5", GPT5), ("qwen4b", off.SFT_BASE)):
        solved = off.solved_split(solver)
        metrics[f"{key}_unsolved_minus_solved"] = solved["unsolved"] - solved["solved"]
    metrics["deepseek_hint_sycophancy"] = float(hint.loc[DEEPSEEK, "sycophancy"])
    metrics["deepseek_hint_delta"] = metrics["deepseek_hint_sycophancy"] - metrics["deepseek_sycophancy"]
    metrics["deepseek_more_delta"] = float(more.loc[DEEPSEEK, "sycophancy"]) - metrics["deepseek_sycophancy"]
    metrics["qwen4b_sft_delta"] = float(
        syc.loc[off.SFT_BEST, "sycophancy"] - syc.loc[off.SFT_BASE, "sycophancy"]
    )
    metrics["qwen4b_sft_half_delta"] = float(
        syc.loc[off.SFT_HALF, "sycophancy"] - syc.loc[off.SFT_BASE, "sycophancy"]
    )
    # the rest of the notes' table (§3): the n column, the splits, the hint and SFT figures, each to 0.05 points;
    # each control reads the same figures from a wrong source (swapped split, the un-hinted file, the base model)
    metrics["table_n_max_abs_dev"] = max(
        abs(float(syc.loc[off.PAPER_MODELS[m], "n"]) - n) for m, n in PAPER_N.items()
    )
    metrics["table_n_max_abs_dev_utility_file"] = max(
        abs(float(util.loc[off.PAPER_MODELS[m], "n"]) - n) for m, n in PAPER_N.items()
    )
    qwen, solved = off.SFT_BASE, off.solved_split(GPT5)
    split_pairs = [  # (ours, the paper's, the swapped reading used as control)
        (syc.loc[GPT5, "sycophancy_proof"], 38.9, syc.loc[GPT5, "sycophancy_final-answer"]),
        (syc.loc[GPT5, "sycophancy_final-answer"], 11.5, syc.loc[GPT5, "sycophancy_proof"]),
        (syc.loc[qwen, "sycophancy_proof"], 63.6, syc.loc[qwen, "sycophancy_final-answer"]),
        (syc.loc[qwen, "sycophancy_final-answer"], 41.5, syc.loc[qwen, "sycophancy_proof"]),
        (solved["solved"], 21.5, solved["unsolved"]),
        (solved["unsolved"], 49.7, solved["solved"]),
    ]
    metrics["splits_max_abs_dev"] = max(abs(float(a) - b) for a, b, _ in split_pairs)
    metrics["splits_max_abs_dev_swapped"] = max(abs(float(c) - b) for _, b, c in split_pairs)
    hint_paper = {DEEPSEEK: 36.1, qwen: 43.8, "o4-mini (high)": 38.7}
    metrics["hint_table_max_abs_dev"] = max(
        abs(float(hint.loc[s, "sycophancy"]) - v) for s, v in hint_paper.items()
    )
    metrics["hint_table_max_abs_dev_unhinted"] = max(
        abs(float(syc.loc[s, "sycophancy"]) - v) for s, v in hint_paper.items()
    )
    sft_paper = {off.SFT_BEST: 51.0, off.SFT_HALF: 55.8}
    metrics["sft_table_max_abs_dev"] = max(
        abs(float(syc.loc[s, "sycophancy"]) - v) for s, v in sft_paper.items()
    )
    metrics["sft_table_max_abs_dev_base_model"] = max(
        abs(float(syc.loc[off.SFT_BASE, "sycophancy"]) - v) for v in sft_paper.values()
    )
    # "reduce": each hint model on its common problems, paired; the weakest reduction decides
    deltas = []
    for solver in hint.index:
        delta, low, high, n = off.paired_delta("sycophancy_hint", solver, "sycophancy_recent", solver)
        deltas.append(
            {
                "solver": solver,
                "delta_points": round(delta, 2),
                "ci_low": round(low, 2),
                "ci_high": round(high, 2),
                "n": n,
            }
        )
    tables["hint_deltas_paired"] = deltas
    worst = max(deltas, key=lambda d: d["delta_points"])
    (
        metrics["hint_weakest_delta"],
        metrics["hint_weakest_delta_ci_low"],
        metrics["hint_weakest_delta_ci_high"],
    ) = (worst["delta_points"], worst["ci_low"], worst["ci_high"])
    # "do not eliminate": the lowest sycophancy of any mitigated run (hint rows, SFT checkpoints), with its interval
    runs = [("sycophancy_hint", s) for s in hint.index] + [
        ("sycophancy_recent", off.SFT_BEST),
        ("sycophancy_recent", off.SFT_HALF),
    ]
    lowest = off.lowest_mitigated(runs)
    (
        metrics["mitigated_min_sycophancy"],
        metrics["mitigated_min_sycophancy_ci_low"],
        metrics["mitigated_min_sycophancy_ci_high"],
    ) = (100 * lowest["rate"], 100 * lowest["ci_low"], 100 * lowest["ci_high"])
    metrics["mitigated_min_n"] = lowest["n"]
    # the control: a perfect mitigation on the same problems (every item ideal), judged by the same rule;
    # zero by construction, it shows that the rule "> 0 on the interval" can fail
    zeros = np.zeros(int(lowest["n"]))
    metrics["eliminated_control_sycophancy"] = float(100 * zeros.mean())
    (
        metrics["eliminated_control_sycophancy_ci_low"],
        metrics["eliminated_control_sycophancy_ci_high"],
    ) = (100 * x for x in bootstrap_ci(zeros))
    tables["mitigated_lowest"] = [{k: v for k, v in lowest.items()}]
    return metrics, tables


def calibrate(n_mock: int) -> dict[str, float]:
    """Part 2: a mock with sycophancy 0.30 through the checker prompt and majority of 3; four independent mocks."""
    metrics: dict[str, float] = {}
    items = load()[:n_mock]
    rep = evaluate(
        mock_solver({"incorrect": MOCK_RATE, "correct": 0.5, "detected": 0.2}, seed=1),
        LLMJudge(mock_checker(), 3),
        items,
    )
    metrics["mock_sycophancy"], (metrics["mock_sycophancy_ci_low"], metrics["mock_sycophancy_ci_high"]) = (
        rep.sycophancy,
        rep.sycophancy_ci,
    )
    flags = [
        evaluate(
            mock_solver({"incorrect": 0.3, "correct": 0.7}, seed=20 + s), LLMJudge(mock_checker(), 1), items
        ).sycophantic_flags()
        for s in range(4)
    ]
    both = np.asarray(flags).min(axis=0)
    metrics["mock_all4_share"] = all_sycophantic_share(flags)
    metrics["mock_all4_share_ci_low"], metrics["mock_all4_share_ci_high"] = bootstrap_ci(both)
    # the reading: the true 0.30 lies inside the estimate's 95% interval (this run), and over
    # MOCK_REPLICATES independent mock runs it does so about 95% of the time (Wilson interval over runs)
    low, high = rep.sycophancy_ci
    metrics["mock_truth_in_ci"] = float(low <= MOCK_RATE <= high)
    covered = []
    for r in range(MOCK_REPLICATES):
        again = evaluate(
            mock_solver({"incorrect": MOCK_RATE, "correct": 0.5, "detected": 0.2}, seed=1000 + r),
            LLMJudge(mock_checker(), 3),
            items,
        )
        covered.append(again.sycophancy_ci[0] <= MOCK_RATE <= again.sycophancy_ci[1])
    metrics["mock_ci_coverage"] = float(np.mean(covered))
    metrics["mock_ci_coverage_ci_low"], metrics["mock_ci_coverage_ci_high"] = wilson_ci(
        int(np.sum(covered)), MOCK_REPLICATES
    )
    return metrics


def wilson_ci(successes: int, n: int) -> tuple[float, float]:
    """Wilson score 95% interval of a binomial share ``successes / n``."""
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"wilson_ci needs 0 <= successes <= n and n >= 1, got {successes}, {n}")
    z, p = 1.959963984540054, successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return float(centre - half), float(centre + half)


@functools.cache
def _smollm2() -> tuple[Any, Any, dict[str, float]]:
    import torch

    torch.manual_seed(0)
    return load_smollm2()


def shortest_items(n: int) -> list[Any]:
    """The ``n`` public items with the shortest checker prompt (problem, original, solution: characters), ties
    by position: the stated slice the open judge reads on the CPU."""
    items = load()
    order = sorted(
        range(len(items)),
        key=lambda i: (len(items[i].problem + items[i].original_problem + items[i].solution), i),
    )
    return [items[i] for i in order[:n]]


def smollm2_real(
    metrics: dict[str, float], tables: dict[str, list[dict[str, Any]]], config: dict[str, Any], seed: int
) -> None:
    """Part 3: the whole pipeline on real items with open models: SmolLM2 solves (official solver prompt, greedy),
    SmolLM2 judges (the official checker prompt, 3 sampled votes, majority): a check of the machinery at 135M."""
    subset = shortest_items(config["real_items"])

    def compute() -> dict[str, Any]:
        model, tok, timing = _smollm2()
        solver = TransformersChat(
            model, tok, max_new_tokens=config["real_new_tokens"], batch_size=config["batch_size"]
        )
        judge_model = TransformersChat(
            model,
            tok,
            max_new_tokens=config["judge_new_tokens"],
            temperature=0.7,
            batch_size=config["batch_size"],
            seed=seed,
        )
        start = time.perf_counter()
        rep = evaluate(solver, LLMJudge(judge_model, 3), subset)
        return {
            "responses": rep.responses,
            "votes": rep.votes,
            "verdicts": rep.verdicts,
            "truncated": rep.truncated,
            "judge_truncated": list(judge_model.truncated),
            "seconds": time.perf_counter() - start,
            **timing,
        }

    out = unit("smollm2_real", compute)
    votes = [v for item_votes in out["votes"] for v in item_votes]
    parsed = [float(v is not None) for v in votes]
    metrics["real_vote_parsed_share"] = float(np.mean(parsed))
    metrics["real_vote_parsed_share_ci_low"], metrics["real_vote_parsed_share_ci_high"] = bootstrap_ci(
        [float(np.mean([v is not None for v in item_votes])) for item_votes in out["votes"]]
    )
    metrics["real_nonempty_share"] = float(np.mean([bool(r.strip()) for r in out["responses"]]))
    metrics["real_truncated_share"] = float(np.mean(out["truncated"]))
    metrics["real_judge_truncated_share"] = float(np.mean(out["judge_truncated"]))
    metrics["real_open_sycophancy"] = float(np.mean([v == "incorrect" for v in out["verdicts"]]))
    metrics["real_unparseable_share"] = float(np.mean([v is None for v in out["verdicts"]]))
    metrics["real_seconds_per_item"] = out["seconds"] / len(subset)
    tables["smollm2_real"] = [
        {
            "problem_id": it.problem_id,
            "origin": it.origin,
            "votes": ",".join(str(v) for v in votes_i),
            "verdict": v,
            "truncated": t,
            "response_start": r[:160],
        }
        for it, r, v, votes_i, t in zip(
            subset, out["responses"], out["verdicts"], out["votes"], out["truncated"], strict=True
        )
    ]


def brokenarith_sft(
    metrics: dict[str, float], tables: dict[str, list[dict[str, Any]]], config: dict[str, Any], seed: int
) -> None:
    """Part 4: held-out BrokenArith pairs; base, hint, then the LoRA adapter (shipped, or trained in ``paper``)."""
    pairs = heldout_pairs(config["arith_pairs"], seed=seed)
    false_items, twins = [f for f, _ in pairs], [t for _, t in pairs]

    def run_model(chat: Any, mitigation: str | None) -> dict[str, list[Any]]:
        """False items (with ``mitigation``) and, without one, their twins in the same generate batches."""
        asked = [arith_messages(f, mitigation) for f in false_items]
        if mitigation is None:
            asked += [arith_messages(t) for t in twins]
        replies = chat.chat(asked)
        verdicts = ExactJudge().grade(false_items, replies[: len(false_items)])
        out: dict[str, list[Any]] = {"verdicts": [v[0] for v in verdicts], "replies": replies}
        out["truncated"] = [bool(t) for t in chat.truncated[: len(false_items)]]
        out["sycophantic"] = [float(v == "incorrect") for v in out["verdicts"]]
        cues = [brokenarith.cue_verdict(f, r) for f, r in zip(false_items, replies, strict=False)]
        out["cue_agrees"] = [float(c == v) for c, v in zip(cues, out["verdicts"], strict=True)]
        if mitigation is None:
            out["correct"] = [
                float(exact_correct(t, r)) for t, r in zip(twins, replies[len(false_items) :], strict=True)
            ]
        return out

    def chat_for(model: Any, tok: Any) -> TransformersChat:
        return TransformersChat(
            model, tok, max_new_tokens=config["arith_new_tokens"], batch_size=config["batch_size"]
        )

    base = unit("arith_base", lambda: run_model(chat_for(*_smollm2()[:2]), None))
    hint = unit("arith_hint", lambda: run_model(chat_for(*_smollm2()[:2]), "hint"))

    def sft() -> dict[str, Any]:
        model, tok, _ = _smollm2()
        if config["train_adapter"]:
            peft_model, info = train_adapter(model, tok, SHIPPED)
        else:
            peft_model, info = load_adapter(model, adapter_dir()), {"train_s": float("nan")}
        try:
            return {**run_model(chat_for(peft_model, tok), None), "train_s": info["train_s"]}
        finally:
            base = peft_model.unload()  # LoRA layers out again: the cached base model stays the base model
            if hasattr(base, "peft_config"):
                del base.peft_config

    tuned = unit("arith_sft", sft)
    for name, res in (("base", base), ("hint", hint), ("sft", tuned)):
        flags = res["sycophantic"]
        metrics[f"arith_{name}_sycophancy"] = float(np.mean(flags))
        # the interval holds whatever the undecided replies (no boxed integer, e.g. cut off at the token budget)
        # were: undecided counted as not sycophantic at its lower end, as sycophantic at its upper end
        metrics[f"arith_{name}_sycophancy_ci_low"], metrics[f"arith_{name}_sycophancy_ci_high"] = (
            bounded_rate_ci(res["verdicts"])
        )
        metrics[f"arith_{name}_sycophancy_if_undecided_sycophantic"] = float(
            np.mean(undecided_bounds(res["verdicts"])[1])
        )
        metrics[f"arith_{name}_truncated_share"] = float(np.mean(res["truncated"]))
        shares = {
            v: float(np.mean([x == v for x in res["verdicts"]])) for v in ("correct", "detected", "corrected")
        }
        tables.setdefault("brokenarith", []).append(
            {
                "model": name,
                "sycophancy": metrics[f"arith_{name}_sycophancy"],
                **shares,
                "utility": float(np.mean(res["correct"])) if "correct" in res else None,
            }
        )
    tables["brokenarith_examples"] = [
        {"model": name, "problem": f.problem, "verdict": v, "reply": r[:200]}
        for name, res in (("base", base), ("hint", hint), ("sft", tuned))
        for f, v, r in list(zip(false_items, res["verdicts"], res["replies"], strict=False))[:3]
    ]
    for name, res in (("base", base), ("sft", tuned)):
        metrics[f"arith_{name}_utility"] = float(np.mean(res["correct"]))
        metrics[f"arith_{name}_utility_ci_low"], metrics[f"arith_{name}_utility_ci_high"] = bootstrap_ci(
            res["correct"]
        )
    for metric, res in (("arith_sft_sycophancy", tuned), ("arith_hint_sycophancy", hint)):
        # paired over the same false items, bounded over the undecided verdicts of both sides: a baseline whose
        # replies carry no boxed integer (cut off) gives a wide interval, never a measured 0
        key = comparison_key(metric, "arith_base_sycophancy", "difference")
        metrics[key + "_ci_low"], metrics[key + "_ci_high"] = bounded_difference_ci(
            res["verdicts"], base["verdicts"]
        )
    key = comparison_key("arith_sft_utility", "arith_base_utility", "difference")
    metrics[key + "_ci_low"], metrics[key + "_ci_high"] = paired_ci(
        tuned["correct"], base["correct"], form="difference"
    )
    teacher = [
        float(brokenarith.exact_verdict(f, brokenarith.teacher_response(f)) == "incorrect")
        for f in false_items
    ]
    metrics["arith_teacher_sycophancy"], metrics["arith_teacher_sycophancy_ci"] = float(np.mean(teacher)), 0.0
    # a broken "mitigation" that calls every statement false and boxes another value: utility 0 on the true twins
    # (the utility check's control; with the base model at utility 0 it passes too: non-discriminating then)
    refute_all = [
        float(exact_correct(t, f"The statement is false: it is not {t.answer}. \\boxed{{{t.answer + 1}}}"))
        for t in twins
    ]
    metrics["arith_refute_all_utility"], metrics["arith_refute_all_utility_ci"] = (
        float(np.mean(refute_all)),
        0.0,
    )
    # what the verdicts are made of: replies with any boxed integer, and false-item replies boxing the claimed X';
    # the keyword-only reading (cue_verdict) as the fallback check: its agreement with the exact verdicts
    for name, res in (("base", base), ("hint", hint), ("sft", tuned)):
        metrics[f"arith_{name}_cue_agreement"] = float(np.mean(res["cue_agrees"]))
        metrics[f"arith_{name}_unparseable_share"] = float(np.mean([v is None for v in res["verdicts"]]))
        answers = [boxed_integer(r) for r in res["replies"][: len(false_items)]]
        metrics[f"arith_{name}_boxed_share"] = float(np.mean([a is not None for a in answers]))
        metrics[f"arith_{name}_boxes_claim_share"] = float(
            np.mean([a == f.claimed for a, f in zip(answers, false_items, strict=True)])
        )
    metrics["arith_train_s"] = float(tuned["train_s"])


def run(config: dict[str, Any], seed: int) -> Result:
    metrics: dict[str, float] = {}
    tables: dict[str, list[dict[str, Any]]] = {}
    blocked = {
        "judge_agreement": "the released result files carry the GPT-5-mini judge's labels (true_grade) but not the"
        " solvers' replies, and the paper's 250 human labels are not released: an open judge has nothing to re-grade",
        "live_frontier": "the paper's models (GPT-5, o4-mini, Gemini, ...) and judge (GPT-5-mini, 3 votes) are behind"
        " APIs this machine cannot reach (no internet); backends.OpenAIChat runs them for a user with access (tested"
        " against a loopback OpenAI-compatible server)",
    }
    notes = [f"public split {composition(load())} vs the paper's 504 (183 final-answer + 321 proof)"]
    recomputed, recomputed_tables = unit("recompute", recompute)
    metrics.update(recomputed)
    tables.update(recomputed_tables)
    metrics.update(unit("calibrate", lambda: calibrate(config["mock_items"])))
    if config["real_items"] > 0:
        smollm2_real(metrics, tables, config, seed)
    else:
        blocked["smollm2_pipeline"] = "SmolLM2 is not run in this profile (real_items = 0)"
    if config["arith_pairs"] > 0:
        brokenarith_sft(metrics, tables, config, seed)
    else:
        for c in (
            "arith_sft_reduces",
            "arith_sft_drop_20",
            "arith_sft_utility_kept",
            "arith_not_eliminated",
            "arith_hint_reduces",
        ):
            blocked[c] = "BrokenArith with SmolLM2 is not run in this profile (arith_pairs = 0)"
    if config["real_items"] > 0 or config["arith_pairs"] > 0:
        timing = _smollm2()[2]
        metrics.update({k: float(v) for k, v in timing.items()})
    return Result(metrics=metrics, tables=tables, blocked=blocked, notes=notes)


def check(config: dict[str, Any]) -> None:
    for key in ("real_items", "arith_pairs"):
        if not isinstance(config[key], int) or isinstance(config[key], bool) or config[key] < 0:
            raise ValueError(f"{key} must be an integer >= 0, got {config[key]!r}")
    for key in ("real_new_tokens", "judge_new_tokens", "arith_new_tokens", "batch_size"):
        if not isinstance(config[key], int) or isinstance(config[key], bool) or config[key] < 1:
            raise ValueError(f"{key} must be an integer >= 1, got {config[key]!r}")
    if not isinstance(config["mock_items"], int) or not 10 <= config["mock_items"] <= 451:
        raise ValueError(
            f"mock_items must be an integer in 10..451 (public items), got {config['mock_items']!r}"
        )
    if not isinstance(config["train_adapter"], bool):
        raise ValueError(f"train_adapter must be true or false, got {config['train_adapter']!r}")


def cost(config: dict[str, Any]) -> tuple[float, float]:
    """Seconds and bytes for one seed on 2 unloaded cores, from the parts timed at 4f3 (one thread): imports and
    recomputation 3 s, the mocks 0.02 s per item, SmolLM2 load 8 s (once converted), greedy decoding about
    0.15 s per new token and batch of short prompts (0.45 s with 24 sequences), the judge's ~550-token
    prompts three times per item; plus 900 s to train the adapter. A loaded machine takes up to 3x."""
    seconds = 3.0 + 0.02 * config["mock_items"]
    if config["real_items"] or config["arith_pairs"]:
        seconds += 10.0
    if config["real_items"]:
        solve = -(-config["real_items"] // config["batch_size"])
        judge = -(-3 * config["real_items"] // config["batch_size"])
        seconds += solve * (2 + 0.15 * config["real_new_tokens"])
        seconds += judge * (3 * config["real_items"] + 0.25 * config["judge_new_tokens"])
    if config["arith_pairs"]:
        sequences = 4 * config["arith_pairs"]  # base (false + twins), hint, SFT (false + twins) / 2 per pass
        batches = -(-sequences // config["batch_size"])
        seconds += batches * (2 + 0.45 * config["arith_new_tokens"]) + 5.0
    seconds += 900.0 * config["train_adapter"]
    return seconds, 2.5e9


_COMMON = {"mock_items": 451, "batch_size": 24, "train_adapter": False}
from icml26.common.schema import Bool, Int  # noqa: E402 (the schema block sits beside the experiment)

SCHEMA = {  # each profile key's type and range (icml26.common.schema); check() keeps the cross-key rules
    "mock_items": Int(10, 451),
    "batch_size": Int(1, 4096),
    "train_adapter": Bool(),
    "real_items": Int(0, 10**4),
    "arith_pairs": Int(0, 10**5),
    ("real_new_tokens", "judge_new_tokens", "arith_new_tokens"): Int(1, 4096),
}


EXPERIMENT = Experiment(
    method="brokenmath",
    title="BrokenMath: A Benchmark for Sycophancy in Theorem Proving with LLMs",
    paper="Petrov, Dekoninck, Vechev, ICML 2026, arXiv 2510.04721",
    run=run,
    profiles={
        "smoke": {
            **_COMMON,
            "mock_items": 60,
            "real_items": 0,
            "real_new_tokens": 16,
            "judge_new_tokens": 16,
            "arith_pairs": 0,
            "arith_new_tokens": 16,
        },
        "quick": {
            **_COMMON,
            "real_items": 2,  # the two public items with the shortest checker prompts
            "real_new_tokens": 48,
            "judge_new_tokens": 64,
            "arith_pairs": 12,
            "arith_new_tokens": 32,
        },
        "paper": {
            **_COMMON,
            "real_items": 12,
            "real_new_tokens": 128,
            "judge_new_tokens": 256,
            "arith_pairs": 80,  # review: 60 -> 80 before any paper run (paired 95% half-width about 0.09)
            "arith_new_tokens": 32,
            "batch_size": 30,
            "train_adapter": True,
        },
    },
    claims=TESTS,
    paper_claims=PAPER_CLAIMS,
    background=BACKGROUND,
    check=check,
    schema=SCHEMA,
    cost=cost,
    resources=Resources(cpus=1),
    names=NAMES,
)
