#!/usr/bin/env python3
# The figures of compare --sequential --baseline's lend check on the fixtures seq_old.json /
# seq_new.json (paired, one run) with the baseline seq_sep_new.json, computed independently of
# the C code (mpmath's regularized incomplete beta for the F tail, its chi-square tail for
# Fisher's combination). The restart mean is the arithmetic mean of an ok restart's measured
# runs. Asserted by tests/test_rpt_seq_baseline.c (the_lend_check_figures).
# It also writes seq_quiet_base.json: seq_sep_new.json with each query's restart means pulled
# towards their geometric mean (log deviations / 5, variance / 25, every run of a restart scaled
# alike), a baseline far quieter than the pairs, which the check refuses.
#   python3 tests/data/lend_check.py
import json, math, os, sys
import mpmath

mpmath.mp.dps = 30
here = os.path.dirname(os.path.abspath(__file__))


def means(path):
    d = json.load(open(os.path.join(here, path)))
    out = {}
    for q in d["queries"]:
        out[q["id"]] = {r["index"]: sum(r["measured_ms"]) / len(r["measured_ms"])
                        for r in q["restarts"] if r["status"] == "ok" and r["measured_ms"]}
    return out


def sample_var(x):
    m = sum(x) / len(x)
    return sum((v - m) ** 2 for v in x) / (len(x) - 1), len(x) - 1


def f_upper(f, d1, d2):
    # P(F > f) = I_{d2 / (d2 + d1 f)}(d2 / 2, d1 / 2)
    x = mpmath.mpf(d2) / (d2 + d1 * mpmath.mpf(f))
    return mpmath.betainc(mpmath.mpf(d2) / 2, mpmath.mpf(d1) / 2, 0, x, regularized=True)


def chisq_upper(x, k):
    return mpmath.gammainc(mpmath.mpf(k) / 2, mpmath.mpf(x) / 2, mpmath.inf, regularized=True)


def own_unpaired(old, new):
    # within each variant, pooled: (ss_old + ss_new) / (n_old - 1 + n_new - 1)
    vo, do = sample_var([math.log(v) for v in old.values()])
    vn, dn = sample_var([math.log(v) for v in new.values()])
    return (vo * do + vn * dn) / (do + dn), do + dn


def check(old, new, base, paired=True):
    x, logr, k = mpmath.mpf(0), 0.0, 0
    for qid in old:
        bv, bdf = sample_var([math.log(v) for v in base[qid].values()])
        if paired:
            ov, odf = sample_var([math.log(new[qid][i] / old[qid][i]) for i in old[qid] if i in new[qid]])
            lent = 2 * bv
        else:
            (ov, odf), lent = own_unpaired(old[qid], new[qid]), bv
        f = ov / lent
        p = f_upper(f, odf, bdf)
        print(f"  {qid}: own {ov:.6g} on {odf} df, lent {lent:.6g} on {bdf} df, F {f:.6g}, p {mpmath.nstr(p, 10)}")
        x += -2 * mpmath.log(p)
        logr += math.log(f)
        k += 1
    return k, math.exp(logr / k), chisq_upper(x, 2 * k)


def write_quiet(src, dst, shrink=5.0):
    d = json.load(open(os.path.join(here, src)))
    for q in d["queries"]:
        ok = [r for r in q["restarts"] if r["status"] == "ok" and r["measured_ms"]]
        m = [sum(r["measured_ms"]) / len(r["measured_ms"]) for r in ok]
        g = math.exp(sum(math.log(v) for v in m) / len(m))
        for r, v in zip(ok, m):
            f = g * (v / g) ** (1 / shrink) / v
            r["measured_ms"] = [round(x * f, 6) for x in r["measured_ms"]]
    with open(os.path.join(here, dst), "w") as out:
        json.dump(d, out, indent=1)
        out.write("\n")


write_quiet("seq_sep_new.json", "seq_quiet_base.json")
old, new = means("seq_old.json"), means("seq_new.json")
for name in ("seq_sep_new.json", "seq_quiet_base.json"):
    print(name)
    k, ratio, p = check(old, new, means(name))
    print(f"queries {k}, ratio {ratio:.10g}, p {mpmath.nstr(p, 12)}")
# unpaired (two runs): seq_old.json against seq_sep_new.json, seq_new.json as the baseline
print("unpaired: seq_old.json / seq_sep_new.json, baseline seq_new.json")
k, ratio, p = check(old, means("seq_sep_new.json"), new, paired=False)
print(f"queries {k}, ratio {ratio:.10g}, p {mpmath.nstr(p, 12)}")
