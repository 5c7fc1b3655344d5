package state_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// normJSON re-encodes a JSON document so that key order and spacing do not
// matter.
func normJSON(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	out, err := json.Marshal(v)
	require.NoError(t, err)
	return string(out)
}

type storageEntry struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// TestContractsFromStorage decodes every contract state ContractManagement
// stored on the reference chains, checks the re-encoding is byte-identical
// and that the JSON equals getcontractstate.
func TestContractsFromStorage(t *testing.T) {
	for _, name := range conformance.Chains(t) {
		chain := conformance.Dir(t, "chains", name)
		t.Run(filepath.Base(chain), func(t *testing.T) {
			var st struct {
				Contracts map[string][]storageEntry `json:"contracts"`
			}
			raw, err := os.ReadFile(filepath.Join(chain, "storage", "final.json"))
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &st))
			var cs struct {
				Deployed map[string]json.RawMessage `json:"deployed"`
				Native   []json.RawMessage          `json:"native"`
			}
			raw, err = os.ReadFile(filepath.Join(chain, "contracts.json"))
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &cs))
			want := map[string]json.RawMessage{}
			for k, v := range cs.Deployed {
				want[k] = v
			}
			for _, v := range cs.Native {
				var h struct{ Hash string }
				require.NoError(t, json.Unmarshal(v, &h))
				want[h.Hash] = v
			}
			n := 0
			for name, entries := range st.Contracts {
				if !strings.HasPrefix(name, "-1:") {
					continue
				}
				for _, e := range entries {
					k, _ := base64.StdEncoding.DecodeString(e.Key)
					if len(k) == 0 || k[0] != 8 {
						continue
					}
					v, err := base64.StdEncoding.DecodeString(e.Value)
					require.NoError(t, err)
					c, err := state.ContractFromBytes(v)
					require.NoError(t, err)
					h, err := util.Uint160DecodeBytesLE(k[1:])
					require.NoError(t, err)
					require.Equal(t, h, c.Hash)
					b, err := c.Bytes()
					require.NoError(t, err)
					require.Equal(t, v, b, "re-encoding of %s", h)
					js, err := json.Marshal(c)
					require.NoError(t, err)
					ref, ok := want[h.String()]
					require.True(t, ok, "contract %s not in contracts.json", h)
					require.Equal(t, normJSON(t, ref), normJSON(t, js), "JSON of %s", h)
					var back state.Contract
					require.NoError(t, json.Unmarshal(js, &back))
					b2, err := back.Bytes()
					require.NoError(t, err)
					require.Equal(t, v, b2)
					n++
				}
			}
			require.NotZero(t, n)
		})
	}
}

// TestApplicationLogs parses every execution of getapplicationlog, checks
// MarshalJSON reproduces it (minus neo-go's "invocations") and that the
// binary form round-trips.
func TestApplicationLogs(t *testing.T) {
	for _, name := range conformance.Chains(t) {
		chain := conformance.Dir(t, "chains", name)
		t.Run(filepath.Base(chain), func(t *testing.T) {
			f, err := os.Open(filepath.Join(chain, "applogs.jsonl"))
			require.NoError(t, err)
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 64<<20)
			n := 0
			for sc.Scan() {
				var line struct {
					Result struct {
						Executions []json.RawMessage `json:"executions"`
					} `json:"result"`
				}
				require.NoError(t, json.Unmarshal(sc.Bytes(), &line))
				for _, raw := range line.Result.Executions {
					var m map[string]any
					require.NoError(t, json.Unmarshal(raw, &m))
					delete(m, "invocations")
					ref, _ := json.Marshal(m)
					var e state.Execution
					require.NoError(t, json.Unmarshal(raw, &e))
					got, err := json.Marshal(e)
					require.NoError(t, err)
					require.Equal(t, normJSON(t, ref), normJSON(t, got))

					a := state.AppExecResult{Container: util.Uint256{1, 2, 3}, Execution: e}
					w := io.NewBufBinWriter()
					a.EncodeBinary(w.BinWriter)
					require.NoError(t, w.Err)
					var back state.AppExecResult
					r := io.NewBinReaderFromBuf(w.Bytes())
					back.DecodeBinary(r)
					require.NoError(t, r.Err)
					require.Zero(t, r.Len())
					got2, err := json.Marshal(back.Execution)
					require.NoError(t, err)
					require.Equal(t, string(got), string(got2))
					require.Equal(t, a.Container, back.Container)
					n++
				}
			}
			require.NoError(t, sc.Err())
			require.NotZero(t, n)
		})
	}
}
