"""The report under the verdict contract v3: which record speaks, the PaperClaims first, the forest plot,
the tests with their toggles, the history, the tally, the export, result.md, the docs tools and `info`."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
import toy_experiment

from icml26.cli import main
from icml26.common.output import history_rows, paper_claim_rows, rows_of_tests, run_markdown
from icml26.common.report import build_report, speaking_records
from icml26.common.runner import _timed_run, prepare_run, run_experiment

ROOT = Path(__file__).resolve().parents[2]
REVIEW_WORDS = {"verified", "falsified", "toy-scale", "inconclusive"}


def _tool(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def records(toy, tmp_path):
    """A paper record, a newer quick one, a newer killed run (seed 0 of 2 on disk) and a newer failed one."""
    runs = tmp_path / "runs"
    paper = run_experiment("toy_pi", "paper", [0], overrides={"n": 65536, "levels": 3}, out=runs)
    quick = run_experiment("toy_pi", "quick", [0], out=runs)
    killed = prepare_run("toy_pi", "smoke", [0, 1], out=runs)
    killed.start()  # result.json says "running" and lists no finished seed: the process was SIGKILLed
    killed.seed_done(0, *_timed_run(toy_experiment.run, killed.config, 0))
    failed = runs / "toy_pi" / "99999999T999999999999Z"
    failed.mkdir()
    header = {"method": "toy_pi", "profile": "quick", "seeds": [0], "config": {}, "status": "failed"}
    (failed / "error.json").write_text(json.dumps({**header, "error": "RuntimeError: boom"}))
    (failed / "result.json").write_text(json.dumps({**header, "error": "RuntimeError: boom"}))
    return runs, paper.directory, quick.directory, killed.directory, failed


def test_the_largest_profile_speaks_with_the_quick_beside_and_newer_unfinished_runs_named(records, tmp_path):
    runs, paper, quick, killed, failed = records
    speaking = speaking_records(runs)["toy_pi"]
    assert speaking.main[0] == paper and speaking.beside[0] == quick
    assert [p for p, _ in speaking.newer] == [failed, killed]  # newest first, never shown instead
    build_report(runs, tmp_path / "report")
    summary = (tmp_path / "report" / "summary.md").read_text()
    assert f"Record: `{paper}` (paper profile, seed 0" in summary
    assert f"Beside it, the quick record: `{quick}` (quick profile" in summary
    # the killed run never rewrote its result.json; its seed_0.json counts
    assert (
        f"A newer run, not shown: `{killed}` (did not finish (killed, or still running); 1 of 2 seed(s)"
        in summary
    )
    assert f"A newer run, not shown: `{failed}` (failed: RuntimeError: boom; 0 of 1 seed(s)" in summary
    page = (tmp_path / "report" / "report.html").read_text()
    assert "<th>quick run</th>" in page and "Beside it, the quick record" in page


def test_a_larger_record_judged_before_a_later_revision_is_named_not_shown(records, tmp_path, monkeypatch):
    """A paper record made before a test's latest Revision (the lock counts more Revisions than it carries)
    gives way to the newest record judged under the current ones, and is named beside it."""
    import icml26.common.report as report

    runs, paper, quick, _, _ = records
    record = json.loads((quick / "result.json").read_text())
    name = record["claims"][0]["name"]
    revision = {"date": "2026-12-02", "old": "x <= 1", "verdict": "refuted", "why": "test", "run": "abc"}
    record["claims"][0]["revisions"] = [*record["claims"][0].get("revisions", []), revision]
    (quick / "result.json").write_text(json.dumps(record))
    monkeypatch.setattr(
        report, "locked_revisions", lambda method: {name: len(record["claims"][0]["revisions"])}
    )
    speaking = speaking_records(runs)["toy_pi"]
    assert speaking.main[0] == quick and speaking.beside is None
    assert [p for p, _ in speaking.superseded] == [paper]
    build_report(runs, tmp_path / "report")
    summary = (tmp_path / "report" / "summary.md").read_text()
    assert f"Record: `{quick}` (quick profile" in summary
    assert f"{report.SUPERSEDED} `{paper}` (paper profile" in summary
    monkeypatch.setattr(report, "locked_revisions", lambda method: {})  # no lock: every record is current
    assert speaking_records(runs)["toy_pi"].main[0] == paper


def test_checks_share_one_column_set_when_one_is_a_paper_test_outside_its_conditions(records):
    """A paper test run outside its conditions is reported as a check that still names its PaperClaim: the
    checks' table gets a "supports" column for every row (it used to fail to render the method)."""
    from icml26.common.report import tests_html

    runs, paper, *_ = records
    record = json.loads((paper / "result.json").read_text())
    assert len(record["claims"]) >= 2
    first, second = record["claims"][:2]
    first |= {"kind": "check", "supports": first.get("supports") or record["paper_claims"][0]["id"]}
    second |= {"kind": "check", "supports": ""}
    rows = rows_of_tests(record, "check")
    assert len({tuple(r) for r in rows}) == 1 and "supports" in rows[0]
    assert "<details" in str(tests_html(record, "check"))


