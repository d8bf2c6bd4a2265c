#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Kill sweep (SQLite's crash tests, done to whole runs): a `run --refresh` and a side-by-side A/A
# run, each killed at POINTS places spread evenly over its statements (counted in the servers'
# general log) and right after each statement that writes the data, once per signal; after each kill the run is completed with `run --resume` (a new
# run where the killed one left no result file). After every kill and every recovery it checks:
#   servers  every mariadbd still running on the instance or its clones is listed by
#            `server status --datadir DIR --json`, and none is left after the recovery
#   data     row counts and CHECKSUM TABLE of orders and lineitem equal the loaded ones
#   file     the recovered result file is read by `dbt3stab summary` (exit 0)
# One line per point, then the counts; exit 1 when any check failed, 2 on bad arguments.
# usage: bench/kill-sweep.sh [-b BUILD_DIR] [-s SF] [-n POINTS] [-m "refresh sbs"]
#                            [-g "KILL TERM"] [-q QUERIES] [-e] [-o OUT] [-k] [-- server options]
#   -n POINTS   kill points per mode and signal (default 20)
#   -m MODES    refresh: `run --refresh`; sbs: `run --variant a: --variant b: --side-by-side`
#   -g SIGNALS  the signals, in order (default "KILL TERM")
#   -q QUERIES  the queries of each run (default 1,6)
#   -e          the evenly spread points only (not the ones after each write: the short form)
#   -o OUT      the table is also written to OUT
#   -k          keep the work directory
# Needs: a build (`scripts/build`), mariadbd, the mariadb client. SF 0.01 by default: the sweep
# of 2 modes x 2 signals x 20 points makes about 160 runs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
sf=0.01 points=20 modes="refresh sbs" signals="KILL TERM" queries=1,6 out="" keep=0 even=0
bench_opts "b=build s=sf n=points m=modes g=signals q=queries o=out e!=even k!=keep" "$@"
shift "$bench_shift"
[ "${1:-}" != -- ] || shift
srv=("$@")
bench_count points "$points"
bench_build commands/dbt3stab
bench_work kill-sweep
bench_instance "$sf"
dir=$work/inst
for ((i = 0; i < ${#srv[@]}; i++)); do [ "${srv[i]}" != --datadir ] || dir=${srv[i + 1]}; done
logdir=$work/glog
mkdir -p "$logdir"
chown mysql: "$logdir" 2>/dev/null || true
glog=(--server-option general_log=1 --server-option "general_log_file=$logdir/general.log")
common=(-s "$sf" --queries "$queries" --restarts 2 --warmup 1 --runs 1 --no-table -q)
fails=0

# The instance's orders and lineitem: counts and checksums, one line (the server started and
# stopped around it).
data_state() {
	"$bin" server start "${srv[@]}" -q >/dev/null
	mariadb --defaults-file="$dir/client.cnf" -N -B dbt3 -e \
		"SELECT COUNT(*), MAX(o_orderkey) FROM orders; SELECT COUNT(*) FROM lineitem;
		 CHECKSUM TABLE orders, lineitem" | awk '{ $1 = $1; printf "%s ", /^dbt3/ ? $NF : $0 } END { print "" }'
	"$bin" server stop "${srv[@]}" -q >/dev/null
}

# The pids of the mariadbd processes whose command line names a file under the instance.
live_servers() {
	local p
	for p in /proc/[0-9]*; do
		{ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -q "mariadbd.*$dir/" && echo "${p#/proc/}"
	done
	return 0
}

# 0 when every live server's pid is in `server status --json` of the instance.
servers_listed() {
	local st pid
	st=$("$bin" server status "${srv[@]}" --json 2>/dev/null || true)
	for pid in $(live_servers); do
		grep -Eq "\"pid\": *$pid\b" <<<"$st" || return 1
	done
	return 0
}

statements() {
	local c
	c=$(grep -cP '\d+ Query\t' "$logdir/general.log" 2>/dev/null || true)
	echo "${c:-0}"
}

# The run of a mode: its output path and its arguments.
run_args() {
	case $1 in
	refresh) echo "$work/rf.json" --refresh ;;
	sbs) echo "$work/sbs" --variant a: --variant b: --side-by-side ;;
	*) bench_die "unknown mode '$1' (refresh, sbs)" ;;
	esac
}
resume_args() { case $1 in sbs) echo --variant a: --variant b: ;; esac; }

