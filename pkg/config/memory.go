package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Memory soft-limit modes (Memory.SoftLimit).
const (
	// MemoryAuto follows the recent peak of the node's live heap (the
	// default).
	MemoryAuto = "auto"
	// MemoryOff leaves the Go runtime's defaults alone.
	MemoryOff = "off"
)

// DefaultMemoryHeapPercent is Memory.HeapPercent when unset.
//
// 25: in same-run A/Bs against 35 (neo-bench, 500k transfers, 27 Nov
// 2026) four loaded nodes and an RPC node took 30-58 MB less mean RSS
// together (653.6 and 689.2 against 711.6 and 719.9 MB) at TPS within the
// rounds' spread; 20 took ~120 MB off but cost those five nodes ~13% of
// their TPS, the collector's work repeated on every node. For a single
// LevelDB node one A/B found 12.5 MB (10%) less mean RSS at 25 for ~3.5%
// of its TPS, a second none of that cost (docs/benchmarks-tps.md, 27 Nov
// 2026, 09:03-11:21).
const DefaultMemoryHeapPercent = 25

// Memory sets the process's soft memory limit, what makes the Go garbage
// collector run before the heap doubles (an n3d addition; neo-go has no
// such key and runs with the runtime's defaults). GOMEMLIMIT or GOGC in
// the environment override it: the node then leaves the runtime alone.
type Memory struct {
	// SoftLimit is "auto" (default when empty): the limit follows the
	// recent peak of the live heap (a peak fades over about a minute),
	// plus HeapPercent of it, so that a big block makes the collector
	// work harder instead of doubling the heap; "off": Go's defaults
	// (the heap may grow to twice the live heap); or a fixed size in
	// bytes with an optional B, KiB, MiB or GiB suffix, as GOMEMLIMIT
	// takes it (the collector never runs more than half the CPU to hold
	// it, but a limit below the live heap costs that half).
	SoftLimit string `yaml:"SoftLimit"`
	// HeapPercent is how far, in percent of the recent peak of the live
	// heap, the heap may grow between collections under "auto" (1..100,
	// default 35; Go's own GOGC default is 100).
	HeapPercent int `yaml:"HeapPercent"`
}

// FixedLimit returns the fixed soft limit in bytes and true when SoftLimit
// is a size, 0 and false for "auto", "off" or empty.
func (m Memory) FixedLimit() (int64, bool) {
	n, err := parseSize(m.SoftLimit)
	return n, err == nil && n > 0
}

// Mode returns MemoryAuto, MemoryOff or "fixed".
func (m Memory) Mode() string {
	switch strings.ToLower(m.SoftLimit) {
	case "", MemoryAuto:
		return MemoryAuto
	case MemoryOff:
		return MemoryOff
	}
	return "fixed"
}

func (m Memory) validate() error {
	if m.HeapPercent < 0 || m.HeapPercent > 100 {
		return fmt.Errorf("%w: Memory.HeapPercent %d, want 1..100 (0: default %d)",
			ErrInvalid, m.HeapPercent, DefaultMemoryHeapPercent)
	}
	if m.Mode() != "fixed" {
		return nil
	}
	n, err := parseSize(m.SoftLimit)
	if err != nil {
		return fmt.Errorf("%w: Memory.SoftLimit %q: %w", ErrInvalid, m.SoftLimit, err)
	}
	if n < 1<<20 {
		return fmt.Errorf("%w: Memory.SoftLimit %q is below 1MiB", ErrInvalid, m.SoftLimit)
	}
	return nil
}

// sizeUnits are the suffixes GOMEMLIMIT accepts that a node's limit needs.
var sizeUnits = []struct {
	suffix string
	shift  uint
}{{"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}, {"B", 0}}

// parseSize reads "1234", "1234B", "512MiB", "2GiB".
func parseSize(s string) (int64, error) {
	num, shift := s, uint(0)
	for _, u := range sizeUnits {
		if strings.HasSuffix(s, u.suffix) {
			num, shift = strings.TrimSuffix(s, u.suffix), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want bytes with an optional B, KiB, MiB, GiB or TiB suffix, %q, %q or %q",
			MemoryAuto, MemoryOff, "")
	}
	if shift > 0 && n > (1<<63-1)>>shift {
		return 0, fmt.Errorf("size overflows int64")
	}
	return n << shift, nil
}
