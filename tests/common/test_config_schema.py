"""The profile-key schema (icml26.common.schema): every key of every method has a declared type and range,
and NaN, ±inf, negative, zero, huge and wrong-length values end in one clean ValueError before anything
runs (never a hang, a TypeError or a failure inside the run)."""

from __future__ import annotations

import math

import pytest

from icml26.cli import main
from icml26.common import METHOD_NAMES
from icml26.common.config import resolve_config
from icml26.common.registry import get_experiment, is_implemented
from icml26.common.schema import Bool, Choice, Device, Float, Int, ListOf, Names, Spec, Text, check_value

METHODS = [m for m in METHOD_NAMES if is_implemented(m)]
HUGE_INT, HUGE_FLOAT = 10**15, 1e300


def _probes(spec: Spec, default):
    """(value, must_reject) pairs for one key: must_reject is False where the declared range holds it."""
    if isinstance(spec, Int):
        yield from (
            (math.nan, True),
            (math.inf, True),
            (-math.inf, True),
            (HUGE_INT, True),
            (-1, spec.low > -1),
            (0, spec.low > 0),
            (1.5, True),
            (True, True),
        )
    elif isinstance(spec, Float):
        yield from ((math.nan, True), (math.inf, True), (-math.inf, True), (HUGE_FLOAT, True))
        for x in (-1.0, 0.0):
            inside = (x > spec.low if spec.low_open else x >= spec.low) and x <= spec.high
            yield x, not inside
        yield [0.5], True  # a list where a number belongs
    elif isinstance(spec, ListOf):
        item = default[0]
        yield [], spec.low_len > 0
        yield [item] * (spec.high_len + 1), True
        yield 7, True  # a scalar where a list belongs (strings are --set values, split at commas)
        for bad, _ in _probes(spec.item, item):
            yield [bad] * max(spec.low_len, 1), check_value_rejects(spec.item, bad)
    elif isinstance(spec, Names):
        yield "", True
        yield ",".join([default.split(",")[0]] * 2), True  # a repeat
        yield "nan", True
        yield "-1", check_value_rejects(spec.item, -1) if isinstance(spec.item, Int | Float) else True
        yield "1e300", True
    elif isinstance(spec, Bool):
        yield from ((math.nan, True), (0, True), ([True], True))
    elif isinstance(spec, Choice | Device | Text):
        yield from (("nan", True), ("", True), (math.nan, True), (-1, True))
    else:  # pragma: no cover
        raise AssertionError(f"no probes for {spec!r}")


def check_value_rejects(spec: Spec, value) -> bool:
    try:
        spec.accepts(value)
    except ValueError:
        return True
    return False


def test_every_implemented_method_declares_every_key():
    assert len(METHODS) >= 13
    for method in METHODS:
        experiment = get_experiment(method)
        assert experiment.schema is not None, f"{method} declares no schema"
        assert set(experiment.schema) == set(experiment.profiles["quick"]), method


@pytest.mark.parametrize("method", METHODS)
def test_bad_values_are_rejected_before_the_run(method):
    """Each key of ``method`` fed NaN, ±inf, negative, zero, huge and wrong-length values: out of its
    declared range -> ValueError naming the key and what is accepted; inside it -> the config resolves or
    a cross-key rule raises ValueError; never any other exception."""
    experiment = get_experiment(method)
    for key, spec in experiment.schema.items():
        default = experiment.profiles["smoke"][key]
        for value, must_reject in _probes(spec, default):
            try:
                resolve_config(experiment, "smoke", {key: value})
            except ValueError as exc:
                if must_reject:
                    assert key in str(exc) and "accepted" in str(exc), (key, value, str(exc))
            except Exception as exc:  # noqa: BLE001
                pytest.fail(f"{method} {key}={value!r}: {type(exc).__name__}: {exc} (expected ValueError)")
            else:
                assert not must_reject, f"{method} {key}={value!r} was accepted"


@pytest.mark.parametrize(
    "method, item",
    [
        ("collocation_sampler", "sigma=-0.3"),
        ("collocation_sampler", "sigma=nan"),
        ("collocation_sampler", "T=inf"),
        ("collocation_sampler", "scipy_tols=nan"),  # hung the smoke run for minutes
        ("ricci_geometry", "target_accuracy=nan"),
        ("ricci_geometry", "target_accuracy=1.5"),
        ("ricci_geometry", "n_train=-1"),
        ("flow_optimizer", "dcopf_load_low=nan"),
        ("truthful_valuation", "sizes=20,40"),  # was "not enough values to unpack" inside the run
    ],
)
def test_issue_values_exit_2_before_the_run(method, item, tmp_path, capsys):
    """The values an attack found caught only inside the run: now exit 2, one line, no run directory."""
    code = main(["run", method, "--profile", "smoke", "--set", item, "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith("error:") and item.split("=")[0] in err and "Traceback" not in err
    assert not (tmp_path / method).exists()


def test_specs_accept_their_range_and_describe_it():
    assert Int(1, 3).accepts(2) == 2 and Float(0, 1, low_open=True).accepts(1) == 1.0
    assert ListOf(Int(1, 9), 2, 3, increasing=True).accepts([1, 4]) == [1, 4]
    assert Names(Choice(("a", "b"))).accepts("a,b") == "a,b"
    assert Text(r"\d+x\d+", "KxS").accepts("3x100") == "3x100"
    for spec, bad in (
        (Int(1, 3), 4),
        (Float(0, 1, low_open=True), 0.0),
        (ListOf(Int(1, 9), 2, 3, increasing=True), [4, 1]),
        (ListOf(Int(1, 9), 1, 3, distinct=True), [4, 4]),
        (Names(Choice(("a", "b"))), "a,c"),
        (Device(), "tpu"),
    ):
        with pytest.raises(ValueError, match=r"config k=.*accepted: "):
            check_value("m", "k", bad, spec)
    with pytest.raises(ValueError, match="need finite"):
        Float(0, math.inf)