def test_the_paper_claims_come_first_one_row_each_with_the_deciding_figure(records, tmp_path):
    runs, paper, *_ = records
    run = json.loads((paper / "result.json").read_text())
    rows = paper_claim_rows(run)
    assert len(rows) == len(run["paper_claims"]) == 2
    assert list(rows[0]) == [
        "the abstract says",
        "verdict",
        "holds in",
        "deciding test",
        "its figure",
        "scale",
    ]
    assert rows[0]["the abstract says"] == "QMC beats MC: “QMC beats plain Monte Carlo at equal n”"
    assert rows[0]["holds in"] == "1 of 1 test" and rows[0]["scale"] == "proxy"
    assert rows[0]["deciding test"] == "QMC error / MC error < 1 at equal n"
    assert rows[0]["its figure"].startswith("ours / mc_error = ") and rows[0]["its figure"].endswith(
        ", rule < 1×"
    )
    assert "[" in rows[0]["its figure"]  # with its interval
    quick = json.loads((records[2] / "result.json").read_text())
    assert list(paper_claim_rows(run, quick)[0])[2] == "quick run"
    md = "\n".join(run_markdown(run))
    order = [
        md.index(h) for h in ("What the abstract claims", "Tests of the paper's", "Our checks", "History")
    ]
    assert order == sorted(order)
    result_md = (paper / "result.md").read_text()
    assert result_md.index("What the abstract claims") < result_md.index("Tests of the paper's claims")


def test_tests_have_short_titles_a_toggle_a_revised_badge_and_a_history(records, tmp_path):
    runs, paper, *_ = records
    run = json.loads((paper / "result.json").read_text())
    tests, checks = rows_of_tests(run), rows_of_tests(run, "check")
    assert [t["test"] for t in tests] == [
        "QMC error / MC error < 1 at equal n",
        "plain MC error < 0.1 [revised]",
    ]
    assert [c["check"] for c in checks] == ["MC error < 1e-9 (must be refuted)"]
    assert all(len(c.get("title", "")) <= 80 for c in run["claims"])
    (history,) = history_rows(run)
    assert history["old rule or setting"] == "plain MC error < 0.01" and history["verdict then"] == "refuted"
    page = build_report(runs, tmp_path / "report").read_text()
    assert page.count('<details class="test">') == 3  # every test and check opens onto its statement
    assert "plain MC error at n samples is below 0.1" in page  # the full statement, behind the toggle
    assert page.count('<span class="badge"') == 1 and '<section class="history">' in page


def test_the_tally_counts_paper_claims_first_of_the_record_that_speaks_only(records, tmp_path):
    runs, *_ = records
    build_report(runs, tmp_path / "report")
    summary = (tmp_path / "report" / "summary.md").read_text()
    tally = summary.split("\n\n")[1]
    assert tally.startswith("The abstracts' claims (PaperClaims) of 1 paper: 2 in all: ")
    assert tally.index("PaperClaims") < tally.index("Their tests: ")
    export = json.loads((tmp_path / "report" / "report.json").read_text())
    assert sum(export["paper_claims"].values()) == 2  # the quick record beside is shown, not counted again
    assert sum(export["tests"].values()) == 2


