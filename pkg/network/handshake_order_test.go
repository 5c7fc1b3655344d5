package network

import (
	"bufio"
	"fmt"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/stretchr/testify/require"
)

// busyLedger is a ledger whose BlockHeight yields the processor a few
// times, as one does under lock contention while blocks are persisted:
// it widens any window between starting a peer and queueing our version.
type busyLedger struct{ Ledger }

func (l busyLedger) BlockHeight() uint32 {
	for range 3 {
		runtime.Gosched()
	}
	return l.Ledger.BlockHeight()
}

// firstCommand connects to addr, sends a version at once (as neo-go and
// C# do) and returns the command of the first message received.
func firstCommand(addr string, version []byte) (message.Command, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if _, err := c.Write(version); err != nil {
		return 0, err
	}
	if err := c.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		return 0, err
	}
	m, err := message.Read(bufio.NewReader(c))
	if err != nil {
		return 0, err
	}
	return m.Command, nil
}

// TestVersionBeforeVerack: thousands of inbound connections, each sending
// its version the moment it connects, all receive our version first —
// never a verack before it (neo-go drops a peer that does that).
func TestVersionBeforeVerack(t *testing.T) {
	const conns, parallel = 3000, 200
	n := newNode(t, nodeOpts{cfg: func(c *Config) {
		c.Ledger = busyLedger{c.Ledger}
		c.MaxHandshaking = 4 * parallel // every connection keeps its slot (half of them per IP)
	}})
	frames := make([][]byte, conns)
	for i := range frames {
		frames[i] = versionFrame(t, n.srv.cfg.Magic, uint32(1000+i))
	}
	var next atomic.Int64
	var wrong, failed atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= conns {
					return
				}
				cmd, err := firstCommand(n.addr(), frames[i])
				switch {
				case err != nil:
					failed.Add(1)
					firstErr.CompareAndSwap(nil, fmt.Sprint(err))
				case cmd != message.CmdVersion:
					wrong.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	require.Zero(t, failed.Load(), "connections that failed (first: %v)", firstErr.Load())
	require.Zero(t, wrong.Load(), "connections whose first message was not version, of %d", conns)
}
