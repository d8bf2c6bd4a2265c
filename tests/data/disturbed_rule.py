#!/usr/bin/env python3
# The disturbed rule of docs/interference.md written again from the
# text, independently of result/res_interf.c, and two tables it gives:
#  - disturbed_replay.tsv: every restart of the real result files with interference records
#    (given as arguments: bench/data/noise-20261202/{aa-probe,ab1,ab2}-*.json.gz and the quick
#    start of 2026-12-03 from the measurements folder), its sums, and the causes at the level
#    (what the rule before "unusual" marked) and the disturbed causes of the rule now;
#  - disturbed_rate.tsv: how often the rule marks a restart of an undisturbed run, simulated:
#    every restart of a run drawn from the same host (a memory probe under pressure with
#    probability p, independently; a 10 ms tick of the benchmark PUs busy with others with
#    probability b), so no restart differs from the others but by chance. Columns: kind,
#    restarts n, probes (queries) per restart q, window per query ms, p or b, runs, seed, the
#    restarts marked, the restarts simulated.
# tests/test_res_interf.c reads both, replays the C rule on the same sums and on the same draws
# (splitmix64, Steele et al. 2014, the generator spelled out below) and asserts the same marks.
#   python3 tests/data/disturbed_rule.py FILE.json.gz...
import gzip, json, math, os, sys

here = os.path.dirname(os.path.abspath(__file__))

# the rule's constants (docs/interference.md)
SHARE, FLOOR_MS, TICKS_MS = 0.05, 30.0, 20.0
PRESSURE, MEM_SHARE, MEM_MIN = 2.0, 0.25, 3
MADS, CPU_MARGIN, MEM_MARGIN, MEM_PROBES = 3.0, 0.05, 0.25, 3.0


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def mad_sd(v):
    m = median(v)
    return 1.4826 * median([abs(x - m) for x in v])


def allowance(r):
    return max(FLOOR_MS, TICKS_MS * r["nq"])


def at_level(ms, r):
    return ms >= allowance(r) and ms > SHARE * r["window"]


def absolute(r):
    """CPU time taken from the server at the level, whatever the other restarts had: others on
    the server's own PUs (when every record has the figure, else on all the benchmark PUs) and
    steal."""
    out = set()
    spu = r["spu"] if r.get("spu") is not None else r["other"]
    if at_level(spu, r):
        out.add("other_cpu")
    if at_level(r["steal"], r):
        out.add("steal")
    return out


def level(r):
    out = absolute(r)
    if at_level(r["other"], r):
        out.add("other_cpu")
    if r["nm"] >= MEM_MIN and r["np"] > MEM_SHARE * r["nm"]:
        out.add("memory")
    return out


def share(r, c):
    if c == "memory":
        return r["np"] / r["nm"] if r["nm"] >= MEM_MIN else None
    if not r["window"] > 0:
        return 0.0
    return (r["other"] if c == "other_cpu" else r["steal"]) / r["window"]


def stands_out(r, c, ref):
    m, sd = median(ref), mad_sd(ref)
    x = share(r, c)
    if c == "memory":
        return x > m + max(MADS * sd, MEM_MARGIN) and r["np"] - m * r["nm"] >= MEM_PROBES
    ms = r["other"] if c == "other_cpu" else r["steal"]
    excess = ms - m * r["window"]
    return (x > m + max(MADS * sd, CPU_MARGIN) and excess >= allowance(r)
            and excess >= 3.0 * math.sqrt(20.0 * m * r["window"]))


def classify(rs, cal=None):
    """cal: (probes, pressured) of the calibration, or None."""
    out = []
    for i, r in enumerate(rs):
        causes = absolute(r)
        for c in sorted(level(r)):
            ref = [share(o, c) for j, o in enumerate(rs) if j != i]
            ref = [x for x in ref if x is not None]
            if c == "memory" and cal and cal[0] >= MEM_MIN:
                ref.append(cal[1] / cal[0])
            if not ref or stands_out(r, c, ref):
                causes.add(c)
        out.append(causes)
    return out


def restarts_of(d):
    """Per restart the sums of its records, probes counted against the file's floor."""
    floor = (d["host"].get("memory_probe") or {}).get("floor_ns") or 0
    recs = [(r["index"], r["interference"]) for q in d["queries"] for r in q["restarts"]
            if isinstance(r.get("interference"), dict)]
    for _, rec in recs:
        for k in ("memory_probe_before_ns", "memory_probe_after_ns"):
            v = rec.get(k) or 0
            if v > 0 and (floor <= 0 or v < floor):
                floor = v
    rs = {}
    for idx, rec in recs:
        r = rs.setdefault(idx, dict(index=idx, nq=0, window=0.0, other=0.0, steal=0.0, nm=0, np=0,
                                    spu=0.0, n_spu=0))
        r["nq"] += 1
        if isinstance(rec.get("server_pu_other_cpu_ms"), (int, float)):
            r["n_spu"] += 1
            r["spu"] += max(rec["server_pu_other_cpu_ms"], 0)
        r["window"] += max(rec.get("window_ms") or 0, 0)
        r["other"] += max(rec.get("other_cpu_ms") or 0, 0)
        r["steal"] += max(rec.get("steal_ms") or 0, 0)
        a = rec.get("memory_probe_after_ns") or 0
        if a > 0 and floor > 0:
            r["nm"] += 1
            r["np"] += a > PRESSURE * floor
    for r in rs.values():
        if not r["n_spu"] or r["n_spu"] != r["nq"]:
            r["spu"] = None
    return [rs[k] for k in sorted(rs)]


