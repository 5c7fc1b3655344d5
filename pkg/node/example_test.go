package node_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/node"
)

// A single-validator private network in one process: the embedded
// privnet.single configuration with an in-memory database and loopback
// listeners on free ports; the validator's wallet is the repository's.
func Example() {
	data, _ := config.Embedded(config.NetPrivNetSingle)
	cfg, err := config.Parse(data, "")
	if err != nil {
		panic(err)
	}
	a, p := &cfg.ApplicationConfiguration, &cfg.ProtocolConfiguration
	a.DBConfiguration.Type = config.DBInMemory
	a.P2P.Addresses, a.RPC.Addresses = []string{"127.0.0.1:0"}, []string{"127.0.0.1:0"}
	a.Consensus.UnlockWallet.Path = "../../config/wallet.privnet.single.json"
	p.TimePerBlock, p.Genesis.TimePerBlock = 100*time.Millisecond, 100*time.Millisecond

	n, err := node.New(cfg)
	if err != nil {
		panic(err)
	}
	blocks := n.Chain().Subscribe(chain.EventBlock, 0)
	defer blocks.Close()
	if err := n.Start(context.Background()); err != nil {
		panic(errors.Join(err, n.Stop()))
	}
	ev := <-blocks.C // the validator makes block 1
	fmt.Println("block", ev.Block.Index, "consensus:", n.Consensus() != nil, "rpc:", len(n.RPCAddrs()))
	if err := n.Stop(); err != nil {
		panic(err)
	}
	// Output: block 1 consensus: true rpc: 1
}
