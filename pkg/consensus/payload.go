package consensus

import (
	"bytes"
	"fmt"

	"github.com/nspcc-dev/dbft"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
)

// Category is the ExtensiblePayload category of consensus messages.
const Category = "dBFT"

// invocationSize is the size of a single-signature invocation script:
// PUSHDATA1 64 <signature>.
const invocationSize = 2 + SignatureSize

const (
	opPUSHDATA1 = 0x0c
)

// Payload is a consensus message in its ExtensiblePayload: category
// "dBFT", valid from block 0 to the message's block index, sent and
// signed by the validator. It implements dbft.ConsensusPayload.
//
// For a received payload Data holds the bytes as received (the hash is
// theirs); for one built here Data is encoded from Msg on first need
// (Hash, Sign) and dropped when SetValidatorIndex changes the message.
type Payload struct {
	payload.Extensible
	Msg Message

	magic  uint32
	signer *keys.PublicKey // the verified sender of a received payload
}

var _ dbft.ConsensusPayload[util.Uint256] = (*Payload)(nil)

// NewPayload wraps msg for the network with the given magic. The sender
// is left zero: Sign or SetSender fills it.
func NewPayload(magic uint32, msg Message) *Payload {
	p := &Payload{Msg: msg, magic: magic}
	p.Category = Category
	p.ValidBlockEnd = msg.BlockIndex
	p.fixChangeView()
	return p
}

// PayloadFromExtensible decodes the consensus message of a received
// payload. It checks the category and that the message is for the block
// the payload is valid up to, as the reference builds them; it does not
// check the witness (see VerifyWitness) nor the validator.
func PayloadFromExtensible(magic uint32, e *payload.Extensible) (*Payload, error) {
	return PayloadFromExtensibleSR(magic, false, e)
}

// PayloadFromExtensibleSR is PayloadFromExtensible on a network where
// StateRootInHeader is stateRoot.
func PayloadFromExtensibleSR(magic uint32, stateRoot bool, e *payload.Extensible) (*Payload, error) {
	if e.Category != Category {
		return nil, fmt.Errorf("%w: category %q", ErrInvalidPayload, e.Category)
	}
	m, err := DecodeMessageSR(e.Data, stateRoot)
	if err != nil {
		return nil, err
	}
	p := &Payload{Extensible: *e, Msg: *m, magic: magic}
	p.fixChangeView()
	return p, nil
}

func (p *Payload) fixChangeView() {
	if cv, ok := p.Msg.Body.(*ChangeView); ok {
		cv.newViewNumber = p.Msg.ViewNumber + 1
	}
}

// ensureData encodes the message into Data if it is not there yet.
func (p *Payload) ensureData() {
	if p.Data != nil {
		return
	}
	b, err := p.Msg.Bytes()
	if err != nil {
		// Encoding into memory only fails on a nil body, a programming error.
		panic(fmt.Sprintf("consensus: encoding a %s message: %v", p.Msg.Type, err))
	}
	p.Data = b
	p.ValidBlockEnd = p.Msg.BlockIndex
	p.InvalidateCache()
}

// Hash implements dbft.ConsensusPayload: the ExtensiblePayload hash.
func (p *Payload) Hash() util.Uint256 {
	p.ensureData()
	return p.Extensible.Hash()
}

// SignData returns what the witness signs (magic ‖ hash).
func (p *Payload) SignData() []byte {
	p.ensureData()
	return p.Extensible.SignData(p.magic)
}

// Sign sets the sender and the single-signature witness of key.
func (p *Payload) Sign(key *keys.PrivateKey) {
	p.Sender = key.ScriptHash()
	// Data is the message's encoding, which the sender is no part of (and
	// the message changes only through SetValidatorIndex, which drops
	// Data): only the cached hash is stale. A proposal is so encoded once,
	// not again for its signature.
	p.ensureData()
	p.InvalidateCache()
	sig := key.Sign(p.SignData())
	inv := make([]byte, 0, invocationSize)
	inv = append(inv, opPUSHDATA1, SignatureSize)
	p.Witness.InvocationScript = append(inv, sig...)
	p.Witness.VerificationScript = key.PublicKey().VerificationScript()
}

