package config

import "github.com/n3d-io/n3d/pkg/config/netconfig"

// The protocol part of the configuration lives in pkg/config/netconfig
// (layer L0, imported by the chain and the services); these aliases keep
// the application YAML's names.
type (
	// ProtocolConfiguration is netconfig.ProtocolConfiguration.
	ProtocolConfiguration = netconfig.ProtocolConfiguration
	// Genesis is netconfig.Genesis.
	Genesis = netconfig.Genesis
	// GenesisTransaction is netconfig.GenesisTransaction.
	GenesisTransaction = netconfig.GenesisTransaction
	// GAS is netconfig.GAS.
	GAS = netconfig.GAS
	// Base64Bytes is netconfig.Base64Bytes.
	Base64Bytes = netconfig.Base64Bytes
	// HashIndex is netconfig.HashIndex.
	HashIndex = netconfig.HashIndex
)

// Defaults of the protocol part (see netconfig).
const (
	DefaultMaxBlockSize                    = netconfig.DefaultMaxBlockSize
	DefaultMaxBlockSystemFee               = netconfig.DefaultMaxBlockSystemFee
	DefaultMaxTraceableBlocks              = netconfig.DefaultMaxTraceableBlocks
	DefaultMaxTransactionsPerBlock         = netconfig.DefaultMaxTransactionsPerBlock
	DefaultMemPoolSize                     = netconfig.DefaultMemPoolSize
	DefaultTimePerBlock                    = netconfig.DefaultTimePerBlock
	DefaultInitialGASSupply                = netconfig.DefaultInitialGASSupply
	DefaultP2PNotaryRequestPayloadPoolSize = netconfig.DefaultP2PNotaryRequestPayloadPoolSize
	DefaultStateSyncInterval               = netconfig.DefaultStateSyncInterval
)

// GenesisRoles are the node roles Genesis.Roles accepts (netconfig).
var GenesisRoles = netconfig.GenesisRoles

// MaxGenesisRoleKeys bounds the keys of one role (netconfig).
const MaxGenesisRoleKeys = netconfig.MaxGenesisRoleKeys
