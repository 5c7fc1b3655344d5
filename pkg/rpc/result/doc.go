// Package result holds the JSON-RPC answers of the n3d RPC server in the
// reference's form: field names, field order and number encodings as the
// Neo N3 reference nodes print them (neo-go pkg/neorpc/result, C#
// RpcServer), and the JSON-RPC error object with the reference codes.
//
// Data flow: the server's handlers read ledger records (blocks,
// transactions, application logs, contract states, ...) and wrap them in
// these types; encoding/json writes them. Types that extend a record with
// metadata (Block, Header, TransactionOutput) splice extra fields after the
// record's own JSON, so the record package stays the one place that knows
// its form.
package result