def test_a_smoke_record_is_shown_not_counted(toy, tmp_path):
    run_experiment("toy_pi", "smoke", [0], out=tmp_path / "runs")
    build_report(tmp_path / "runs", tmp_path / "report")
    summary = (tmp_path / "report" / "summary.md").read_text()
    assert "nothing is counted" in summary and "smoke run (not counted)" in summary
    assert "_Plumbing check: a smoke run cannot decide these claims; not counted._" in summary
    assert "QMC beats MC: “QMC beats plain Monte Carlo at equal n”" in summary  # shown all the same


def test_the_export_gives_per_paper_its_paper_claims_in_the_review_vocabulary(records, tmp_path, capsys):
    runs, paper, *_ = records
    assert main(["report", "--runs", str(runs), "--out", str(tmp_path / "r"), "--json"]) == 0
    export = json.loads(capsys.readouterr().out)
    assert {"html", "summary", "methods"} <= set(export)
    (toy,) = [m for m in export["methods"] if m["method"] == "toy_pi"]
    assert toy["profile"] == "paper" and toy["counted"] and toy["record"] == str(paper)
    assert [p["id"] for p in toy["paper_claims"]] == ["qmc_wins", "mc_converges"]
    assert {p["review_verdict"] for p in toy["paper_claims"]} <= REVIEW_WORDS
    assert {p["verdict"]: p["review_verdict"] for p in toy["paper_claims"]}.get("toy-verified") == "toy-scale"
    assert toy["beside"]["profile"] == "quick" and len(toy["newer_unfinished"]) == 2
    written = json.loads((paper / "result.json").read_text())
    assert written["contract"] == 3 and all(
        p["review_verdict"] in REVIEW_WORDS for p in written["paper_claims"]
    )


def test_the_forest_plot_uses_a_log_axis_for_ratios_and_names_what_was_not_measured():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from icml26.common.report_figures import _draw_test, forest_figure, forest_rows

    base = {"name": "t", "verdict": "toy-verified", "op": "<", "threshold": 1.0, "interval": [0.2, 0.5]}
    fig, (a, b, c) = plt.subplots(3)
    _draw_test(a, {**base, "measured": 0.3, "form": "ratio"})
    _draw_test(b, {**base, "measured": 0.3, "form": "difference", "interval": [-0.2, 0.5]})
    _draw_test(c, {**base, "measured": None, "verdict": "blocked", "reason": "needs a GPU"})
    assert a.get_xscale() == "log" and b.get_xscale() == "linear"
    assert [t.get_text() for t in c.texts] == ["not measured: needs a GPU"]
    plt.close(fig)
    run = {
        "paper_claims": [
            {"id": "a", "title": "A", "verdict": "refuted"},
            {"id": "b", "title": "B", "verdict": "x"},
        ],
        "claims": [{**base, "measured": 2.0, "supports": "a"}, {**base, "name": "u", "measured": 0.3}],
    }
    assert [(pc["id"], [t["name"] for t in ts]) for pc, ts in forest_rows(run)] == [("a", ["t"]), ("b", [])]
    assert forest_figure(run) is not None and forest_figure({**run, "claims": []}) is None


def test_results_md_and_method_docs_have_the_same_headline_tables(records, tmp_path, monkeypatch):
    runs, paper, quick, killed, _ = records
    docs = runs.parent
    (docs / "methods").mkdir()
    (docs / "methods" / "toy_pi.md").write_text(
        "# toy\n\n## Claims and measured results\n\nWords.\n\n## Tests\n"
    )
    method_docs = _tool("update_method_docs")
    block = method_docs.block("toy_pi", docs)
    assert block.startswith("<!-- measured -->") and block.rstrip().endswith("<!-- measured -->")
    assert block.index("What the abstract claims") < block.index("Tests of the paper's claims")
    assert "| quick run |" in block and "runs/toy_pi/" in block
    resume = f"icml26 run toy_pi --resume {docs.name}/runs/toy_pi/{killed.name}`"  # from the docs' parent
    assert (
        f"A newer smoke run did not finish: `{killed.name}` (did not finish (killed" in block
        and resume in block
    )
    method_docs.update("toy_pi", docs)
    text = (docs / "methods" / "toy_pi.md").read_text()
    assert text.index("Words.") < text.index("<!-- measured -->") < text.index("## Tests")
    method_docs.update("toy_pi", docs)  # idempotent: the block is replaced, not added again
    assert (docs / "methods" / "toy_pi.md").read_text() == text
    page = _tool("update_results").results_page(runs)
    headline = page.split("## All nineteen papers")[0]
    table = [line for line in headline.splitlines() if line.startswith("| ") and "“" in line]
    assert 1 <= len(table) <= 8 and "| the abstract says | verdict | quick run |" in headline
    assert page.index("## What the abstracts claim") < page.index("## Details: tests, checks and history")


