"""The Bradley–Terry fit on a de-duplicated battle table, batched over groups and bootstrap
replicates: one Newton iteration updates every (group, replicate) block at once.

Blocks are independent logistic models without intercept: block k, models 0…M−1, parameters
θ_k (log-strengths). A row of the count table is a (block, model a, model b) with w = wins of
a and l = wins of b (a tie is half of each). The log-likelihood Σ w log σ(θ_a − θ_b) +
l log σ(θ_b − θ_a) is concave; Newton's step solves (H + u uᵀ) Δ = g per block (H the negative
Hessian, u the indicator of the block's models: the added u uᵀ fixes the free constant, keeping
Σ θ = 0 over the block's models), in one batched ``numpy.linalg.solve``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Newton iterations at most, and the step (in log-odds) below which a block has converged
MAX_ITER = 100
TOL = 1e-11
#: largest Newton step per coordinate (log-odds): a guard against overshooting far from θ
MAX_STEP = 5.0
#: blocks solved per batch (bounds the dense (blocks, M, M) Hessians to ~ 32 MB)
CELLS_PER_BATCH = 4_000_000


@dataclass
class Blocks:
    """The rows of a batch of blocks: block index, model codes, wins of a and b."""

    block: np.ndarray  # int64 (rows,)
    a: np.ndarray  # int64 (rows,)
    b: np.ndarray  # int64 (rows,)
    wins: np.ndarray  # float64 (rows,)
    losses: np.ndarray  # float64 (rows,)
    n_blocks: int
    n_models: int


def present(blocks: Blocks) -> np.ndarray:
    """(blocks, M) bool: the models with at least one battle (of positive weight) in a block."""
    k, m = blocks.n_blocks, blocks.n_models
    used = (blocks.wins + blocks.losses) > 0
    seen = np.zeros(k * m, dtype=bool)
    seen[(blocks.block * m + blocks.a)[used]] = True
    seen[(blocks.block * m + blocks.b)[used]] = True
    return seen.reshape(k, m)


def connected(blocks: Blocks, seen: np.ndarray) -> np.ndarray:
    """(blocks,) bool: whether the MLE exists — the directed graph "a beat b at least once"
    (a tie counts both ways) over the block's models is strongly connected (Zermelo 1929,
    Ford 1957). Computed for every block at once on their block-diagonal union."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    k, m = blocks.n_blocks, blocks.n_models
    a = blocks.block * m + blocks.a
    b = blocks.block * m + blocks.b
    src = np.concatenate([a[blocks.wins > 0], b[blocks.losses > 0]])
    dst = np.concatenate([b[blocks.wins > 0], a[blocks.losses > 0]])
    graph = coo_matrix((np.ones(src.size), (src, dst)), shape=(k * m, k * m)).tocsr()
    _, labels = connected_components(graph, directed=True, connection="strong")
    labels = labels.reshape(k, m)
    # strongly connected: every present model of the block in one component
    first = np.where(seen, labels, -1).max(axis=1)
    return ~np.any(seen & (labels != first[:, None]), axis=1) & seen.any(axis=1)


def newton(blocks: Blocks, seen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """θ (blocks, M) with Σ θ = 0 over each block's models, and (blocks,) converged flags."""
    k, m = blocks.n_blocks, blocks.n_models
    theta = np.zeros((k, m))
    u = seen.astype(float)
    fix = u[:, :, None] * u[:, None, :]
    absent = np.zeros((k, m, m))
    idx = np.arange(m)
    absent[:, idx, idx] = 1.0 - u  # absent models: identity rows, zero gradient
    n = blocks.wins + blocks.losses
    flat_a = blocks.block * m + blocks.a
    flat_b = blocks.block * m + blocks.b
    cell_ab = blocks.block * m * m + blocks.a * m + blocks.b
    cell_ba = blocks.block * m * m + blocks.b * m + blocks.a
    cell_aa = blocks.block * m * m + blocks.a * m + blocks.a
    cell_bb = blocks.block * m * m + blocks.b * m + blocks.b
    done = np.zeros(k, dtype=bool)
    for _ in range(MAX_ITER):  # loop-ok: Newton iterations, each over all blocks at once
        t = theta.reshape(-1)
        diff = t[flat_a] - t[flat_b]
        p = 0.5 * (1.0 + np.tanh(0.5 * diff))  # σ(diff), stable
        resid = blocks.wins - n * p
        grad = np.bincount(flat_a, resid, k * m) - np.bincount(flat_b, resid, k * m)
        h = n * p * (1.0 - p)
        cells = k * m * m
        hess = (
            np.bincount(cell_aa, h, cells)
            + np.bincount(cell_bb, h, cells)
            - np.bincount(cell_ab, h, cells)
            - np.bincount(cell_ba, h, cells)
        ).reshape(k, m, m)
        step = np.linalg.solve(hess + fix + absent, grad.reshape(k, m)[:, :, None])[:, :, 0]
        step = np.clip(step, -MAX_STEP, MAX_STEP)
        step[done] = 0.0
        theta += step
        size = np.abs(step).max(axis=1)
        done |= size < TOL
        if done.all():
            break
    return theta, done


def fit(blocks: Blocks) -> np.ndarray:
    """θ (blocks, M): NaN for a model absent from the block, and for every model of a block
    whose MLE does not exist (or did not converge)."""
    seen = present(blocks)
    ok = connected(blocks, seen)
    theta = np.full((blocks.n_blocks, blocks.n_models), np.nan)
    if not ok.any():
        return theta
    # solve only the blocks whose MLE exists, in batches bounding the dense Hessians
    keep = np.flatnonzero(ok)
    per_batch = max(1, CELLS_PER_BATCH // max(blocks.n_models**2, 1))
    row_of = np.full(blocks.n_blocks, -1)
    for start in range(0, keep.size, per_batch):  # loop-ok: batches of blocks (memory bound)
        chosen = keep[start : start + per_batch]
        row_of[:] = -1
        row_of[chosen] = np.arange(chosen.size)
        mask = row_of[blocks.block] >= 0
        sub = Blocks(
            block=row_of[blocks.block[mask]],
            a=blocks.a[mask],
            b=blocks.b[mask],
            wins=blocks.wins[mask],
            losses=blocks.losses[mask],
            n_blocks=chosen.size,
            n_models=blocks.n_models,
        )
        values, converged = newton(sub, seen[chosen])
        values = np.where(seen[chosen] & converged[:, None], values, np.nan)
        theta[chosen] = values
    return theta
