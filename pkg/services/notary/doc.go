// Package notary is the P2P notary service of a node whose wallet holds a
// key designated for the P2PNotary role, on a network with
// P2PSigExtensions, following neo-go (the only reference with P2P notary
// requests).
//
// Each P2P notary request carries a main transaction that NKeys parties
// sign (each request brings one more signature) and a fallback that pays
// the notary from the request sender's Notary deposit if the main
// transaction is not completed in time. The service groups the pooled
// requests by main transaction; once every signature of the main
// transaction has arrived (single-signature and m-of-n multisignature
// witnesses, the signatures checked against the keys) and the chain is
// still below the lowest NotValidBefore of its fallbacks, it adds the
// Notary contract's witness (this node's signature, verified by
// Notary.verify) and relays it. Once the height reaches a fallback's
// NotValidBefore, that fallback is completed the same way and relayed.
// Requests leave when the pool drops them (after a block that holds the
// main transaction or a fallback, or expiry).
//
// The node (pkg/node) calls OnNewRequest and OnRequestRemoval as the
// notary request pool changes and OnBlock after every block; Run relays the
// completed transactions and must run for the service's lifetime.
//
// Not supported (the request's fallback is then used): witnesses with a
// custom contract-call verification script (neo-go's AppCall requests).
package notary
