package interop_test

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// sigsOf returns the signatures pushed by a standard invocation script
// (PUSHDATA1 64 <sig> repeated).
func sigsOf(t *testing.T, inv []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for len(inv) > 0 {
		require.Equal(t, byte(opcode.PUSHDATA1), inv[0])
		n := int(inv[1])
		out = append(out, inv[2:2+n])
		inv = inv[2+n:]
	}
	return out
}

// invocation builds an invocation script pushing sigs in order.
func invocation(t *testing.T, sigs ...[]byte) []byte {
	return script(t, func(b *emit.Builder) {
		for _, s := range sigs {
			b.Bytes(s)
		}
	})
}

func preGorgonHF(p func(protocol.Hardfork, uint32) bool) func(protocol.Hardfork, uint32) bool {
	return func(hf protocol.Hardfork, h uint32) bool { return hf < protocol.HFGorgon && p(hf, h) }
}

// badKey is 33 bytes that are not a point: X is above the field prime.
var badKey = append([]byte{0x02}, slices.Repeat([]byte{0xff}, 32)...)

// TestCheckSigReferenceWitnesses verifies every single-signature witness
// of the reference chains (transactions the reference accepted) through
// System.Crypto.CheckSig, checks its price against the reference's
// SignatureContractCost, and the failure modes around them.
func TestCheckSigReferenceWitnesses(t *testing.T) {
	sigCost := (2*vm.OpcodePrice(opcode.PUSHDATA1) + vm.OpcodePrice(opcode.SYSCALL) + interop.CheckSigPrice) * 30
	for _, c := range loadRefChains(t) {
		magic, hf := uint32(c.proto.Magic), c.proto.Enabled
		ws := c.witnesses(scripts.IsSignatureContract)
		require.NotEmpty(t, ws, c.name)
		for i, w := range ws {
			ic := verifyWitness(t, magic, hf, w.container, w.w.InvocationScript, w.w.VerificationScript)
			ok, err := verified(t, ic)
			require.NoError(t, err)
			require.True(t, ok, "%s witness %d", c.name, i)
			require.Equal(t, sigCost, ic.VM().GasConsumed())
		}
		w := ws[0]
		sig := sigsOf(t, w.w.InvocationScript)[0]
		run := func(hf func(protocol.Hardfork, uint32) bool, container interop.Container, inv, verif []byte) (bool, error) {
			return verified(t, verifyWitness(t, magic, hf, container, inv, verif))
		}
		// Gorgon (not configured on these chains) verifies the same way.
		ok, err := run(allHF, w.container, w.w.InvocationScript, w.w.VerificationScript)
		require.NoError(t, err)
		require.True(t, ok)
		// A changed signature, or another container, is false.
		bad := slices.Clone(sig)
		bad[10] ^= 1
		ok, err = run(hf, w.container, invocation(t, bad), w.w.VerificationScript)
		require.NoError(t, err)
		require.False(t, ok)
		ok, err = run(hf, ws[1].container, w.w.InvocationScript, w.w.VerificationScript)
		require.NoError(t, err)
		require.Equal(t, ws[1].container.Hash() == w.container.Hash(), ok)
		// A signature that is not 64 bytes: false before Gorgon, FAULT after.
		short := invocation(t, sig[:63])
		ok, err = run(hf, w.container, short, w.w.VerificationScript)
		require.NoError(t, err)
		require.False(t, ok)
		_, err = run(allHF, w.container, short, w.w.VerificationScript)
		require.ErrorIs(t, err, interop.ErrInvalidArgument)
		// A public key that does not decode FAULTs, before and after Gorgon.
		badVerif := script(t, func(b *emit.Builder) { b.Bytes(badKey).Syscall(interop.CryptoCheckSig) })
		for _, f := range []func(protocol.Hardfork, uint32) bool{hf, allHF} {
			_, err = run(f, w.container, w.w.InvocationScript, badVerif)
			require.ErrorIs(t, err, interop.ErrInvalidArgument)
		}
		// No container: FAULT.
		_, err = run(hf, nil, w.w.InvocationScript, w.w.VerificationScript)
		require.ErrorIs(t, err, interop.ErrNotAllowed)
	}
}

// TestCheckSigCache: with a SigCache the answers are the same, and a
// signature that failed is not remembered as good.
func TestCheckSigCache(t *testing.T) {
	c := loadRefChains(t)[0]
	ws := c.witnesses(scripts.IsSignatureContract)
	cache := keys.NewSigCache(16)
	e := newEnv()
	e.cfg.Network, e.cfg.SigCache, e.cfg.Container = uint32(c.proto.Magic), cache, ws[0].container
	check := func(inv []byte) bool {
		s := append(slices.Clone(inv), ws[0].w.VerificationScript...)
		st := e.halt(t, s)
		b, err := st[0].Bool()
		require.NoError(t, err)
		return b
	}
	sig := sigsOf(t, ws[0].w.InvocationScript)[0]
	bad := slices.Clone(sig)
	bad[0] ^= 0x80
	for range 2 {
		require.True(t, check(ws[0].w.InvocationScript))
		require.False(t, check(invocation(t, bad)))
	}
}

