#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Calibration of the sequential Monte Carlo (tests/test_stats_mc.c, bench/protocol.sh) from real
result files of this machine: an interleaved A/A at SF 0.1, 6 restarts a side, 8 warm-up + 10
measured (/work/shared/measurements/aa-idle-{a,b}.json.gz, MariaDB 10.11, 2 vCPU KVM).
Per query: the between-restart SD of the log restart means (pooled over both sides, 10 df), the
within-restart CoV of the measured runs, and the warm-up shape: the mean log ratio of warm-up
execution j (1..8) to the restart's measured mean. Drift: the slope of the log restart means
against the server start number, pooled over queries and sides, over the whole run.
Run: /usr/bin/python3 tests/data/mc_calib.py DIR   (writes tests/data/mc_calib.inc)."""
import gzip
import json
import os
import sys

import numpy as np

W = 8


def load(path):
    with gzip.open(path) as f:
        return json.load(f)


def main(src):
    files = [load(os.path.join(src, "aa-idle-%s.json.gz" % s)) for s in "ab"]
    rows, slopes = [], []
    for qi, q in enumerate(files[0]["queries"]):
        resid, within, shape = [], [], []
        for f in files:
            rs = [r for r in f["queries"][qi]["restarts"] if r["status"] == "ok"]
            lm = np.log([np.mean(r["measured_ms"]) for r in rs])
            resid.extend(lm - lm.mean())
            starts = np.array([r["server_start"] for r in rs], dtype=float)
            slopes.append(np.polyfit(starts, lm, 1)[0])
            for r in rs:
                m = np.array(r["measured_ms"])
                within.append(np.std(m, ddof=1) / m.mean())
                shape.append(np.log(np.array(r["warmup_ms"][:W]) / m.mean()))
        df = len(resid) - 2
        sd_b = np.sqrt(np.sum(np.square(resid)) / df)
        rows.append((q["id"], sd_b, float(np.sqrt(np.mean(np.square(within)))),
                     np.mean(shape, axis=0)))
    n_starts = 1 + max(r["server_start"] for f in files for q in f["queries"]
                       for r in q["restarts"])
    drift = float(np.mean(slopes)) * (n_starts - 1)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mc_calib.inc")
    with open(out, "w") as o:
        o.write("/* made by tests/data/mc_calib.py from aa-idle-{a,b}: do not edit\n"
                " * {id, sd of log restart means, within-restart CoV, warm-up shape 1..8} */\n")
        for qid, sd_b, cw, sh in rows:
            o.write('{"%s", %.5f, %.5f, {%s}},\n' % (qid, sd_b, cw,
                                                 ", ".join("%.4f" % x for x in sh)))
        o.write("/* drift of log restart means over the run (%d server starts): %.5f */\n"
                % (n_starts, drift))
    print("median sd_b %.4f, drift over the run %.4f" % (np.median([r[1] for r in rows]), drift))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/measurements")
