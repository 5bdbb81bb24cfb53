"""The report page: malformed run files skipped by name, partial runs shown, pictures that load, titles
that fit (checked in headless Chromium where it is installed)."""

import html
import json
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
    assert f"run `{good.directory}`" in summary  # the older, readable run is shown instead


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
    assert (
        "contract v1 record (not counted)" in summary
        and "Paper claims of quick and paper runs: none" in summary
    )
    (runs / "20260102T000000000000Z" / "result.json").unlink()
    build_report(tmp_path / "runs", tmp_path / "report")
    assert "1 refuted" in (tmp_path / "report" / "summary.md").read_text()


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


def test_the_page_has_the_overview_a_forest_plot_and_collapsible_sections(toy, tmp_path):
    run_experiment("toy_pi", "quick", [0], out=tmp_path / "runs")
    page = build_report(tmp_path / "runs", tmp_path / "report").read_text()
    assert 'alt="paper-claim verdicts per method"' in page
    assert 'alt="forest plot of toy_pi' in page
    assert '<details id="toy_pi" open>' in page
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


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium)")
def test_the_page_renders_in_chromium_with_every_image_loaded_and_no_clipped_title(toy, tmp_path):
    run_experiment("toy_pi", "quick", [0], out=tmp_path / "runs")
    run_experiment("toy_pi", "smoke", [0, 1], out=tmp_path / "smoke_runs")
    for runs in ("runs", "smoke_runs"):
        page = build_report(tmp_path / runs, tmp_path / f"report_{runs}")
        dom = subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={tmp_path / 'profile'}",
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
        check = json.loads(html.unescape(match.group(1)))
        assert check["images"] >= 2 and check["broken"] == [] and check["clipped"] == []
        assert not check["overflow"], "the page is wider than the window"
