package chain

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/stretchr/testify/require"
)

// openRefChain opens an in-memory chain with a reference chain's exact
// configuration.
func openRefChain(t *testing.T, name string) *Chain {
	t.Helper()
	cfg := loadProtocol(t, name)
	natives, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: natives, BloomCapacity: 1000})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// TestVerifyTransactionsReferenceChains verifies every transaction of both
// reference chains (made by neo-go with VerifyTransactions on) against the
// state its block builds on, then adds the block.
func TestVerifyTransactionsReferenceChains(t *testing.T) {
	for _, name := range conformance.Chains(t) {
		t.Run(name, func(t *testing.T) {
			c := openRefChain(t, name)
			require.True(t, c.proto.VerifyTransactions)
			n := 0
			for _, b := range refChainBlocks(t, name)[1:] {
				require.NoError(t, c.verifyBlockTxs(b), "block %d", b.Index)
				require.NoError(t, c.AddBlock(b))
				n += len(b.Transactions)
			}
			t.Logf("%d transactions verified", n)
		})
	}
}

// keyChain is a chain whose single standby validator (and committee) key
// the test holds: it can sign blocks and the transactions of the genesis
// account (the 1-of-1 BFT address that got all NEO and GAS) and of a
// second, single-signature account.
type keyChain struct {
	t        *testing.T
	c        *Chain
	key      *keys.PrivateKey
	key2     *keys.PrivateKey
	acc      util.Uint160 // committee = validators = genesis holder
	acc2     util.Uint160
	accVerif []byte
	nonce    uint32
}

func newKeyChain(t *testing.T) *keyChain {
	cfg := loadProtocol(t, "testblocks")
	p := cfg.ProtocolConfiguration
	seed := sha256.Sum256([]byte("n3d chain verification test key"))
	key, err := keys.NewPrivateKeyFromBytes(seed[:])
	require.NoError(t, err)
	seed = sha256.Sum256(seed[:])
	key2, err := keys.NewPrivateKeyFromBytes(seed[:])
	require.NoError(t, err)
	p.StandbyCommittee = []string{hex.EncodeToString(key.PublicKey().Bytes())}
	p.ValidatorsCount = 1
	natives, err := NewNativeSet(&p)
	require.NoError(t, err)
	c, err := Open(Config{Protocol: p, Store: storage.NewMemoryStore(), Natives: natives, BloomCapacity: 1000})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	verif, err := scripts.DefaultMultiSigContract(keys.PublicKeys{key.PublicKey()})
	require.NoError(t, err)
	return &keyChain{t: t, c: c, key: key, key2: key2, acc: scripts.ScriptHash(verif),
		acc2: key2.PublicKey().ScriptHash(), accVerif: verif}
}

func sigInvocation(sig []byte) []byte {
	return append([]byte{byte(opcode.PUSHDATA1), 64}, sig...)
}

// block makes the next block with txs, signed by the validator.
func (kc *keyChain) block(txs ...*transaction.Transaction) *block.Block {
	prev, err := kc.c.GetHeader(kc.c.CurrentBlockHash())
	require.NoError(kc.t, err)
	b := &block.Block{Header: block.Header{PrevHash: prev.Hash(), Timestamp: prev.Timestamp + 1,
		Index: prev.Index + 1, NextConsensus: kc.acc}, Transactions: txs}
	b.RebuildMerkleRoot()
	b.Witness = transaction.Witness{InvocationScript: sigInvocation(kc.key.Sign(b.SignData(uint32(kc.c.proto.Magic)))),
		VerificationScript: kc.accVerif}
	return b
}

// add verifies b's transactions as block import would and adds it.
func (kc *keyChain) add(txs ...*transaction.Transaction) *block.Block {
	b := kc.block(txs...)
	require.NoError(kc.t, kc.c.verifyBlockTxs(b))
	require.NoError(kc.t, kc.c.AddBlock(b))
	return b
}

// tx builds a transaction of script sent by kc.acc, lets mods adjust it
// (signers, attributes, fees), sets the exact network fee the checks ask
// for (size, attribute fees, standard witnesses) unless a mod set one, and
// signs it.
func (kc *keyChain) tx(s []byte, mods ...func(*transaction.Transaction)) *transaction.Transaction {
	kc.nonce++
	tx := &transaction.Transaction{Nonce: kc.nonce, SystemFee: 1_0000_0000, Script: s,
		ValidUntilBlock: kc.c.BlockHeight() + 100,
		Signers:         []transaction.Signer{{Account: kc.acc, Scopes: transaction.CalledByEntry}}}
	for _, m := range mods {
		m(tx)
	}
	tx.Witnesses = make([]transaction.Witness, len(tx.Signers))
	for i := range tx.Signers {
		tx.Witnesses[i] = kc.witnessFor(tx.Signers[i].Account, make([]byte, 64))
	}
	if tx.NetworkFee == 0 {
		tx.NetworkFee = kc.minNetworkFee(tx)
	}
	return kc.sign(tx)
}

