#!/usr/bin/env python3
# Regenerates the hand-made result files of tests/cli/compare*.sh and summary*.sh (fixed seeds).
# usage: python3 tests/data/gen_compare.py   (writes tests/data/cmp_*.json and bad_*.json)
import copy, hashlib, json, os, random

here = os.path.dirname(os.path.abspath(__file__))
BASE = {"Q1": 100.0, "Q3": 50.0, "Q6": 20.0, "Q14": 10.0}

def sha(s):
    return hashlib.sha256(s.encode()).hexdigest()

def result(seed, restarts=5, runs=3, factor=None, plan=None, answer=None, cov=0.02):
    rng = random.Random(seed)
    factor, plan, answer = factor or {}, plan or {}, answer or {}
    queries = []
    for q, ms in BASE.items():
        rs = []
        for i in range(restarts):
            m = ms * factor.get(q, 1.0) * rng.lognormvariate(0, cov)  # restart effect, 2%
            p = plan.get(q, "plan-" + q)
            rs.append({"index": i, "status": "ok",
                       "warmup_ms": [round(m * 1.3, 6)],
                       "measured_ms": [round(m * rng.lognormvariate(0, 0.002), 6) for _ in range(runs)],
                       "server_cpu_ms": [],
                       "rows": 4, "result_sha256": sha(answer.get(q, "answer-" + q)),
                       "plan_sha256": sha(p), "not_steady": False, "error": None,
                       "plan": '{"query_block": "%s"}' % p})
        queries.append({"id": q, "sql_sha256": sha("select " + q), "restarts": rs})
    return {"format": "dbt3stab-result", "format_version": 1, "tool_version": "0.1.0",
            "label": None, "started_at": "2026-11-30T01:00:00Z",
            "finished_at": "2026-11-30T01:10:00Z",
            "host": {"name": "testhost"}, "server": {"version": "10.11.6-MariaDB"},
            "dataset": {"scale_factor": 0.01, "generator_version": "dbgen-2.18.0",
                        "fingerprint": sha("sf0.01")},
            "plan": {"restarts": restarts, "warmup": 1, "runs": runs, "query_order": "fixed",
                     "seed": None, "variant": None},
            "pinning": {}, "queries": queries}

def write(name, doc):
    with open(os.path.join(here, name), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")

write("cmp_old.json", result(1))
write("cmp_same.json", result(2))
write("cmp_regress.json", result(3, factor={"Q3": 1.3, "Q6": 0.7}, plan={"Q14": "plan-Q14-new"}))
write("cmp_wrong.json", result(4, factor={"Q3": 1.3}, answer={"Q1": "another answer"}))
write("cmp_one.json", result(5, restarts=1, factor={"Q3": 1.3}))
warn = result(6)
qs = {q["id"]: q for q in warn["queries"]}
qs["Q6"]["restarts"][2]["not_steady"] = True
t = qs["Q14"]["restarts"][4]
t.update(status="timeout", measured_ms=t["measured_ms"][:1], error="killed after 10 s")
c = qs["Q3"]["restarts"][1]
c.update(status="crash", warmup_ms=[], measured_ms=[], rows=None, result_sha256=None,
         error="mariadbd got signal 11")
warn["finished_at"] = None
write("cmp_warn.json", warn)
sf = result(2)
sf["dataset"]["scale_factor"] = 1
write("cmp_sf1.json", sf)
fp = result(2)
fp["dataset"]["fingerprint"] = sha("other data")
write("cmp_fp.json", fp)
sql = result(2)
sql["queries"][2]["sql_sha256"] = sha("select Q6 with other parameters")
write("cmp_sql.json", sql)

# Malformed files: one defect each.
with open(os.path.join(here, "bad_notjson.json"), "w") as f:
    f.write('{"format": "dbt3stab-result",\n "format_version": 1,\n')
bad = result(7, restarts=2, runs=2)
def bad_file(name, edit):
    doc = copy.deepcopy(bad)
    edit(doc)
    write(name, doc)
bad_file("bad_format.json", lambda d: d.update(format="sysbench-result"))
bad_file("bad_version.json", lambda d: d.update(format_version=2))
bad_file("bad_missing.json", lambda d: d["queries"][1]["restarts"][0].pop("measured_ms"))
bad_file("bad_negative.json", lambda d: d["queries"][3]["restarts"][1]["measured_ms"].__setitem__(1, -1.5))
bad_file("bad_empty.json", lambda d: d["queries"][0]["restarts"][1].update(measured_ms=[]))
bad_file("bad_type.json", lambda d: d["queries"][2].update(restarts={}))
bad_file("bad_huge.json", lambda d: None)
with open(os.path.join(here, "bad_huge.json")) as f:
    text = f.read()
with open(os.path.join(here, "bad_huge.json"), "w") as f:  # not finite once parsed
    f.write(text.replace('"warmup_ms": [\n', '"warmup_ms": [\n     1e999,\n', 1))
bad_file("bad_zero.json", lambda d: d["queries"][0]["restarts"][1]["measured_ms"].__setitem__(0, 0))

# Q3 timed out in every restart (10 s timeout), Q6 in one restart only: new Q3 is a regression
# whose ratio is a lower bound; as the old file, an improvement; Q6 stays as it is (a warning).
tmo = result(8)
tmo["plan"]["query_timeout_s"] = 10
qs = {q["id"]: q for q in tmo["queries"]}
for r in qs["Q3"]["restarts"]:
    r.update(status="timeout", warmup_ms=[], measured_ms=[], rows=None, result_sha256=None,
             error="killed after 10 s")
qs["Q6"]["restarts"][3].update(status="timeout", measured_ms=[], rows=None,
                               result_sha256=None, error="killed after 10 s")
write("cmp_timeout.json", tmo)

# The plan of Q6 and the result of Q14 differ between restarts of one file.
vary = result(9)
qs = {q["id"]: q for q in vary["queries"]}
qs["Q6"]["restarts"][2].update(plan_sha256=sha("plan-Q6-other"), plan='{"query_block": "plan-Q6-other"}')
qs["Q14"]["restarts"][1]["result_sha256"] = sha("another answer")
write("sum_varies.json", vary)

# A/A with a 0.3% restart effect: the CIs lie inside +-2%, so the verdict is unchanged (with the
# 2% of cmp_old/cmp_same, 5 restarts cannot rule out a 2% change: inconclusive).
write("cmp_tight_old.json", result(10, cov=0.003))
write("cmp_tight_new.json", result(11, cov=0.003))
