#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Synthetic result files of one interleaved two-variant run, drawn from the variance components
and warm-up shapes measured on this machine (tests/data/mc_calib.inc, made by
tests/data/mc_calib.py from a real idle A/A): per query a restart effect N(0, sd_b^2) on the log
scale, log-normal executions with the within-restart CoV, execution j of a restart scaled by the
measured warm-up shape, a drift of D over the run (linear plus a random walk of sd D), restarts
in ABBA order. The same model as tests/test_stats_mc_seq.c.

usage: protocol_gen.py OLD.json NEW.json [--pairs K] [--warmup W] [--runs N] [--seed S]
       [--noise-seed S2] [--effect Q3=1.05,...] [--sd Q1=0.01,...] [--sd-mult X] [--drift D] [--queries Q1,Q6]
       [--max-pairs K]
"""
import argparse
import hashlib
import json
import math
import os
import random
import re

HERE = os.path.dirname(os.path.abspath(__file__))
CALIB = os.path.join(HERE, "..", "tests", "data", "mc_calib.inc")


def calib():
    out = {}
    pat = re.compile(r'\{"(Q\d+)", ([\d.]+), ([\d.]+), \{([^}]*)\}\}')
    with open(CALIB) as f:
        for line in f:
            m = pat.match(line.strip())
            if m:
                out[m.group(1)] = (float(m.group(2)), float(m.group(3)),
                                   [float(x) for x in m.group(4).split(",")])
    return out


def pairs_of(s):
    out = {}
    for item in filter(None, (s or "").split(",")):
        k, v = item.split("=")
        out[k.strip()] = float(v)
    return out


def sha(s):
    return hashlib.sha256(s.encode()).hexdigest()


def drift_path(rng, starts, d):
    w, out = 0.0, []
    step = d / math.sqrt(starts - 1) if starts > 1 else 0
    for s in range(starts):
        if s:
            w += rng.gauss(0, step)
        out.append(d * s / max(starts - 1, 1) + w)
    return out


def restart(rng, mu, sd_w, shape, warmup, runs, index, start):
    def ex(j):
        sh = shape[j] if j < len(shape) else 0.0
        return round(math.exp(mu + sh + rng.gauss(0, sd_w)), 6)
    return {"index": index, "status": "ok",
            "warmup_ms": [ex(j) for j in range(warmup)],
            "measured_ms": [ex(warmup + j) for j in range(runs)],
            "server_cpu_ms": [], "rows": 1, "result_sha256": sha("answer"),
            "plan_sha256": sha("plan"), "not_steady": False, "error": None,
            "server_start": start}


def generate(a):
    cal, rng = calib(), random.Random(a.noise_seed if a.noise_seed else a.seed)
    levels = random.Random(a.seed)  # query levels: the same for every noise seed
    effect, sd_over = pairs_of(a.effect), pairs_of(a.sd)
    ids = a.queries.split(",") if a.queries else sorted(cal, key=lambda q: int(q[1:]))
    dr = drift_path(rng, 2 * a.pairs, a.drift)
    docs = []
    for v in ("old", "new"):
        plan = {"restarts": a.pairs, "warmup": a.warmup, "runs": a.runs, "query_order": "fixed",
                "seed": a.seed, "variant": v, "variant_spec": None, "generator": "protocol_gen.py"}
        if a.max_pairs:
            plan["max_pairs"] = a.max_pairs
        docs.append({"format": "dbt3stab-result", "format_version": 1, "tool_version": "0.1.0",
                     "label": "synthetic", "started_at": "2026-12-01T03:00:00Z",
                     "finished_at": "2026-12-01T04:00:00Z", "host": {"name": "synthetic"},
                     "server": {"version": "10.11.6-MariaDB"},
                     "dataset": {"scale_factor": 0.1, "generator_version": "dbgen-2.18.0",
                                 "fingerprint": sha("sf0.1")},
                     "plan": plan, "pinning": {}, "queries": []})
    for q in ids:
        sd_b, cov_w, shape = cal[q]
        sd_b = sd_over.get(q, sd_b * a.sd_mult)
        sd_w = math.sqrt(math.log1p((cov_w * a.sd_mult) ** 2))
        mu = math.log(levels.uniform(20, 2000))
        rs = ([], [])
        for i in range(a.pairs):
            first = i % 2  # ABBA: old first in even pairs
            for side in (0, 1):
                start = 2 * i + (side if first == 0 else 1 - side)
                m = mu + rng.gauss(0, sd_b) + dr[start]
                if side:
                    m += math.log(effect.get(q, 1.0))
                rs[side].append(restart(rng, m, sd_w, shape, a.warmup, a.runs, i, start))
        for side in (0, 1):
            docs[side]["queries"].append({"id": q, "sql_sha256": sha("select " + q),
                                          "restarts": rs[side]})
    return docs


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--pairs", type=int, default=10)
    p.add_argument("--warmup", type=int, default=8)
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--noise-seed", type=int, default=0)
    p.add_argument("--effect", default="")
    p.add_argument("--sd", default="")
    p.add_argument("--sd-mult", type=float, default=1.0)
    p.add_argument("--drift", type=float, default=0.0)
    p.add_argument("--queries", default="")
    p.add_argument("--max-pairs", type=int, default=0)
    a = p.parse_args()
    for path, doc in zip((a.old, a.new), generate(a)):
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
