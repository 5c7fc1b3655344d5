// Package txbuild makes, signs and shares the transactions of the wallet
// commands, as neo-go's wallet CLI does.
//
//	script (TransferScript, CallScript, ...) + Signers (wallet accounts
//	with scopes)
//	  ─▶ Builder.Make: system fee = GAS of a test run (Node.SystemFee)
//	                   + extra; ValidUntilBlock = height +
//	                   MaxValidUntilBlockIncrement; network fee =
//	                   Node.CalculateNetworkFee + extra; random nonce
//	  ─▶ Sign: a witness per signer from the decrypted keys (standard and
//	           m-of-n multisig accounts)
//	  or ─▶ NewContext / Context.AddSignature / Context.Save: a
//	        ContractParametersContext file (the JSON of neo-go and the C#
//	        node) that other key holders sign with `wallet sign`, then
//	        Context.CompleteTransaction builds the witnesses.
//
// The package asks the node through the small Node interface (implemented
// by pkg/rpc/client.Client), so it does not depend on the RPC layer.
package txbuild
