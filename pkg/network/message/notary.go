package message

import (
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/payload"
)

// CmdP2PNotaryRequest carries a payload.P2PNotaryRequest (networks with
// P2PSigExtensions; the server refuses it otherwise). The reference
// compresses it like the other large payloads.
const CmdP2PNotaryRequest = Command(payload.InvP2PNotaryRequest)

func init() {
	commands[CmdP2PNotaryRequest] = commandInfo{"P2PNotaryRequest", true,
		func() io.Serializable { return new(payload.P2PNotaryRequest) }}
}
