"""The paper's tables recomputed from the official result files (``data/results/*.csv``, carried gzipped).

- ``sycophancy_recent.csv``: one row per (judge, solver, problem): the majority verdict ``true_grade``
  and ``split`` (``generic`` = proof problems, ``matharena`` = final-answer ones). The paper's numbers use
  the GPT-5-mini (medium) judge; the SFT rows are ``Qwen3-4B (25/07)(Adv 0.5)`` and ``(Adv 0.9 - best
  checkpoint)``.
- ``utility_recent_comps.csv``: accuracy on the original problems (final answers by parser, proofs by
  OPC-R1-8B; per-problem accuracy in [0, 1]).
- ``sycophancy_hint.csv``: the hint mitigation; ``sycophancy_more.csv``: a further setting with higher
  rates, likely self-sycophancy [inferred].

Every reader takes ``directory=None`` (the carried copies) or the path of a directory holding the authors'
released files (``<name>.csv`` or ``<name>.csv.gz``). :func:`rates` returns fractions over the bare labels;
the ``*_table`` functions give percent, for display beside the paper's tables.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from icml26.brokenmath.benchmark import official_file
from icml26.brokenmath.verdicts import VERDICTS

PAPER_JUDGE = "GPT-5-mini (medium)"
RESULT_FILES = ("sycophancy_recent", "utility_recent_comps", "sycophancy_hint", "sycophancy_more")
ORIGIN = {"generic": "proof", "matharena": "final-answer"}
SFT_BEST, SFT_HALF, SFT_BASE = (
    "Qwen3-4B (25/07)(Adv 0.9 - best checkpoint)",
    "Qwen3-4B (25/07)(Adv 0.5)",
    "Qwen3-4B (25/07)",
)
# the paper's per-model table (its names -> the solver names in the CSVs)
PAPER_MODELS = {
    "GPT-5 (high)": "GPT-5 (high)",
    "GPT-OSS-120B": "GPT OSS 120B (high)",
    "Gemini-2.5-Pro": "gemini-2.5-pro",
    "Grok 4 Fast": "Grok 4 Fast (Reasoning)",
    "o4-mini (high)": "o4-mini (high)",
    "Qwen3-4B": "Qwen3-4B (25/07)",
    "Qwen3-235B": "Qwen3-235B-A22B",
    "DeepSeek-V3.1": "DeepSeek-v3.1 (Think)",
}


def _source(name: str, directory: str | Path | None) -> Path:
    if name not in RESULT_FILES:
        raise ValueError(f"unknown result file {name!r}; accepted: {', '.join(RESULT_FILES)}")
    if directory is None:
        return official_file(f"{name}.csv.gz")
    if not isinstance(directory, str | Path):
        raise TypeError(f"directory must be a path (str or Path) or None, got {type(directory).__name__}")
    folder = Path(directory)
    if not folder.is_dir():
        raise ValueError(f"directory {str(folder)!r} does not exist (a folder of the released CSV files)")
    for candidate in (folder / f"{name}.csv", folder / f"{name}.csv.gz"):
        if candidate.is_file():
            return candidate
    raise ValueError(f"{str(folder)!r} holds neither {name}.csv nor {name}.csv.gz")


@functools.cache
def _read(path: Path, mtime: float) -> pd.DataFrame:
    frame = pd.read_csv(path, index_col=0)
    need = {"solver", "problem"} | (
        {"accuracy", "judge"} if "utility" in path.name else {"judge", "true_grade"}
    )
    missing = sorted(need - set(frame.columns))
    if missing:
        raise ValueError(
            f"{path.name} lacks the column(s) {missing}; a released result file has {sorted(need)}"
        )
    return frame


def results(name: str, directory: str | Path | None = None) -> pd.DataFrame:
    """One official result file as a DataFrame (from ``directory`` when given, else the carried copy)."""
    path = _source(name, directory)
    return _read(path, path.stat().st_mtime)


def rates(
    name: str = "sycophancy_recent", judge: str = PAPER_JUDGE, directory: str | Path | None = None
) -> pd.DataFrame:
    """Per solver, fractions over the bare labels (``true_grade``): ``n``, ``sycophancy`` (share ``incorrect``),
    ``ideal``, ``detected``, ``corrected`` and ``unparseable`` (labels outside the four words, counted and never
    sycophantic)."""
    frame = _judged(name, judge, directory)
    rows = []
    for solver, g in frame.groupby("solver"):
        labels = _labels(g)
        row = {"solver": solver, "n": len(g)}
        for key, word in (("sycophancy", "incorrect"), ("ideal", "correct"), ("detected", "detected")):
            row[key] = float((labels == word).mean())
        row["corrected"] = float((labels == "corrected").mean())
        row["unparseable"] = float((~labels.isin(VERDICTS)).mean())
        rows.append(row)
    return pd.DataFrame(rows).set_index("solver")


def _judged(name: str, judge: str, directory: str | Path | None = None) -> pd.DataFrame:
    frame = results(name, directory)
    selected = frame[frame["judge"] == judge]
    if selected.empty:
        raise ValueError(f"no rows judged by {judge!r} in {name}; judges: {sorted(frame['judge'].unique())}")
    return selected


def _labels(frame: pd.DataFrame) -> pd.Series:
    """The verdict labels as bare lower-case words (a release may write ``Incorrect`` or pad with spaces)."""
    return frame["true_grade"].astype(str).str.strip().str.lower()


def sycophancy_table(
    name: str = "sycophancy_recent", judge: str = PAPER_JUDGE, directory: str | Path | None = None
) -> pd.DataFrame:
    """Per solver: n, sycophancy and the four-way breakdown (percent), and sycophancy per origin."""
    rows = []
    for solver, g in _judged(name, judge, directory).groupby("solver"):
        labels = _labels(g)
        share = labels.value_counts(normalize=True) * 100
        row = {"solver": solver, "n": len(g)}
        row.update(
            {
                k: float(share.get(v, 0.0))
                for k, v in (
                    ("sycophancy", "incorrect"),
                    ("ideal", "correct"),
                    ("detected", "detected"),
                    ("corrected", "corrected"),
                )
            }
        )
        for split, origin in ORIGIN.items():
            sub = labels[g["split"] == split]
            row[f"sycophancy_{origin}"] = float((sub == "incorrect").mean() * 100) if len(sub) else np.nan
        rows.append(row)
    return pd.DataFrame(rows).set_index("solver")


def utility_table(directory: str | Path | None = None) -> pd.DataFrame:
    """Per solver: utility (mean accuracy over graded original problems, percent) and per grader."""
    frame = results("utility_recent_comps", directory)
    rows = []
    for solver, g in frame.groupby("solver"):
        row = {"solver": solver, "n": len(g), "utility": float(g["accuracy"].mean() * 100)}
        for grader, sub in g.groupby("judge"):
            row[f"utility[{grader}]"] = float(sub["accuracy"].mean() * 100)
            row[f"n[{grader}]"] = len(sub)
        rows.append(row)
    return pd.DataFrame(rows).set_index("solver")


def solved_split(
    solver: str, judge: str = PAPER_JUDGE, directory: str | Path | None = None
) -> dict[str, float]:
    """Sycophancy (percent) on items whose original the solver solved (utility accuracy > 0.5) vs not."""
    syc = _judged("sycophancy_recent", judge, directory)
    syc = syc[syc["solver"] == solver]
    syc = _labels(syc).set_axis(syc["problem"])
    util = results("utility_recent_comps", directory)
    util = util[util["solver"] == solver].set_index("problem")["accuracy"]
    common = syc.index.intersection(util.index)
    if common.empty:
        raise ValueError(f"solver {solver!r} has no problems in both sycophancy and utility results")
    solved = util[common] > 0.5
    flags = syc[common] == "incorrect"
    return {
        "solved": float(flags[solved].mean() * 100),
        "unsolved": float(flags[~solved].mean() * 100),
        "n_solved": int(solved.sum()),
        "n_unsolved": int((~solved).sum()),
    }


def item_flags(
    name: str, solver: str, judge: str = PAPER_JUDGE, directory: str | Path | None = None
) -> pd.Series:
    """Per problem: 1.0 if the majority verdict was ``incorrect`` (sycophantic), indexed by problem id."""
    every = _judged(name, judge, directory)
    frame = every[every["solver"] == solver]
    if frame.empty:
        raise ValueError(f"solver {solver!r} not in {name}; solvers: {sorted(every['solver'].unique())}")
    return (_labels(frame).set_axis(frame["problem"]) == "incorrect").astype(float)


def paired_delta(
    name_a: str,
    solver_a: str,
    name_b: str,
    solver_b: str,
    seed: int = 0,
    judge: str = PAPER_JUDGE,
    directory: str | Path | None = None,
) -> tuple[float, float, float, int]:
    """Sycophancy of (a) minus (b) in points on their common problems, with its paired-bootstrap 95% interval:
    ``(delta, low, high, n_common)``; negative when (a), e.g. the hint run, is less sycophantic."""
    from icml26.common import paired_ci

    a, b = item_flags(name_a, solver_a, judge, directory), item_flags(name_b, solver_b, judge, directory)
    common = a.index.intersection(b.index)
    low, high = paired_ci(
        a[common].to_numpy() * 100, b[common].to_numpy() * 100, form="difference", seed=seed
    )
    return float((a[common].mean() - b[common].mean()) * 100), low, high, len(common)


def table_rows(
    models: Sequence[str] = tuple(PAPER_MODELS), directory: str | Path | None = None
) -> list[dict[str, float | str]]:
    """The paper's per-model table: sycophancy, breakdown, utility and n for the named models."""
    unknown = [m for m in models if m not in PAPER_MODELS]
    if isinstance(models, str) or unknown:
        raise ValueError(
            f"models {unknown or models!r} not in the paper's table; accepted: {', '.join(PAPER_MODELS)}"
        )
    syc, util = sycophancy_table(directory=directory), utility_table(directory)
    out = []
    for label in models:
        solver = PAPER_MODELS[label]
        row = {"model": label, **{k: round(float(v), 2) for k, v in syc.loc[solver].items()}}
        row["utility"] = round(float(util.loc[solver, "utility"]), 2)
        out.append(row)
    return out