# One complete run of the mode; its general log kept as $work/ref-MODE.log.
reference_run() {
	local o a
	read -r o a <<<"$(run_args "$1")"
	rm -rf "$o" "$logdir/general.log"
	# shellcheck disable=SC2086
	"$bin" run "${common[@]}" "${srv[@]}" "${glog[@]}" -o "$o" $a
	cp "$logdir/general.log" "$work/ref-$1.log"
}

# The kill points of a mode, as statement counts: POINTS spread evenly over the reference run's
# statements, and the statement after each one that writes the data (the refresh functions'
# INSERT, DELETE and COMMIT), where a kill leaves changed data behind; sorted, each once.
kill_points() {
	local total
	total=$(grep -cP '\d+ Query\t' "$work/ref-$1.log")
	{
		for ((k = 1; k <= points; k++)); do echo $((k * total / (points + 1))); done
		[ "$even" = 0 ] || return 0
		grep -P '\d+ Query\t' "$work/ref-$1.log" |
			grep -niP 'Query\t\s*(insert|delete|commit)' | cut -d: -f1
	} | sort -n | uniq
}

# The kill at statement count target of mode m with signal g: start, wait for the statement,
# kill, recover, check.
sweep_point() {
	local m=$1 g=$2 k=$3 target=$4 o a pid seen rc_kill rc_rec listed data file
	read -r o a <<<"$(run_args "$m")"
	rm -rf "$o" "$logdir/general.log"
	# shellcheck disable=SC2086
	"$bin" run "${common[@]}" "${srv[@]}" "${glog[@]}" -o "$o" $a &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && [ "$(statements)" -lt "$target" ]; do sleep 0.02; done
	seen=$(statements)
	kill -s "$g" "$pid" 2>/dev/null || true
	rc_kill=0
	wait "$pid" || rc_kill=$?
	listed=ok
	servers_listed || listed=UNLISTED
	# A file, or a directory holding one, is resumed; a run killed before its first checkpoint
	# left none (an empty output directory at most): a new run.
	if [ -f "$o" ] || compgen -G "$o/*.json" >/dev/null; then
		# shellcheck disable=SC2046
		"$bin" run --resume "$o" $(resume_args "$m") "${srv[@]}" -q --no-table \
			>/dev/null 2>"$work/recover.err" && rc_rec=0 || rc_rec=$?
	else
		# shellcheck disable=SC2086
		"$bin" run "${common[@]}" "${srv[@]}" -o "$o" $a >/dev/null 2>"$work/recover.err" &&
			rc_rec=0 || rc_rec=$?
	fi
	[ -z "$(live_servers)" ] || listed="LEFT:$(live_servers | tr '\n' ,)"
	data=ok
	[ "$(data_state)" = "$loaded" ] || data=CHANGED
	file=ok
	if [ -d "$o" ]; then
		for f in "$o"/*.json; do "$bin" summary "$f" >/dev/null 2>&1 || file=BAD; done
	else
		"$bin" summary "$o" >/dev/null 2>&1 || file=BAD
	fi
	[ "$rc_rec" = 0 ] || file="$file(rc $rc_rec: $(tail -1 "$work/recover.err" | cut -c1-100))"
	[ "$listed$data$file" = okokok ] || fails=$((fails + 1))
	printf '%-8s %-5s %3d %6d %6d %5d %-10s %-8s %s\n' "$m" "$g" "$k" "$target" "$seen" \
		"$rc_kill" "$listed" "$data" "$file"
}

[ -z "$out" ] || exec > >(tee "$out")
loaded=$(data_state)
echo "loaded: rows, max key, rows, checksums: $loaded (load $(bench_loadavg))"
printf '%-8s %-5s %3s %6s %6s %5s %-10s %-8s %s\n' mode sig k target seen exit servers data file
n_all=0
for m in $modes; do
	reference_run "$m"
	at=$(kill_points "$m")
	echo "# $m: $(statements) statements in a whole run; kill points:" $at
	for g in $signals; do
		k=0
		for t in $at; do
			k=$((k + 1)) n_all=$((n_all + 1))
			sweep_point "$m" "$g" "$k" "$t"
		done
	done
done
echo "# $fails of $n_all kills failed a check (load $(bench_loadavg))"
[ "$fails" = 0 ]
