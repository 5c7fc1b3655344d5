package server

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
)

func (s *Server) getBestBlockHash(params.Params) (any, *result.Error) {
	return s.chain.CurrentBlockHash(), nil
}

func (s *Server) getBlockCount(params.Params) (any, *result.Error) {
	return s.chain.BlockHeight() + 1, nil
}

// getBlockHeaderCount: headers are never ahead of blocks in n3d.
func (s *Server) getBlockHeaderCount(params.Params) (any, *result.Error) {
	return s.chain.BlockHeight() + 1, nil
}

func (s *Server) getBlockHash(ps params.Params) (any, *result.Error) {
	i, rerr := s.heightFromParam(ps.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	h, ok := s.chain.GetHeaderHash(i)
	if !ok {
		return nil, result.ErrUnknownHeight
	}
	return h, nil
}

// metadata is the confirmations and next block hash of block index.
func (s *Server) metadata(index uint32) result.BlockMetadata {
	m := result.BlockMetadata{Confirmations: s.chain.BlockHeight() - index + 1}
	if next, ok := s.chain.GetHeaderHash(index + 1); ok {
		m.NextBlockHash = &next
	}
	return m
}

func (s *Server) getBlock(ps params.Params) (any, *result.Error) {
	h, rerr := s.blockHashFromParam(ps.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	verbose, _ := ps.Value(1).GetBoolean()
	if !verbose { // the stored bytes, no transaction decoded
		raw, err := s.chain.AppendBlockBytes(nil, h)
		if err != nil {
			return nil, result.ErrUnknownBlock.WithData(notFoundData(err))
		}
		return base64Result(raw), nil
	}
	b, err := s.chain.GetBlock(h)
	if err != nil {
		return nil, result.ErrUnknownBlock.WithData(notFoundData(err))
	}
	return result.Block{Block: b, BlockMetadata: s.metadata(b.Index)}, nil
}

func (s *Server) getBlockHeader(ps params.Params) (any, *result.Error) {
	h, rerr := s.blockHashFromParam(ps.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	hdr, err := s.chain.GetHeader(h)
	if err != nil {
		return nil, unknown(result.ErrUnknownBlock, err)
	}
	if v, _ := ps.Value(1).GetBoolean(); v {
		return result.Header{Header: hdr, BlockMetadata: s.metadata(hdr.Index)}, nil
	}
	return headerBytes(hdr)
}

func headerBytes(h *block.Header) (any, *result.Error) {
	w := io.NewBufBinWriter()
	h.EncodeBinary(w.BinWriter)
	if w.Err != nil {
		return nil, internal("header encoding", w.Err)
	}
	return base64Result(w.Bytes()), nil
}

// getBlockSysFee returns the sum of the system fees of a block's
// transactions (a decimal string).
func (s *Server) getBlockSysFee(ps params.Params) (any, *result.Error) {
	i, rerr := s.heightFromParam(ps.Value(0))
	if rerr != nil {
		return nil, rerr.WithData("invalid block height: " + rerr.Data)
	}
	h, _ := s.chain.GetHeaderHash(i)
	b, err := s.chain.GetBlock(h)
	if err != nil {
		return nil, result.ErrUnknownBlock.WithData(err.Error())
	}
	var fee int64
	for _, tx := range b.Transactions {
		fee += tx.SystemFee
	}
	return fmt.Sprint(fee), nil
}

func (s *Server) getRawTransaction(ps params.Params) (any, *result.Error) {
	h, err := ps.Value(0).GetUint256()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	verbose, _ := ps.Value(1).GetBoolean()
	if s.cfg.Mempool != nil {
		// A pooled transaction is answered as neo-go does: verbose, the
		// transaction alone (no block, no state).
		if tx, ok := s.cfg.Mempool.TryGet(h); ok {
			if verbose {
				return tx, nil
			}
			return rawTx(tx)
		}
	}
	tx, height, err := s.chain.GetTransaction(h)
	if err != nil {
		return nil, unknown(result.ErrUnknownTransaction, err)
	}
	if !verbose {
		return rawTx(tx)
	}
	bh, ok := s.chain.GetHeaderHash(height)
	if !ok {
		return nil, result.NewInternalError(fmt.Sprintf("no block %d", height))
	}
	hdr, err := s.chain.GetHeader(bh)
	if err != nil {
		return nil, internal("block header", err)
	}
	aers, err := s.chain.GetAppExecResults(h, trigger.Application)
	if err != nil {
		return nil, internal("application log", err)
	}
	if len(aers) == 0 {
		return nil, result.NewInternalError("inconsistent application log: application log for the transaction is empty")
	}
	return result.TransactionOutput{Transaction: tx, TransactionMetadata: result.TransactionMetadata{
		BlockHash: bh, Confirmations: s.chain.BlockHeight() - height + 1,
		BlockTime: hdr.Timestamp, VMState: aers[0].VMState.String(),
	}}, nil
}

// rawTx is a transaction's wire bytes (base64 in JSON).
func rawTx(tx *transaction.Transaction) (any, *result.Error) {
	raw, err := tx.Bytes()
	if err != nil {
		return nil, internal("transaction encoding", err)
	}
	return base64Result(raw), nil
}

func (s *Server) getTransactionHeight(ps params.Params) (any, *result.Error) {
	h, err := ps.Value(0).GetUint256()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	_, height, err := s.chain.GetTransaction(h)
	if err != nil {
		return nil, unknown(result.ErrUnknownTransaction, err)
	}
	return height, nil
}

func (s *Server) getApplicationLog(ps params.Params) (any, *result.Error) {
	h, err := ps.Value(0).GetUint256()
	if err != nil {
		return nil, result.ErrInvalidParams
	}
	trig := trigger.All
	if len(ps) > 1 {
		str, err := ps[1].GetString()
		if err != nil {
			return nil, result.ErrInvalidParams
		}
		if trig, err = trigger.FromString(str); err != nil {
			return nil, result.ErrInvalidParams
		}
	}
	aers, err := s.chain.GetAppExecResults(h, trigger.All)
	if err != nil {
		return nil, result.ErrUnknownScriptContainer.WithData("failed to locate application log: " + notFoundData(err))
	}
	return result.NewApplicationLog(h, aers, trig), nil
}
