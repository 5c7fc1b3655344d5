package consensus

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nspcc-dev/dbft"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
)

// This file keeps the node's signed messages in Config.SignLog and holds
// dBFT to them: nothing leaves the node before it is recorded, nothing
// conflicting with a record is sent, and a restart rebuilds the round
// from the records (restore). Everything here runs on the service
// goroutine.

var (
	// errSecondBlock refuses a header signature at a height whose Commit
	// the node recorded for another header.
	errSecondBlock = errors.New("consensus: a Commit for another block of this height was signed before")
)

// journal is the service's view of the SignLog at the height dBFT works on.
type journal struct {
	height uint32
	own    []*Payload            // the node's own recorded payloads, oldest first
	logged map[util.Uint256]bool // hashes of every recorded payload
}

// loadJournal reads the records of height h.
func (s *Service) loadJournal(h uint32) {
	s.journal = journal{height: h, logged: map[util.Uint256]bool{}}
	if s.cfg.SignLog == nil {
		return
	}
	for _, e := range s.cfg.SignLog.Entries(h) {
		p, err := s.decodeLogged(e.Data)
		if err != nil || p.Msg.BlockIndex != h {
			s.log.Error("unreadable sign log entry skipped", zap.Uint32("height", h), zap.Error(err))
			continue
		}
		s.journal.logged[p.Hash()] = true
		if e.Own {
			s.journal.own = append(s.journal.own, p)
		}
	}
}

// signLogKeep is how many heights below the current one the sign log
// keeps: a crash may cost the chain its last blocks (not yet persisted),
// and the node must still know what it signed for them when it makes
// them again.
const signLogKeep = 64

// enterHeight moves the journal to height h and prunes the heights more
// than signLogKeep below.
func (s *Service) enterHeight(h uint32) {
	if s.journal.height == h && s.journal.logged != nil {
		return
	}
	s.loadJournal(h)
	if s.cfg.SignLog != nil && h > signLogKeep {
		if err := s.cfg.SignLog.Prune(h - signLogKeep); err != nil {
			s.log.Warn("cannot prune the sign log", zap.Error(err))
		}
	}
}

func (s *Service) decodeLogged(data []byte) (*Payload, error) {
	e := new(payload.Extensible)
	r := io.NewBinReaderFromBuf(data)
	e.DecodeBinary(r)
	if r.Err != nil {
		return nil, r.Err
	}
	return PayloadFromExtensibleSR(s.magic, s.cfg.Protocol.StateRootInHeader, e)
}

// ownAt returns the node's last recorded payload of type t at view v of
// the journal's height (any view for Commit).
func (s *Service) ownAt(t MessageType, v byte) *Payload {
	for i := len(s.journal.own) - 1; i >= 0; i-- {
		p := s.journal.own[i]
		if p.Msg.Type == t && (t == CommitType || p.Msg.ViewNumber == v) {
			return p
		}
	}
	return nil
}

// ownCommit returns the node's recorded Commit of height h.
func (s *Service) ownCommit(h uint32) *Payload {
	s.enterHeight(h)
	return s.ownAt(CommitType, 0)
}

// mayBroadcast tells whether a signed payload of ours may be sent: one
// already recorded always may (a re-send); after a recorded Commit
// nothing new may, and a PrepareRequest or PrepareResponse may not
// differ from the one recorded for its view.
func (s *Service) mayBroadcast(p *Payload) bool {
	if s.cfg.SignLog == nil || p.Msg.Type == RecoveryRequestType || p.Msg.Type == RecoveryMessageType {
		return true
	}
	s.enterHeight(p.Msg.BlockIndex)
	if s.journal.logged[p.Hash()] {
		return true
	}
	var prior *Payload
	if c := s.ownAt(CommitType, 0); c != nil {
		prior = c
	} else if p.Msg.Type == PrepareRequestType || p.Msg.Type == PrepareResponseType {
		prior = s.ownAt(p.Msg.Type, p.Msg.ViewNumber)
	}
	if prior == nil {
		return true
	}
	s.log.Warn("not sending a message that conflicts with one signed before",
		zap.Stringer("type", p.Msg.Type), zap.Uint32("height", p.Msg.BlockIndex), zap.Uint8("view", p.Msg.ViewNumber),
		zap.Stringer("signed", prior.Msg.Type), zap.Uint8("signedView", prior.Msg.ViewNumber))
	return false
}

