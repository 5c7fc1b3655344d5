package scripts_test

import (
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

type protocolFile struct {
	ProtocolConfiguration struct {
		Magic            uint32   `yaml:"Magic"`
		StandbyCommittee []string `yaml:"StandbyCommittee"`
		ValidatorsCount  int      `yaml:"ValidatorsCount"`
	} `yaml:"ProtocolConfiguration"`
}

type witness struct {
	Invocation   []byte `json:"invocation"`
	Verification []byte `json:"verification"`
}

type blockLine struct {
	Index int `json:"index"`
	Block struct {
		Hash          string    `json:"hash"`
		NextConsensus string    `json:"nextconsensus"`
		Witnesses     []witness `json:"witnesses"`
		Tx            []struct {
			Hash      string    `json:"hash"`
			Witnesses []witness `json:"witnesses"`
		} `json:"tx"`
	} `json:"block"`
}

func readChain(t *testing.T, dir string) (protocolFile, []blockLine) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "protocol.yml"))
	require.NoError(t, err)
	var cfg protocolFile
	require.NoError(t, yaml.Unmarshal(raw, &cfg))
	blocks := conformance.ReadJSONL[blockLine](t, filepath.Join(dir, "blocks.jsonl"))
	require.NotEmpty(t, blocks)
	return cfg, blocks
}

// TestConformanceConsensusAddress derives the validators' BFT multisig
// address from protocol.yml and checks it against the reference chain's
// genesis NextConsensus and the committee's majority address against the
// committee's script.
func TestConformanceConsensusAddress(t *testing.T) {
	for _, chain := range conformance.Chains(t) {
		t.Run(chain, func(t *testing.T) {
			cfg, blocks := readChain(t, conformance.Dir(t, "chains", chain))
			pc := cfg.ProtocolConfiguration
			committee, err := keys.NewPublicKeysFromStrings(pc.StandbyCommittee)
			require.NoError(t, err)
			validators := committee[:pc.ValidatorsCount]
			script, err := scripts.DefaultMultiSigContract(validators)
			require.NoError(t, err)
			require.Equal(t, blocks[0].Block.NextConsensus, scripts.Address(script))
			// Every block is signed by the previous block's NextConsensus.
			for i := 1; i < len(blocks); i++ {
				for _, w := range blocks[i].Block.Witnesses {
					require.Equal(t, blocks[i-1].Block.NextConsensus, scripts.Address(w.Verification), "block %d", i)
					require.Equal(t, script, w.Verification, "block %d", i)
				}
			}
		})
	}
}

// TestConformanceWitnesses verifies every signature of every standard
// witness (blocks and transactions) of the reference chains.
func TestConformanceWitnesses(t *testing.T) {
	for _, chain := range conformance.Chains(t) {
		t.Run(chain, func(t *testing.T) {
			cfg, blocks := readChain(t, conformance.Dir(t, "chains", chain))
			magic := cfg.ProtocolConfiguration.Magic
			var single, multi int
			for _, b := range blocks[1:] { // genesis has no signatures
				s, m := checkWitnesses(t, magic, b.Block.Hash, b.Block.Witnesses)
				single, multi = single+s, multi+m
				for _, tx := range b.Block.Tx {
					s, m := checkWitnesses(t, magic, tx.Hash, tx.Witnesses)
					single, multi = single+s, multi+m
				}
			}
			t.Logf("%s: %d single-signature and %d multi-signature witnesses verified", chain, single, multi)
			require.Positive(t, multi)
			require.Positive(t, single)
		})
	}
}

func checkWitnesses(t *testing.T, magic uint32, hashBE string, ws []witness) (single, multi int) {
	t.Helper()
	h, err := util.Uint256DecodeStringBE(hashBE)
	require.NoError(t, err)
	signData := binary.LittleEndian.AppendUint32(nil, magic)
	signData = append(signData, h[:]...)
	digest := sha256.Sum256(signData)
	for _, w := range ws {
		sigs := parseInvocation(t, w.Invocation)
		if key, ok := scripts.ParseSignatureContract(w.Verification); ok {
			pub, err := keys.NewPublicKeyFromBytes(key)
			require.NoError(t, err)
			require.Len(t, sigs, 1)
			require.True(t, pub.Verify(sigs[0], digest[:]), "signature of %s", hashBE)
			single++
			continue
		}
		m, pubs, ok := scripts.ParseMultiSigContract(w.Verification)
		if !ok {
			continue // a contract witness: not a standard script
		}
		require.True(t, scripts.IsMultiSigContract(w.Verification))
		rebuilt, err := scripts.MultiSigContract(m, pubs)
		require.NoError(t, err)
		require.Equal(t, w.Verification, rebuilt)
		require.Len(t, sigs, m)
		ok, err = scripts.VerifyMultiSig(digest[:], pubs, sigs)
		require.NoError(t, err)
		require.True(t, ok, "multisig of %s", hashBE)
		// The same signatures out of key order do not pass.
		if m > 1 {
			swapped := append([][]byte{sigs[1], sigs[0]}, sigs[2:]...)
			ok, err = scripts.VerifyMultiSig(digest[:], pubs, swapped)
			require.NoError(t, err)
			require.False(t, ok, "swapped multisig of %s", hashBE)
		}
		multi++
	}
	return single, multi
}

// parseInvocation splits an invocation script of PUSHDATA1 64 <sig> pushes.
func parseInvocation(t *testing.T, inv []byte) [][]byte {
	var sigs [][]byte
	for len(inv) > 0 {
		require.GreaterOrEqual(t, len(inv), 66)
		require.Equal(t, []byte{0x0C, 64}, inv[:2])
		sigs = append(sigs, inv[2:66])
		inv = inv[66:]
	}
	return sigs
}
