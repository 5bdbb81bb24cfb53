"""The figures of the experiment: alignment, norm and ARI trajectories; peak alignment against the init."""

from __future__ import annotations

import math
from typing import Any

from icml26.common import Plot

_SMALL_NORM = 0.05  # the small-norm window drawn on the norm plot (experiment._SMALL_NORM)


def _tag(scale: float) -> str:
    return f"{scale:.0e}"


def experiment_plots(
    runs: dict[tuple[str, str], list[dict[str, Any]]], scales: list[float], metrics: dict[str, float]
) -> list[Plot]:
    plots = []
    for engine in ("population", "sgd", "gensim"):
        series = {}
        for s in scales:
            first = runs[(engine, _tag(s))][0]["series"]
            series[f"init {s:g}"] = ([max(p, 1.0) for p in first["pairs"]], first["alignment"])
        plots.append(Plot(f"{engine}_alignment", f"{engine}: alignment with M's top-k space (first seed)", series,
                          "pairs", "alignment", logx=True, claim="alignment_rises_as_init_shrinks" if engine == "population" else "",
                          lines={"0.99 check": 0.99}))  # fmt: skip
    norm = {
        f"init {s:g}": (
            [max(p, 1.0) for p in runs[("population", _tag(s))][0]["series"]["pairs"]],
            runs[("population", _tag(s))][0]["series"]["norm"],
        )
        for s in scales
    }
    plots.append(
        Plot(
            "population_norm",
            "population GD: mean row norm (first seed)",
            norm,
            "pairs",
            "mean norm",
            logx=True,
            logy=True,
            lines={"small-norm window": _SMALL_NORM},
        )
    )
    first = runs[("population", _tag(scales[0]))][0]["series"]
    done = [i for i, v in enumerate(first["ari"]) if math.isfinite(v)]
    plots.append(Plot("population_ari", f"population GD from init {scales[0]:g}: ARI of k-means on U", {"ARI": ([max(first["pairs"][i], 1.0) for i in done], [first["ari"][i] for i in done])},
                      "pairs", "ARI", logx=True, claim="recovers_clusters", lines={"spectral clustering": metrics["spectral_ari"]}))  # fmt: skip
    peaks = {
        engine: (scales, [metrics[f"{short}_peak_align_{_tag(s)}"] for s in scales])
        for engine, short in (("population", "pop"), ("sgd", "sgd"), ("gensim", "gensim"))
    }
    plots.append(
        Plot(
            "peak_alignment_vs_init",
            "peak alignment against the init scale",
            peaks,
            "init scale",
            "peak alignment",
            logx=True,
            claim="alignment_rises_as_init_shrinks",
        )
    )
    return plots
