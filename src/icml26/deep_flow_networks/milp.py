"""One MILP/LP helper over ``highspy`` with deterministic solve statistics (nodes, simplex iterations)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import highspy
import numpy as np
import scipy.sparse as sp

from icml26.common import quiet_native_output
from icml26.deep_flow_networks.solver import SolverError


@dataclass
class MilpResult:
    """x: the optimal point; value: its objective; seconds: wall time; nodes: branch-and-bound nodes;
    iterations: simplex iterations (both deterministic with one thread and a fixed seed)."""

    x: np.ndarray
    value: float
    seconds: float
    nodes: int
    iterations: int
    capped: bool = False


def solve_milp(
    c: np.ndarray,
    a: sp.spmatrix,
    row_lo: np.ndarray,
    row_hi: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    integer: np.ndarray,
    name: str,
    time_limit: float = 600.0,
    relax: bool = False,
    start: np.ndarray | None = None,
) -> MilpResult:
    """``min c^T z  s.t.  row_lo <= a z <= row_hi,  lo <= z <= hi,  z_j integer where integer[j]``.

    ``relax=True`` solves the LP relaxation; ``start`` is a feasible point handed to HiGHS as incumbent. Raises :class:`SolverError` naming ``name`` unless HiGHS
    proves optimality (a time-limit stop included).
    """
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float) or not time_limit > 0:
        raise ValueError(f"time_limit must be a number > 0 (seconds), got {time_limit!r}")
    a = sp.csc_matrix(a)
    n_rows, n_cols = a.shape
    with quiet_native_output():
        h = highspy.Highs()
    for key, value in (
        ("output_flag", False),
        ("random_seed", 0),
        ("time_limit", float(time_limit)),
        ("mip_rel_gap", 1e-6),
    ):
        h.setOptionValue(key, value)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n_cols, n_rows
    lp.col_cost_ = np.asarray(c, dtype=float)
    lp.col_lower_ = np.asarray(lo, dtype=float)
    lp.col_upper_ = np.asarray(hi, dtype=float)
    lp.row_lower_ = np.asarray(row_lo, dtype=float)
    lp.row_upper_ = np.asarray(row_hi, dtype=float)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = a.indptr.astype(np.int32)
    lp.a_matrix_.index_ = a.indices.astype(np.int32)
    lp.a_matrix_.value_ = a.data.astype(float)
    if not relax:
        lp.integrality_ = [
            highspy.HighsVarType.kInteger if flag else highspy.HighsVarType.kContinuous for flag in integer
        ]
    if h.passModel(lp) != highspy.HighsStatus.kOk:
        raise SolverError(f"HiGHS MILP {name!r}: the model was rejected (check bounds and matrix)")
    if start is not None:
        sol = highspy.HighsSolution()
        sol.col_value = np.asarray(start, dtype=float)
        sol.value_valid = True
        h.setSolution(sol)
    begin = time.perf_counter()
    h.run()
    seconds = time.perf_counter() - begin
    status = h.getModelStatus()
    capped = status == highspy.HighsModelStatus.kTimeLimit and bool(h.getSolution().value_valid)
    if status != highspy.HighsModelStatus.kOptimal and not capped:
        raise SolverError(f"HiGHS MILP {name!r} ended {h.modelStatusToString(status)} after {seconds:.1f} s")
    info = h.getInfo()
    nodes = 0 if relax else int(max(info.mip_node_count, 0))
    value = info.objective_function_value
    if not math.isfinite(value):
        raise SolverError(f"HiGHS MILP {name!r} returned a non-finite objective")
    return MilpResult(
        np.asarray(h.getSolution().col_value),
        float(value),
        seconds,
        nodes,
        int(max(info.simplex_iteration_count, 0)),
        capped,
    )
