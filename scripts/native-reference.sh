#!/usr/bin/env bash
# Regenerates pkg/core/native/testdata/neogo-native-states.json and
# csharp-native-methods.json: facts about the reference implementations
# (neo-go's expected native contract states per hardfork, the C# node's
# [ContractMethod] prices, call flags and hardfork ranges) that the native
# tests compare against. The tests never read another repository; this
# script is the only place that does.
#
# Environment (paths are required, nothing is assumed about the machine):
#   NEOGO_REPO  a git repository of nspcc-dev/neo-go (bare or not)
#   NEOGO_REF   the revision to read (default v0.122.0)
#   NEO_REPO    a git repository of neo-project/neo (bare or not)
#   NEO_REF     the revision to read (default HEAD)
#
# Usage: NEOGO_REPO=… NEO_REPO=… scripts/native-reference.sh
set -euo pipefail

: "${NEOGO_REPO:?set NEOGO_REPO to a git repository of nspcc-dev/neo-go}"
: "${NEO_REPO:?set NEO_REPO to a git repository of neo-project/neo}"
NEOGO_REF=${NEOGO_REF:-v0.122.0}
NEO_REF=${NEO_REF:-HEAD}

ROOT=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mgmt=pkg/core/native/native_test/management_test.go
git -C "$NEOGO_REPO" show "$NEOGO_REF:$mgmt" >"$work/management_test.go"
neogo_commit=$(git -C "$NEOGO_REPO" rev-parse "$NEOGO_REF^{commit}")

mkdir "$work/native"
for f in ContractManagement.cs StdLib.cs CryptoLib.cs CryptoLib.BLS12_381.cs LedgerContract.cs PolicyContract.cs; do
	git -C "$NEO_REPO" show "$NEO_REF:src/Neo/SmartContract/Native/$f" >"$work/native/$f"
done
neo_commit=$(git -C "$NEO_REPO" rev-parse "$NEO_REF^{commit}")
neo_desc=$(git -C "$NEO_REPO" describe --tags "$neo_commit" 2>/dev/null || echo "$neo_commit")

cd "$ROOT"
N3D_REGEN_NATIVE_REF=1 \
	N3D_NEOGO_MANAGEMENT_TEST="$work/management_test.go" \
	N3D_NEO_NATIVE_DIR="$work/native" \
	N3D_NEOGO_SOURCE="nspcc-dev/neo-go $NEOGO_REF ($neogo_commit) $mgmt" \
	N3D_NEO_SOURCE="neo-project/neo $neo_desc ($neo_commit) src/Neo/SmartContract/Native" \
	go test -count=1 -run '^TestRegenerateNativeReference$' ./pkg/core/native
git status --short pkg/core/native/testdata
