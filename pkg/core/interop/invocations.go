package interop

import "github.com/n3d-io/n3d/pkg/util"

// InvocationCounter returns how many times the contract h has been called
// in this execution so far (0 if never). Natives such as Oracle.finish
// check it the way the reference checks its invocation counter.
func (ic *Context) InvocationCounter(h util.Uint160) int {
	n, _ := ic.invocations.get(h)
	return n
}

// counters is the reference's invocationCounter: calls per contract hash.
// A transaction usually touches a few contracts, so the first ones live
// inline (no allocation) and only further ones go to a map.
type counters struct {
	small [4]counter
	used  int
	more  map[util.Uint160]int
}

type counter struct {
	h util.Uint160
	n int
}

func (c *counters) get(h util.Uint160) (int, bool) {
	for i := range c.used {
		if c.small[i].h == h {
			return c.small[i].n, true
		}
	}
	n, ok := c.more[h]
	return n, ok
}

func (c *counters) set(h util.Uint160, n int) {
	for i := range c.used {
		if c.small[i].h == h {
			c.small[i].n = n
			return
		}
	}
	if _, ok := c.more[h]; ok || c.used == len(c.small) {
		if c.more == nil {
			c.more = make(map[util.Uint160]int)
		}
		c.more[h] = n
		return
	}
	c.small[c.used] = counter{h, n}
	c.used++
}

// add increments the counter of h (from 0 if absent).
func (c *counters) add(h util.Uint160) {
	n, _ := c.get(h)
	c.set(h, n+1)
}