// multisigCost is the reference MultiSignatureContractCost for a
// verification script, read from the script itself (push m, n keys,
// push n, SYSCALL).
func multisigCost(t *testing.T, verif []byte) int64 {
	m, n, ok := scripts.MultiSigCounts(verif)
	require.True(t, ok)
	pushN := opcode.Opcode(verif[len(verif)-6])
	return (vm.OpcodePrice(opcode.PUSHDATA1)*int64(m+n) + vm.OpcodePrice(opcode.Opcode(verif[0])) +
		vm.OpcodePrice(pushN) + vm.OpcodePrice(opcode.SYSCALL) + interop.CheckSigPrice*int64(n)) * 30
}

// signData is what a container's witnesses sign.
func signData(magic uint32, c interop.Container) []byte {
	h := c.Hash()
	return append(binary.LittleEndian.AppendUint32(nil, magic), h[:]...)
}

// TestCheckMultisigReferenceWitnesses verifies every multi-signature
// witness of the reference chains (the validators' 3-of-4 block and
// transaction witnesses, the committee's 4-of-6) through
// System.Crypto.CheckMultisig, with the reference price, and the
// matching rules around them.
func TestCheckMultisigReferenceWitnesses(t *testing.T) {
	for _, c := range loadRefChains(t) {
		magic, hf := uint32(c.proto.Magic), c.proto.Enabled
		ws := c.witnesses(scripts.IsMultiSigContract)
		require.NotEmpty(t, ws, c.name)
		for i, w := range ws {
			ic := verifyWitness(t, magic, hf, w.container, w.w.InvocationScript, w.w.VerificationScript)
			ok, err := verified(t, ic)
			require.NoError(t, err)
			require.True(t, ok, "%s witness %d", c.name, i)
			require.Equal(t, multisigCost(t, w.w.VerificationScript), ic.VM().GasConsumed())
		}
		w := ws[0]
		run := func(hf func(protocol.Hardfork, uint32) bool, inv, verif []byte) (bool, error) {
			return verified(t, verifyWitness(t, magic, hf, w.container, inv, verif))
		}
		sigs := sigsOf(t, w.w.InvocationScript)
		require.GreaterOrEqual(t, len(sigs), 2)
		// Signatures out of key order do not match.
		swapped := slices.Clone(sigs)
		swapped[0], swapped[1] = swapped[1], swapped[0]
		ok, err := run(hf, invocation(t, swapped...), w.w.VerificationScript)
		require.NoError(t, err)
		require.False(t, ok)
		// A short signature: false before Gorgon, FAULT after.
		short := slices.Clone(sigs)
		short[0] = short[0][:63]
		ok, err = run(hf, invocation(t, short...), w.w.VerificationScript)
		require.NoError(t, err)
		require.False(t, ok)
		_, err = run(allHF, invocation(t, short...), w.w.VerificationScript)
		require.ErrorIs(t, err, interop.ErrInvalidArgument)

		// Keys are decoded only when the matching loop reaches them.
		_, pubs, ok := scripts.ParseMultiSigContract(w.w.VerificationScript)
		require.True(t, ok)
		msg := signData(magic, w.container)
		var key []byte
		for _, p := range pubs {
			if p.VerifyMessage(sigs[0], msg) {
				key = p.Bytes()
			}
		}
		require.NotNil(t, key, "the first signature belongs to a key of the script")
		// keys pops as an array in reverse push order: the last pushed is first.
		verif := func(m int, pushed ...[]byte) []byte {
			return script(t, func(b *emit.Builder) {
				b.Int(int64(m))
				for _, k := range pushed {
					b.Bytes(k)
				}
				b.Int(int64(len(pushed))).Syscall(interop.CryptoCheckMultisig)
			})
		}
		one := invocation(t, sigs[0])
		ok, err = run(hf, one, verif(1, badKey, key))
		require.NoError(t, err)
		require.True(t, ok, "the bad key after the match is never decoded")
		_, err = run(hf, one, verif(1, key, badKey))
		require.ErrorIs(t, err, interop.ErrInvalidArgument)
		// Counts: more signatures than keys, none, no keys.
		_, err = run(hf, invocation(t, sigs[0], sigs[1]), verif(2, key))
		require.ErrorIs(t, err, interop.ErrInvalidArgument)
		_, err = run(hf, nil, verif(0, key))
		require.ErrorIs(t, err, interop.ErrInvalidArgument)
		_, err = run(hf, one, verif(1))
		require.ErrorIs(t, err, interop.ErrInvalidArgument)
	}
}

