#!/usr/bin/env bash
# make bench-tps: n3d against neo-go with neo-bench, side by side, for every database and topology asked for.
# Runs compare.sh (alternating rounds, medians, n3d/neo-go ratios, included/sent check) once per DB x TOPO.
#
#   NEOGO_BIN=path/to/neo-go BENCH_MIRROR=path/to/neo-bench scripts/bench-tps/bench.sh
#
# Environment (all but the first two have defaults):
#   NEOGO_BIN     neo-go v0.122.0 binary (git -C path/to/neo-go checkout v0.122.0 && make -C path/to/neo-go build)
#   BENCH_MIRROR  a clone of github.com/nspcc-dev/neo-bench (templates, wallets, token contract)
#   N3D_BIN       n3d binary (default bin/n3d, what `make build` makes)
#   DBS           databases (default "leveldb boltdb")
#   TOPOS         topologies (default "single 4+1 7+2")
#   TXCOUNT       NEO transfers per round (default 500000), WORKERS neo-bench workers (default 10)
#   ROUNDS        alternating rounds per node and setup (default 3)
#   NEOGO_MIRROR  a clone of github.com/nspcc-dev/neo-go: only needed when the neo-bench tools are not built yet
#                 (they are then built once into BENCH_BIN_DIR by build-bench.sh)
#   TIME_LIMIT    neo-bench's -z; default 5m for single, 10m for 4+1 and 7+2 (neo-go sends 500k slower than 5m there)
#   everything else (BENCH_BIN_DIR, DUMP_DIR, RESULTS_DIR, BASE_PORT, PPROF_SECONDS, ...) goes to run.sh, see README.md
#
# Output: each setup's compare.sh report (per round TPS, included/sent and status; medians of TPS, RPS, CPU, MEM; the
# n3d/neo-go ratios; a check line), then one summary line per setup. Exit status 0 when every round of every setup
# included every sent transaction, 1 otherwise, 2 on a setup error.
set -uo pipefail
die2() { echo "$*" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
[ -n "${NEOGO_BIN:-}" ] || die2 "NEOGO_BIN is not set: point it at a neo-go v0.122.0 binary (git clone https://github.com/nspcc-dev/neo-go; git checkout v0.122.0; make build -> bin/neo-go)"
[ -x "$NEOGO_BIN" ] || die2 "NEOGO_BIN=$NEOGO_BIN is not an executable file"
[ -n "${BENCH_MIRROR:-}" ] || die2 "BENCH_MIRROR is not set: point it at a clone of nspcc-dev/neo-bench (git clone https://github.com/nspcc-dev/neo-bench)"
N3D_BIN=${N3D_BIN:-bin/n3d}
[ -x "$N3D_BIN" ] || die2 "N3D_BIN=$N3D_BIN is not an executable file: run make build"
DBS=${DBS:-leveldb boltdb}
TOPOS=${TOPOS:-single 4+1 7+2}
TXCOUNT=${TXCOUNT:-500000} WORKERS=${WORKERS:-10} ROUNDS=${ROUNDS:-3}
export BENCH_BIN_DIR=${BENCH_BIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n3d-tps/bin}
if ! [ -x "$BENCH_BIN_DIR/neo-bench" ] || ! [ -x "$BENCH_BIN_DIR/neo-bench-config" ] || ! [ -x "$BENCH_BIN_DIR/neo-bench-gen" ]; then
	[ -n "${NEOGO_MIRROR:-}" ] || die2 "the neo-bench tools are not in BENCH_BIN_DIR=$BENCH_BIN_DIR and NEOGO_MIRROR is not set to build them: point it at a clone of nspcc-dev/neo-go (git clone https://github.com/nspcc-dev/neo-go)"
	"$HERE/build-bench.sh" "$BENCH_BIN_DIR" || die2 "build-bench.sh failed"
fi

summary=() bad=0
OUT=$(mktemp -t n3d-bench-tps.XXXXXX)
trap 'rm -f "$OUT"' EXIT
for db in $DBS; do
	for topo in $TOPOS; do
		tl=${TIME_LIMIT:-}
		[ -n "$tl" ] || { [ "$topo" = single ] && tl=5m || tl=10m; }
		echo "##### $db $topo: $TXCOUNT txs, $WORKERS workers, $ROUNDS rounds, -z $tl  $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
		TIME_LIMIT=$tl "$HERE/compare.sh" "$N3D_BIN" "$NEOGO_BIN" "$db" "$topo" "$TXCOUNT" "$WORKERS" "$ROUNDS" | tee "$OUT"
		rc=${PIPESTATUS[0]}
		out=$(cat "$OUT")
		[ $rc -eq 2 ] && exit 2
		[ $rc -eq 0 ] || bad=1
		summary+=("$db $topo: $(grep -E '^ratio' <<< "$out" || echo 'no ratio (a node had no successful round)'); $(grep -E '^check:' <<< "$out")")
	done
done
echo
echo "##### summary ($TXCOUNT txs, $WORKERS workers, $ROUNDS rounds per node)"
printf '%s\n' "${summary[@]}"
exit $bad