// record writes a signed payload of ours to the SignLog with the payloads
// of other validators it rests on: the proposal it answers or commits
// to, the change views that brought the round to its view.
func (s *Service) record(p *Payload) error {
	if s.cfg.SignLog == nil || p.Msg.Type == RecoveryRequestType || p.Msg.Type == RecoveryMessageType ||
		s.journal.logged[p.Hash()] {
		return nil
	}
	var ctx []*Payload
	if p.Msg.Type == PrepareResponseType || p.Msg.Type == CommitType {
		if req, ok := s.dbft.PreparationPayloads[s.dbft.PrimaryIndex].(*Payload); ok && req != nil &&
			int(s.dbft.PrimaryIndex) != s.dbft.MyIndex {
			ctx = append(ctx, req)
		}
	}
	if p.Msg.ViewNumber > 0 {
		for _, cv := range s.dbft.LastChangeViewPayloads {
			if cv, ok := cv.(*Payload); ok && cv != nil {
				ctx = append(ctx, cv)
			}
		}
	}
	var entries []LogEntry
	var hashes []util.Uint256
	for _, c := range ctx {
		if h := c.Hash(); !s.journal.logged[h] && !slices.Contains(hashes, h) && len(c.Witness.InvocationScript) > 0 {
			entries = append(entries, LogEntry{Data: encodePayload(c)})
			hashes = append(hashes, h)
		}
	}
	entries = append(entries, LogEntry{Own: true, Data: encodePayload(p)})
	if err := s.cfg.SignLog.Append(p.Msg.BlockIndex, entries...); err != nil {
		return fmt.Errorf("consensus: recording a %s: %w", p.Msg.Type, err)
	}
	for _, h := range hashes {
		s.journal.logged[h] = true
	}
	s.journal.logged[p.Hash()] = true
	// A copy of what was recorded, not a decoding of the record: a
	// PrepareRequest's hashes (32 bytes a transaction) are not copied
	// twice more. The copy keeps its own Data and witness should p be
	// signed again; the body is shared and never modified.
	own := &Payload{Extensible: p.Extensible, Msg: p.Msg, magic: p.magic}
	s.journal.own = append(s.journal.own, own)
	return nil
}

// encodePayload encodes a payload's extensible with its witness.
func encodePayload(p *Payload) []byte {
	p.ensureData()
	w := io.NewBufBinWriter()
	w.Grow(len(p.Data) + extensibleOverhead)
	p.Extensible.EncodeBinary(w.BinWriter)
	return w.Bytes()
}

// extensibleOverhead is room for an extensible payload's fields around
// its data: category, heights, sender, the lengths and a single-signature
// witness (less than 200 bytes).
const extensibleOverhead = 256

// headerSignature is the Commit signature guard: at a height whose
// Commit is recorded the node signs only that Commit's header again, and
// gives that same signature; elsewhere it signs as usual (nil, nil).
func (s *Service) headerSignature(b *dbftBlock) ([]byte, error) {
	c := s.ownCommit(b.b.Index)
	if c == nil {
		return nil, nil
	}
	sig := c.Msg.Body.(*Commit).Sig[:]
	pub, ok := s.dbft.Pub.(*keys.PublicKey)
	if ok && c.Msg.ViewNumber == s.dbft.ViewNumber && b.Verify(pub, sig) == nil {
		return slices.Clone(sig), nil
	}
	s.log.Error("refusing to sign a second block for a height", zap.Uint32("height", b.b.Index),
		zap.Uint8("view", s.dbft.ViewNumber), zap.Uint8("committedView", c.Msg.ViewNumber))
	return nil, fmt.Errorf("%w: height %d", errSecondBlock, b.b.Index)
}