def public_subset_sycophancy(
    solver: str, public_ids: Sequence[str], judge: str = PAPER_JUDGE, directory: str | Path | None = None
) -> tuple[float, int]:
    """Sycophancy (percent) of ``solver`` on the public items only (ids as in ``sample.json``); ``(rate, n)``."""
    if isinstance(public_ids, str) or not all(isinstance(p, str) for p in public_ids):
        raise ValueError(
            "public_ids must be a list of problem ids (strings), e.g. [it.problem_id for it in load()]"
        )
    flags = item_flags("sycophancy_recent", solver, judge, directory)
    keys = {
        pid.replace("/", "_") for pid in public_ids
    }  # "matharena_aime/aime_2025_1" -> "matharena_aime_aime_2025_1"
    sub = flags[flags.index.isin(keys)]
    if sub.empty:
        raise ValueError(f"none of the {len(keys)} public ids is among {solver!r}'s judged problems")
    return float(sub.mean() * 100), len(sub)


def lowest_mitigated(
    runs: Sequence[tuple[str, str]],
    judge: str = PAPER_JUDGE,
    directory: str | Path | None = None,
    seed: int = 0,
) -> dict[str, float | str]:
    """The mitigated run with the LOWEST sycophancy among ``runs`` (``(file, solver)`` pairs): its rate (a fraction),
    its 95% bootstrap interval over problems, ``n``, and which run it is ("do not eliminate" is judged on it)."""
    from icml26.brokenmath.evaluation import bootstrap_ci

    if isinstance(runs, str) or not runs:
        raise ValueError(
            "runs must be a non-empty list of (file, solver) pairs, e.g. [('sycophancy_hint', 'o4-mini (high)')]"
        )
    found = []
    for name, solver in runs:
        flags = item_flags(name, solver, judge, directory).to_numpy()
        found.append((float(flags.mean()), name, solver, flags))
    rate, name, solver, flags = min(found, key=lambda r: r[0])
    low, high = bootstrap_ci(flags, seed=seed)
    return {
        "rate": rate,
        "ci_low": low,
        "ci_high": high,
        "n": float(len(flags)),
        "file": name,
        "solver": solver,
    }
