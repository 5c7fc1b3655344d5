// Package config ships n3d's network configuration files inside the binary.
//
// The YAML files in this directory are the configurations of the public Neo
// N3 networks (mainnet, testnet) and of local test networks. They are read
// by pkg/config: when a file is asked for under the default config directory
// (./config) and is not on disk, the embedded copy is used, so a bare n3d
// binary can join mainnet or run a single-node private network with no files
// around it. The files on disk always win over the embedded copies.
package config

import _ "embed"

// MainNet is protocol.mainnet.yml: the Neo N3 main network.
//
//go:embed protocol.mainnet.yml
var MainNet []byte

// TestNet is protocol.testnet.yml: the Neo N3 test network (T5).
//
//go:embed protocol.testnet.yml
var TestNet []byte

// PrivNet is protocol.privnet.yml: a local four-validator network.
//
//go:embed protocol.privnet.yml
var PrivNet []byte

// PrivNetSingle is protocol.privnet.single.yml: a one-validator local network
// that produces blocks on its own. It is n3d's default configuration.
//
//go:embed protocol.privnet.single.yml
var PrivNetSingle []byte

// UnitTestNet is protocol.unit_testnet.yml: the network used by tests.
//
//go:embed protocol.unit_testnet.yml
var UnitTestNet []byte

// PrivNetSingleWallet is wallet.privnet.single.json, the NEP-6 wallet of the
// PrivNetSingle validator (password "one"). It is public test data shared
// with neo-go's single-node private network: never use its key for value.
//
//go:embed wallet.privnet.single.json
var PrivNetSingleWallet []byte
