#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Synthetic samples of doctor's host-noise check and the verdict the rule of docs/pinning.md
("host_noise") gives each, computed here without the C code; tests/test_doctor_quiet.c feeds
the samples to doctor_quiet_judge and compares. Writes host_noise_cases.json beside itself.

The rule (run's for memory contention, result/res.h, with the host's stored floor in place of a
result file's fastest probe): without a stored floor there is no memory verdict ("none"); with
one and at least 3 probes, a probe is under pressure above twice the floor, and more than 25 %
under pressure is "pressed" (restart noise 17.0-20.6 % expected), else "quiet" (2.7-13.4 %);
fewer than 3 probes is "none". Steal above 5 % of the PUs' time warns. Status: warn when
pressed or steal is high, ok when quiet, else unknown. The sample's own floor is its
floor(0.05 n)-th fastest (0-based).

usage: tests/data/host_noise_cases.py
"""
import json
import math
import os
import random
import statistics

FACTOR, PRESSED, STEAL, MIN_JUDGED, QUANTILE = 2.0, 0.25, 0.05, 3, 0.05
BANDS = {"quiet": (0.027, 0.134), "pressed": (0.170, 0.206)}


def judge(near, far, steal, floor):
    out = {"n": len(near), "pressured": 0, "share": None, "memory": "none",
           "fastest_ns": min(near) if near else None,
           "median_ns": statistics.median(near) if near else None,
           "far_ns": statistics.median(far) if far else None,
           "sample_floor_ns": sorted(near)[math.floor(QUANTILE * len(near))] if near else None,
           "pressure": None,
           "steal_high": steal is not None and steal > STEAL, "noise": None}
    if floor is not None and near:
        out["pressure"] = out["median_ns"] / floor
    if floor is not None and len(near) >= MIN_JUDGED:
        out["pressured"] = sum(1 for v in near if v > FACTOR * floor)
        out["share"] = out["pressured"] / len(near)
        out["memory"] = "pressed" if out["share"] > PRESSED else "quiet"
        out["noise"] = BANDS[out["memory"]]
    if out["steal_high"] or out["memory"] == "pressed":
        out["status"] = "warn"
    elif out["memory"] == "quiet":
        out["status"] = "ok"
    else:
        out["status"] = "unknown"
    return out


def mix(rng, n, share, cached, evicted):
    """n probes, round(share * n) of them drawn from evicted, the rest from cached."""
    k = round(share * n)
    v = [rng.uniform(*evicted) for _ in range(k)] + [rng.uniform(*cached) for _ in range(n - k)]
    rng.shuffle(v)
    return [round(x, 3) for x in v]


def cases():
    """(name, near, far, steal share, stored floor or None)."""
    rng = random.Random(20261203)
    far = lambda n, lo=95, hi=140: [round(rng.uniform(lo, hi), 3) for _ in range(n)]
    amd_c, amd_e = (11.5, 14.0), (60.0, 280.0)
    yield "quiet_amd", mix(rng, 212, 0.03, amd_c, amd_e), far(27), 0.0, 11.4
    yield "pressed_amd", mix(rng, 180, 0.40, amd_c, amd_e), far(23), 0.001, 11.4
    yield "evicted_throughout", mix(rng, 60, 1.0, amd_c, amd_e), far(8), 0.0, 11.4
    yield "no_floor_amd", mix(rng, 60, 1.0, amd_c, amd_e), far(8), 0.0, None
    yield "quiet_but_steal", mix(rng, 100, 0.0, amd_c, amd_e), far(13), 0.10, 11.4
    yield "steal_without_floor", mix(rng, 100, 0.0, amd_c, amd_e), far(13), 0.10, None
    yield "steal_unknown", mix(rng, 40, 0.0, amd_c, amd_e), far(5), None, 11.4
    yield "too_few_probes", [95.0, 80.5], [120.0], 0.0, 50.0
    yield "three_probes_judged", [95.0, 80.5, 101.0], [120.0], 0.0, 50.0
    yield "no_reference", mix(rng, 50, 0.5, amd_c, amd_e), [], 0.0, 11.4
    # the edges: 2 of 8 is 25 %, not above; a probe at exactly twice the floor is not under
    # pressure; steal at exactly 5 %
    yield "share_at_the_edge", [10.0] * 6 + [30.0, 31.0], [100.0], 0.0, 10.0
    yield "share_above_the_edge", [10.0] * 5 + [30.0, 31.0, 32.0], [100.0], 0.0, 10.0
    yield "probe_at_twice", [10.0] * 10 + [20.0] * 6, [100.0, 90.0], 0.05, 10.0
    # the Intel VM (bench/data/host-noise-doctor-20261203), 8 probes with the fastest and the
    # median seen there: idle 101.3 and 127.7 ns, with a streamer on the server's PU 201.2 and
    # 206.6 ns, against a floor of the idle fastest; the reference moved with them (254, 368 ns)
    intel_idle = [101.3, 104.0, 112.5, 127.0, 128.4, 131.0, 140.2, 155.0]
    intel_streamed = [201.2, 203.0, 204.9, 206.0, 207.2, 208.1, 211.0, 215.5]
    yield "intel_idle_as_seen", intel_idle, [254.0], 0.0, 101.3
    yield "intel_streamer_as_seen", intel_streamed, [368.0], 0.0, 101.3
    yield "intel_idle_no_floor", intel_idle, [254.0], 0.0, None
    yield "intel_streamer_no_floor", intel_streamed, [368.0], 0.0, None


def main():
    out = []
    for name, near, far, steal, floor in cases():
        out.append({"name": name, "near": near, "far": far, "steal_share": steal,
                    "floor": floor, "want": judge(near, far, steal, floor)})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "host_noise_cases.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for c in out:
        w = c["want"]
        print("%-24s n %3d pressured %3d memory %-8s status %s" %
              (c["name"], w["n"], w["pressured"], w["memory"], w["status"]))


if __name__ == "__main__":
    main()
