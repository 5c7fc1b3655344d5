// Package scripts builds and recognises Neo N3's standard verification
// scripts, the witnesses' "verification" part of ordinary accounts:
//
//	single signature:  PUSHDATA1 33 <key> SYSCALL System.Crypto.CheckSig
//	m-of-n multisig:   PUSH m, PUSHDATA1 33 <key>×n (sorted), PUSH n,
//	                   SYSCALL System.Crypto.CheckMultisig
//
// where PUSH k is PUSH1..PUSH16 for k ≤ 16 and PUSHINT8/PUSHINT16 above, as
// the reference's ScriptBuilder.EmitPush writes them. Builders produce the
// exact bytes of the C# reference (Contract.CreateSignatureRedeemScript,
// CreateMultiSigRedeemScript); recognisers apply the reference's rules
// (Helper.IsSignatureContract, IsMultiSigContract) byte for byte, including
// which forms of m and n are accepted and when keys are validated.
//
// Block import calls ParseSignatureContract / ParseMultiSigContract on every
// witness to take the fast path (direct signature checks instead of running
// the VM), so both are allocation-light and never panic on any input.
package scripts
