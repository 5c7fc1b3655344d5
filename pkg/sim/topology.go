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

// Topology kinds (Config.Topology).
const (
	TopologyRandom     = "random"     // ring plus random edges to the minimum degree
	TopologyFull       = "full"       // every node linked to every other
	TopologySmallWorld = "smallworld" // Watts–Strogatz
)

// defaultRewire is Config.Rewire's default: the share of a small-world
// lattice's edges moved to a random node.
const defaultRewire = 0.2

// graph returns the run's topology: the kind of cfg.Topology drawn from
// rng.
func graph(cfg Config, rng *rand.Rand) [][]int {
	switch cfg.Topology {
	case TopologyFull:
		return topology(cfg.Nodes, 0, rng)
	case TopologySmallWorld:
		return smallWorld(cfg.Nodes, cfg.Degree, cfg.Rewire, rng)
	default:
		return topology(cfg.Nodes, cfg.Degree, rng)
	}
}

// smallWorld is a Watts–Strogatz graph: a ring lattice where each node is
// linked to its degree/2 nearest nodes on each side (degree rounded up to
// even, at least 2), then each lattice edge (i, i+j) is, with probability
// beta, moved to (i, k) for a k drawn uniformly among the nodes not yet
// linked to i. A full mesh when degree is 0 or at least n-1.
func smallWorld(n, degree int, beta float64, rng *rand.Rand) [][]int {
	if degree <= 0 || degree >= n-1 {
		return topology(n, 0, rng)
	}
	half := max(1, (degree+1)/2)
	adj := make([]map[int]bool, n)
	for i := range adj {
		adj[i] = map[int]bool{}
	}
	for i := range n {
		for j := 1; j <= half; j++ {
			k := (i + j) % n
			adj[i][k], adj[k][i] = true, true
		}
	}
	for j := 1; j <= half; j++ { // lap by lap, as Watts and Strogatz did
		for i := range n {
			k := (i + j) % n
			if !adj[i][k] || rng.Float64() >= beta || len(adj[i]) >= n-1 {
				continue
			}
			var free []int
			for c := range n {
				if c != i && !adj[i][c] {
					free = append(free, c)
				}
			}
			if len(free) == 0 {
				continue
			}
			m := free[rng.Intn(len(free))]
			delete(adj[i], k)
			delete(adj[k], i)
			adj[i][m], adj[m][i] = true, true
		}
	}
	connect(adj)
	out := make([][]int, n)
	for i, m := range adj {
		for j := range m {
			out[i] = append(out[i], j)
		}
		sort.Ints(out[i])
	}
	return out
}

// connect links each node a rewiring cut off to the node before it (in
// index order), so the graph is connected.
func connect(adj []map[int]bool) {
	for {
		seen := make([]bool, len(adj))
		seen[0] = true
		queue := []int{0}
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			for j := range adj[i] {
				if !seen[j] {
					seen[j] = true
					queue = append(queue, j)
				}
			}
		}
		lone := -1
		for i, ok := range seen {
			if !ok {
				lone = i
				break
			}
		}
		if lone < 0 {
			return
		}
		adj[lone][lone-1], adj[lone-1][lone] = true, true
	}
}
