#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Independent reference values (SciPy/NumPy) for the issue-14 statistics in stats/.

Writes tests/stats_ref.h, which tests/test_stats.c includes. The C code is never called here:
every figure comes from scipy.stats (ttest_ind, t, f, chi2, nct) or a NumPy least-squares fit.
Run from the repository root (Debian python3-scipy):  /usr/bin/python3 tests/stats_ref.py > tests/stats_ref.h
"""
import math

import numpy as np
from scipy import stats

# log restart means (the C test feeds exp() of them), 5 a side, and a baseline of 8 restarts
A = [0.00, 0.031, -0.012, 0.018, 0.005]
B = [0.040, 0.062, 0.021, 0.055, 0.048]
A7 = [0.00, 0.031, -0.012, 0.018, 0.005, 0.024, -0.020]  # unequal n (Welch by the auto rule)
BASE = [0.010, -0.004, 0.022, 0.001, 0.015, -0.011, 0.008, 0.019]
WIDE = [0.00, 0.20, -0.15, 0.12, -0.08]  # variance far above A's: the F test rejects
ALPHA = 0.05
MU = math.log1p(0.02)  # min-effect 2%
M = 22  # queries for the simultaneous CI
out = []


def d(name, v):
    out.append("#define %s %.15g" % (name, v))


def arr(name, xs):
    out.append("static const double %s[] = {%s};" % (name, ", ".join("%.15g" % x for x in xs)))


a, b, a7, base, wide = map(np.array, (A, B, A7, BASE, WIDE))
arr("REF_A", A)
arr("REF_B", B)
arr("REF_A7", A7)
arr("REF_BASE", BASE)
arr("REF_WIDE", WIDE)

# pooled t, equal n (Student 1908) and one-sided
r2 = stats.ttest_ind(b, a, equal_var=True)
r1 = stats.ttest_ind(b, a, equal_var=True, alternative="greater")
df = len(a) + len(b) - 2
diff = b.mean() - a.mean()
se = diff / r2.statistic
d("REF_POOLED_T", r2.statistic)
d("REF_POOLED_DF", df)
d("REF_POOLED_P2", r2.pvalue)
d("REF_POOLED_P1", r1.pvalue)
q = stats.t.ppf(1 - ALPHA / 2, df)
d("REF_POOLED_CI_LO", math.exp(diff - q * se))
d("REF_POOLED_CI_HI", math.exp(diff + q * se))

# variance-ratio F test (two-sided) of the auto rule
f = a.var(ddof=1) / b.var(ddof=1)
d("REF_F_P_AB", 2 * min(stats.f.cdf(f, 4, 4), stats.f.sf(f, 4, 4)))
f = wide.var(ddof=1) / b.var(ddof=1)
d("REF_F_P_WIDE", 2 * min(stats.f.cdf(f, 4, 4), stats.f.sf(f, 4, 4)))

# one-sided shifted test H0 diff <= MU, pooled and Welch (unequal n)
d("REF_SHIFT_POOLED_P", stats.ttest_ind(b - MU, a, equal_var=True, alternative="greater").pvalue)
d("REF_SHIFT_WELCH_P", stats.ttest_ind(b - MU, a7, equal_var=False, alternative="greater").pvalue)
d("REF_WELCH_A7_P2", stats.ttest_ind(b, a7, equal_var=False).pvalue)
# improvement side, shifted: H0 diff >= -MU against diff < -MU (a vs b swapped: a faster)
d("REF_SHIFT_LESS_P", stats.ttest_ind(a + MU, b, equal_var=True, alternative="less").pvalue)

# TOST (Schuirmann 1987) with margin MU on A vs BASE-like data (close to equal): 5 vs 8
t_lo = stats.ttest_ind(base + MU, a, equal_var=True, alternative="greater").pvalue
t_hi = stats.ttest_ind(base - MU, a, equal_var=True, alternative="less").pvalue
d("REF_TOST_P", max(t_lo, t_hi))
dfe = len(a) + len(base) - 2
de = base.mean() - a.mean()
see = math.sqrt(((len(a) - 1) * a.var(ddof=1) + (len(base) - 1) * base.var(ddof=1)) / dfe
                * (1 / len(a) + 1 / len(base)))
q = stats.t.ppf(1 - ALPHA, dfe)
d("REF_TOST_LO", math.exp(de - q * see))
d("REF_TOST_HI", math.exp(de + q * see))

# pooled with history: the baseline's sum of squares and df added
ss = ((a - a.mean()) ** 2).sum() + ((b - b.mean()) ** 2).sum() + ((base - base.mean()) ** 2).sum()
dfh = (len(a) - 1) + (len(b) - 1) + (len(base) - 1)
seh = math.sqrt(ss / dfh * (1 / len(a) + 1 / len(b)))
d("REF_HIST_DF", dfh)
d("REF_HIST_SE", seh)
d("REF_HIST_P1", stats.t.sf(diff / seh, dfh))
d("REF_HIST_P2", 2 * stats.t.sf(abs(diff / seh), dfh))

# the baseline check: one-sided F of the current pooled variance (WIDE vs WIDE+0.01) over BASE's
wide2 = wide + 0.01
pv = ((wide - wide.mean()) ** 2).sum() + ((wide2 - wide2.mean()) ** 2).sum()
d("REF_BASE_CHECK_P", stats.f.sf(pv / 8 / base.var(ddof=1), 8, 7))

# simultaneous (Bonferroni) 95% CI over M queries for the pooled test
q = stats.t.ppf(1 - ALPHA / (2 * M), df)
d("REF_SIM_LO", math.exp(diff - q * se))
d("REF_SIM_HI", math.exp(diff + q * se))

# chi-square CI and upper bound of an sd: s = sd(A), 4 df
s = a.std(ddof=1)
d("REF_SD", s)
d("REF_SD_LO", s * math.sqrt(4 / stats.chi2.ppf(0.975, 4)))
d("REF_SD_HI", s * math.sqrt(4 / stats.chi2.ppf(0.025, 4)))
d("REF_SD_UCB", s * math.sqrt(4 / stats.chi2.ppf(0.05, 4)))

# power of the shifted one-sided pooled test: noncentral t (Cohen 1988 ch. 2 for the unshifted)
for n, eff, sdl, name in ((5, 0.05, 0.01, "REF_POW_SHIFT_5"), (8, 0.05, 0.02, "REF_POW_SHIFT_8")):
    nu = 2 * n - 2
    sd_d = sdl * math.sqrt(2 / n)
    c = stats.t.ppf(1 - ALPHA / M, nu)
    d(name, stats.nct.sf(c, nu, (math.log1p(eff) - MU) / sd_d))

# run-position effect: restarts x positions of log runs with a transient at positions 2-3.
rng = np.random.default_rng(14)
K, N = 4, 6
Y = 0.002 * rng.standard_normal((K, N)) + 0.01 * rng.standard_normal((K, 1))
Y[:, 1] += 0.05
Y[:, 2] += 0.03
out.append("static const double REF_POS_LOG[%d][%d] = {%s};" % (K, N, ", ".join(
    "{" + ", ".join("%.15g" % x for x in row) + "}" for row in Y)))
# additive model restart + position by least squares; residual SS from the fit
X = np.zeros((K * N, K + N - 1))
for i in range(K):
    for j in range(N):
        X[i * N + j, i] = 1
        if j:
            X[i * N + j, K + j - 1] = 1
y = Y.reshape(-1)
res_full = y - X @ np.linalg.lstsq(X, y, rcond=None)[0]
Xr = X[:, :K]
res_red = y - Xr @ np.linalg.lstsq(Xr, y, rcond=None)[0]
ss_res, ss_red = (res_full ** 2).sum(), (res_red ** 2).sum()
dfr = (K - 1) * (N - 1)
F = ((ss_red - ss_res) / (N - 1)) / (ss_res / dfr)
d("REF_POS_F", F)
d("REF_POS_P", stats.f.sf(F, N - 1, dfr))

# noise split of the same data: runs exp(Y); within = pooled var of log runs x mean(1/n)
lm = np.log(np.exp(Y).mean(axis=1))
sd_log = lm.std(ddof=1)
vw = (((Y - Y.mean(axis=1, keepdims=True)) ** 2).sum() / (K * (N - 1))) / N
d("REF_POS_SD_LOG", sd_log)
d("REF_POS_SD_WITHIN", math.sqrt(vw))
d("REF_POS_SD_BETWEEN", math.sqrt(max(0, sd_log ** 2 - vw)))

print("/* Generated by tests/stats_ref.py (SciPy %s, NumPy %s); do not edit. */" %
      (__import__("scipy").__version__, np.__version__))
print("#ifndef DBT3_STATS_REF_H\n#define DBT3_STATS_REF_H")
print("\n".join(out))
print("#endif")
