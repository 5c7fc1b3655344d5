#!/usr/bin/env bash
# One neo-bench round against n3d or neo-go run as plain processes on 127.0.0.1 (no docker).
#
#   BENCH_MIRROR=path/to/neo-bench ./run.sh KIND BIN DB TOPO TXCOUNT WORKERS
#     KIND     n3d | neogo           (only used for labels; both take neo-go's CLI and YAML)
#     BIN      path to the node binary
#     DB       leveldb | boltdb
#     TOPO     single | 4+1 | 7+2    (neo-bench's single-node setup; 4 validators + 1 RPC node that gets the load;
#                                     7 validators + 2 RPC nodes, the bench spreading its requests over both)
#     TXCOUNT  number of NEO transfers in the dump (the dump is generated once and cached per count)
#     WORKERS  neo-bench workers (-w), mode is always "wrk" like neo-bench's start.Go*wrk targets
#
# Last line of stdout:  TPS=… RPS=… CPU=…% MEM=…MB
#   TPS  neo-bench's own "TPS ≈" figure (txs in blocks / sum of block intervals)
#   RPS  neo-bench's "RPS ≈" (sendrawtransaction requests accepted per second)
#   CPU  node process(es) CPU time / wall time while the load runs, 100% = one core (sum over all nodes)
#   MEM  mean RSS of the node process(es) while the load runs (sum over all nodes)
#   (the load runs from the bench's "Started test from block" to the last block with transactions)
# "INFO" lines before it give sent/included/lost/errors, block times, peak RSS, the mean file-backed RSS (mem_file_mean:
# BoltDB's memory-mapped file, the binary's pages), the bench's CPU, the CPU used by every
# other process on the machine during the load (other_procs_cpu, 100% = one core), load average, paths.
#
# Environment:
#   BENCH_MIRROR   (required) a clone (or bare git dir) of github.com/nspcc-dev/neo-bench: templates, wallets, token contract
#   BENCH_REV      revision of BENCH_MIRROR to read (default HEAD)
#   BENCH_BIN_DIR  dir with neo-bench, neo-bench-config, neo-bench-gen from build-bench.sh
#                  (default ${XDG_CACHE_HOME:-$HOME/.cache}/n3d-tps/bin)
#   DUMP_DIR       where generated tx dumps are cached (default ${XDG_CACHE_HOME:-$HOME/.cache}/n3d-tps/dumps)
#   RESULTS_DIR    where each round's logs are kept (default ${XDG_CACHE_HOME:-$HOME/.cache}/n3d-tps/results)
#   TMPDIR         parent of the per-round temp dir (configs, DBs; removed at the end)
#   BASE_PORT      ports used are BASE_PORT+11 … BASE_PORT+68 on 127.0.0.1 (default 20100)
#   TIME_LIMIT     neo-bench -z (default 5m), REQ_TIMEOUT neo-bench -t (default 30s)
#   MS_PER_BLOCK   override TimePerBlock like neo-bench's --msPerBlock (default: template's 1s single / 5s 4+1 and 7+2)
#   PPROF_SECONDS  if set, enable pprof on the loaded node (single node, or the first RPC node) and take a CPU profile of
#                  that many seconds PPROF_DELAY seconds after the load starts (default 5); saved as cpu.pprof, followed by
#                  a heap profile (heap.pprof) taken right after it, still under load
#   PPROF_BLOCK=1  with PPROF_SECONDS: also turn on the node's block and mutex profiling (Pprof EnableBlock/EnableMutex,
#                  every event recorded: slower) and take block.pprof and mutex.pprof over the same seconds as cpu.pprof
#   PPROF_TRACE    with PPROF_SECONDS: also take an execution trace of that many seconds after the heap profile
#                  (trace.out; `go tool trace -pprof=syscall|sync|sched trace.out` gives where goroutines waited)
#   PPROF_NODE     which node PPROF_SECONDS profiles in 4+1 / 7+2: rpc (default, the first RPC node), rpc2, or a validator
#                  (one … seven)
#   METRICS        1 (default): Prometheus on in every node; each node's /metrics is saved after the load
#                  (metrics-NODE.txt) and n3d's relay counters are printed per node (INFO relay …); 0: off
#   STALL_SECONDS  after everything was sent, interrupt the bench when no non-empty block came for this long (default 60)
#   READY_SECONDS  how long the RPC node(s) may take to reach block 2 after start (default 180)
#   KEEP_TMP=1     keep the temp dir (configs, DBs) after the run
set -uo pipefail

