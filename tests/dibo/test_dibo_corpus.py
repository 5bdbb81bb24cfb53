"""The unified prompt-response corpus: pool, split, neighbourhoods, items, layouts, parser."""

import numpy as np
import pytest

from icml26.dibo import corpus, tasks
from icml26.dibo.corpus import (
    MASK,
    N_SHOTS,
    TOKEN,
    VOCAB,
    Pool,
    encode_items,
    format_label,
    layouts,
    parse_design,
)


@pytest.fixture(scope="module")
def pool():
    return Pool(tasks.tfbind8())


def test_pool_split_and_labels(pool):
    assert len(pool.y) == 500 and np.all(np.diff(pool.y) >= 0)
    assert len(pool.d2) == 100 and pool.d2.min() >= 350 and pool.d2.max() < 475
    assert len(np.intersect1d(pool.d1, pool.d2)) == 0 and len(pool.d1) == 400
    assert pool.y_min == pool.y.min() and pool.y_max == pool.y.max()


def test_every_adaptation_and_sft_item_has_positive_reward(pool):
    rng = np.random.default_rng(0)
    for anchors in (pool.da_anchors, pool.sft_anchors):
        items = pool.improvement_items(anchors, 2000, rng)
        assert items["prompt"].shape == (2000, N_SHOTS)
        assert np.all(items["reward"] > 0)
        assert np.all(np.isin(items["prompt"], pool.d1))
        assert np.all(items["prompt"] < items["anchor"][:, None])
    assert np.all(np.isin(pool.sft_anchors, pool.d2))


def test_about_half_of_rl_items_have_positive_reward(pool):
    items = pool.rl_items(4000, np.random.default_rng(1))
    positive = (items["reward"] > 0).mean()
    assert abs(positive - 0.5) < 0.03  # 4000 fair coins: sd 0.008
    assert np.all(items["reward"] != 0) and np.all(np.isin(items["anchor"], pool.d2))


def test_rl_items_follow_the_official_construction(pool):
    """Positive items: 7 of the anchor's lower list; negative items: exactly one of its higher list h, the
    other six strictly below y_h and from lower + (higher below y_h); prompts are not sorted by label
    (the official code keeps the draw order / shuffles)."""
    items = pool.rl_items(2000, np.random.default_rng(2))
    sorted_rows = 0
    for prompt, j, r in zip(items["prompt"], items["anchor"], items["reward"]):
        lower, higher = set(pool.lower[j].tolist()), set(pool.higher[j].tolist())
        if r > 0:
            assert set(prompt.tolist()) <= lower
        else:
            ys = pool.y[prompt]
            top = prompt[np.argmax(ys)]
            assert top in higher and np.sum(ys == ys.max()) == 1
            assert set(prompt.tolist()) - {top} <= lower | higher
        assert len(set(prompt.tolist())) == 7
        sorted_rows += bool(np.all(np.diff(pool.y[prompt]) >= 0))
    assert sorted_rows < 0.05 * len(items["prompt"])  # a random order of 7 is sorted with p = 1/5040
    da = pool.improvement_items(pool.da_anchors, 500, np.random.default_rng(3))["prompt"]
    assert np.mean([np.all(np.diff(pool.y[p]) >= 0) for p in da]) < 0.05


def test_label_format_is_fixed_width():
    assert format_label(0.439) == "+000.439"
    assert format_label(-1.5) == "-001.500"
    assert format_label(12.3456) == "+012.346"
    with pytest.raises(ValueError, match="finite"):
        format_label(float("inf"))


@pytest.mark.parametrize("markers", ["special", "natural"])
def test_prompts_hold_seven_pairs_and_the_span_covers_only_the_response_design(pool, markers):
    train, evaluation = layouts(8, markers)
    assert len(train) == 8 and len(evaluation) == 2
    assert len({len(lay.tokens) for lay in train + evaluation}) == 1
    items = pool.improvement_items(pool.da_anchors, 4, np.random.default_rng(2))
    rows = encode_items(train, np.arange(4), pool.x[items["prompt"]], pool.y[items["prompt"]],
                        pool.x[items["anchor"]], "ACGT")  # fmt: skip
    lay = train[0]
    text = [VOCAB[t] for t in rows[0]]
    if markers == "special":
        assert text.count("|design-start|") == N_SHOTS + 1 and text.count("|label-start|") == N_SHOTS
        span = [text[i] for i in lay.span]
        assert span[0] == "|design-start|" and span[-1] == "|design-end|" and len(span) == 10
        assert "".join(span[1:-1]) == "".join("ACGT"[i] for i in pool.x[items["anchor"][0]])
    else:
        assert not any(t in corpus.DELIMITERS for t in text)
        assert text.count("Design:") == N_SHOTS + 1 and text.count("Label:") == N_SHOTS
        span = [text[i] for i in lay.span]
        assert span[-1] == "\n" and len(span) == 9
    assert lay.span[-1] == len(lay.tokens) - 1  # the response ends the sequence
    labels = ["".join(text[i] for i in pos) for pos in lay.label_pos]
    assert labels == [format_label(y) for y in pool.y[items["prompt"][0]]]


def test_prompts_with_other_than_seven_pairs_are_rejected(pool):
    train, _ = layouts(8, "special")
    with pytest.raises(ValueError, match="exactly 7"):
        encode_items(train, np.zeros(1, int), pool.x[None, :6], pool.y[None, :6], pool.x[:1], "ACGT")


def test_too_few_neighbours_to_build_a_prompt_is_rejected():
    t = tasks.tfbind8()
    flat = tasks.Task(
        "flat", t.alphabet, 8, t.score, t.x_offline[:600], np.zeros(600)
    )  # one label: no lower ones
    with pytest.raises(ValueError, match="fewer than 7 lower-label neighbours"):
        Pool(flat)
    with pytest.raises(ValueError, match="fewer than the pool size"):
        Pool(tasks.Task("tiny", t.alphabet, 8, t.score, t.x_offline[:100], t.y_offline[:100]))


def test_parser_drops_non_letters_requires_the_length():
    ids = [TOKEN[c] for c in ["|design-start|", "A", "C", "G", "T", "A", "C", "G", "T", "|design-end|"]]
    np.testing.assert_array_equal(parse_design(np.array(ids), "ACGT", 8), [0, 1, 2, 3, 0, 1, 2, 3])
    noisy = [TOKEN["A"], TOKEN["7"], TOKEN["C"], TOKEN["+"], *[TOKEN["G"]] * 6, MASK]
    np.testing.assert_array_equal(parse_design(np.array(noisy), "ACGT", 8), [0, 1, 2, 2, 2, 2, 2, 2])
    assert parse_design(np.array([TOKEN["A"]] * 7), "ACGT", 8) is None
    assert (
        parse_design(np.array([TOKEN["E"], *[TOKEN["A"]] * 8]), "ACGT", 8) is not None
    )  # E is not DNA: dropped
