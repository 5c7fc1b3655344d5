package smartcontract_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/internal/refdata"
	"github.com/n3d-io/n3d/pkg/util"
)

// readJSONL calls fn for every line of a JSON-lines file.
func readJSONL(t *testing.T, path string, fn func(line []byte)) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		fn(sc.Bytes())
	}
	require.NoError(t, sc.Err())
}

// txSenders maps every transaction hash of a chain to its sender.
func txSenders(t *testing.T, chain string) map[string]util.Uint160 {
	out := make(map[string]util.Uint160)
	readJSONL(t, refdata.ChainFile(t, chain, "blocks.jsonl"), func(line []byte) {
		var b struct {
			Block struct {
				Tx []struct {
					Hash   string `json:"hash"`
					Sender string `json:"sender"`
				} `json:"tx"`
			} `json:"block"`
		}
		require.NoError(t, json.Unmarshal(line, &b))
		for _, tx := range b.Block.Tx {
			u, err := address.StringToUint160(tx.Sender)
			require.NoError(t, err)
			out[tx.Hash] = u
		}
	})
	return out
}

// deploys maps the hash of every contract deployed by a transaction to the
// transaction's hash, from the ContractManagement Deploy notifications.
func deploys(t *testing.T, chain string) map[util.Uint160]string {
	out := make(map[util.Uint160]string)
	readJSONL(t, refdata.ChainFile(t, chain, "applogs.jsonl"), func(line []byte) {
		var l struct {
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
		require.NoError(t, json.Unmarshal(line, &l))
		if l.Kind != "tx" {
			return
		}
		for _, e := range l.Result.Executions {
			for _, n := range e.Notifications {
				if n.EventName != "Deploy" || e.VMState != "HALT" {
					continue
				}
				var b64 string
				require.NoError(t, json.Unmarshal(n.State.Value[0].Value, &b64))
				b, err := base64.StdEncoding.DecodeString(b64)
				require.NoError(t, err)
				h, err := util.Uint160DecodeBytesLE(b)
				require.NoError(t, err)
				out[h] = l.Hash
			}
		}
	})
	return out
}

func TestContractHashConformance(t *testing.T) {
	senders := map[string]map[string]util.Uint160{}
	deployed := map[string]map[util.Uint160]string{}
	var natives, others int
	for _, c := range refdata.Contracts(t) {
		var st struct {
			NEF struct {
				Checksum uint32 `json:"checksum"`
			} `json:"nef"`
			Manifest struct {
				Name string `json:"name"`
			} `json:"manifest"`
		}
		require.NoError(t, json.Unmarshal(c.NEF, &st.NEF))
		require.NoError(t, json.Unmarshal(c.Manifest, &st.Manifest))
		want, err := util.Uint160DecodeStringBE(c.Hash)
		require.NoError(t, err)
		if c.Native() {
			natives++
			require.Equal(t, want, smartcontract.CreateNativeContractHash(st.Manifest.Name), st.Manifest.Name)
			continue
		}
		if senders[c.Chain] == nil {
			senders[c.Chain] = txSenders(t, c.Chain)
			deployed[c.Chain] = deploys(t, c.Chain)
		}
		txid, ok := deployed[c.Chain][want]
		require.True(t, ok, "no Deploy notification for %s", c.Hash)
		require.Zero(t, c.UpdateCounter, "checksum of an updated contract is not the deployed one")
		got := smartcontract.CreateContractHash(senders[c.Chain][txid], st.NEF.Checksum, st.Manifest.Name)
		require.Equal(t, want, got, "%s %s", c.Chain, st.Manifest.Name)
		others++
	}
	require.NotZero(t, natives)
	require.NotZero(t, others)
}
