"""What the paper claims and how each claim is tested (declarations only; read beside the abstract).

The abstract (Fetrat Qharabagh et al., ICML 2026) makes two testable claims: learned local
instructions execute a whole graph algorithm without error w.h.p., and positive learnability for
flooding, BFS, DFS and Bellman-Ford. Its proof statements (bounded degree and precision, the LOCAL
model) are background: theorems whose proofs we did not read; their instances are tested below.
"""

from __future__ import annotations

from dataclasses import replace

from icml26.common import Background, Claim, PaperClaim, Revision

EXACT_NOTE = (
    "the infinite-width, infinite-ensemble limit (closed-form NTK mean), not a learned ensemble; every"
    " execution of every drawn graph checked against networkx"
)
PROOF_NOTE = (
    "a proof over every graph of the degree bound: the margin over every reachable node state (an"
    " over-approximated fixpoint), exhausted; infinite-width limit"
)
ENSEMBLE_NOTE = "the trained ensemble is checked exactly on every graph; one training draw per runner seed"
PAPER_WIDTH_L1 = 42_000  # 2000 k with k = |T| = 21 templates for flooding at l = 1, D = 2 (official code)

PAPER_CLAIMS = (
    PaperClaim(
        "executes_without_error",
        "enabling the complete graph algorithm to be executed during inference without error and with high"
        " probability",
        "all",
        title="Learned local instructions run the whole algorithm without error, w.h.p.",
        conditions=f"an MLP ensemble learned by the official recipe at width 2000 k ({PAPER_WIDTH_L1} for l = 1,"
        " D = 2), 7000 epochs of SGD at lr 1e-3, members grown to a case accuracy of 0.999 (up to 300); the"
        " NTK's infinite-width, infinite-ensemble limit is a check, not this claim",
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


def _NTK_AS_PAPER(run: str) -> Revision:  # noqa: N802 (a Revision maker, read like a constant)
    return Revision(
        "2026-12-02",
        "kind paper (a test of the paper's learned-ensemble claim)",
        "verified",
        "the closed-form NTK mean is the infinite-width, infinite-ensemble limit, not the ensemble the paper"
        " learns, and the programs are our synchronous variants where not flooding; exactness of the limit is"
        " a margin property of the program (the ntk_proof tests), so this is a check: it cannot verify the"
        " paper's claim",
        run,
    )


def _ONE_SLOT_REFERENCE(measured: str) -> Revision:  # noqa: N802 (a Revision maker, read like a constant)
    return Revision(
        "2026-12-02",
        "control (one-slot colouring) judged against the template-OR run under the greedy colouring",
        "verified",
        "the one-slot run's slot bits always differ from that reference, so the control was 0 by construction"
        " and showed nothing (and a user's own proper colouring read as not exact); the reference is now the"
        " template-OR run under the same colouring, so the control fails only where its outputs go wrong",
        f"quick record 20261202T053919863102Z ({measured})",
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

_TESTS = (
    Claim(
        "ntk_flooding_exact",
        "Flooding executed without error in the infinite-width limit (the NTK-mean executor): {ntk_graphs}"
        " random connected graphs, n = {n_min}..{n_max}, D in {degrees}, l in {bits}, every 2^l message",
        "executed without error (w.h.p.)",
        "ntk_exact_rate",
        ">=",
        1.0,
        kind="check",
        title="Flooding exact on drawn graphs, infinite-width limit (NTK mean)",
        revisions=(_NTK_AS_PAPER("231eae6 (quick 1.0 on 598 executions, paper 1.0 on 2982)"),),
        scale="exact",
        scale_note=EXACT_NOTE,
        controls=("grid_noheaviside_exact_rate",),
        shown=("ntk_executions", "ntk_seconds_per_execution"),
    ),
    Claim(
        "ntk_proof_flooding",
        "Flooding (l=1, D=2) in the infinite-width limit: the thresholded NTK mean equals the template OR on"
        " every reachable node state (proof by enumerating reachable (s, column sum) pairs; every graph of"
        " the degree bound)",
        "executed without error (every graph, not w.h.p.)",
        "ntk_proof_flooding_margin",
        ">",
        1e-10,
        kind="check",
        title="Flooding (l=1, D=2): NTK-mean exactness proved on every reachable state",
        scale="exact",
        scale_note=PROOF_NOTE,
        deterministic=True,
        shown=("ntk_proof_flooding_states", "ntk_proof_flooding_pairs"),
        settings=("proof_max_states",),
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
        "Finite ensemble, our NTK-parameterised recipe below the paper's conditions (l=1, D=2, width {width},"
        " {finite_members} members, {epochs} epochs of full-batch GD at lr 1): 100% exact on {finite_graphs}"
        " random graphs",
        "learned from a small training set, executed without error w.h.p.",
        "finite_l1_exact_rate",
        ">=",
        1.0,
        kind="check",
        title="NTK-recipe ensemble (l=1, D=2, width 512, 16 members) exact on every graph",
        controls=("finite_l1_untrained_exact_rate",),
        statistic="all",
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
            Revision(
                "2026-12-02",
                "kind paper, requires width >= 42000 (a test of the learned-ensemble claim)",
                "refuted",
                "width 512, 16 members, 500 epochs of GD at lr 1 in NTK parameterisation is not the paper's"
                " recipe (standard parameterisation with bias, width 2000 k, members grown to 0.999, up to 300,"
                " 7000 epochs of SGD at lr 1e-3): a run below the claim's conditions is a check and cannot"
                " refute it; the official recipe is test finite_paper_scale",
                "231eae6 (paper 0.495 on 200 graphs)",
            ),
            Revision(
                "2026-12-02",
                "smoke profile: width 512, epochs 200",
                "refuted",
                "the smoke profile (the tests' end-to-end run) trained 64 + 16 nets at width 512 and took ~25 CPU s;"
                " smoke now trains them at width 16 for 20 epochs (seconds). Quick and paper are unchanged; the"
                " verdict kept is quick's",
                "quick record 20261202T053919863102Z (0.52)",
            ),
        ),
    ),
    Claim(
        "finite_paper_scale",
        "The official recipe (l=1, D=2; standard parameterisation with bias, width {official_width},"
        " {official_epochs} epochs of SGD at lr 1e-3, members grown until case accuracy >= 0.999, at most"
        " {official_max_members}): case accuracy >= 0.999 on {official_graphs} random graphs",
        "ensemble grown until case accuracy >= 0.999",
        "finite_paper_scale_exact_rate",
        ">=",
        0.999,
        kind="paper",
        supports="executes_without_error",
        title="Official-recipe ensemble (l=1, D=2): case accuracy >= 0.999",
        scale="paper",
        scale_note="the paper's width, member cap and epochs when the run meets requires; else a check",
        controls=("official_untrained_exact_rate",),
        statistic="all",
        requires=(
            ("official_width", ">=", PAPER_WIDTH_L1),
            ("official_max_members", ">=", 300),
            ("official_epochs", ">=", 7000),
            ("official_graphs", ">=", 1000),
        ),
        shown=(
            "official_members_used",
            "official_train_loss",
            "official_zero_predictor_loss",
            "official_output_exact_rate",
        ),
        revisions=(
            Revision(
                "2026-12-02",
                "blocked in every profile (width 2000 k, 300 members x 7000 epochs judged GPU-scale)",
                "blocked",
                "the official recipe is now built (MLPEnsemble(recipe='official', device=...)) and runs at the"
                " settings each profile can afford; below the paper's width, member cap or epochs it is a check",
                "231eae6",
            ),
            Revision(
                "2026-12-02",
                "requires official_width >= 42000, official_max_members >= 300, official_epochs >= 7000",
                "refuted",
                "a case accuracy of 0.999 cannot be told from 0.97 on the 40 cases (20 graphs x 2 messages) of the"
                " paper profile: 40/40 has a Wilson lower bound of 0.91; the official code measures it on 1000"
                " graphs (2000 cases), so that is now a condition too",
                "quick record 20261202T053919863102Z (0.0, outside the conditions)",
            ),
        ),
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
        "BFS (synchronous wave variant) in the infinite-width limit (NTK mean): distances and parent sets"
        " exact on {algo_graphs} random connected graphs, n <= {algo_n_max}, D <= 3, against networkx",
        "positive learnability for BFS",
        "bfs_exact_rate",
        ">=",
        1.0,
        kind="check",
        title="BFS (synchronous variant) exact on drawn graphs, infinite-width limit",
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
            _NTK_AS_PAPER("231eae6 (quick 1.0, paper 1.0 on 100 graphs)"),
            _ONE_SLOT_REFERENCE("bfs 1.0, control 0.0"),
        ),
    ),
    Claim(
        "bellman_ford_exact",
        "Bellman-Ford (synchronous one-hot variant) in the infinite-width limit (NTK mean): path lengths"
        " exact on {algo_graphs} random connected graphs, n <= {algo_n_max}, D <= 3, weights 0..3",
        "positive learnability for Bellman-Ford",
        "bellman_ford_exact_rate",
        ">=",
        1.0,
        kind="check",
        title="Bellman-Ford (synchronous variant) exact on drawn graphs, infinite-width limit",
        scale="exact",
        scale_note=EXACT_NOTE,
        controls=("bellman_ford_one_slot_exact_rate",),
        revisions=(
            _NTK_AS_PAPER("231eae6 (quick 1.0, paper 1.0 on 100 graphs)"),
            _ONE_SLOT_REFERENCE("Bellman-Ford 1.0, control 0.0"),
        ),
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

# the quick profile's verdicts (record 20261201T222625228429Z) before quick was shrunk to fit 4 minutes
_FIRST_QUICK = {
    "ntk_flooding_exact": "verified",
    "finite_ensemble_l1": "refuted",
    "curve_m4": "inconclusive",
    "bfs_exact": "verified",
    "bellman_ford_exact": "verified",
    "beats_gin": "toy-verified",
}


def _first_quick(verdict: str) -> Revision:
    return Revision(
        "2026-12-02",
        "quick profile: ntk_graphs 200, finite_graphs 200, curve_graphs 20, algo_graphs 100, gin_epochs 200",
        verdict,
        "the cost model put quick at ~388 s on 2 cores, over the 4-minute budget; quick now runs ntk_graphs"
        " 100, finite_graphs 100, curve_graphs 10, algo_graphs 50, gin_epochs 100 (the paper profile is"
        " unchanged in these keys)",
        "231eae6 (quick record 20261201T222625228429Z)",
    )


TESTS = tuple(
    replace(t, revisions=(*t.revisions, _first_quick(_FIRST_QUICK[t.name]))) if t.name in _FIRST_QUICK else t
    for t in _TESTS
)
