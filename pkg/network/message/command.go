package message

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/payload"
)

// Command is the command byte of a message (the reference's MessageCommand).
type Command byte

// Commands of the Neo N3 protocol.
const (
	// Handshake.
	CmdVersion Command = 0x00
	CmdVerack  Command = 0x01
	// Connectivity.
	CmdGetAddr Command = 0x10
	CmdAddr    Command = 0x11
	CmdPing    Command = 0x18
	CmdPong    Command = 0x19
	// Synchronisation.
	CmdGetHeaders      Command = 0x20
	CmdHeaders         Command = 0x21
	CmdGetBlocks       Command = 0x24
	CmdMempool         Command = 0x25
	CmdInv             Command = 0x27
	CmdGetData         Command = 0x28
	CmdGetBlockByIndex Command = 0x29
	CmdNotFound        Command = 0x2a
	CmdTransaction     Command = 0x2b
	CmdBlock           Command = 0x2c
	CmdExtensible      Command = 0x2e
	CmdReject          Command = 0x2f
	// SPV.
	CmdFilterLoad  Command = 0x30
	CmdFilterAdd   Command = 0x31
	CmdFilterClear Command = 0x32
	CmdMerkleBlock Command = 0x38
	// Others.
	CmdAlert Command = 0x40
)

// commandInfo describes a command: its name, whether the reference may
// compress it, and the payload type it carries (nil: none).
type commandInfo struct {
	name       string
	compress   bool
	newPayload func() io.Serializable
}

var commands = [256]commandInfo{
	CmdVersion:         {"Version", false, func() io.Serializable { return new(payload.Version) }},
	CmdVerack:          {"Verack", false, nil},
	CmdGetAddr:         {"GetAddr", false, nil},
	CmdAddr:            {"Addr", true, func() io.Serializable { return new(payload.AddrList) }},
	CmdPing:            {"Ping", false, func() io.Serializable { return new(payload.Ping) }},
	CmdPong:            {"Pong", false, func() io.Serializable { return new(payload.Ping) }},
	CmdGetHeaders:      {"GetHeaders", false, func() io.Serializable { return new(payload.GetBlockByIndex) }},
	CmdHeaders:         {"Headers", true, func() io.Serializable { return new(payload.Headers) }},
	CmdGetBlocks:       {"GetBlocks", false, func() io.Serializable { return new(payload.GetBlocks) }},
	CmdMempool:         {"Mempool", false, nil},
	CmdInv:             {"Inv", false, func() io.Serializable { return new(payload.Inventory) }},
	CmdGetData:         {"GetData", false, func() io.Serializable { return new(payload.Inventory) }},
	CmdGetBlockByIndex: {"GetBlockByIndex", false, func() io.Serializable { return new(payload.GetBlockByIndex) }},
	CmdNotFound:        {"NotFound", false, func() io.Serializable { return new(payload.Inventory) }},
	CmdTransaction:     {"Transaction", true, func() io.Serializable { return new(transaction.Transaction) }},
	CmdBlock:           {"Block", true, func() io.Serializable { return new(block.Block) }},
	CmdExtensible:      {"Extensible", true, func() io.Serializable { return new(payload.Extensible) }},
	CmdReject:          {"Reject", false, nil},
	CmdFilterLoad:      {"FilterLoad", true, func() io.Serializable { return new(payload.FilterLoad) }},
	CmdFilterAdd:       {"FilterAdd", true, func() io.Serializable { return new(payload.FilterAdd) }},
	CmdFilterClear:     {"FilterClear", false, nil},
	CmdMerkleBlock:     {"MerkleBlock", true, func() io.Serializable { return new(payload.MerkleBlock) }},
	CmdAlert:           {"Alert", false, nil},
}

// String returns the reference's name of the command.
func (c Command) String() string {
	if info := commands[c]; info.name != "" {
		return info.name
	}
	return fmt.Sprintf("Unknown(0x%02x)", byte(c))
}

// Known reports whether the reference defines the command.
func (c Command) Known() bool {
	return commands[c].name != ""
}

// HasPayload reports whether the command carries a payload the reference
// decodes (version, addr, ping, ... block, extensible, filters,
// merkleblock). Verack, getaddr, mempool, filterclear, reject and alert
// carry none.
func (c Command) HasPayload() bool { return commands[c].newPayload != nil }

// Compressible reports whether the reference compresses the command's
// payload when it is large enough (block, extensible, transaction,
// headers, addr, merkleblock, filterload, filteradd).
func (c Command) Compressible() bool { return commands[c].compress }