def causes_text(s):
    return ",".join(c for c in ("other_cpu", "steal", "memory") if c in s) or "-"


MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.x = seed & MASK

    def next(self):
        self.x = (self.x + 0x9E3779B97F4A7C15) & MASK
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def uniform(self):  # [0, 1) with 53 bits
        return (self.next() >> 11) * 2.0 ** -53

    def count(self, n, p):  # n draws, how many below p
        return sum(1 for _ in range(n) if self.uniform() < p)


CAL_PROBES = 9


def simulate(kind, n, q, wq, p, runs, seed):
    """Per run: for each restart in order, q probe draws (memory) or q * wq / 10 tick draws
    (cpu); then, for memory, the 9 calibration probes."""
    g = SplitMix64(seed)
    marked = total = 0
    for _ in range(runs):
        rs = []
        for _ in range(n):
            if kind == "memory":
                rs.append(dict(nq=q, window=q * wq, other=0.0, steal=0.0, nm=q, np=g.count(q, p)))
            else:
                ticks = int(q * wq / 10)
                rs.append(dict(nq=q, window=float(q * wq), other=10.0 * g.count(ticks, p),
                               steal=0.0, nm=0, np=0))
        cal = (CAL_PROBES, g.count(CAL_PROBES, p)) if kind == "memory" else None
        for c in classify(rs, cal):
            marked += bool(c)
            total += 1
    return marked, total


def scenarios():
    seed = 20261203
    for q in (4, 22):
        for n in (2, 3, 5, 8):
            for p in (0.05, 0.2, 0.5, 0.8):
                seed += 1
                yield ("memory", n, q, 1000, p, 2000, seed)
    # others on the server's PU on an idle host: a kernel thread, kdamond (0.4-0.7 % of a PU
    # in the ps logs of bench/data/stabilize-20261201, noise-20261202); 2 % is three times that
    for q, wq in ((4, 150), (22, 500)):
        for n in (2, 3, 5, 8):
            for b in (0.01, 0.02, 0.03):
                seed += 1
                yield ("cpu", n, q, wq, b, 200, seed)


def exact_cpu(q, wq, b):
    """The CPU part's rate, exactly: others on the server's PU are the only CPU figure in the
    simulation, so a restart is marked when its busy ticks reach the level (the unusual part
    needs the level too): P(X >= k) for X ~ Binomial(q wq / 10, b)."""
    ticks = int(q * wq / 10)
    r = dict(nq=q, window=float(q * wq))
    k = next(k for k in range(ticks + 2) if k > ticks or at_level(10.0 * k, r))
    lp = lambda i: (math.lgamma(ticks + 1) - math.lgamma(i + 1) - math.lgamma(ticks - i + 1)
                    + i * math.log(b) + (ticks - i) * math.log1p(-b))
    return sum(math.exp(lp(i)) for i in range(k, ticks + 1))


def main(files):
    with open(os.path.join(here, "disturbed_replay.tsv"), "w") as f:
        f.write("# file\tindex\tqueries\twindow_ms\tother_cpu_ms\tsteal_ms\tprobes\tpressured"
                "\tserver_pu_other_ms\tlevel\tdisturbed\n")
        for path in files:
            d = json.load(gzip.open(path) if path.endswith(".gz") else open(path))
            rs = restarts_of(d)
            name = os.path.basename(path).split(".")[0]
            for r, c in zip(rs, classify(rs)):
                f.write("%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t%d\t%d\t%s\t%s\t%s\n" % (
                    name, r["index"], r["nq"], r["window"], r["other"], r["steal"], r["nm"],
                    r["np"], "-" if r["spu"] is None else "%.3f" % r["spu"],
                    causes_text(level(r)), causes_text(c)))
    with open(os.path.join(here, "disturbed_rate.tsv"), "w") as f:
        f.write("# kind\trestarts\tqueries\twindow_ms\tp\truns\tseed\tmarked\ttotal\texact\n")
        for s in scenarios():
            m, t = simulate(*s)
            ex = exact_cpu(s[2], s[3], s[4]) if s[0] == "cpu" else -1.0
            f.write("%s\t%d\t%d\t%d\t%g\t%d\t%d\t%d\t%d\t%.6e\n" % (s + (m, t, ex)))
            print("%-6s n=%d q=%2d p=%-5g %.2f%% %s" % (s[0], s[1], s[2], s[4], 100.0 * m / t,
                  "(exact %.3f%%)" % (100 * ex) if ex >= 0 else ""), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
