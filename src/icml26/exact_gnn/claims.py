"""What the paper claims and how each claim is tested (declarations only; read beside the abstract).

The abstract (Fetrat Qharabagh et al., ICML 2026) makes two testable claims: learned local
instructions execute a whole graph algorithm without error w.h.p., and positive learnability for
flooding, BFS, DFS and Bellman-Ford. Its proof statements (bounded degree and precision, the LOCAL
model) are background: theorems whose proofs we did not read; their instances are tested below.
"""

from __future__ import annotations

from icml26.common import Background, Claim, PaperClaim, Revision

EXACT_NOTE = "deterministic closed-form NTK mean; every execution of every graph checked against networkx"
ENSEMBLE_NOTE = "the trained ensemble is checked exactly on every graph; one training draw per runner seed"
PAPER_WIDTH_L1 = 42_000  # 2000 k with k = |T| = 21 templates for flooding at l = 1, D = 2 (official code)

PAPER_CLAIMS = (
    PaperClaim(
        "executes_without_error",
        "enabling the complete graph algorithm to be executed during inference without error and with high"
        " probability",
        "all",
        title="Learned local instructions run the whole algorithm without error, w.h.p.",
        conditions=f"an MLP ensemble at the theory's width (2000 k, {PAPER_WIDTH_L1} for l = 1, D = 2) and"
        " enough members, or the NTK's infinite-width, infinite-ensemble limit",
    ),
    PaperClaim(
        "algorithms_learnable",
        "We further demonstrate positive learnability results for widely studied algorithms such as message"
        " flooding, breadth-first and depth-first search, and Bellman-Ford",
        "all",
        title="BFS, DFS and Bellman-Ford are learned and executed exactly",
    ),
)

BACKGROUND = (
    Background(
        "Understanding what graph neural networks can learn, especially their ability to learn to execute"
        " algorithms, remains a central theoretical challenge.",
        "motivation",
    ),
    Background(
        "we prove exact learnability results for graph algorithms under bounded-degree and finite-precision"
        " constraints",
        "a theorem: its proof was not readable here; its instances are the tests of executes_without_error"
        " and algorithms_learnable (every graph drawn within the degree bound)",
    ),
    Background(
        "Our approach follows a two-step process. First, we train an ensemble of multi-layer perceptrons"
        " (MLPs) to execute the local instructions of a single node. Second, during inference, we use the"
        " trained MLP ensemble as the update function within a graph neural network (GNN).",
        "a description of the method (templates.py, ensemble.py, executor.py)",
    ),
    Background(
        "we establish a rigorous learnability result for the LOCAL model of distributed computation",
        "a theorem over every LOCAL algorithm: not testable by runs; the ensemble-size bound it rests on is"
        " tabulated (table ensemble_bound), and its instances flooding, BFS and Bellman-Ford are tested",
    ),
)

NAMES = {
    "grid_noheaviside_exact_rate": "no Heaviside",
    "raw_exact_rate": "raw-bit inputs",
    "noheaviside_exact_rate": "no Heaviside",
    "after_agg_exact_rate": "Heaviside after aggregation",
    "finite_l1_untrained_exact_rate": "untrained ensemble",
    "bfs_one_slot_exact_rate": "one-slot colouring",
    "bellman_ford_one_slot_exact_rate": "one-slot colouring",
    "gin_large_exact_rate": "GIN (trained on n <= 10)",
}

_AGRESTI_MIN = (
    "the paired interval was the Student-t of the per-graph differences, which has zero width when every"
    " pair agrees; the interval is now the Agresti-Min paired interval for 0/1 outcomes (same rule, same data)"
)


def _t_interval(then: str, measured: str) -> Revision:
    return Revision(
        "2026-12-01",
        "interval: paired Student-t over graphs",
        then,
        _AGRESTI_MIN,
        f"231eae6 (quick: {measured})",
    )


_SPLIT_ABLATIONS = Revision(
    "2026-12-01",
    "one check ablations_fail: main_l2_exact_rate >= 1 with the three ablations as controls",
    "non-discriminating",
    "the Heaviside-after variant also stayed at 1.0, which a control list hid; each ablation is now its own"
    " check, so the one that does not fail is refuted, not hidden",
    "231eae6+dirty (quick and paper: main 1.0, Heaviside after aggregation 1.0)",
)

