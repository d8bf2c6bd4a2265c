# run --resume of a file it cannot resume says why in one clean line (exit 2) and leaves the file
# as it was: a --budget run, a side-by-side run in the ABBA order of older versions. The message names the file once (it was written
# over itself: "cannot resume: 'F': cannot resume: ed ...").
data=$(cd "$(dirname "$0")/../data" && pwd) || exit 1
tmp=$(mktemp -d) && cd "$tmp" || exit 1
show() { echo "\$ dbt3stab run $*"; "$DBT3STAB" run --datadir "$tmp/inst" "$@" >out.txt 2>&1; rc=$?; sed "s|$tmp|TMP|g" out.txt; echo "exit=$rc"; rm out.txt; }
python3 - "$data/seq_budget_old.json" budget.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["finished_at"] = None  # an interrupted budget run
json.dump(d, open(sys.argv[2], "w"))
PY
before=$(md5sum budget.json)
show --resume budget.json
mkdir dir && cp budget.json dir/old.json
show --resume dir
[ "$(md5sum budget.json)" = "$before" ] && echo "budget.json unchanged"
python3 - "$data/adj_old.json" abba.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["finished_at"] = None  # an interrupted side-by-side run of the ABBA order ("coin" with a seed)
d["plan"]["side_by_side"] = {"variants": ["old", "new"], "order": "abba", "clone": "copy",
                             "data_bytes": 1, "pool_bytes": [1, 1]}
json.dump(d, open(sys.argv[2], "w"))
PY
before=$(md5sum abba.json)
show --resume abba.json
[ "$(md5sum abba.json)" = "$before" ] && echo "abba.json unchanged"
ls
cd / && rm -rf "$tmp"
