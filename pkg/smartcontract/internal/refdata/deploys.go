package refdata

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
)

// Deploy is a successful contract deployment found in a chain: the
// transaction, its sender, the contract hash of the Deploy notification
// and the NEF and manifest bytes the transaction's script pushed.
type Deploy struct {
	Chain    string
	TxHash   string
	Sender   util.Uint160
	Hash     util.Uint160
	NEF      []byte
	Manifest []byte
}

// ReadJSONL calls fn for every line of a JSON-lines file of a chain.
func ReadJSONL(t testing.TB, chain, name string, fn func(line []byte)) {
	t.Helper()
	conformance.EachLine(t, ChainFile(t, chain, name), fn)
}

type blockLine struct {
	Block struct {
		Tx []struct {
			Hash   string `json:"hash"`
			Sender string `json:"sender"`
			Script []byte `json:"script"`
		} `json:"tx"`
	} `json:"block"`
}

type applogLine struct {
	Hash   string `json:"hash"`
	Kind   string `json:"kind"`
	Result struct {
		Executions []struct {
			VMState       string `json:"vmstate"`
			Notifications []struct {
				EventName string `json:"eventname"`
				State     struct {
					Value []struct {
						Value json.RawMessage `json:"value"`
					} `json:"value"`
				} `json:"state"`
			} `json:"notifications"`
		} `json:"executions"`
	} `json:"result"`
}

// Deploys returns every successful deployment of a chain, in block order.
func Deploys(t testing.TB, chain string) []Deploy {
	t.Helper()
	hashes := make(map[string]util.Uint160)
	ReadJSONL(t, chain, "applogs.jsonl", func(line []byte) {
		var l applogLine
		must(t, json.Unmarshal(line, &l))
		if l.Kind != "tx" {
			return
		}
		for _, e := range l.Result.Executions {
			for _, n := range e.Notifications {
				if n.EventName != "Deploy" || e.VMState != "HALT" {
					continue
				}
				var b64 string
				must(t, json.Unmarshal(n.State.Value[0].Value, &b64))
				b, err := base64.StdEncoding.DecodeString(b64)
				must(t, err)
				h, err := util.Uint160DecodeBytesLE(b)
				must(t, err)
				hashes[l.Hash] = h
			}
		}
	})
	var out []Deploy
	ReadJSONL(t, chain, "blocks.jsonl", func(line []byte) {
		var b blockLine
		must(t, json.Unmarshal(line, &b))
		for _, tx := range b.Block.Tx {
			h, ok := hashes[tx.Hash]
			if !ok {
				continue
			}
			sender, err := address.StringToUint160(tx.Sender)
			must(t, err)
			d := Deploy{Chain: chain, TxHash: tx.Hash, Sender: sender, Hash: h}
			for _, data := range leadingPushes(tx.Script) {
				switch {
				case len(data) >= 4 && binary.LittleEndian.Uint32(data) == 0x3346454E:
					d.NEF = data
				case len(data) > 0 && data[0] == '{':
					d.Manifest = data
				}
			}
			if d.NEF == nil || d.Manifest == nil {
				t.Fatalf("refdata: deploy tx %s: NEF or manifest not found in its script", tx.Hash)
			}
			out = append(out, d)
		}
	})
	return out
}

// leadingPushes returns the data of the PUSHDATA instructions at the start
// of a script, skipping PUSHNULL and small integer pushes, up to the first
// other instruction.
func leadingPushes(s []byte) [][]byte {
	var out [][]byte
	for i := 0; i < len(s); {
		var n, hdr int
		switch op := s[i]; {
		case op == 0x0C && i+2 <= len(s): // PUSHDATA1
			n, hdr = int(s[i+1]), 2
		case op == 0x0D && i+3 <= len(s): // PUSHDATA2
			n, hdr = int(binary.LittleEndian.Uint16(s[i+1:])), 3
		case op == 0x0E && i+5 <= len(s): // PUSHDATA4
			n, hdr = int(binary.LittleEndian.Uint32(s[i+1:])), 5
		case op == 0x0B || (op >= 0x0F && op <= 0x20): // PUSHNULL, PUSHM1..PUSH16
			i++
			continue
		default:
			return out
		}
		if i+hdr+n > len(s) {
			return out
		}
		out = append(out, s[i+hdr:i+hdr+n])
		i += hdr + n
	}
	return out
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("refdata: %v", err)
	}
}
