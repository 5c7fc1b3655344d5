package sim

import (
	"fmt"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/node"
)

// Policy is how nodes relay transaction announcements.
type Policy string

// Gossip policies.
const (
	// PolicyFanOut is the default of n3d: a node announces a transaction
	// it pooled (first hand or from a peer) to a random subset of its
	// peers sized by the estimated network size (network.fanOut), and a
	// broadcast stops waiting for busy peers once 2/3 of the chosen took
	// it.
	PolicyFanOut Policy = "fanout"
	// PolicyRebroadcast: every relay goes to every peer
	// (P2P.BroadcastFactor 100).
	PolicyRebroadcast Policy = "rebroadcast"
	// PolicyFirstHand: a node announces only the transactions it received
	// first hand (RPC, SubmitTx), to every peer, and never those it got
	// from peers (P2P Relay off, network.Config.FirstHandRelayOnly): the
	// Internet Computer's rule for ingress messages.
	PolicyFirstHand Policy = "firsthand"
)

// Policies lists the policies in the order the comparison shows them.
var Policies = []Policy{PolicyRebroadcast, PolicyFanOut, PolicyFirstHand}

// ParsePolicy checks a policy name ("" is the default, fanout).
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(s); p {
	case "":
		return PolicyFanOut, nil
	case PolicyFanOut, PolicyRebroadcast, PolicyFirstHand:
		return p, nil
	}
	return "", fmt.Errorf("sim: unknown gossip policy %q (want %s, %s or %s)", s,
		PolicyFanOut, PolicyRebroadcast, PolicyFirstHand)
}

// String names the policy with its switches, as the report shows it.
func (c *Config) policyName() string {
	s := string(c.Policy)
	if c.NoCancel {
		s += "+nocancel"
	}
	if c.NoBatch {
		s += "+nobatch"
	}
	return s
}

// applyPolicy sets the node configuration's part of the policy.
func (c *Config) applyPolicy(cfg *config.Config) {
	a := &cfg.ApplicationConfiguration
	switch c.Policy {
	case PolicyRebroadcast:
		a.P2P.BroadcastFactor = 100
	case PolicyFirstHand:
		a.Relay = false
	default:
		a.P2P.BroadcastFactor = 0
	}
	if c.NoBatch {
		a.P2P.BroadcastTxsBatchDelay = time.Millisecond // 0 would be the default
	}
}

// policyOption is the node option carrying the policy's P2P switches.
func (c *Config) policyOption() node.Option {
	pol, noCancel, noBatch := c.Policy, c.NoCancel, c.NoBatch
	return node.WithP2PTuning(func(n *network.Config) {
		n.FirstHandRelayOnly = pol == PolicyFirstHand
		n.BroadcastNoCancel = noCancel
		if noBatch {
			n.InvBatchSize = 1
		}
	})
}