// signerKey returns the public key of a standard single-signature witness
// whose script hash is the sender, and the signature it carries.
func (p *Payload) signerKey() (*keys.PublicKey, []byte, error) {
	inv := p.Witness.InvocationScript
	if len(inv) != invocationSize || inv[0] != opPUSHDATA1 || inv[1] != SignatureSize {
		return nil, nil, fmt.Errorf("%w: not a single-signature invocation script", ErrInvalidPayload)
	}
	raw, ok := scripts.ParseSignatureContract(p.Witness.VerificationScript)
	if !ok {
		return nil, nil, fmt.Errorf("%w: not a signature contract", ErrInvalidPayload)
	}
	if scripts.ScriptHash(p.Witness.VerificationScript) != p.Sender {
		return nil, nil, fmt.Errorf("%w: witness is not the sender's", ErrInvalidPayload)
	}
	pub, err := keys.NewPublicKeyFromBytes(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrInvalidPayload, err)
	}
	return pub, inv[2:], nil
}

// VerifyWitness checks that the payload is signed by the sender's
// standard account (the only witness a consensus node produces) and
// returns the sender's public key.
func (p *Payload) VerifyWitness() (*keys.PublicKey, error) {
	pub, sig, err := p.signerKey()
	if err != nil {
		return nil, err
	}
	if !pub.VerifyMessage(sig, p.SignData()) {
		return nil, fmt.Errorf("%w: bad signature", ErrInvalidPayload)
	}
	return pub, nil
}

// verifyFrom checks that the payload is signed by validator pub.
func (p *Payload) verifyFrom(pub *keys.PublicKey) bool {
	inv := p.Witness.InvocationScript
	if len(inv) != invocationSize || inv[0] != opPUSHDATA1 || inv[1] != SignatureSize {
		return false
	}
	return bytes.Equal(p.Witness.VerificationScript, pub.VerificationScript()) &&
		pub.VerifyMessage(inv[2:], p.SignData())
}

// ViewNumber implements dbft.ConsensusPayload.
func (p *Payload) ViewNumber() byte { return p.Msg.ViewNumber }

// Type implements dbft.ConsensusPayload.
func (p *Payload) Type() dbft.MessageType { return dbft.MessageType(p.Msg.Type) }

// Payload implements dbft.ConsensusPayload: the message body.
func (p *Payload) Payload() any { return p.Msg.Body }

// ValidatorIndex implements dbft.ConsensusPayload.
func (p *Payload) ValidatorIndex() uint16 { return uint16(p.Msg.ValidatorIndex) }

// SetValidatorIndex implements dbft.ConsensusPayload.
func (p *Payload) SetValidatorIndex(i uint16) {
	if byte(i) != p.Msg.ValidatorIndex {
		p.Msg.ValidatorIndex = byte(i)
		p.Data = nil
	}
}

// Height implements dbft.ConsensusPayload.
func (p *Payload) Height() uint32 { return p.Msg.BlockIndex }

// GetChangeView implements dbft.ConsensusPayload.
func (p *Payload) GetChangeView() dbft.ChangeView { return p.Msg.Body.(*ChangeView) }

// GetPrepareRequest implements dbft.ConsensusPayload.
func (p *Payload) GetPrepareRequest() dbft.PrepareRequest[util.Uint256] {
	return p.Msg.Body.(*PrepareRequest)
}

// GetPrepareResponse implements dbft.ConsensusPayload.
func (p *Payload) GetPrepareResponse() dbft.PrepareResponse[util.Uint256] {
	return p.Msg.Body.(*PrepareResponse)
}

// GetPreCommit implements dbft.ConsensusPayload; N3 has no PreCommit.
func (p *Payload) GetPreCommit() dbft.PreCommit { return nil }

// GetCommit implements dbft.ConsensusPayload.
func (p *Payload) GetCommit() dbft.Commit { return p.Msg.Body.(*Commit) }

// GetRecoveryRequest implements dbft.ConsensusPayload.
func (p *Payload) GetRecoveryRequest() dbft.RecoveryRequest { return p.Msg.Body.(*RecoveryRequest) }

// GetRecoveryMessage implements dbft.ConsensusPayload.
func (p *Payload) GetRecoveryMessage() dbft.RecoveryMessage[util.Uint256] {
	return p.Msg.Body.(*RecoveryMessage)
}
