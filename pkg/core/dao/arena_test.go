package dao

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func TestRecordArenaCopies(t *testing.T) {
	var a recordArena
	var got [][]byte
	var want [][]byte
	for i := range 2000 {
		b := bytes.Repeat([]byte{byte(i)}, 1+i%700)
		v := a.copy(b)
		require.Equal(t, b, v)
		require.Equal(t, len(v), cap(v), "an append to a record must not reach the next one")
		b[0] ^= 0xff // the caller's buffer is reused: the copy must not change
		got, want = append(got, v), append(want, bytes.Repeat([]byte{byte(i)}, 1+i%700))
	}
	for i := range got {
		require.Equal(t, want[i], got[i], "record %d", i)
	}
	big := make([]byte, recordChunk/4+1)
	v := a.copy(big)
	require.Equal(t, len(big), cap(v))
	require.True(t, unsafe.SliceData(big) != unsafe.SliceData(v), "a copy")
	require.Empty(t, a.copy(nil))
}

// keptStore records the values it is given.
type keptStore struct {
	storage.Store
	vals [][]byte
}

func (s *keptStore) Put(k, v []byte) error {
	s.vals = append(s.vals, v)
	return s.Store.Put(k, v)
}

// TestTransactionRecordsExact: a block's transaction records are kept at
// their exact size (no size-hint slack), each decodes to its own
// transaction although they are encoded in one reused buffer, and they
// share chunks (one allocation per ~recordChunk bytes, not per record).
func TestTransactionRecordsExact(t *testing.T) {
	st := &keptStore{Store: storage.NewMemoryStore()}
	d := New(st)
	const n = 1000
	txs := make([]*transaction.Transaction, n)
	total := 0
	for i := range txs {
		txs[i] = &transaction.Transaction{Nonce: uint32(i), Script: bytes.Repeat([]byte{0x40}, 1+i%300),
			ValidUntilBlock: 10, Signers: []transaction.Signer{{Account: util.Uint160{byte(i)}}},
			Witnesses: []transaction.Witness{{}}}
		aer := &state.AppExecResult{Container: txs[i].Hash()}
		require.NoError(t, d.StoreAsTransaction(txs[i], 7, aer))
		v := st.vals[len(st.vals)-1]
		require.Equal(t, len(v), cap(v))
		total += len(v)
	}
	chunks := map[uintptr]bool{}
	for _, v := range st.vals {
		chunks[uintptr(unsafe.Pointer(unsafe.SliceData(v)))/recordChunk] = true
	}
	require.LessOrEqual(t, len(chunks), 2*(total/recordChunk+1), "records are carved from shared chunks")
	for _, tx := range txs {
		got, h, err := d.GetTransaction(tx.Hash())
		require.NoError(t, err)
		require.Equal(t, uint32(7), h)
		require.Equal(t, tx.Hash(), got.Hash())
		require.Equal(t, tx.Nonce, got.Nonce)
	}
}

// BenchmarkStoreAsTransaction stores a block's worth of transfer-sized
// records (a 250-byte transaction, a 190-byte execution result) into a
// fresh private DAO per block: bytes and allocations per record.
func BenchmarkStoreAsTransaction(b *testing.B) {
	const n = 1000
	txs := make([]*transaction.Transaction, n)
	aers := make([]*state.AppExecResult, n)
	for i := range txs {
		txs[i] = &transaction.Transaction{Nonce: uint32(i), Script: bytes.Repeat([]byte{0x40}, 90),
			ValidUntilBlock: 10, Signers: []transaction.Signer{{Account: util.Uint160{byte(i)}}},
			Witnesses: []transaction.Witness{{InvocationScript: make([]byte, 66), VerificationScript: make([]byte, 40)}}}
		aers[i] = &state.AppExecResult{Container: txs[i].Hash(), Execution: state.Execution{
			Events: []state.NotificationEvent{{Name: "Transfer"}, {Name: "Transfer"}}}}
	}
	parent := New(storage.NewMemoryStore())
	b.ReportAllocs()
	for b.Loop() {
		d := parent.Private()
		for i, tx := range txs {
			if err := d.StoreAsTransaction(tx, 7, aers[i]); err != nil {
				b.Fatal(err)
			}
		}
		_ = d.Discard()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/record")
}