def test_info_fits_one_screen_and_lists_tests_apart(toy, records, capsys):
    from icml26.common.info import latest_verdicts, screen, usage

    assert main(["info", "toy_pi"]) == 0
    lines = capsys.readouterr().out.rstrip("\n").splitlines()
    assert len(lines) <= 30 and max(map(len, lines)) <= 110
    text = "\n".join(lines)
    for part in ("Use it:", "Profiles (one seed", "QMC beats MC [all]", "MC is accurate [any]", "Doc:"):
        assert part in text
    assert "qmc_error / strongest" not in text  # the rules are behind --tests
    assert len(usage(toy)) == 3
    assert main(["info", "toy_pi", "--tests"]) == 0
    tests = capsys.readouterr().out
    assert (
        "rule: qmc_error / strongest(mc_error) < 1" in tests and "Checks (ours, not the paper's): 1" in tests
    )
    latest = latest_verdicts("toy_pi", records[0])
    assert latest["main"]["profile"] == "paper" and latest["beside"]["profile"] == "quick"
    assert set(latest["main"]["verdicts"]) == {"qmc_wins", "mc_converges"}
    assert all(len(line) <= 100 for line in screen(toy))
    assert main(["info", "toy_pi", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert {"usage", "paper_claims", "claims", "latest", "estimated_seconds", "profiles", "doc"} <= set(info)
    assert info["claims"][1]["revisions"][0]["verdict"] == "refuted"


def test_info_imports_no_torch():
    code = (
        "import sys; sys.path.insert(0, 'tests/common'); import toy_experiment;"
        "from icml26.common import registry; registry.register(toy_experiment.EXPERIMENT);"
        "from icml26.cli import main; main(['info', 'toy_pi']);"
        "assert 'torch' not in sys.modules and 'icml26.common.runner' not in sys.modules, 'imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_headline_figures_in_words():
    from icml26.common.output import figure_text, holds_text, rule_text

    assert holds_text({"holds": 1, "of": 3, "blocked": 1}) == "1 of 3 tests, 1 blocked"
    assert holds_text({"holds": 0, "of": 0, "reason": "every test is blocked"}) == "every test is blocked"
    ratio = {"measured": 0.5, "interval": [0.25, 0.75], "op": "<=", "threshold": 1.0, "unit": "×"}
    ratio |= {"baseline": "cma", "baseline_label": "CMA-ES", "form": "ratio", "verdict": "toy-verified"}
    assert figure_text(ratio) == "ours / CMA-ES = 0.5× [0.25, 0.75], rule ≤ 1×"
    points = {
        **ratio,
        "form": "difference",
        "unit": "",
        "measured": -2.5,
        "interval": [-3.0, -2.0],
        "op": ">=",
    }
    assert figure_text(points) == "ours − CMA-ES = -2.5 [-3, -2], rule ≥ 1"
    p = {
        "measured": 0.31,
        "op": ">",
        "threshold": 0.05,
        "pvalue": ["chi-squared", 0.05],
        "verdict": "verified",
    }
    assert figure_text(p) == "p (chi-squared) = 0.31, rule p > 0.05" and rule_text(p) == "p > 0.05"
    band = {"measured": 0.9, "op": "in", "threshold": [0.8, 0.97], "verdict": "toy-verified"}
    assert figure_text(band) == "ours = 0.9, rule in [0.8, 0.97]"
    blocked = {"measured": None, "verdict": "blocked", "reason": "needs the authors' instances"}
    assert figure_text(blocked) == "not measured: needs the authors' instances"