// TestCreateAccounts derives account hashes from the keys of reference
// witnesses: a single key's account is the hash of its signature
// contract (for transactions, the signer's account), a multisig account
// the hash of its contract — for a block, the previous block's
// NextConsensus. Prices follow Aspidochelone.
func TestCreateAccounts(t *testing.T) {
	for _, c := range loadRefChains(t) {
		e := newEnv()
		prevNext := map[interop.Container]util.Uint160{}
		for i := 1; i < len(c.blocks); i++ {
			prevNext[c.blocks[i]] = c.blocks[i-1].NextConsensus
		}
		for _, w := range c.witnesses(scripts.IsSignatureContract) {
			pub, _ := scripts.ParseSignatureContract(w.w.VerificationScript)
			st := e.halt(t, script(t, func(b *emit.Builder) { b.Bytes(pub).Syscall(interop.ContractCreateStandardAccount) }))
			require.Equal(t, w.w.ScriptHash().BytesLE(), bytesOf(t, st[0]))
		}
		for _, w := range c.witnesses(scripts.IsMultiSigContract) {
			m, pubs, _ := scripts.ParseMultiSigContract(w.w.VerificationScript)
			st := e.halt(t, script(t, func(b *emit.Builder) {
				for i := len(pubs) - 1; i >= 0; i-- {
					b.Bytes(pubs[i].Bytes())
				}
				b.Int(int64(len(pubs))).Opcodes(opcode.PACK).Int(int64(m)).Syscall(interop.ContractCreateMultisigAccount)
			}))
			require.Equal(t, w.w.ScriptHash().BytesLE(), bytesOf(t, st[0]))
			if nc, ok := prevNext[w.container]; ok {
				require.Equal(t, w.w.ScriptHash(), nc)
			}
		}
	}
	// Prices: 2^8 before Aspidochelone, CheckSigPrice (per key) after.
	k, err := keys.NewPrivateKey()
	require.NoError(t, err)
	pub := k.PublicKey().Bytes()
	std := script(t, func(b *emit.Builder) { b.Bytes(pub).Syscall(interop.ContractCreateStandardAccount) })
	multi := script(t, func(b *emit.Builder) {
		b.Bytes(pub).Bytes(pub).Opcodes(opcode.PUSH2, opcode.PACK, opcode.PUSH1).Syscall(interop.ContractCreateMultisigAccount)
	})
	stdOps := (vm.OpcodePrice(opcode.PUSHDATA1) + vm.OpcodePrice(opcode.SYSCALL)) * 30
	multiOps := (2*vm.OpcodePrice(opcode.PUSHDATA1) + vm.OpcodePrice(opcode.PUSH2) + vm.OpcodePrice(opcode.PACK) +
		vm.OpcodePrice(opcode.PUSH1) + vm.OpcodePrice(opcode.SYSCALL)) * 30
	for _, aspido := range []bool{false, true} {
		e := newEnv()
		e.cfg.HardforkEnabled = func(hf protocol.Hardfork, _ uint32) bool { return aspido || hf != protocol.HFAspidochelone }
		stdPrice, multiPrice := int64(1<<8), int64(1<<8)
		if aspido {
			stdPrice, multiPrice = interop.CheckSigPrice, 2*interop.CheckSigPrice
		}
		ic := e.run(t, std)
		require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
		require.Equal(t, stdOps+stdPrice*30, ic.VM().GasConsumed())
		ic = e.run(t, multi)
		require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
		require.Equal(t, multiOps+multiPrice*30, ic.VM().GasConsumed())
	}
	e := newEnv()
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) { b.Bytes(badKey).Syscall(interop.ContractCreateStandardAccount) })), interop.ErrInvalidArgument)
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) {
		b.Bytes(pub).Opcodes(opcode.PUSH1, opcode.PACK, opcode.PUSH2).Syscall(interop.ContractCreateMultisigAccount)
	})), interop.ErrInvalidArgument)
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) {
		b.Bytes(badKey).Opcodes(opcode.PUSH1, opcode.PACK, opcode.PUSH1).Syscall(interop.ContractCreateMultisigAccount)
	})), interop.ErrInvalidArgument)
}

func bytesOf(t *testing.T, it stackitem.Item) []byte {
	t.Helper()
	b, err := it.Bytes()
	require.NoError(t, err)
	return b
}
