package main

import (
	"encoding/base64"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
)

// The output of `n3d query tx`, neo-go's: "Name:\tvalue" lines aligned by
// a tab-padding tabwriter, with -v the script's instructions as neo-go's
// VM PrintOps lists them.

// txExecutions is a transaction's block and application log.
type txExecutions struct {
	block util.Uint256
	log   []state.Execution
}

// writeTxState writes tx's state; execs is nil for a transaction that is
// not in a block.
func writeTxState(w io.Writer, tx *transaction.Transaction, execs *txExecutions, verbose bool) error {
	var buf []byte
	buf = fmt.Appendf(buf, "Hash:\t%s\n", tx.Hash().StringBE())
	buf = fmt.Appendf(buf, "OnChain:\t%t\n", execs != nil)
	if execs == nil {
		buf = fmt.Appendf(buf, "ValidUntil:\t%d\n", tx.ValidUntilBlock)
	} else {
		buf = fmt.Appendf(buf, "BlockHash:\t%s\n", execs.block.StringBE())
		if len(execs.log) != 1 {
			buf = append(buf, "Success:\tunknown (no execution data)\n"...)
		} else {
			buf = fmt.Appendf(buf, "Success:\t%t\n", execs.log[0].VMState == vm.HaltState)
		}
	}
	if verbose {
		buf = appendTxDetails(buf, tx, execs)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 4, '\t', 0)
	if _, err := tw.Write(buf); err != nil {
		return err
	}
	return tw.Flush()
}

// appendTxDetails appends what -v adds: signers, fees, the script in
// base64 and as instructions, the exceptions of failed executions.
func appendTxDetails(buf []byte, tx *transaction.Transaction, execs *txExecutions) []byte {
	for _, s := range tx.Signers {
		buf = fmt.Appendf(buf, "Signer:\t%s (%s)\n", address.Uint160ToString(s.Account), scopeName(s.Scopes))
	}
	buf = fmt.Appendf(buf, "SystemFee:\t%s GAS\n", util.Fixed8(tx.SystemFee))
	buf = fmt.Appendf(buf, "NetworkFee:\t%s GAS\n", util.Fixed8(tx.NetworkFee))
	buf = fmt.Appendf(buf, "Script:\t%s\n", base64.StdEncoding.EncodeToString(tx.Script))
	buf = appendScriptOps(buf, tx.Script)
	if execs != nil {
		for _, e := range execs.log {
			if e.VMState != vm.HaltState {
				buf = fmt.Appendf(buf, "Exception:\t%s\n", e.FaultException)
			}
		}
	}
	return buf
}

// scopeName prints a signer's scope as neo-go's query does: the name of a
// single flag, "WitnessScope(N)" for a combination.
func scopeName(s transaction.WitnessScope) string {
	switch s {
	case transaction.None, transaction.CalledByEntry, transaction.CustomContracts, transaction.CustomGroups,
		transaction.WitnessRules, transaction.Global:
		return s.String()
	}
	return "WitnessScope(" + strconv.Itoa(int(s)) + ")"
}
