# SPDX-License-Identifier: MIT
# What the bench scripts share; sourced, never run:  . "$(dirname "$0")/lib.sh"
#   bench_opts SPEC "$@"             the options, by a table: SPEC's words "L=VAR" (-L VALUE into
#                                    VAR) and "L!=VAR" (-L sets VAR=1); -h prints the usage;
#                                    then shift "$bench_shift" leaves the operands
#   bench_usage                      the script's header comment as its usage
#   bench_die MSG                    "NAME: MSG" on stderr, exit 2
#   bench_count NAME VALUE           exit 2 unless VALUE is a whole number >= 1
#   bench_build LIB                  the build directory: $build if set, else the first of
#                                    build/ and build-*/ that has LIB (a path inside it)
#   bench_work PREFIX                a work dir $work (mode 711), removed on exit unless keep=1
#   bench_instance SF                without --datadir in srv: a private instance in $work/inst
#                                    on a free port (server init, load -s SF), stopped on exit
#   bench_load1, bench_loadavg, bench_now, bench_free_port
# Globals the scripts set or read: bin (the dbt3stab binary), build, work, keep, srv (array).

bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench_name=$(basename "$0" .sh)
bench_own=0 # 1 once bench_instance made the instance in srv

# The header comment (from line 2 to the first line that is not a comment, without the SPDX
# line), without its "# ".
bench_usage() {
	sed -n '2,/^[^#]/{/^#/!d;/SPDX-License-Identifier/d;s/^# \{0,1\}//;p}' "$0"
}

# getopts by the table SPEC (above): -h the usage on stdout and exit 0, a bad option or a
# missing value the usage on stderr and exit 2.
bench_opts() {
	local _spec=$1 _optstring=h _o _w _found
	shift
	for _w in $_spec; do
		case $_w in
		?!=*) _optstring+=${_w:0:1} ;;
		*) _optstring+=${_w:0:1}: ;;
		esac
	done
	OPTIND=1
	while getopts "$_optstring" _o; do
		[ "$_o" != h ] || { bench_usage; exit 0; }
		_found=0
		for _w in $_spec; do
			case $_w in
			"$_o!="*) printf -v "${_w#*=}" 1; _found=1 ;;
			"$_o="*) printf -v "${_w#*=}" '%s' "$OPTARG"; _found=1 ;;
			esac
		done
		[ "$_found" = 1 ] || { bench_usage >&2; exit 2; }
	done
	bench_shift=$((OPTIND - 1))
}

bench_die() {
	echo "$bench_name: $*" >&2
	exit 2
}

bench_count() {
	[[ $2 =~ ^[1-9][0-9]*$ ]] || bench_die "$1 needs a count, not '$2'"
}

bench_build() {
	local c
	if [ -z "${build:-}" ]; then
		for c in "$bench_root/build" "$bench_root"/build-*; do
			if [ -e "$c/$1" ]; then build=$c; break; fi
		done
	fi
	[ -n "${build:-}" ] && [ -e "$build/$1" ] ||
		bench_die "no build directory with $1 (build first, or give -b DIR)"
	bin=$build/commands/dbt3stab
}

bench_free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

bench_load1() { cut -d' ' -f1 /proc/loadavg; }
bench_loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
bench_now() { date +%s.%N; }

bench_cleanup() {
	if [ "$bench_own" = 1 ]; then "$bin" server stop "${srv[@]}" -q >/dev/null 2>&1 || true; fi
	if [ "${keep:-0}" = 1 ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}

bench_work() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
	chmod 711 "$work" # as root, the server runs as 'mysql' and must reach an instance in here
	trap bench_cleanup EXIT
}

bench_instance() {
	[[ " ${srv[*]-} " != *" --datadir "* ]] || return 0
	srv=(--datadir "$work/inst" --port "$(bench_free_port)" "${srv[@]}")
	bench_own=1
	echo "private instance: server init, load -s $1" >&2
	"$bin" server init "${srv[@]}" -q
	"$bin" load -s "$1" "${srv[@]}" -q
}
