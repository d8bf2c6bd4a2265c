#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Expected buffer pools of run --side-by-side (tests/test_run_sbs.c), derived by hand from
# docs/server.md's rule: need = data x 1.25 + 128 MiB rounded up to 128 MiB; one server's pools
# may take cap = max(RAM / 2, min(RAM x 3/4, RAM - 4 GiB)) in whole 128 MiB chunks; the two pools must fit in cap.
# Data before a load: 2.6 GiB per scale factor (SRV_DATA_BYTES_PER_SF).
MiB, GiB = 1 << 20, 1 << 30

def need(data):
    n = data + data // 4 + 128 * MiB
    return -(-n // (128 * MiB)) * (128 * MiB)

def cap(ram):
    c = max(ram // 2, min(ram * 3 // 4, ram - 4 * GiB))
    return c // (128 * MiB) * (128 * MiB)  # whole 128 MiB chunks

cases = [
    # name, data bytes (0: from SF), SF, RAM
    ("sf10_on_24GiB", 0, 10, 24 * GiB),
    ("sf10_on_this_vm", 0, 10, 24683664 * 1024),  # MemTotal of the 24 GB VM: 23.5 GiB
    ("sf1_on_24GiB", 0, 1, 24 * GiB),
    ("sf01_measured_on_8GiB", 256 * MiB, 0.1, 8 * GiB),
    ("sf1_on_8GiB", 0, 1, 8 * GiB),
]
for name, data, sf, ram in cases:
    d = data if data else int(sf * 2.6 * GiB)
    n, c = need(d), cap(ram)
    print(f"{name}: data {d} need {n} cap {c} fits {int(2 * n <= c)}")
