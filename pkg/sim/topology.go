package sim

import (
	"math/rand"
	"net/netip"
	"sort"
)

// hostIP is the in-memory address of node i.
func hostIP(i int) netip.Addr {
	return netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}).Next()
}

// topology returns each node's neighbours: a full mesh when degree is 0 or
// at least n-1, otherwise a ring (so the graph is connected) plus random
// edges until every node has at least degree neighbours.
func topology(n, degree int, rng *rand.Rand) [][]int {
	adj := make([]map[int]bool, n)
	for i := range adj {
		adj[i] = map[int]bool{}
	}
	link := func(a, b int) {
		if a != b {
			adj[a][b], adj[b][a] = true, true
		}
	}
	if degree <= 0 || degree >= n-1 {
		for i := range n {
			for j := i + 1; j < n; j++ {
				link(i, j)
			}
		}
	} else {
		for i := range n {
			link(i, (i+1)%n)
		}
		for i := range n {
			for tries := 0; len(adj[i]) < degree && tries < 100*n; tries++ {
				link(i, rng.Intn(n))
			}
		}
	}
	out := make([][]int, n)
	for i, m := range adj {
		for j := range m {
			out[i] = append(out[i], j)
		}
		sort.Ints(out[i])
	}
	return out
}

func newRand(seed int64) *rand.Rand { return rand.New(rand.NewSource(seed)) }
