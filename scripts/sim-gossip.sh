#!/usr/bin/env bash
# Gossip-policy comparison of n3d sim (issue 13): the same seeded runs at
# several network sizes for each policy; one JSON report per run in OUT.
# A run whose report exists is skipped, so the script can be resumed.
#
#   scripts/sim-gossip.sh [OUT]     (default OUT: sim-gossip)
#   NODES="10 25 50" POLICIES="fanout rebroadcast" DEGREE=0 scripts/sim-gossip.sh
#
# Then: python3 scripts/plot-sim-gossip.py OUT docs/img
set -euo pipefail
out=${1:-sim-gossip}
n3d=${N3D:-./n3d}
nodes=${NODES:-"10 25 50 100 200"}
policies=${POLICIES:-"rebroadcast fanout firsthand fanout+nocancel fanout+nobatch"}
degree=${DEGREE:-6}
rate=${TX_RATE:-10}
duration=${DURATION:-10s}
seed=${SEED:-1}
mkdir -p "$out"
for n in $nodes; do
	for p in $policies; do
		f="$out/d${degree}-n${n}-${p}.json"
		[ -s "$f" ] && continue
		base=${p%%+*}
		flags=(--policy "$base")
		[[ $p == *+nocancel* ]] && flags+=(--no-cancel)
		[[ $p == *+nobatch* ]] && flags+=(--no-batch)
		echo "== n=$n policy=$p degree=$degree load=$(cut -d' ' -f1-3 /proc/loadavg)"
		start=$(date +%s)
		nice -n 10 "$n3d" sim --nodes "$n" --validators 4 --degree "$degree" --tx-rate "$rate" \
			--duration "$duration" --seed "$seed" --latency 5ms --settle 3m "${flags[@]}" \
			--json "$f.tmp" >"$out/d${degree}-n${n}-${p}.txt" || echo "   run failed or invariants broken: see $out/d${degree}-n${n}-${p}.txt"
		[ -s "$f.tmp" ] && mv "$f.tmp" "$f"
		echo "   $(( $(date +%s) - start )) s wall, load after $(cut -d' ' -f1-3 /proc/loadavg)"
	done
done
