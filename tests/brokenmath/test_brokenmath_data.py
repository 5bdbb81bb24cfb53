"""Loader, composition, expert-review round trip, and the paper's tables recomputed from the official files."""

import json

import pytest

from icml26.brokenmath import (
    PAPER_COMPOSITION,
    composition,
    export_for_review,
    import_review,
    load,
    parse_items,
)
from icml26.brokenmath import official_results as off


def test_public_split():
    items = load()
    assert len(items) == 451
    assert composition(items) == {"final-answer": 130, "proof": 321, "total": 451}
    assert PAPER_COMPOSITION == {"final-answer": 183, "proof": 321, "total": 504}
    assert all(it.is_adversarial and it.gold_answer is None for it in items)  # "True"/"None" strings parsed


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ({}, "non-empty JSON list"),
        ([{"problem_id": "a", "problem": "p", "original_problem": "o"}], r"missing fields \['solution'\]"),
        ([{"problem_id": "a", "problem": "", "original_problem": "o", "solution": "s"}], "non-empty string"),
        (
            [
                {
                    "problem_id": "a",
                    "problem": "p",
                    "original_problem": "o",
                    "solution": "s",
                    "is_adversarial": "maybe",
                }
            ],
            "true/false",
        ),
        ([{"problem_id": "a", "problem": "p", "original_problem": "o", "solution": "s"}] * 2, "duplicate"),
        (["text"], "JSON object"),
    ],
)
def test_malformed_items_rejected(records, message):
    with pytest.raises(ValueError, match=message):
        parse_items(records)


def test_load_bad_file(tmp_path):
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        load(tmp_path / "x.json")
    with pytest.raises(ValueError, match="no benchmark file"):
        load(tmp_path / "missing.json")


def test_review_round_trip(tmp_path):
    items = load()[:3]
    path = export_for_review(items, tmp_path / "review.json")
    rows = json.loads(path.read_text())
    rows[0]["decision"], rows[1]["decision"], rows[2]["decision"] = "accept", "reject", "edit"
    rows[2]["edited_problem"] = "Prove that 2 + 2 = 5."
    path.write_text(json.dumps(rows))
    kept = import_review(path)
    assert [k.problem_id for k in kept] == [items[0].problem_id, items[2].problem_id]
    assert kept[0] == items[0] and kept[1].problem == "Prove that 2 + 2 = 5."
    rows[0]["decision"] = ""
    path.write_text(json.dumps(rows))
    with pytest.raises(ValueError, match="decision"):
        import_review(path)


# the paper's per-model table (notes §3): sycophancy, utility, ideal, detected, corrected, n
PAPER = {
    "GPT-5 (high)": (29.0, 58.2, 50.2, 18.8, 2.0, 504),
    "GPT-OSS-120B": (33.7, 47.4, 52.4, 8.1, 5.8, 504),
    "Gemini-2.5-Pro": (37.5, 48.2, 36.3, 25.0, 1.2, 504),
    "Grok 4 Fast": (40.0, 51.6, 30.2, 20.7, 9.1, 503),
    "o4-mini (high)": (46.6, 43.8, 31.3, 19.4, 2.6, 504),
    "Qwen3-4B": (55.6, 33.4, 24.6, 17.7, 2.2, 504),
    "Qwen3-235B": (65.1, 37.6, 16.1, 12.9, 6.0, 504),
    "DeepSeek-V3.1": (70.2, 48.4, 14.5, 13.0, 2.3, 484),
}


def test_paper_table_recomputed_within_005():
    rows = {r["model"]: r for r in off.table_rows()}
    for model, (syc, util, ideal, det, corr, n) in PAPER.items():
        r = rows[model]
        assert r["n"] == n
        for key, want in zip(
            ("sycophancy", "utility", "ideal", "detected", "corrected"), (syc, util, ideal, det, corr)
        ):
            assert abs(r[key] - want) <= 0.05 + 1e-9, (model, key, r[key], want)
    shares = off.sycophancy_table()[["sycophancy", "ideal", "detected", "corrected"]].sum(axis=1)
    assert (abs(shares - 100) < 1e-9).all()  # every verdict is one of the four


def test_splits_hint_sft_recomputed():
    syc = off.sycophancy_table()
    assert abs(syc.loc["GPT-5 (high)", "sycophancy_proof"] - 38.9) <= 0.05
    assert abs(syc.loc["GPT-5 (high)", "sycophancy_final-answer"] - 11.5) <= 0.05
    solved = off.solved_split("GPT-5 (high)")
    assert abs(solved["solved"] - 21.5) <= 0.05 and abs(solved["unsolved"] - 49.7) <= 0.05
    hint = off.sycophancy_table("sycophancy_hint")
    for solver, want in (
        ("DeepSeek-v3.1 (Think)", 36.1),
        ("Qwen3-4B (25/07)", 43.8),
        ("o4-mini (high)", 38.7),
    ):
        assert abs(hint.loc[solver, "sycophancy"] - want) <= 0.05
    assert abs(syc.loc[off.SFT_BEST, "sycophancy"] - 51.0) <= 0.05
    assert abs(syc.loc[off.SFT_HALF, "sycophancy"] - 55.8) <= 0.05
    util = off.utility_table().loc["GPT-5 (high)"]
    assert abs(util["utility[Final Answer Parser]"] - 91.4) <= 0.05 and util["n[OPC R1 8B]"] == 288
    with pytest.raises(ValueError, match="unknown result file"):
        off.results("nope")
    with pytest.raises(ValueError, match="no rows judged"):
        off.sycophancy_table(judge="nobody")
