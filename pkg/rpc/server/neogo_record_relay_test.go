package server

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// The testblocks chain's test keys (the reference's public unit-test
// wallets): A holds ~906 GAS, B ~1002 GAS, C 2 GAS.
const (
	recWIFA    = "KxyjQ8eUa4FHt3Gvioyt1Wz29cTUrE4eTqX3yFSk1YFCsPL8uNsY"
	recWIFB    = "KzfPUYDC9n2yf4fK5ro4C8KMcdeXtFuEnStycbZgX3GomiUsvX6W"
	recWIFC    = "KzgWE3u3EDp13XPXXuTKZxeJ3Gi8Bsm8f9ijY3ZsCKKRvZUo1Cdn"
	recGASUnit = 1_0000_0000
)

// recTx describes a transaction of one signer.
type recTx struct {
	signer  *keys.PrivateKey // the account
	signBy  *keys.PrivateKey // the signing key (signer when nil)
	verif   *keys.PrivateKey // whose verification script (signer when nil)
	nonce   uint32
	sysFee  int64
	netFee  int64 // asked of the node when 0
	vub     uint32
	attrs   []transaction.Attribute
	script  []byte
	account *util.Uint160 // a contract signer with an empty witness
}

func recKey(wif string) *keys.PrivateKey {
	k, err := keys.NewPrivateKeyFromWIF(wif)
	if err != nil {
		panic(err) // the WIFs are literals of this program
	}
	return k
}

// build signs the transaction of spec, asking the node for its network
// fee when spec gives none.
func (g *recorder) build(s recTx) (*transaction.Transaction, error) {
	if s.script == nil {
		s.script = []byte{byte(opcode.PUSH1)}
	}
	if s.vub == 0 {
		s.vub = g.height + 100
	}
	tx := &transaction.Transaction{Nonce: s.nonce, SystemFee: s.sysFee, NetworkFee: s.netFee,
		ValidUntilBlock: s.vub, Script: s.script, Attributes: s.attrs}
	if s.account != nil {
		tx.Signers = []transaction.Signer{{Account: *s.account, Scopes: transaction.CalledByEntry}}
		tx.Witnesses = []transaction.Witness{{}}
		return tx, nil
	}
	verif := s.verif
	if verif == nil {
		verif = s.signer
	}
	signBy := s.signBy
	if signBy == nil {
		signBy = s.signer
	}
	tx.Signers = []transaction.Signer{{Account: s.signer.ScriptHash(), Scopes: transaction.CalledByEntry}}
	tx.Witnesses = []transaction.Witness{{VerificationScript: s.signer.PublicKey().VerificationScript()}}
	if tx.NetworkFee == 0 {
		fee, err := g.netFee(tx)
		if err != nil {
			return nil, err
		}
		tx.NetworkFee = fee
	}
	tx.Witnesses[0].VerificationScript = verif.PublicKey().VerificationScript()
	sig := signBy.Sign(tx.SignData(g.magic))
	tx.Witnesses[0].InvocationScript = append([]byte{byte(opcode.PUSHDATA1), 64}, sig...)
	tx.InvalidateCache()
	return tx, nil
}

func recTxB64(tx *transaction.Transaction) (string, error) {
	raw, err := tx.Bytes()
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(raw), nil
}

func (g *recorder) netFee(tx *transaction.Transaction) (int64, error) {
	s, err := recTxB64(tx)
	if err != nil {
		return 0, err
	}
	res, err := g.query("calculatenetworkfee", s)
	if err != nil {
		return 0, err
	}
	var nf struct {
		Value int64 `json:"networkfee,string"`
	}
	if err := json.Unmarshal(res, &nf); err != nil {
		return 0, err
	}
	return nf.Value, nil
}

// send adds a sendrawtransaction case of spec and returns the transaction.
func (g *recorder) send(name string, s recTx) *transaction.Transaction {
	if g.err != nil {
		return nil
	}
	tx, err := g.build(s)
	if err != nil {
		g.err = fmt.Errorf("%s: %w", name, err)
		return nil
	}
	b, err := recTxB64(tx)
	if err != nil {
		g.err = fmt.Errorf("%s: %w", name, err)
		return nil
	}
	g.call(name, "sendrawtransaction", b)
	return tx
}

