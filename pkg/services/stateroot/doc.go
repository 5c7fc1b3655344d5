// Package stateroot is the state-root service of neo-go and of the C#
// StateService plugin: the state validators (the StateValidator role of
// RoleManagement) sign each block's state root and the network carries
// their signatures in extensible payloads of category "StateService".
//
// Messages (the payload's Data):
//
//	Vote:      0x00 | i32 LE validator index | u32 LE height | var-bytes signature (64)
//	StateRoot: 0x01 | u8 version | u32 LE index | 32-byte root | var-int count (≤1) | witness
//
// A signature covers magic (u32 LE) ‖ SHA-256(version ‖ index ‖ root). A
// validated root's witness is the BFT multisignature (m = n - (n-1)/3) of
// the validators designated for its block: their default multisig
// verification script and m signatures pushed in key order.
//
// Every node checks the StateService payloads it receives (OnPayload): the
// sender must be the standard account of a designated state validator and
// the payload signed by it; a StateRoot message's witness must verify, and
// then the root, equal to the local one, is stored with its witness
// (chain.AddValidatedStateRoot: getstateroot shows the witness,
// getstateheight the validated index). A root that arrives just before its
// block is checked, kept and stored when the block comes (NotifyBlock), but
// not relayed. A root that is not the local one is logged, as the
// reference does.
//
// A node holding the key of a designated state validator also signs: on
// each new block (NotifyBlock) it signs the block's local root and
// broadcasts a Vote (valid for 10 blocks, resent after 3 s and then after
// growing multiples of the block time, up to 10 times, until the root is
// out). The validator at (index - retries) mod n collects the votes and,
// once m verify, stores the root and broadcasts a StateRoot message (valid
// for 100 blocks). This is neo-go's schedule, so n3d and neo-go state
// validators share one network.
//
// One goroutine (Run) owns signing and the resend timer; OnPayload may be
// called from any goroutine. Cross-service calls are Config fields; the
// node wires them (see Config). Metrics (Config.Registerer):
// n3d_stateroot_payloads_received_total{outcome},
// n3d_stateroot_messages_sent_total{type}, n3d_stateroot_validated_height.
//
// Wiring (pkg/node), for every node whatever its configuration:
//
//	keys := nil // or, with ApplicationConfiguration.StateRoot.Enabled, the
//	            // keys of its UnlockWallet (consensus.KeysFromWallet)
//	svc, err := stateroot.New(stateroot.Config{
//		Logger: log.Named("stateroot"), Magic: uint32(proto.Magic),
//		Ledger: chain.StateRootReader{Chain: c, Natives: natives},
//		Keys: keys, Broadcast: p2p.RelayExtensible, Synced: p2p.IsInSync,
//		TimePerBlock: blockTime, Registerer: reg})
//	// P2P: extensible payloads of category stateroot.Category go to
//	// svc.OnPayload (nil: relay; ErrInvalidPayload/ErrInvalidMessage:
//	// the sender misbehaved; ErrNotValidNow: drop quietly).
//	// Chain: on every added block, svc.NotifyBlock().
//	// Run: go svc.Run(ctx); cancel ctx to stop (Run returns nil).
package stateroot
