#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes NIGHTS nightly result files per host (a, b, c, d) into DIR as HOST-NN.json, for the
# history page's browser test (tests/test_hist_report_browser.c): the shape of seq_html_old.json
# (22 queries, 7 restarts), query q at 10 * q ms, restart means with a 1% CoV (seeded). Injected:
# host a Q5 15% slower from night 11, host b Q17 10% slower from night 21, host c Q9 12% faster
# from night 18, host a Q9 30% slower on night 16 only (an outlier). Night N's server is
# 10.11.N-MariaDB with binary SHA-256 of "HOST-NN". usage: gen_history_hosts.py DIR NIGHTS
import hashlib, json, os, random, sys

out, nights = sys.argv[1], int(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))
base = json.load(open(os.path.join(here, "seq_html_old.json")))
rng = random.Random(20261203)
STEPS = {("a", "Q5"): (11, 1.15), ("b", "Q17"): (21, 1.10), ("c", "Q9"): (18, 1 / 1.12)}
OUTLIERS = {("a", "Q9"): (16, 1.30)}
for host in "abcd":
    for n in range(1, nights + 1):
        d = json.loads(json.dumps(base))
        d["host"]["name"] = "host-" + host
        d["started_at"] = "2026-11-%02dT01:00:00Z" % n
        d["finished_at"] = "2026-11-%02dT01:40:00Z" % n
        d["server"]["version"] = "10.11.%d-MariaDB" % n
        d["server"]["binary_sha256"] = hashlib.sha256(b"%s-%02d" % (host.encode(), n)).hexdigest()
        for q in d["queries"]:
            level = 10.0 * int(q["id"][1:])
            at, f = STEPS.get((host, q["id"]), (None, 1.0))
            if at is not None and n >= at:
                level *= f
            at, f = OUTLIERS.get((host, q["id"]), (None, 1.0))
            if at == n:
                level *= f
            for r in q["restarts"]:
                m = level * (1 + rng.gauss(0, 0.01))
                r["measured_ms"] = [round(m * (1 + rng.gauss(0, 0.002)), 6)
                                    for _ in r["measured_ms"]]
        with open(os.path.join(out, "%s-%02d.json" % (host, n)), "w") as f:
            json.dump(d, f)