usage() { awk 'NR == 1 {next} /^# Environment/ {exit} /^#/ {sub(/^# ?/, ""); print; next} {exit}' "$0" >&2; exit 2; }
die2() { echo "$*" >&2; exit 2; }
[ $# -eq 6 ] || usage
KIND=$1 BIN=$2 DB=$3 TOPO=$4 TXCOUNT=$5 WORKERS=$6
case $KIND in n3d|neogo) ;; *) usage ;; esac
case $DB in leveldb|boltdb) ;; *) usage ;; esac
case $TOPO in single|4+1|7+2) ;; *) usage ;; esac
[[ $TXCOUNT =~ ^[1-9][0-9]*$ && $WORKERS =~ ^[1-9][0-9]*$ ]] || usage
[ -x "$BIN" ] || die2 "node binary not executable: $BIN"
BIN=$(readlink -f "$BIN")
for t in git curl jq python3; do command -v "$t" > /dev/null || die2 "$t not found in PATH: install it"; done

CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/n3d-tps
[ -n "${BENCH_MIRROR:-}" ] || die2 "BENCH_MIRROR is not set: point it at a clone of nspcc-dev/neo-bench (git clone https://github.com/nspcc-dev/neo-bench)"
BENCH_REV=${BENCH_REV:-HEAD}
git -C "$BENCH_MIRROR" cat-file -e "$BENCH_REV:.docker/ir/go.protocol.template.yml" 2> /dev/null \
	|| die2 "BENCH_MIRROR=$BENCH_MIRROR has no .docker/ir/go.protocol.template.yml at $BENCH_REV: it must be a clone of nspcc-dev/neo-bench"
BENCH_BIN_DIR=${BENCH_BIN_DIR:-$CACHE/bin}
DUMP_DIR=${DUMP_DIR:-$CACHE/dumps}
RESULTS_DIR=${RESULTS_DIR:-$CACHE/results}
BASE_PORT=${BASE_PORT:-20100}
TIME_LIMIT=${TIME_LIMIT:-5m}
REQ_TIMEOUT=${REQ_TIMEOUT:-30s}
MS_PER_BLOCK=${MS_PER_BLOCK:-0}
PPROF_SECONDS=${PPROF_SECONDS:-}
PPROF_DELAY=${PPROF_DELAY:-5}
PPROF_BLOCK=${PPROF_BLOCK:-0}
PPROF_TRACE=${PPROF_TRACE:-}
PPROF_NODE=${PPROF_NODE:-rpc}
METRICS=${METRICS:-1}
STALL_SECONDS=${STALL_SECONDS:-60}
READY_SECONDS=${READY_SECONDS:-180}
for b in neo-bench neo-bench-config neo-bench-gen; do
	[ -x "$BENCH_BIN_DIR/$b" ] || die2 "missing $BENCH_BIN_DIR/$b: run build-bench.sh (or set BENCH_BIN_DIR to its output dir)"
done

STAMP=$(date +%Y%m%d-%H%M%S)
RES="$RESULTS_DIR/$STAMP-$KIND-$DB-${TOPO/+/p}-$TXCOUNT-w$WORKERS"
mkdir -p "$RES" "$DUMP_DIR"
TMP=$(mktemp -d -t n3d-tps-run.XXXXXX)
NODE_PIDS=()
NODE_DIRS=()
SAMPLER_PID="" BENCH_PID="" PPROF_PID="" STALL_PID=""

log() { echo "[$(date +%T)] $*" >&2; }

