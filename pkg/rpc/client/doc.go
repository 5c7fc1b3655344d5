// Package client is a small JSON-RPC 2.0 client for the Neo N3 RPC API,
// with the methods the wallet commands need.
//
//	Client.X(ctx, ...) ─▶ call: {"jsonrpc":"2.0","id":n,"method":..,"params":[..]}
//	                   ─▶ HTTP POST (ctx deadline, Options.Timeout per call)
//	                   ─▶ body read up to Options.MaxResponseSize
//	                   ─▶ {"result":..} decoded into the method's type, or
//	                      {"error":..} returned as *result.Error (code,
//	                      message, data of the server) wrapped with the method
//
// Answers decode into pkg/rpc/result types where their JSON form reads
// back (Version, NEP17Balances, NetworkFee, Candidate); the types whose
// server side only writes (invocations, unclaimed GAS, application logs)
// and getnep11balances (neo-go's shape) have client-side types here.
//
// A Client is safe for concurrent use.
package client
