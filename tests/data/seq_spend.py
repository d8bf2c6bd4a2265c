# SPDX-License-Identifier: MIT
"""The alpha spending functions of the sequential rule (docs/sequential.md), shared by the reference
scripts seq_bounds.py and seq_tbounds.py: O'Brien-Fleming type (Lan and DeMets 1983,
2 (1 - Phi(z_{alpha/2} / sqrt(t)))) and Pocock type (alpha log(1 + (e - 1) t))."""
import numpy as np
from scipy.stats import norm


def spend(kind, alpha, t):
    """The alpha spent by information fraction t ("obf" or "pocock")."""
    if t >= 1:
        return alpha
    if kind == "obf":
        return 2 * norm.sf(norm.isf(alpha / 2) / np.sqrt(t))
    return alpha * np.log(1 + (np.e - 1) * t)
