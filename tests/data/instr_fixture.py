#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes the instruction-count fixtures of tests/test_rpt_instr.c from a real `run --instructions`
result (bench/data/instructions-20261203/sf001.json.gz: SF 0.01, 3 restarts) and the expected
figures of compare's rule, derived here without dbt3stab's code (docs/work.md,
"The instructions verdict"): per file each ok restart's value is the mean of its measured callgrind_ir
counts; the file's mean is the mean of those, its spread (max - min) / min (0 with one);
ratio = new mean / old mean; changed when |ratio - 1| > 0.005 + 2 (spread_old + spread_new).

instr_old.json: Q1, Q6, Q9 with restarts 0 and 1; instr_new.json: the same queries with restart 2
alone, Q6's counts raised by 2 %.

instr_sigma.inc: per query of the source, the sd of the log restart means (n - 1 in the
denominator): the measured spread the Monte Carlo of tests/test_rpt_instr.c draws from.

instr_exact.inc: the exact family-wise A/A false-alarm rate of the rule at 1 restart a side for
each row of that Monte Carlo (the measured sigmas, times 10, and a fixed 0.05 %, 0.1 %, 0.3 %):
with one restart a side the spreads are 0 and the ratio is exp(sigma sqrt(2) Z), so a query is
changed with p = P(Z > log(1.005) / (sigma sqrt 2)) + P(Z < log(0.995) / (sigma sqrt 2)), and
the 22 independent queries give 1 - prod(1 - p).

usage: instr_fixture.py SF001.json.gz OUTDIR
       (writes instr_old.json, instr_new.json, instr_ref.inc, instr_sigma.inc, instr_exact.inc)
"""
import copy
import math
import statistics
import gzip
import json
import os
import sys

TOL, K = 0.005, 2.0


def side(q):
    vals = []
    for r in q["restarts"]:
        c = r["instructions"]["callgrind_ir"]
        c = c if isinstance(c, list) else [c] * len(r["measured_ms"])
        vals.append(sum(c) / len(c))
    return sum(vals) / len(vals), (max(vals) - min(vals)) / min(vals)


def phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


def familywise_n1(sigmas):
    keep = 1.0
    for s in sigmas:
        p = phi(-math.log1p(TOL) / (s * math.sqrt(2))) + phi(math.log1p(-TOL) / (s * math.sqrt(2)))
        keep *= 1 - p
    return 1 - keep


def write_exact(out, sigmas):
    rows = [("measured", sigmas), ("measured x 10", [10 * s for s in sigmas]),
            ("0.05 %", [0.0005] * 22), ("0.1 %", [0.001] * 22), ("0.3 %", [0.003] * 22)]
    with open(os.path.join(out, "instr_exact.inc"), "w") as f:
        f.write("/* made by tests/data/instr_fixture.py: exact A/A family-wise rate, n = 1 */\n")
        f.write("static const double instr_exact_n1[] = {\n")
        for name, sg in rows:
            f.write(f"    {familywise_n1(sg)!r}, /* {name} */\n")
        f.write("};\n")


def main(src, out):
    d = json.load(gzip.open(src, "rt"))
    sigmas = []
    with open(os.path.join(out, "instr_sigma.inc"), "w") as f:
        f.write("/* made by tests/data/instr_fixture.py */\n")
        f.write("static const double instr_sigma[] = {\n")
        for q in d["queries"]:
            vals = []
            for r in q["restarts"]:
                c = r["instructions"]["callgrind_ir"]
                c = c if isinstance(c, list) else [c] * len(r["measured_ms"])
                vals.append(math.log(sum(c) / len(c)))
            f.write(f"    {statistics.stdev(vals)!r}, /* {q['id']} */\n")
            sigmas.append(statistics.stdev(vals))
        f.write("};\n")
    write_exact(out, sigmas)
    d["queries"] = [q for q in d["queries"] if q["id"] in ("Q1", "Q6", "Q9")]
    d["plan"]["queries"] = ["Q1", "Q6", "Q9"]
    old, new = copy.deepcopy(d), copy.deepcopy(d)
    for q in old["queries"]:
        q["restarts"] = q["restarts"][:2]
    for q in new["queries"]:
        q["restarts"] = q["restarts"][2:]
        if q["id"] == "Q6":
            r = q["restarts"][0]
            c = r["instructions"]["callgrind_ir"]
            r["instructions"]["callgrind_ir"] = ([round(x * 1.02) for x in c]
                                                 if isinstance(c, list) else round(c * 1.02))
    for name, doc in (("instr_old.json", old), ("instr_new.json", new)):
        with open(os.path.join(out, name), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    with open(os.path.join(out, "instr_ref.inc"), "w") as f:
        f.write("/* made by tests/data/instr_fixture.py */\n")
        f.write("static const struct { const char *id; double ratio, bound; int changed; } "
                "instr_ref[] = {\n")
        for qo, qn in zip(old["queries"], new["queries"]):
            (mo, so), (mn, sn) = side(qo), side(qn)
            ratio, bound = mn / mo, TOL + K * (so + sn)
            f.write(f'    {{"{qo["id"]}", {ratio!r}, {bound!r}, {int(abs(ratio - 1) > bound)}}},\n')
        f.write("};\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2])