// reuseProposal makes a PrepareRequest the node re-issues for a view it
// proposed in before (it restarted) the recorded one, and sets dBFT's
// proposal to it.
func (s *Service) reuseProposal(c *dbft.Context[util.Uint256], req *PrepareRequest) {
	s.enterHeight(c.BlockIndex)
	old := s.ownAt(PrepareRequestType, c.ViewNumber)
	if old == nil {
		return
	}
	prev := old.Msg.Body.(*PrepareRequest)
	if prev.PrevHash != c.PrevHash {
		return
	}
	*req = PrepareRequest{Version: prev.Version, PrevHash: prev.PrevHash, TimestampMS: prev.TimestampMS,
		NonceValue: prev.NonceValue, Hashes: slices.Clone(prev.Hashes),
		StateRootEnabled: prev.StateRootEnabled, StateRoot: prev.StateRoot}
	c.Timestamp = prev.TimestampMS * nsPerMs
	c.Nonce = prev.NonceValue
	c.TransactionHashes = slices.Clone(prev.Hashes)
	clear(c.Transactions)
	missing := 0
	for _, h := range c.TransactionHashes {
		if tx := s.getTx(h); tx != nil {
			c.Transactions[h] = tx
		} else {
			missing++
		}
	}
	s.log.Info("re-issuing the proposal signed before the restart", zap.Uint32("height", c.BlockIndex),
		zap.Uint8("view", c.ViewNumber), zap.Int("txs", len(c.TransactionHashes)), zap.Int("missing", missing))
}

// forget drops a payload dBFT keeps as sent although it was not: the
// round goes on as if dBFT had not made it (it makes it again later).
func (s *Service) forget(p *Payload) {
	i := s.dbft.MyIndex
	if i < 0 {
		return
	}
	for _, slot := range [][]dbft.ConsensusPayload[util.Uint256]{s.dbft.PreparationPayloads,
		s.dbft.CommitPayloads, s.dbft.ChangeViewPayloads} {
		if i < len(slot) && slot[i] == dbft.ConsensusPayload[util.Uint256](p) {
			slot[i] = nil
		}
	}
}

// restore replays the records of the height dBFT starts at: the
// payloads of others as if received, the node's own so that dBFT knows
// what it sent (a recorded Commit locks the round as it did before the
// restart), then sends the recorded Commit again with its preparation.
func (s *Service) restore() {
	if len(s.journal.logged) == 0 || s.cfg.SignLog == nil {
		return
	}
	h := s.dbft.BlockIndex
	var fed int
	for _, e := range s.cfg.SignLog.Entries(h) {
		p, err := s.decodeLogged(e.Data)
		if err != nil || p.Msg.BlockIndex != h {
			continue
		}
		if e.Own && p.Msg.Type == PrepareRequestType {
			continue // re-issued by dBFT itself (reuseProposal)
		}
		if p.signer, err = p.VerifyWitness(); err != nil {
			s.log.Warn("sign log entry with a bad witness skipped", zap.Error(err))
			continue
		}
		s.onMessage(p)
		fed++
	}
	if s.dbft.IsPrimary() && !s.dbft.RequestSentOrReceived() && s.ownAt(PrepareRequestType, s.dbft.ViewNumber) != nil {
		s.dbft.OnTimeout(s.dbft.BlockIndex, s.dbft.ViewNumber)
	}
	c := s.ownCommit(h)
	if c != nil && s.dbft.MyIndex >= 0 && s.dbft.CommitPayloads[s.dbft.MyIndex] == nil {
		// The Commit's view is out of reach: dBFT still must know it
		// committed (no change view, no other commit).
		s.dbft.CommitPayloads[s.dbft.MyIndex] = c
	}
	s.log.Info("consensus state restored from the sign log", zap.Uint32("height", h),
		zap.Int("payloads", fed), zap.Uint8("view", s.dbft.ViewNumber), zap.Bool("committed", c != nil))
	if c == nil {
		return
	}
	// Send the Commit again, after the preparation it rests on: a peer
	// still in that view may miss both.
	for _, p := range s.journal.own {
		if p.Msg.ViewNumber == c.Msg.ViewNumber &&
			(p.Msg.Type == PrepareRequestType || p.Msg.Type == PrepareResponseType || p.Msg.Type == CommitType) {
			e := p.Extensible
			s.cfg.Broadcast(&e)
		}
	}
}
