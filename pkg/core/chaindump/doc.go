// Package chaindump reads and writes .acc chain dumps, the block archive
// format of neo-go's `db dump` / `db restore` (and of the C# node's
// chain.acc), little-endian:
//
//	plain:        u32 count | count × ( u32 size | block bytes )
//	incremental:  u32 start | u32 count | count × ( u32 size | block bytes )
//
// The two are told apart by the third u32: in a plain dump it is the first
// block's version field (always 0), in an incremental one the first
// record's size (never 0). neo-go writes the incremental form unless asked
// for --non-incremental with start 0.
//
// Data flow: NewReader reads the header; Next yields one record's raw
// bytes at a time (reusing one buffer, each record bounded by MaxBlockSize
// of the reader), NextBlock also decodes it. Errors name the record number,
// the expected block index and the byte offset. Writer writes the header and
// then raw records or blocks, so a dump read and re-written is identical.
package chaindump
