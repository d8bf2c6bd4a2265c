# compare --format html: each changed query's card holds its why in one place, below its time:
# the work counters' and instructions' lines, the plan diff with the optimizer's reasons, where the
# rows went and which functions moved, each where the files hold it (real semijoin A/B files of
# tests/data: ANALYZE records, profiles by function, trace summaries); an A/A has no card part.
cd "$(dirname "$0")/../data" || exit 1
tmp=$(mktemp -d)
cards() { # the parts of each query's card, in order
	python3 -c 'import re,sys
s = open(sys.argv[1]).read()
for m in re.finditer(r"<article class=\"query[^\"]*\" id=\"q-\d+\" data-query=\"(Q\d+)\".*?</article>", s, re.S):
    a = m.group(0)
    why = re.search(r"<section class=\"why\">(.*?)</section>", a, re.S)
    if not why:
        print(m.group(1), "no why")
        continue
    w = why.group(1)
    parts = []
    if "<p class=\"why-lines\">" in w:
        lines = re.search(r"<p class=\"why-lines\">(.*?)</p>", w, re.S).group(1).split("<br>")
        parts += [l.split(":")[0] for l in lines]
    for h in re.findall(r"<h4>([^<(]*)", w):
        if h.strip() and h.strip() != "Why" and not h.startswith(("old", "new")):
            parts.append(h.strip())
    print(m.group(1), "|", "; ".join(parts))' "$1"
}
for pair in "explain/analyze-ab-on.json explain/analyze-ab-off.json" \
	"funcs_ab_a.json funcs_ab_b.json" "trace/trace-on.json trace/trace-off.json" \
	"explain/analyze-aa-on.json explain/analyze-aa-on2.json"; do
	echo "\$ dbt3stab compare $pair --format html -o p.html"
	# shellcheck disable=SC2086
	"$DBT3STAB" compare $pair --format html -o "$tmp/p.html" 2>/dev/null
	echo "exit=$?"
	cards "$tmp/p.html"
done
rm -rf "$tmp"