TESTS = (
    Claim(
        "ntk_flooding_exact",
        "Flooding executed without error by the NTK-mean executor: {ntk_graphs} random connected graphs, "
        "n = {n_min}..{n_max}, D in {degrees}, l in {bits}, every 2^l message",
        "executed without error (w.h.p.)",
        "ntk_exact_rate",
        ">=",
        1.0,
        kind="paper",
        supports="executes_without_error",
        title="Flooding exact on every graph and message (NTK mean)",
        scale="exact",
        scale_note=EXACT_NOTE,
        controls=("grid_noheaviside_exact_rate",),
        shown=("ntk_executions", "ntk_seconds_per_execution"),
    ),
    *(
        Claim(
            f"ablation_{key}_fails",
            f"Ablation at (l=2, D=2), {{ablation_graphs}} graphs: {what} drops the exact rate below 100%",
            "(the code's ablations; the paper's numbers were not seen)",
            f"{key}_exact_rate",
            "<",
            1.0,
            kind="check",
            title=f"Ablation {title} is not exact",
            scale="exact",
            scale_note=EXACT_NOTE,
            controls=("main_l2_exact_rate",),
            statistic="min",  # existential: one failing graph on any seed shows the ablation is not exact
            revisions=(_SPLIT_ABLATIONS,),
        )
        for key, what, title in (
            ("raw", "raw-bit inputs", "raw-bit inputs"),
            ("noheaviside", "no Heaviside (bits still read at 1/2 by the encoder)", "no Heaviside"),
            ("after_agg", "the Heaviside after aggregation", "Heaviside after aggregation"),
        )
    ),
    Claim(
        "sums_binary",
        "Aggregated message bits never exceed 1 under the distance-2 colouring (every round of every run)",
        "sums stay binary",
        "max_aggregated_message",
        "<=",
        1.0,
        kind="check",
        title="Aggregated message bits stay <= 1 under the distance-2 colouring",
        scale="exact",
        scale_note="the largest aggregated value over every round of every run",
        controls=("one_slot_max_aggregated_message",),
    ),
    Claim(
        "finite_ensemble_l1",
        "Finite ensemble (l=1, D=2, width {width}, {finite_members} members, {epochs} epochs of full-batch GD): "
        "100% exact on {finite_graphs} random graphs",
        "learned from a small training set, executed without error w.h.p.",
        "finite_l1_exact_rate",
        ">=",
        1.0,
        kind="paper",
        supports="executes_without_error",
        title="Trained finite ensemble (l=1, D=2) exact on every graph",
        controls=("finite_l1_untrained_exact_rate",),
        statistic="all",
        requires=(("width", ">=", PAPER_WIDTH_L1),),
        shown=(
            "finite_l1_train_loss",
            "finite_l1_output_exact_rate",
            "finite_l1_message1_exact_rate",
            "finite_l1_message1_runs",
        ),
        revisions=(
            Revision(
                "2026-12-01",
                f"scale exact ({ENSEMBLE_NOTE})",
                "refuted",
                "width 512 with 16 members is not the paper's setting, so the scale is proxy",
                "231eae6 (quick: 0.545)",
            ),
        ),
    ),
    Claim(
        "finite_paper_scale",
        "Finite-width training at the paper's scale (width 2000 k, up to 300 members x 7000 epochs) "
        "reaches case accuracy >= 1 - 1e-3",
        "ensemble grown until case accuracy >= 0.999",
        "finite_paper_scale_exact_rate",
        ">=",
        0.999,
        kind="paper",
        supports="executes_without_error",
        title="Ensemble at the paper's width and members: case accuracy >= 0.999",
        scale="paper",
        scale_note="the paper's widths, ensemble sizes and epochs",
        controls=("finite_l1_untrained_exact_rate",),
        statistic="all",
    ),
    Claim(
        "curve_m4",
        "l=2, D=2 ensemble ({curve_graphs} graphs): exact rate non-decreasing from M=1 to M=4",
        "(issue target)",
        "curve_rate_m4",
        ">=",
        0.0,
        kind="check",
        title="Ensemble (l=2, D=2): exact rate non-decreasing from M=1 to M=4",
        relative_to=("curve_rate_m1",),
        form="difference",
        context=("curve_m_needed", "finite_l2_train_loss", "curve_output_rate_m64"),
        revisions=(_t_interval("toy-verified", "0/20 vs 0/20 graphs, interval [0, 0]"),),
    ),
    Claim(
        "curve_m16",
        "l=2, D=2 ensemble: exact rate non-decreasing from M=4 to M=16",
        "(issue target)",
        "curve_rate_m16",
        ">=",
        0.0,
        kind="check",
        title="Ensemble (l=2, D=2): exact rate non-decreasing from M=4 to M=16",
        relative_to=("curve_rate_m4",),
        form="difference",
        revisions=(_t_interval("toy-verified", "0/20 vs 0/20 graphs, interval [0, 0]"),),
    ),
    Claim(
        "curve_m64",
        "l=2, D=2 ensemble: exact rate non-decreasing from M=16 to M=64",
        "(issue target)",
        "curve_rate_m64",
        ">=",
        0.0,
        kind="check",
        title="Ensemble (l=2, D=2): exact rate non-decreasing from M=16 to M=64",
        relative_to=("curve_rate_m16",),
        form="difference",
        revisions=(_t_interval("inconclusive", "3/20 vs 0/20 graphs, interval [-0.021, 0.32]"),),
    ),
    Claim(
        "bfs_exact",
        "BFS (synchronous wave variant): distances and parent sets exact on {algo_graphs} random connected "
        "graphs, n <= {algo_n_max}, D <= 3, against networkx",
        "positive learnability for BFS",
        "bfs_exact_rate",
        ">=",
        1.0,
        kind="paper",
        supports="algorithms_learnable",
        title="BFS (synchronous variant) exact on every graph (NTK mean)",
        scale="exact",
        scale_note=EXACT_NOTE,
        controls=("bfs_one_slot_exact_rate",),
        shown=("bfs_binary_clock_exact_rate",),
        revisions=(
            Revision(
                "2026-12-01",
                "the round clock an l-bit binary counter (one minterm template per value); kept as test"
                " bfs_exact_binary_clock (paper, exact, bfs_binary_clock_exact_rate >= 1) until contract v3",
                "refuted",
                "a binary clock bit is written by about half the templates and that column sum breaks the NTK"
                " mean's margin, so the clock is now one-hot (column sums 2); the first design's rate is shown"
                " beside the test (bfs_binary_clock_exact_rate)",
                "231eae6 (quick 0.95, paper 0.99 for the binary clock)",
            ),
        ),
    ),
    Claim(
        "bellman_ford_exact",
        "Bellman-Ford (synchronous one-hot variant): path lengths exact on {algo_graphs} random connected "
        "graphs, n <= {algo_n_max}, D <= 3, integer weights 0..3, against networkx",
        "positive learnability for Bellman-Ford",
        "bellman_ford_exact_rate",
        ">=",
        1.0,
        kind="paper",
        supports="algorithms_learnable",
        title="Bellman-Ford (synchronous variant) exact on every graph (NTK mean)",
        scale="exact",
        scale_note=EXACT_NOTE,
        controls=("bellman_ford_one_slot_exact_rate",),
    ),
    Claim(
        "dfs_exact",
        "DFS executed exactly on random connected graphs",
        "positive learnability for DFS",
        "dfs_exact_rate",
        ">=",
        1.0,
        kind="paper",
        supports="algorithms_learnable",
        title="DFS exact on random connected graphs",
        scale="exact",
        scale_note=EXACT_NOTE,
        controls=("bfs_one_slot_exact_rate",),
    ),
    Claim(
        "beats_gin",
        "Flooding (l=1, D=2) on {gin_test} graphs with n = {gin_n_min}..{gin_n_max}: the executor's exact rate "
        "above a GIN trained ({gin_epochs} epochs, width 64, best validation exact-step checkpoint) on n <= 10",
        "(our comparison; the paper reports no baseline)",
        "executor_large_exact_rate",
        ">",
        0.0,
        kind="check",
        title="Executor's exact rate above a GIN's on larger graphs (n = 30..60)",
        relative_to=("gin_large_exact_rate",),
        form="difference",
        context=("gin_val_exact_step_rate", "gin_selected_epoch", "gin_small_exact_rate"),
        revisions=(_t_interval("toy-verified", "20/20 vs 0/20 graphs, interval [1, 1]"),),
    ),
)
