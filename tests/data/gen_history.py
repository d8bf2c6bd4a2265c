#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes nightly result files NIGHT01.json ... into DIR for tests/cli/history_check.sh: the shape
# of cmp_old.json, restart means with a 1% between-restart CoV (seeded), and Q3 20% slower from
# night STEP on. With "builds", night N's server is version 10.11.N-MariaDB with binary SHA-256 of
# "build-NN" (tests/cli/history_ci.sh). usage: gen_history.py DIR NIGHTS STEP [builds]
import hashlib, json, os, random, sys

out, nights, step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
builds = len(sys.argv) > 4 and sys.argv[4] == "builds"
base = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cmp_old.json")))
rng = random.Random(16)
for n in range(1, nights + 1):
    d = json.loads(json.dumps(base))
    d["started_at"] = "2026-11-%02dT01:00:00Z" % n
    d["finished_at"] = "2026-11-%02dT01:30:00Z" % n
    d["label"] = "night %d" % n
    if builds:
        d["server"]["version"] = "10.11.%d-MariaDB" % n
        d["server"]["binary_sha256"] = hashlib.sha256(b"build-%02d" % n).hexdigest()
    for q in d["queries"]:
        level = 1.2 if q["id"] == "Q3" and n >= step else 1.0
        for r in q["restarts"]:
            m = {"Q1": 100.0, "Q3": 50.0, "Q6": 20.0, "Q14": 10.0}[q["id"]] * level
            m *= 1 + rng.gauss(0, 0.01)
            r["measured_ms"] = [round(m * f, 6) for f in (0.999, 1.0, 1.001)]
            r["warmup_ms"] = [round(m * 1.5, 6)]
            if r.get("server_cpu_ms"):
                r["server_cpu_ms"] = [round(m * 0.9, 6)] * 3
    with open(os.path.join(out, "night%02d.json" % n), "w") as f:
        json.dump(d, f, indent=1)
