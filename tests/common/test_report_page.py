"""The report page: malformed run files skipped by name, partial runs shown, pictures that load, titles
that fit (checked in headless Chromium where it is installed)."""

import html
import json
import os
import re
import shutil
import subprocess

import pytest
import toy_experiment

from icml26.common import Plot
from icml26.common.report import build_report
from icml26.common.runner import Interrupted, run_experiment

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _record(verdict="refuted", seeds=(0,), plots=(), drop=None, **claim):
    row = {"name": "c", "statement": "s", "paper": "p", "measured": 1.0, "verdict": verdict, **claim}
    row.pop(drop, None)
    seeds = list(seeds) if isinstance(seeds, tuple) else seeds
    run = {
        "method": "toy_pi",
        "profile": "quick",
        "seeds": seeds,
        "title": "t",
        "paper": "p",
        "notes": [],
        "plots": list(plots),
        "claims": [row],
        "contract": 2,
    }
    return json.dumps(run)


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ("{}", "lacks claims, method, notes, paper, plots, profile, seeds, title"),
        ("[1, 2]", "not a JSON object (list)"),
        ('{"method": "toy_pi", "profile": "quick"', "unreadable (JSONDecodeError)"),
        (
            '{"method": "toy_pi", "profile": "quick", "seeds": [0]}',
            "lacks claims, notes, paper, plots, title",
        ),
        (_record(verdict="passed"), "unknown verdicts ['passed']"),
        (_record(seeds=3), "seeds or plots are not lists"),
        (_record(plots=[3]), "plots are not file names"),
        (_record(drop="measured"), "claims are not a list of judged claims"),
        (
            json.dumps({**json.loads(_record()), "contract": 3, "paper_claims": [{"id": "x"}]}),
            "paper_claims are not a list of rolled-up PaperClaims",
        ),
        (
            json.dumps(
                {
                    **json.loads(_record()),
                    "paper_claims": [{"id": "x", "quote": "q", "title": "t", "verdict": "true"}],
                }
            ),
            "unknown PaperClaim verdicts ['true']",
        ),
        (
            '{"method": "toy_pi", "profile": "quick", "seeds": [0], "status": "partial", "finished_units": []}',
            "finished_units or finished_seeds malformed",
        ),
    ],
)
def test_malformed_run_files_are_skipped_by_name(toy, tmp_path, content, why):
    good = run_experiment("toy_pi", "smoke", [0], out=tmp_path / "runs")
    bad = tmp_path / "runs" / "toy_pi" / "99999999T999999999999Z"  # newer than the good run
    bad.mkdir()
    (bad / "result.json").write_text(content)
    build_report(tmp_path / "runs", tmp_path / "report")
    summary = (tmp_path / "report" / "summary.md").read_text()
    assert f"Skipped run files: {bad / 'result.json'} ({why})" in summary
    assert f"Record: `{good.directory}`" in summary  # the older, readable run is shown instead


def test_infinite_intervals_and_older_records_render_and_older_records_are_not_counted(tmp_path):
    runs = tmp_path / "runs" / "toy_pi"
    for stamp, record in (
        (
            "20260101T000000000000Z",
            _record(
                interval=["-inf", "inf"],
                baseline="b",
                baseline_value=1.0,
                op="<",
                threshold=1.0,
                rule="x < 1",
                kind="paper",
            ),
        ),
        ("20260102T000000000000Z", json.dumps({**json.loads(_record(verdict="verified")), "contract": 1})),
    ):
        (runs / stamp).mkdir(parents=True)
        (runs / stamp / "result.json").write_text(record)
    build_report(tmp_path / "runs", tmp_path / "report")
    summary = (tmp_path / "report" / "summary.md").read_text()
    assert "contract v1 record (not counted)" in summary and "nothing is counted" in summary
    (runs / "20260102T000000000000Z" / "result.json").unlink()
    build_report(tmp_path / "runs", tmp_path / "report")
    summary = (tmp_path / "report" / "summary.md").read_text()
    # a contract-2 record: shown (its table and tally), never counted
    assert "contract v2 record (not counted)" in summary and "1 refuted" in summary
    assert "nothing is counted" in summary


def test_a_partial_run_is_shown_as_partial_not_as_not_run(toy, tmp_path, monkeypatch):
    calls = {"n": 0}
    real = toy_experiment.estimate_pi

    def stop_on_fifth(points):
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return real(points)

    monkeypatch.setattr(toy_experiment, "estimate_pi", stop_on_fifth)
    with pytest.raises(Interrupted) as info:
        run_experiment("toy_pi", "smoke", [0], out=tmp_path / "runs")
    build_report(tmp_path / "runs", tmp_path / "report")
    summary = (tmp_path / "report" / "summary.md").read_text()
    assert "| toy_pi | partial |" in summary
    assert (
        f"Partial: interrupted; 0 of 1 seed(s) and 1 unit(s) finished; continue with `icml26 run toy_pi --resume {info.value.directory}`"
        in summary
    )