func (kc *keyChain) witnessFor(acc util.Uint160, sig []byte) transaction.Witness {
	switch acc {
	case kc.acc:
		return transaction.Witness{InvocationScript: sigInvocation(sig), VerificationScript: kc.accVerif}
	case kc.acc2:
		return transaction.Witness{InvocationScript: sigInvocation(sig), VerificationScript: kc.key2.PublicKey().VerificationScript()}
	}
	return transaction.Witness{} // a contract account
}

func (kc *keyChain) sign(tx *transaction.Transaction) *transaction.Transaction {
	tx.InvalidateCache()
	data := tx.SignData(uint32(kc.c.proto.Magic))
	for i, s := range tx.Signers {
		switch s.Account {
		case kc.acc:
			tx.Witnesses[i] = kc.witnessFor(s.Account, kc.key.Sign(data))
		case kc.acc2:
			tx.Witnesses[i] = kc.witnessFor(s.Account, kc.key2.Sign(data))
		}
	}
	tx.InvalidateCache()
	return tx
}

// minNetworkFee is size × FeePerByte + attribute fees + the standard
// witnesses' costs + what the VM charges the others.
func (kc *keyChain) minNetworkFee(tx *transaction.Transaction) int64 {
	tc, err := kc.c.newTxCheck(kc.c.dao)
	require.NoError(kc.t, err)
	attrFee, err := tc.verifyAttributes(tx)
	if err != nil {
		attrFee = 0 // the test wants this attribute to fail
	}
	fee := int64(tx.Size())*tc.feePerByte + attrFee
	for i := range tx.Witnesses {
		if key, m, pubs, _, ok := standardWitness(&tx.Witnesses[i]); ok {
			if key != nil {
				fee += tc.execFee * signatureContractCost()
			} else {
				fee += tc.execFee * multiSigContractCost(m, len(pubs))
			}
			continue
		}
		vmFee, err := kc.c.VerifyWitness(tx.Signers[i].Account, tx, &tx.Witnesses[i], MaxVerificationGas)
		if err == nil {
			fee += vmFee
		}
	}
	return fee
}

func (kc *keyChain) call(h util.Uint160, method string, args ...any) []byte {
	return script(kc.t, emit.NewBuilder().AppCall(h, method, byte(callflag.All), args...).Opcodes(opcode.ASSERT))
}

func (kc *keyChain) natives() *NativeSet { return kc.c.cfg.Natives }

func signers(accs ...util.Uint160) func(*transaction.Transaction) {
	return func(tx *transaction.Transaction) {
		tx.Signers = nil
		for _, a := range accs {
			tx.Signers = append(tx.Signers, transaction.Signer{Account: a, Scopes: transaction.CalledByEntry})
		}
	}
}

func attrs(as ...transaction.Attribute) func(*transaction.Transaction) {
	return func(tx *transaction.Transaction) { tx.Attributes = append(tx.Attributes, as...) }
}

func conflicts(h util.Uint256) transaction.Attribute {
	return transaction.Attribute{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: h}}
}

// BenchmarkVerifyBlockTxs verifies the transactions of chain50x2's last
// block against the state before it (reported per transaction).
func BenchmarkVerifyBlockTxs(b *testing.B) {
	cfg := loadProtocol(b, "chain50x2")
	natives, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(b, err)
	c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Store: storage.NewMemoryStore(), Natives: natives, BloomCapacity: 1000})
	require.NoError(b, err)
	defer c.Close()
	var blocks []*block.Block
	for _, rb := range refBlocks(b, "chain50x2")[1:] {
		blk, err := block.NewBlockFromBytes(rb.Raw)
		require.NoError(b, err)
		blocks = append(blocks, blk)
	}
	last := blocks[len(blocks)-1]
	for _, blk := range blocks[:len(blocks)-1] {
		require.NoError(b, c.AddBlock(blk))
	}
	b.ResetTimer()
	for range b.N {
		if err := c.verifyBlockTxs(last); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(last.Transactions)), "ns/tx")
}
