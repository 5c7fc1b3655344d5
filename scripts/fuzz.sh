#!/usr/bin/env bash
# fuzz.sh DURATION [PACKAGES...] — run every Fuzz target found in the given
# packages (default ./...) for DURATION each, one after another. Any failure
# stops the run with the failing input saved under testdata/fuzz/.
set -euo pipefail
dur=${1:-1m}
shift || true
pkgs=("${@:-./...}")
cd "$(dirname "$0")/.."
for pkg in $(go list "${pkgs[@]}"); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	targets=$(grep -hoE '^func (Fuzz[A-Za-z0-9_]+)\(' "$dir"/*_test.go 2>/dev/null | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | sort -u || true)
	for t in $targets; do
		echo "== $pkg $t ($dur)"
		go test -run '^$' -fuzz "^${t}\$" -fuzztime "$dur" ${FUZZFLAGS:-} "$pkg"
	done
done