// relayCases are sendrawtransaction's verdicts, in an order that builds
// the pool they need (a pooled transaction first, then its duplicate and
// its conflicts).
func (g *recorder) relayCases() error {
	a, b, c := recKey(recWIFA), recKey(recWIFB), recKey(recWIFC)
	h := g.height
	first := g.send("valid", recTx{signer: a, nonce: 1})
	if first == nil {
		return g.err
	}
	g.send("already in pool", recTx{signer: a, nonce: 1})
	expired := g.send("expired", recTx{signer: a, nonce: 2, vub: h})
	g.send("not yet valid", recTx{signer: a, nonce: 3, vub: h + 10000})
	badSig := g.send("bad signature", recTx{signer: a, signBy: b, nonce: 4})
	g.send("witness of another account", recTx{signer: a, verif: b, signBy: b, nonce: 5})
	g.send("small network fee", recTx{signer: a, nonce: 6, netFee: 1})
	poor := g.send("insufficient funds", recTx{signer: c, nonce: 7, sysFee: 10 * recGASUnit})
	// Refused transactions sent again get the same answer.
	g.resend("expired (again)", expired)
	g.resend("bad signature (again)", badSig)
	g.resend("insufficient funds (again)", poor)
	g.send("system fee above block limit", recTx{signer: b, nonce: 8, sysFee: 9001 * recGASUnit})
	g.send("invalid script", recTx{signer: b, nonce: 9, script: []byte{0xff}})
	g.send("high priority not committee", recTx{signer: b, nonce: 10,
		attrs: []transaction.Attribute{{Type: transaction.AttrHighPriority}}})
	g.send("not valid before", recTx{signer: b, nonce: 11,
		attrs: []transaction.Attribute{{Type: transaction.AttrNotValidBefore,
			Value: &transaction.NotValidBefore{Height: h + 50}}}})
	g.send("pool funds (first)", recTx{signer: a, nonce: 12, sysFee: 500 * recGASUnit})
	g.send("pool funds (second)", recTx{signer: a, nonce: 13, sysFee: 500 * recGASUnit})
	g.send("conflicts with a pooled tx of another signer", recTx{signer: b, nonce: 14, netFee: recGASUnit,
		attrs: []transaction.Attribute{{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: first.Hash()}}}})
	neo, err := util.Uint160DecodeStringBE(recNEO)
	if err != nil {
		return err
	}
	g.send("native contract signer", recTx{account: &neo, nonce: 15, netFee: recGASUnit})
	verify, err := util.Uint160DecodeStringBE(recVerify)
	if err != nil {
		return err
	}
	g.send("verify contract without GAS", recTx{account: &verify, nonce: 16, netFee: recGASUnit})
	unknown, err := util.Uint160DecodeStringBE(recNoContract)
	if err != nil {
		return err
	}
	g.send("unknown contract signer", recTx{account: &unknown, nonce: 17, netFee: recGASUnit})
	res, err := g.query("getrawtransaction", recFirstTx)
	if err != nil {
		return err
	}
	var onChain string
	if err := json.Unmarshal(res, &onChain); err != nil {
		return err
	}
	g.call("on chain", "sendrawtransaction", onChain)
	// A transaction of the same signer replacing a pooled one through a
	// Conflicts attribute and a higher fee, then the pool.
	g.send("conflicts with a pooled tx of the same signer", recTx{signer: a, nonce: 18, netFee: recGASUnit,
		attrs: []transaction.Attribute{{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: first.Hash()}}}})
	g.resend("replaced transaction (again)", first)
	g.call("after the relays", "getrawmempool", true)
	return g.submitBlockCases()
}

// resend adds a sendrawtransaction case of a transaction sent before.
func (g *recorder) resend(name string, tx *transaction.Transaction) {
	if g.err != nil || tx == nil {
		return
	}
	b, err := recTxB64(tx)
	if err != nil {
		g.err = err
		return
	}
	g.call(name, "sendrawtransaction", b)
}

// submitBlockCases are submitblock's refusals of real blocks: one the chain has
// and one that does not follow its tip.
func (g *recorder) submitBlockCases() error {
	raw := func(i uint32) ([]byte, error) {
		res, err := g.query("getblock", i)
		if err != nil {
			return nil, err
		}
		var s string
		if err := json.Unmarshal(res, &s); err != nil {
			return nil, err
		}
		return base64.StdEncoding.DecodeString(s)
	}
	b1, err := raw(1)
	if err != nil {
		return err
	}
	g.call("block on chain", "submitblock", base64.StdEncoding.EncodeToString(b1))
	top, err := raw(g.height)
	if err != nil {
		return err
	}
	blk, err := block.NewBlockFromBytes(top)
	if err != nil {
		return err
	}
	blk.Index = g.height + 2
	gap, err := blk.Bytes()
	if err != nil {
		return err
	}
	g.call("block after a gap", "submitblock", base64.StdEncoding.EncodeToString(gap))
	return g.err
}

// netFeeCases are calculatenetworkfee's errors over signed and unsigned
// transactions.
func (g *recorder) netFeeCases() error {
	a, b := recKey(recWIFA), recKey(recWIFB)
	tx := &transaction.Transaction{Nonce: 1, ValidUntilBlock: g.height + 100, Script: []byte{byte(opcode.PUSH1)},
		Signers:   []transaction.Signer{{Account: a.ScriptHash(), Scopes: transaction.CalledByEntry}},
		Witnesses: []transaction.Witness{{VerificationScript: b.PublicKey().VerificationScript()}}}
	add := func(name string) {
		tx.InvalidateCache()
		s, err := recTxB64(tx)
		if err != nil {
			g.err = err
			return
		}
		g.call(name, "calculatenetworkfee", s)
	}
	add("witness of another account")
	for _, acc := range []string{recNoContract, recNEO, recVerifyArgs} {
		h, err := util.Uint160DecodeStringBE(acc)
		if err != nil {
			return err
		}
		tx.Signers[0].Account = h
		tx.Witnesses[0] = transaction.Witness{}
		add("contract signer " + acc)
	}
	tx.Signers[0].Account = a.ScriptHash()
	tx.Witnesses[0] = transaction.Witness{InvocationScript: []byte{0xff},
		VerificationScript: a.PublicKey().VerificationScript()}
	add("bad invocation script")
	tx.Witnesses[0] = transaction.Witness{VerificationScript: []byte{byte(opcode.ABORT)}}
	tx.Signers[0].Account = hash.Hash160(tx.Witnesses[0].VerificationScript)
	add("aborting verification script")
	return g.err
}