stop_pid() { # stop_pid PID [grace seconds]
	local pid=$1 grace=${2:-20} i
	kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null
	for ((i = 0; i < grace * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	log "pid $pid did not stop in ${grace}s, SIGKILL"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 1
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	[ -n "$PPROF_PID" ] && stop_pid "$PPROF_PID" 2
	[ -n "$SAMPLER_PID" ] && stop_pid "$SAMPLER_PID" 2
	[ -n "$STALL_PID" ] && stop_pid "$STALL_PID" 2
	[ -n "$BENCH_PID" ] && stop_pid "$BENCH_PID" 5
	local p
	for p in "${NODE_PIDS[@]}"; do stop_pid "$p" 20; done
	for d in "${NODE_DIRS[@]}"; do
		[ -f "$d/node.log" ] && cp "$d/node.log" "$RES/node-$(basename "$d").log" 2>/dev/null
	done
	if [ "${KEEP_TMP:-0}" = 1 ]; then log "kept $TMP"; else rm -rf "$TMP"; fi
	exit $rc
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM

mshow() { git -C "$BENCH_MIRROR" show "$BENCH_REV:$1"; }

# ---------------------------------------------------------------- configs from neo-bench's templates
NB="$TMP/nb"
mkdir -p "$NB/cmd" "$NB/.docker/ir" "$NB/.docker/rpc"
for f in go.protocol.template.yml template.data.yml; do mshow ".docker/ir/$f" > "$NB/.docker/ir/$f" || exit 1; done
# Same generator neo-bench's `make config` runs (ytt over the template, then DB type and --msPerBlock applied).
(cd "$NB/cmd" && "$BENCH_BIN_DIR/neo-bench-config" --go-template go.protocol.template.yml --go-db "$DB" --msPerBlock "$MS_PER_BLOCK") \
	> "$RES/config-gen.log" 2>&1 || { cat "$RES/config-gen.log" >&2; exit 1; }

# Rewrites a generated config for plain processes: docker host names and ports -> 127.0.0.1 and ports in
# BASE_PORT+…, /chains and /config paths -> the node's directory, pprof on when asked.  Nothing else changes.
# In docker both RPC nodes of 7+2 use the same config and ports; the second one (ALT=1) gets its own ports here.
rewrite() { # rewrite SRC DST NODEDIR PPROF(0|1) ALT(0|1)
	python3 - "$@" "$BASE_PORT" "$PPROF_BLOCK" "$METRICS" <<'EOF'
import re, sys
src, dst, ndir, pprof, alt, base = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1", sys.argv[5] == "1", int(sys.argv[6])
block = sys.argv[7] == "1"
prom = sys.argv[8] == "1"
def port(p):
    p = int(p)
    if alt and p in (20331, 20332): return base + p - 20290  # second RPC node: RPC +41, P2P +42
    if alt and p == 30000: return base + 58                  # second RPC node pprof +58
    if alt and p == 40000: return base + 68                  # second RPC node prometheus (disabled) +68
    if p in (20331, 20332): return base + p - 20300          # single / RPC node: RPC +31, P2P +32
    if 20333 <= p <= 20339: return base + p - 20300          # validators P2P +33..+39
    if 30333 <= p <= 30339: return base + 43 + p - 30333     # validators RPC +43..+49
    if p == 20011: return base + 11                          # single pprof
    if 30000 <= p <= 30007: return base + 50 + p - 30000     # pprof of rpc node / validators +50..+57
    if 40000 <= p <= 40007: return base + 60 + p - 40000     # prometheus (disabled) +60..+67
    raise SystemExit("unmapped port %d in %s" % (p, src))
out, section = [], None
for line in open(src):
    m = re.match(r"^(\s*)(\w+):\s*$", line)
    if m: section = m.group(2)
    m = re.match(r"^(\s*- )([A-Za-z0-9_]*):(\d+)\s*$", line)
    if m:
        line = "%s127.0.0.1:%d\n" % (m.group(1), port(m.group(3)))
    line = line.replace("DataDirectoryPath: /chains/privnet", "DataDirectoryPath: %s/chains/privnet" % ndir)
    line = line.replace("FilePath: ./chains/privnet.bolt", "FilePath: %s/chains/privnet.bolt" % ndir)
    line = line.replace("Path: /config/wallet.json", "Path: %s/wallet.json" % ndir)
    if section == "Pprof" and pprof and re.match(r"^\s*Enabled: false\s*$", line):
        line = line.replace("false", "true")
        if block:
            ind = line[:len(line) - len(line.lstrip())]
            line += "%sEnableBlock: true\n%sEnableMutex: true\n" % (ind, ind)
    if section == "Prometheus" and prom and re.match(r"^\s*Enabled: false\s*$", line):
        line = line.replace("false", "true")
    out.append(line)
open(dst, "w").writelines(out)
EOF
}

# RPC_PORTS: the node(s) the bench talks to (one -a each; the bench round-robins its requests over them).
PP=0; [ -n "$PPROF_SECONDS" ] && PP=1
pp_for() { [ "$PP" = 1 ] && [ "$1" = "$PPROF_NODE" ] && echo 1 || echo 0; } # pprof on for node $1?
RPC_PORTS=()
case $TOPO in
single)
	d="$TMP/node-single"; mkdir -p "$d"; NODE_DIRS+=("$d")
	rewrite "$NB/.docker/ir/go.protocol.privnet.single.yml" "$d/protocol.privnet.yml" "$d" "$PP" 0 || exit 1
	mshow .docker/ir/wallet.one.json > "$d/wallet.json"
	RPC_PORTS=($((BASE_PORT + 31))); PPROF_NODE=single
	;;
4+1 | 7+2)
	# neo-bench's docker-compose.go.yml / docker-compose.go.7.yml (ir) + the matching rpc compose file.
	if [ "$TOPO" = 4+1 ]; then VALS=(one two three four) SFX=""; else VALS=(one two three four five six seven) SFX=".7"; fi
	for n in "${VALS[@]}"; do
		d="$TMP/node-$n"; mkdir -p "$d"; NODE_DIRS+=("$d")
		rewrite "$NB/.docker/ir/go.protocol.privnet.$n$SFX.yml" "$d/protocol.privnet.yml" "$d" "$(pp_for "$n")" 0 || exit 1
		mshow ".docker/ir/wallet.$n.json" > "$d/wallet.json"
	done
	d="$TMP/node-rpc"; mkdir -p "$d"; NODE_DIRS+=("$d")
	rewrite "$NB/.docker/rpc/go.protocol$SFX.yml" "$d/protocol.privnet.yml" "$d" "$(pp_for rpc)" 0 || exit 1
	RPC_PORTS=($((BASE_PORT + 31)))
	if [ "$TOPO" = 7+2 ]; then
		d="$TMP/node-rpc2"; mkdir -p "$d"; NODE_DIRS+=("$d")
		rewrite "$NB/.docker/rpc/go.protocol$SFX.yml" "$d/protocol.privnet.yml" "$d" "$(pp_for rpc2)" 1 || exit 1
		RPC_PORTS+=($((BASE_PORT + 41)))
	fi
	;;
esac
# section_port FILE SECTION: the port of the first address of a monitoring section (Pprof, Prometheus) of a config.
section_port() {
	awk -v s="$2" '$1 == s":" {on = 1; next} on && /- 127\.0\.0\.1:/ {sub(/.*:/, ""); print; exit}' "$1"
}
PPROF_PORT=""
if [ "$PP" = 1 ]; then
	[ -d "$TMP/node-$PPROF_NODE" ] || die2 "PPROF_NODE=$PPROF_NODE is no node of $TOPO"
	PPROF_PORT=$(section_port "$TMP/node-$PPROF_NODE/protocol.privnet.yml" Pprof)
fi
RPC_PORT=${RPC_PORTS[0]}
for d in "${NODE_DIRS[@]}"; do cp "$d/protocol.privnet.yml" "$RES/protocol.$(basename "$d").yml"; done

# ---------------------------------------------------------------- tx dump (cached, same file for every node)
DUMP="$DUMP_DIR/dump.NEO.1.1.$TXCOUNT.txs"
if [ ! -s "$DUMP" ]; then
	log "generating $TXCOUNT NEO transfers -> $DUMP"
	"$BENCH_BIN_DIR/neo-bench-gen" -cnt "$TXCOUNT" -type NEO -from 1 -to 1 -out "$DUMP.tmp.$$" > "$RES/gen.log" 2>&1 \
		&& mv "$DUMP.tmp.$$" "$DUMP" || { cat "$RES/gen.log" >&2; rm -f "$DUMP.tmp.$$"; exit 1; }
fi

# ---------------------------------------------------------------- nodes
rpc() { # rpc PORT METHOD [PARAMS]
	curl -s --max-time 5 -H 'Content-Type: application/json' \
		-d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$2\",\"params\":${3:-[]}}" "http://127.0.0.1:$1"
}
# each_rpc METHOD JQ: the JQ result of METHOD from every RPC node, comma-separated ("?" where it failed)
each_rpc() {
	local p v out=()
	for p in "${RPC_PORTS[@]}"; do
		v=$(rpc "$p" "$1" | jq -r "$2" 2>/dev/null); out+=("${v:-?}")
	done
	local IFS=,; echo "${out[*]}"
}
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
START_MS=$(date +%s%3N)
for d in "${NODE_DIRS[@]}"; do
	(cd "$d" && exec "$BIN" node --config-path "$d" --privnet > "$d/node.log" 2>&1) &
	NODE_PIDS+=($!)
done
log "$KIND $DB $TOPO: started node pid(s) ${NODE_PIDS[*]} in $TMP"

# Ready when every RPC node the bench talks to has block count >= 2 (the validators produce, the RPC nodes sync).
ready=0 t0=$SECONDS hs=""
while ((SECONDS - t0 < READY_SECONDS)); do
	for i in "${!NODE_PIDS[@]}"; do
		kill -0 "${NODE_PIDS[$i]}" 2>/dev/null || { log "node pid ${NODE_PIDS[$i]} ($(basename "${NODE_DIRS[$i]}")) exited early"; tail -20 "${NODE_DIRS[$i]}/node.log" >&2; exit 1; }
	done
	hs=$(each_rpc getblockcount '.result // empty')
	ready=1
	for h in ${hs//,/ }; do [[ $h =~ ^[0-9]+$ ]] && [ "$h" -ge 2 ] || ready=0; done
	[ $ready = 1 ] && break
	sleep 0.5
done
[ $ready = 1 ] || { log "RPC node(s) at 127.0.0.1:${RPC_PORTS[*]} not producing/syncing blocks after ${READY_SECONDS}s (block counts: $hs)"; exit 1; }
log "RPC 127.0.0.1:${RPC_PORTS[*]} ready at block count(s) $hs after $((SECONDS - t0))s"
# Block 1's timestamp against the start of the nodes: a first round that waited for a view change shows here.
B1_MS=$(rpc "$RPC_PORT" getblockheader '[1, true]' | jq -r '.result.time // empty')
FIRST_BLOCK=nan; [[ $B1_MS =~ ^[0-9]+$ ]] && FIRST_BLOCK=$(awk -v a="$B1_MS" -v b="$START_MS" 'BEGIN {printf "%.1f", (a - b) / 1000}')

# ---------------------------------------------------------------- bench
BW="$TMP/bench"; mkdir -p "$BW/tokencontract"
mshow .docker/rpc/tokencontract/token.nef > "$BW/tokencontract/token.nef"
mshow .docker/rpc/tokencontract/token.manifest.json > "$BW/tokencontract/token.manifest.json"
BENCH_ARGS=(-o "$RES/report.txt" -d "${KIND}_${DB}_${TOPO}" -m wrk -w "$WORKERS" -z "$TIME_LIMIT" -t "$REQ_TIMEOUT")
for p in "${RPC_PORTS[@]}"; do BENCH_ARGS+=(-a "127.0.0.1:$p"); done
BENCH_ARGS+=(-i "$DUMP" --disable-stats)
echo "$BENCH_BIN_DIR/neo-bench ${BENCH_ARGS[*]}" > "$RES/bench.cmd"
(cd "$BW" && exec "$BENCH_BIN_DIR/neo-bench" "${BENCH_ARGS[@]}") > "$RES/bench.log" 2>&1 &
BENCH_PID=$!

# Sampler: once the bench logs "Started test from block", every second: time, CPU ticks and RSS of the nodes, CPU ticks of
# the bench, load, machine busy ticks, CPU ticks of each node.
sampler() {
	while kill -0 "$BENCH_PID" 2>/dev/null && ! grep -q "Started test from block" "$RES/bench.log"; do sleep 0.2; done
	while kill -0 "$BENCH_PID" 2>/dev/null; do
		local t ticks=0 rss=0 rssf=0 bt=0 p s per=()
		t=$(date +%s.%N)
		for p in "${NODE_PIDS[@]}"; do
			s=$(cat "/proc/$p/stat" 2>/dev/null) || { per+=(0); continue; }
			s=${s##*) }; set -- $s; ticks=$((ticks + ${12} + ${13})); per+=($((${12} + ${13})))
			set -- $(awk '/^VmRSS/{r=$2} /^RssFile/{f=$2} END{print r+0, f+0}' "/proc/$p/status" 2>/dev/null || echo 0 0)
			rss=$((rss + $1)) rssf=$((rssf + $2))
		done
		s=$(cat "/proc/$BENCH_PID/stat" 2>/dev/null) && { s=${s##*) }; set -- $s; bt=$((${12} + ${13})); }
		# machine-wide busy jiffies (user nice system irq softirq steal) from /proc/stat, to see what other processes used
		set -- $(head -1 /proc/stat)
		# then the file-backed part of the RSS (RssFile: BoltDB's memory-mapped file, the binary), then the CPU ticks
		# of each node, in NODE_DIRS order
		echo "$t $ticks $rss $bt $(cut -d' ' -f1 /proc/loadavg) $(($2 + $3 + $4 + $7 + $8 + $9)) $rssf ${per[*]}"
		sleep 1
	done
}
sampler > "$RES/samples.txt" &
SAMPLER_PID=$!

if [ -n "$PPROF_SECONDS" ]; then
	(
		while kill -0 "$BENCH_PID" 2>/dev/null && ! grep -q "Started test from block" "$RES/bench.log"; do sleep 0.2; done
		sleep "$PPROF_DELAY"
		echo "profile start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" > "$RES/pprof.info"
		if [ "$PPROF_BLOCK" = 1 ]; then
			# Delta profiles over the same window as the CPU profile (?seconds= on a cumulative profile).
			for p in block mutex; do
				curl -s --max-time $((PPROF_SECONDS + 30)) -o "$RES/$p.pprof" \
					"http://127.0.0.1:$PPROF_PORT/debug/pprof/$p?seconds=$PPROF_SECONDS" &
			done
		fi
		curl -s --max-time $((PPROF_SECONDS + 30)) -o "$RES/cpu.pprof" \
			"http://127.0.0.1:$PPROF_PORT/debug/pprof/profile?seconds=$PPROF_SECONDS"
		echo "profile end $(date +%T) curl rc $? load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$RES/pprof.info"
		wait
		# The live heap right after the CPU profile, i.e. still under load (in-use and allocation figures).
		curl -s --max-time 30 -o "$RES/heap.pprof" "http://127.0.0.1:$PPROF_PORT/debug/pprof/heap"
		echo "heap profile $(date +%T) curl rc $? load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$RES/pprof.info"
		if [ -n "$PPROF_TRACE" ]; then
			curl -s --max-time $((PPROF_TRACE + 30)) -o "$RES/trace.out" \
				"http://127.0.0.1:$PPROF_PORT/debug/pprof/trace?seconds=$PPROF_TRACE"
			echo "trace end $(date +%T) curl rc $? load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$RES/pprof.info"
		fi
	) &
	PPROF_PID=$!
fi

# Stall watch: from the bench's "Started test from block", if no block with transactions shows up for STALL_SECONDS,
# the round is taken as stuck (all sent: the remaining txs are lost; still sending: the chain stopped taking txs; all
# included: the bench itself hangs). SIGINT the bench (it then writes its report as usual) instead of letting it wait for
# its own limits (-z, then -z + 5 min of parsing); SIGKILL it when it has not exited 15 s later (then there is no report).
# Recorded as an anomaly with the RPC node(s)' mempool size; the first RPC node's pool is saved to stuck-mempool.txt.
(
	while kill -0 "$BENCH_PID" 2>/dev/null && ! grep -q "Started test from block" "$RES/bench.log"; do sleep 1; done
	last=$(grep -cE '#[0-9]+: [1-9]' "$RES/bench.log"); since=$(date +%s)
	while kill -0 "$BENCH_PID" 2>/dev/null; do
		sleep 2
		n=$(grep -cE '#[0-9]+: [1-9]' "$RES/bench.log")
		if [ "$n" != "$last" ]; then last=$n; since=$(date +%s); continue; fi
		if (( $(date +%s) - since > STALL_SECONDS )); then
			phase="bench still sending"; grep -q "sender worker stopped" "$RES/bench.log" && phase="all txs sent"
			inb=$(sed -nE 's/.* #[0-9]+: ([0-9]+) transactions in .*/\1/p' "$RES/bench.log" | awk '{s += $1} END {print s + 0}')
			mp=$(each_rpc getrawmempool '.result | length')
			rpc "$RPC_PORT" getrawmempool | jq -r '.result[]?' > "$RES/stuck-mempool.txt" 2>/dev/null
			echo "stall: no non-empty block for ${STALL_SECONDS}s ($phase, $inb txs in blocks); RPC node mempool(s)=$mp; bench interrupted" >> "$RES/anomalies.txt"
			kill -INT "$BENCH_PID" 2>/dev/null
			for ((i = 0; i < 15; i++)); do sleep 1; kill -0 "$BENCH_PID" 2>/dev/null || break; done
			if kill -0 "$BENCH_PID" 2>/dev/null; then
				echo "bench hung: still running 15s after SIGINT, killed (no report)" >> "$RES/anomalies.txt"
				kill -KILL "$BENCH_PID" 2>/dev/null
			fi
			break
		fi
	done
) &
STALL_PID=$!

wait "$BENCH_PID"; BENCH_RC=$?; BENCH_PID=""
stop_pid "$STALL_PID" 2; STALL_PID=""
wait "$SAMPLER_PID" 2>/dev/null; SAMPLER_PID=""
[ -n "$PPROF_PID" ] && { wait "$PPROF_PID"; PPROF_PID=""; }
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# ---------------------------------------------------------------- after the load: chain and mempool state
FINAL_COUNT=$(each_rpc getblockcount '.result // empty')
MEMPOOL=$(each_rpc getrawmempool '.result | length')
ALIVE=0; for p in "${NODE_PIDS[@]}"; do kill -0 "$p" 2>/dev/null && ALIVE=$((ALIVE + 1)); done
if [ "$METRICS" = 1 ]; then
	for d in "${NODE_DIRS[@]}"; do
		mp=$(section_port "$d/protocol.privnet.yml" Prometheus)
		[ -n "$mp" ] && curl -s --max-time 10 -o "$RES/metrics-$(basename "$d").txt" "http://127.0.0.1:$mp/metrics"
	done
fi
for p in "${NODE_PIDS[@]}"; do stop_pid "$p" 20 || echo "node $p needed SIGKILL" >> "$RES/anomalies.txt"; done
NODE_PIDS=()
for d in "${NODE_DIRS[@]}"; do
	# Log lines at level ERROR/PANIC/FATAL or WARN (zap console format "LEVEL<TAB>msg"), or a Go runtime panic.
	n=$(grep -cE '(^|[[:space:]])(ERROR|DPANIC|PANIC|FATAL)[[:space:]]|^panic: |^fatal error: ' "$d/node.log")
	w=$(grep -cE '(^|[[:space:]])WARN[[:space:]]' "$d/node.log")
	[ "$n$w" != 00 ] && echo "$(basename "$d"): $n ERROR/PANIC/FATAL, $w WARN log lines" >> "$RES/anomalies.txt"
	du -sk "$d/chains" 2>/dev/null | awk -v n="$(basename "$d")" '{print n" db_kb="$1}' >> "$RES/dbsize.txt"
done

# ---------------------------------------------------------------- summary
NAMES=(); for d in "${NODE_DIRS[@]}"; do NAMES+=("$(basename "$d")"); done
# the dBFT view(s) block 1 was agreed in, from the validators' logs (n3d's "block agreed" line; neo-go logs no view there)
FIRST_VIEWS=$(for d in "${NODE_DIRS[@]}"; do grep -hoE 'block agreed.*"index": 1, .*"view": [0-9]+' "$d/node.log"; done 2>/dev/null \
	| sed -E 's/.*"view": //' | sort -u | paste -sd, -)
python3 - "$RES" "$BENCH_RC" "$TXCOUNT" "$LOAD_BEFORE" "$LOAD_AFTER" "$FINAL_COUNT" "$MEMPOOL" "$ALIVE" "${#NODE_DIRS[@]}" "${NAMES[*]}" "$FIRST_BLOCK" "$FIRST_VIEWS" <<'EOF'
import os, re, statistics, sys
res, rc, txcount, lb, la, fc, mp, alive, nn, names, fb, fbv = sys.argv[1:]
names = names.split()
tck = os.sysconf("SC_CLK_TCK")
rep = open(os.path.join(res, "report.txt")).read() if os.path.exists(os.path.join(res, "report.txt")) else ""
blog = open(os.path.join(res, "bench.log"), errors="replace").read()
def f(rx, s, d="nan"):
    m = re.search(rx, s); return m.group(1) if m else d
tps, rps = f(r"TPS ≈ ([\d.]+|NaN)", rep), f(r"RPS ≈ ([\d.]+)", rep)
incl, errs = f(r"TXs ≈ (\d+)", rep), f(r"RPC Errors\s+≈ (\d+)", rep)
sent = f(r"Sent (\d+) transactions in (\S+)", blog)
senddur = f(r"Sent \d+ transactions in (\S+)", blog)
blocks = [(int(a), int(b), int(c)) for a, b, c in re.findall(r"#(\d+): (\d+) transactions in (\d+) ms", blog)]
empties = len(re.findall(r"empty block: \d+", blog))
dts = [c for _, _, c in blocks]; txs = [b for _, b, _ in blocks]
# Empty blocks between the first and last non-empty block (the bench logs them, but only counts them if a full block follows).
nz = [i for i, b in enumerate(blocks) if b[1] > 0]
gaps = sum(1 for b in blocks[nz[0]:nz[-1] + 1] if b[1] == 0) if nz else 0
S = []
for line in open(os.path.join(res, "samples.txt")):
    p = line.split()
    # a sample taken while the bench was already exiting has bench ticks 0: drop it
    if len(p) >= 5 and float(p[3]) > 0: S.append([float(x) for x in p])
# The load window ends with the last block that had transactions (bench log time, 1 s resolution): the idle tail of a
# stalled run (or the parser's last polls) is not counted.
import time
lastblk = [l.split(" #")[0] for l in blog.splitlines() if re.search(r" #\d+: [1-9]\d* transactions in", l)]
if lastblk:
    tend = time.mktime(time.strptime(lastblk[-1], "%Y/%m/%d %H:%M:%S")) + 1.5
    if any(s[0] <= tend for s in S[1:]): S = [s for s in S if s[0] <= tend]
cpu = mem = memf = peak = bcpu = float("nan")
if len(S) >= 2:
    dt = S[-1][0] - S[0][0]
    cpu = (S[-1][1] - S[0][1]) / tck / dt * 100
    bcpu = (S[-1][3] - S[0][3]) / tck / dt * 100
    mem = statistics.mean(s[2] for s in S) / 1024
    memf = statistics.mean(s[6] for s in S) / 1024 if all(len(s) >= 7 for s in S) else float("nan")
    peak = max(s[2] for s in S) / 1024
    la_run = statistics.mean(s[4] for s in S)
    ocpu = ((S[-1][5] - S[0][5]) - (S[-1][1] - S[0][1]) - (S[-1][3] - S[0][3])) / tck / dt * 100 if len(S[0]) >= 6 else float("nan")
else:
    la_run = ocpu = float("nan")
fatal = [l for l in blog.splitlines() if re.search(r"could not|Fatal|panic|timeout|Timeout|exceeded", l)]
lost = str(max(0, int(sent) - int(incl))) if sent.isdigit() and incl.isdigit() else "nan"
# in_blocks: txs in the non-empty blocks the bench logged (a cross-check of "included", which comes from its report)
print("INFO bench_rc=%s sent=%s/%s included=%s lost=%s rpc_errors=%s in_blocks=%d send_time=%s final_blockcount=%s mempool_after=%s nodes_alive_at_end=%s/%s"
      % (rc, sent, txcount, incl, lost, errs, sum(txs), senddur, fc, mp, alive, nn))
if dts:
    print("INFO blocks=%d nonempty=%d empty_inside_load=%d empty_logged=%d block_ms: median=%d mean=%.0f max=%d min=%d  txs/block: max=%d median=%d"
          % (len(blocks), len(nz), gaps, empties, statistics.median(dts), statistics.mean(dts), max(dts), min(dts),
             max(txs), statistics.median(txs)))
print("INFO mem_peak=%.1fMB mem_file_mean=%.1fMB bench_cpu=%.1f%% other_procs_cpu=%.1f%% samples=%d load_before=%s load_during_mean=%.2f load_after=%s"
      % (peak, memf, bcpu, ocpu, len(S), lb, la_run, la))
# block 1: its timestamp after the nodes were started, and the dBFT view it was agreed in (validators' logs)
print("INFO first_block_after_start=%ss first_block_views=%s" % (fb, fbv or "?"))
# CPU time of each node over the load window, in ms per included transaction (the relay/consensus cost per node).
if len(S) >= 2 and len(S[0]) >= 7 + len(names) and incl.isdigit() and int(incl) > 0:
    per = ["%s=%.3f" % (n.replace("node-", ""), (S[-1][7 + i] - S[0][7 + i]) / tck * 1000 / int(incl)) for i, n in enumerate(names)]
    print("INFO cpu_ms_per_tx " + " ".join(per))
# n3d's relay counters per node (Prometheus, METRICS=1): what a node dropped, skipped, asked again or re-announced.
rel = {"n3d_node_peer_tx_dropped_total": "dropped", "n3d_p2p_broadcast_skipped_total": "skipped",
       "n3d_p2p_getdata_retries_total": "retries", "n3d_p2p_getdata_abandoned_total": "abandoned",
       "n3d_p2p_reannounced_transactions_total": "reannounced", "n3d_node_peer_tx_verdicts_total": "verdict",
       "n3d_p2p_tx_refetched_total": "refetched",
       "n3d_p2p_messages_sent_total": "sent", "n3d_p2p_messages_received_total": "recv"}
cmds = ("Inv", "GetData", "NotFound", "Transaction")
for n in names:
    f = os.path.join(res, "metrics-%s.txt" % n)
    if not os.path.exists(f): continue
    vals = {}
    for line in open(f):
        m = re.match(r'^(\w+)(?:\{\w+="(\w+)"\})? (\S+)$', line.strip())
        if not m or m.group(1) not in rel: continue
        k = rel[m.group(1)]
        if k in ("sent", "recv") and m.group(2) not in cmds: continue
        if m.group(2): k += "_" + m.group(2)
        vals[k] = int(float(m.group(3)))
    if vals: print("INFO relay %s %s" % (n.replace("node-", ""), " ".join("%s=%d" % kv for kv in sorted(vals.items()))))
for l in fatal[:5]: print("INFO bench-log: " + l)
an = os.path.join(res, "anomalies.txt")
if os.path.exists(an):
    for l in open(an): print("INFO anomaly: " + l.strip())
print("INFO results: " + res)
print("TPS=%s RPS=%s CPU=%.1f%% MEM=%.1fMB" % (tps, rps, cpu, mem))
EOF
