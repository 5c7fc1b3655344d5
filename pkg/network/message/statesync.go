package message

import (
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/payload"
)

// State exchange commands of neo-go's P2PStateExchangeExtensions (0x5x are
// its extension commands): getmptdata asks for trie nodes by hash, mptdata
// carries them. The server refuses both when the extension is off.
const (
	CmdGetMPTData Command = 0x51
	CmdMPTData    Command = 0x52
)

func init() {
	// neo-go compresses mptdata like any large payload, never the
	// hash list of getmptdata.
	commands[CmdGetMPTData] = commandInfo{"GetMPTData", false,
		func() io.Serializable { return new(payload.MPTInventory) }}
	commands[CmdMPTData] = commandInfo{"MPTData", true,
		func() io.Serializable { return new(payload.MPTData) }}
}