def test_the_page_has_the_overview_a_forest_plot_and_a_section_per_paper(toy, tmp_path):
    run_experiment("toy_pi", "quick", [0], out=tmp_path / "runs")
    page = build_report(tmp_path / "runs", tmp_path / "report").read_text()
    assert 'alt="PaperClaim verdicts per paper"' in page
    assert page.count('alt="forest plot of toy_pi') == 1  # one picture per paper
    assert '<section class="method" id="toy_pi">' in page
    assert page.count("data:image/png;base64,") == 3  # overview, forest, the run's own plot


def test_plot_titles_are_fitted_and_reference_lines_drawn(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from icml26.common.output import _fit_title, title_fits, write_plots

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    long = (
        "Median final best f against the evaluation budget on Rastrigin-10, FlowOptimizer vs every baseline"
    )
    ax.set_title(long)
    assert not title_fits(fig, ax)  # unfitted, the title runs off the figure
    _fit_title(fig, ax, long)
    assert title_fits(fig, ax)
    plt.close(fig)
    plot = Plot("p", long, {"a": ([1, 2], [3, 4])}, claim="qmc_beats_mc", lines={"rule": 3.5})
    assert write_plots(tmp_path, [plot], [{"name": "qmc_beats_mc", "statement": "s"}]) == ["p.png"]
    with pytest.raises(ValueError, match="plot 'p' names claim 'nope'"):
        write_plots(tmp_path, [Plot("p", "t", {}, claim="nope")], [{"name": "other", "statement": "s"}])


def _chromium() -> str:
    """The browser, or a skip; under CI (``CI`` set) a missing browser fails the test: ``.ci/run`` installs it."""
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but headless Chromium is missing (.ci/run installs Debian's chromium)")
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    return CHROMIUM


def page_check(page, profile, width=1280):
    """The page's own self-check (``data-check``), read from the DOM headless Chromium rendered."""
    dom = subprocess.run(
        [
            _chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            f"--window-size={width},900",
            "--virtual-time-budget=5000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    match = re.search(r'data-check="([^"]*)"', dom)
    assert match, "the page's self-check did not run"
    return json.loads(html.unescape(match.group(1)))


@pytest.mark.browser
def test_every_page_element_renders_in_chromium(toy, tmp_path):
    """A paper record with the quick one beside, a contract-2 record of another method, a partial run and
    a smoke-only page: tables, toggles that open onto their content, forest plots loaded, no clipped title
    or cell, the history, at a desktop and a narrow width."""
    runs = tmp_path / "runs"
    run_experiment("toy_pi", "paper", [0], overrides={"n": 65536, "levels": 3}, out=runs)
    run_experiment("toy_pi", "quick", [0], out=runs)
    legacy = runs / "legacy_method" / "20260101T000000000000Z"
    legacy.mkdir(parents=True)
    (legacy / "result.json").write_text(json.dumps({**json.loads(_record()), "method": "legacy_method"}))
    run_experiment("toy_pi", "smoke", [0, 1], out=tmp_path / "smoke_runs")
    page = build_report(runs, tmp_path / "report")
    for width in (1280, 800):
        check = page_check(page, tmp_path / "profile", width)
        assert check["broken"] == [] and check["clipped"] == [] and check["empty"] == []
        assert not check["overflow"], "the page is wider than the window"
        assert check["images"] >= 3 and check["forest"] == 1 and check["headline"] == 1
        assert check["tests"] == 2 and check["history"] == 2  # tests and checks; the history's head and row
        assert check["toggles"] >= 4 and check["sections"] == 2
    smoke = page_check(build_report(tmp_path / "smoke_runs", tmp_path / "report_smoke"), tmp_path / "profile")
    assert smoke["broken"] == [] and smoke["clipped"] == [] and smoke["forest"] == 1


@pytest.mark.browser
def test_screenshots_of_the_top_and_of_one_section(toy, tmp_path, monkeypatch):
    import importlib.util
    from pathlib import Path

    _chromium()
    spec = importlib.util.spec_from_file_location(
        "screenshots", Path(__file__).resolve().parents[2] / "tools" / "screenshots.py"
    )
    shots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shots)
    run_experiment("toy_pi", "quick", [0], out=tmp_path / "runs")
    monkeypatch.setattr(shots, "IMG", tmp_path / "img")
    assert shots.default_method(tmp_path / "runs") == "toy_pi"
    shots.main(["--runs", str(tmp_path / "runs")])
    for name in ("report_top.png", "report_method.png"):
        assert (tmp_path / "img" / name).read_bytes()[:4] == b"\x89PNG"
