"""The five ways to turn a pose error into a joint step that Isaac Lab's
DifferentialIKController offers: `pinv`, `svd`, `trans`, `dls`, `adaptive_dls`.

Each function maps (J, e) -> dq with J the m x n task Jacobian (m = 3 for position only,
6 for a full pose) and e the m-vector task error. Parameter names and defaults follow
Isaac Lab's DifferentialIKControllerCfg.ik_params (facts looked up, code our own):

    pinv         k_val=1.0
    svd          k_val=1.0, min_singular_value=1e-5
    trans        k_val=1.0
    dls          lambda_val=0.01
    adaptive_dls lambda_min=0.05, lambda_max=0.2, sigma_thresh=0.02

Our own choices (documented where they differ from a single Isaac Lab control step):
- `trans` scales J^T e by Buss's optimal step length a = <e, JJ^T e> / |JJ^T e|^2 (times
  k_val). Plain J^T e with a fixed gain either crawls or overshoots depending on the arm's
  size; the line-search step is the minimizer of |e - a J J^T e| along that direction.
- `adaptive_dls` damping: lambda = lambda_min when the smallest singular value sigma_min is at
  least sigma_thresh, else it ramps quadratically,
  lambda = lambda_min + (lambda_max - lambda_min) * (1 - (sigma_min / sigma_thresh)^2),
  so it reaches lambda_max exactly at a singularity.
"""
from __future__ import annotations

import numpy as np

IK_METHODS = ("pinv", "dls", "trans", "svd", "adaptive_dls")

DEFAULT_IK_PARAMS = {
    "pinv": {"k_val": 1.0},
    "svd": {"k_val": 1.0, "min_singular_value": 1e-5},
    "trans": {"k_val": 1.0},
    "dls": {"lambda_val": 0.01},
    "adaptive_dls": {"lambda_min": 0.05, "lambda_max": 0.2, "sigma_thresh": 0.02},
}


def step_pinv(jac: np.ndarray, err: np.ndarray, k_val: float = 1.0) -> np.ndarray:
    """Moore-Penrose pseudo-inverse: the minimum-norm least-squares step."""
    return k_val * (np.linalg.pinv(jac) @ err)


def step_svd(jac: np.ndarray, err: np.ndarray, k_val: float = 1.0,
             min_singular_value: float = 1e-5) -> np.ndarray:
    """Truncated SVD: directions whose singular value is below the threshold get no motion,
    so a near-singular direction cannot demand a huge joint step."""
    u, s, vt = np.linalg.svd(jac, full_matrices=False)
    keep = s > min_singular_value
    s_inv = np.zeros_like(s)
    s_inv[keep] = 1.0 / s[keep]
    return k_val * (vt.T @ (s_inv * (u.T @ err)))


def step_transpose(jac: np.ndarray, err: np.ndarray, k_val: float = 1.0) -> np.ndarray:
    """Jacobian transpose (gradient of |e|^2/2) with Buss's optimal step length."""
    direction = jac.T @ err
    jjte = jac @ direction
    denom = float(jjte @ jjte)
    if denom <= 1e-18:
        return np.zeros(jac.shape[1])
    return k_val * (float(err @ jjte) / denom) * direction


def _damped(jac: np.ndarray, err: np.ndarray, lam: float) -> np.ndarray:
    m = jac.shape[0]
    return jac.T @ np.linalg.solve(jac @ jac.T + (lam * lam) * np.eye(m), err)


def step_dls(jac: np.ndarray, err: np.ndarray, lambda_val: float = 0.01) -> np.ndarray:
    """Damped least squares: J^T (J J^T + lambda^2 I)^-1 e — bounded steps at singularities."""
    return _damped(jac, err, lambda_val)


def adaptive_damping(sigma_min: float, lambda_min: float = 0.05, lambda_max: float = 0.2,
                     sigma_thresh: float = 0.02) -> float:
    """Damping for `adaptive_dls` given the smallest singular value of the Jacobian."""
    if sigma_min >= sigma_thresh:
        return lambda_min
    ratio = max(sigma_min, 0.0) / sigma_thresh
    return lambda_min + (lambda_max - lambda_min) * (1.0 - ratio * ratio)


def step_adaptive_dls(jac: np.ndarray, err: np.ndarray, lambda_min: float = 0.05,
                      lambda_max: float = 0.2, sigma_thresh: float = 0.02) -> np.ndarray:
    """Damped least squares whose damping grows as the arm nears a singularity."""
    sigma_min = float(np.linalg.svd(jac, compute_uv=False)[-1])
    return _damped(jac, err, adaptive_damping(sigma_min, lambda_min, lambda_max, sigma_thresh))


_STEPS = {"pinv": step_pinv, "svd": step_svd, "trans": step_transpose,
          "dls": step_dls, "adaptive_dls": step_adaptive_dls}


def ik_params_for(method: str, overrides: dict | None = None) -> dict:
    """Defaults for `method` updated by `overrides`; unknown methods or keys raise ValueError."""
    if method not in _STEPS:
        raise ValueError(f"unknown IK method '{method}'; choose one of {list(IK_METHODS)}")
    params = dict(DEFAULT_IK_PARAMS[method])
    for key, value in (overrides or {}).items():
        if key not in params:
            raise ValueError(f"IK method '{method}' has no parameter '{key}'; "
                             f"it takes {sorted(params)}")
        params[key] = float(value)
    if method == "adaptive_dls":
        if params["sigma_thresh"] <= 0.0:
            raise ValueError("adaptive_dls: sigma_thresh must be > 0")
        if params["lambda_min"] > params["lambda_max"]:
            raise ValueError("adaptive_dls: lambda_min must be <= lambda_max")
    return params


def joint_step(method: str, jac: np.ndarray, err: np.ndarray, params: dict) -> np.ndarray:
    """Joint step for one iteration of `method` (params as returned by ik_params_for)."""
    return _STEPS[method](jac, err, **params)
