package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/stretchr/testify/require"
)

// everyOperandScript has an instruction of every operand kind the listing
// decodes, jumps out of the script and an undefined opcode at the end.
var everyOperandScript = strings.Join([]string{
	"570201", "5603", // INITSLOT 2 1, INITSSLOT 3
	"00fb", "013412", "0278563412", "03ffffffffffffff7f", // PUSHINT8..64
	"0401000000000000000000000000000000", "05" + strings.Repeat("ff", 32), // PUSHINT128, PUSHINT256
	"6f01", "8700", "5f02", // LDLOC 1, STARG 0, LDSFLD 2
	"2202", "2506000000", "21", "34fa", "0a00010000", // JMP, JMPIF_L, NOP, CALL back, PUSHA out of the script
	"3b0406", "21", "3d02", "3c0800000000000000", "3efbffffff", // TRY, NOP, ENDTRY, TRY_L, ENDTRY_L
	"db28", "d921", "db99", "c421", // CONVERT, ISTYPE, CONVERT to no type, NEWARRAY_T
	"4195016f61", "41efbeadde", "370100", // SYSCALL System.Runtime.Notify, an unknown one, CALLT
	"0c00", "0c0568656c6c6f", "0c14cf76e28bd0062c4a478ee35561011319f3cfa4d2", // PUSHDATA1 "", "hello", GAS hash
	"0c03fffefd", "0d0200c3a9", // PUSHDATA1 not UTF-8, PUSHDATA2 "é"
	"227f", "10", "ff", // JMP out of the script, PUSH0, undefined
}, "")

// TestScriptOps compares the listing with neo-go 0.120.0's (its `util ops
// --hex` output for the same scripts, which is what `query tx -v` prints).
func TestScriptOps(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         []string
	}{
		{"every operand kind", everyOperandScript, []string{
			"INDEX    OPCODE         PARAMETER",
			"0        INITSLOT       2 local, 1 arg    <<",
			"3        INITSSLOT      3",
			"5        PUSHINT8       -5 (fb)",
			"7        PUSHINT16      4660 (3412)",
			"10       PUSHINT32      305419896 (78563412)",
			"15       PUSHINT64      9223372036854775807 (ffffffffffffff7f)",
			"24       PUSHINT128     1 (01000000000000000000000000000000)",
			"41       PUSHINT256     -1 (ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff)",
			"74       LDLOC          1 (01)",
			"76       STARG          0 (00)",
			"78       LDSFLD         2 (02)",
			"80       JMP            82 (2/02)",
			"82       JMPIF_L        88 (6/06000000)",
			"87       NOP            ",
			"88       CALL           82 (-6/fa)",
			"90       PUSHA          ERROR: invalid offset 346 ip at 90",
			"95       TRY            catch 99 (4/04), finally 101 (6/06)",
			"98       NOP            ",
			"99       ENDTRY         101 (2/02)",
			"101      TRY_L          catch 109 (8/08000000), finally 101 (0/00000000)",
			"110      ENDTRY_L       105 (-5/fbffffff)",
			"115      CONVERT        ByteString (28)",
			"117      ISTYPE         Integer (21)",
			"119      CONVERT        INVALID (99)",
			"121      NEWARRAY_T     21 (\"!\")",
			"123      SYSCALL        System.Runtime.Notify (95016f61)",
			"128      SYSCALL        not found (efbeadde)",
			"133      CALLT          0100 (\"\\x01\\x00\")",
			"136      PUSHDATA1       (\"\")",
			"138      PUSHDATA1      68656c6c6f (\"hello\")",
			"145      PUSHDATA1      cf76e28bd0062c4a478ee35561011319f3cfa4d2 (\"NepwUjd9GhqgNkrfXaxj9mmsFhFzGoFuWM\", \"0xd2a4cff31913016155e38e474a2c06d08be276cf\")",
			"167      PUSHDATA1      fffefd",
			"172      PUSHDATA2      c3a9 (\"\u00e9\")",
			"177      JMP            ERROR: invalid offset 304 ip at 177",
			"179      PUSH0          ",
			"180      Opcode(255)    ERROR: incorrect opcode Opcode(255)",
		}},
		{"truncated PUSHDATA1", "0c0501", []string{
			"INDEX    OPCODE       PARAMETER",
			"0        PUSHDATA1    ERROR: failed to read instruction parameter    <<",
		}},
		{"PUSHDATA4 too big", "100e00000200", []string{
			"INDEX    OPCODE       PARAMETER",
			"0        PUSH0            <<",
			"1        PUSHDATA4    ERROR: parameter is too big",
		}},
		{"truncated PUSHDATA4 prefix", "0e0100", []string{
			"INDEX    OPCODE       PARAMETER",
			"0        PUSHDATA4    ERROR: failed to read instruction parameter    <<",
		}},
		{"truncated PUSHINT32", "0201", []string{
			"INDEX    OPCODE       PARAMETER",
			"0        PUSHINT32    ERROR: failed to read instruction parameter    <<",
		}},
		{"truncated jump", "1122", []string{
			"INDEX    OPCODE    PARAMETER",
			"0        PUSH1         <<",
			"1        JMP       ERROR: failed to read instruction parameter",
		}},
		{"RET only", "40", []string{
			"INDEX    OPCODE    PARAMETER",
			"0        RET           <<",
		}},
		{"empty", "", []string{
			"INDEX    OPCODE    PARAMETER",
			"0        RET           <<",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script, err := hex.DecodeString(tc.script)
			require.NoError(t, err)
			require.Equal(t, strings.Join(tc.want, "\n")+"\n", string(appendScriptOps(nil, script)))
		})
	}
}

// faultTxJSON is a transaction of a privnet (its verbose JSON without the
// block fields) whose script fails: GAS has no "transfer" without
// arguments.
const faultTxJSON = `{"hash":"0x591aec389f5ca2b48bb433361156aae22a3871911cf548bd921847984bb9a2af","size":197,"version":0,` +
	`"nonce":2818057767,"sender":"Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn","sysfee":"984030","netfee":"1180520",` +
	`"validuntilblock":19,"signers":[{"account":"0xb248508f4ef7088e10c48f14d04be3272ca29eee","scopes":"None"}],` +
	`"attributes":[],"script":"wh8MCHRyYW5zZmVyDBTPduKL0AYsSkeO41VhARMZ88+k0kFifVtS","witnesses":[{"invocation":` +
	`"DEAwTn2EeoeLzR2p2qrTLyoknBZmEBOpGmSg+cAMfMWP1ffNXEZYsYY6NGaq5EnYKS7FrAwND6TlrBjYCYKdu0Mb",` +
	`"verification":"DCECs2Ir9AF73+MXxYrtX0x1PyBrfbiWBG+n13S7xL9/jcJBVuezJw=="}]}`

// faultTxDetails are the lines -v adds for faultTxJSON.
var faultTxDetails = []string{
	"Signer:\t\t\tNhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn (None)",
	"SystemFee:\t\t0.0098403 GAS",
	"NetworkFee:\t\t0.0118052 GAS",
	"Script:\t\t\twh8MCHRyYW5zZmVyDBTPduKL0AYsSkeO41VhARMZ88+k0kFifVtS",
	"INDEX    OPCODE       PARAMETER",
	"0        NEWARRAY0        <<",
	"1        PUSH15       ",
	"2        PUSHDATA1    7472616e73666572 (\"transfer\")",
	"12       PUSHDATA1    cf76e28bd0062c4a478ee35561011319f3cfa4d2 (\"NepwUjd9GhqgNkrfXaxj9mmsFhFzGoFuWM\", \"0xd2a4cff31913016155e38e474a2c06d08be276cf\")",
	"34       SYSCALL      System.Contract.Call (627d5b52)",
}

// TestWriteTxState checks the cases a chain of our node does not give
// (a transaction in the memory pool, several or no executions) against
// neo-go 0.120.0's output for the same answers of a node.
func TestWriteTxState(t *testing.T) {
	tx := new(transaction.Transaction)
	require.NoError(t, json.Unmarshal([]byte(faultTxJSON), tx))
	block, err := util.Uint256DecodeStringBE("446828d08e6e6aa4ba7fa23dae557418a5a4f87168633279d5748a01974e0dd9")
	require.NoError(t, err)
	const fault = `at instruction 34 (SYSCALL): System.Contract.Call failed: method not found: transfer/0`
	head := []string{"Hash:\t\t\t591aec389f5ca2b48bb433361156aae22a3871911cf548bd921847984bb9a2af"}
	onChain := slices.Concat(head, []string{"OnChain:\t\ttrue",
		"BlockHash:\t\t446828d08e6e6aa4ba7fa23dae557418a5a4f87168633279d5748a01974e0dd9"})
	pooled := slices.Concat(head, []string{"OnChain:\t\tfalse", "ValidUntil:\t\t19"})
	for _, tc := range []struct {
		name    string
		execs   *txExecutions
		verbose bool
		want    []string
	}{
		{"pooled", nil, false, pooled},
		{"pooled verbose", nil, true, slices.Concat(pooled, faultTxDetails)},
		{"no executions", &txExecutions{block: block}, false,
			slices.Concat(onChain, []string{"Success:\t\tunknown (no execution data)"})},
		{"fault", &txExecutions{block: block, log: []state.Execution{{VMState: vm.FaultState, FaultException: fault}}},
			false, slices.Concat(onChain, []string{"Success:\t\tfalse"})},
		{"three executions verbose", &txExecutions{block: block, log: []state.Execution{{VMState: vm.HaltState},
			{VMState: vm.FaultState, FaultException: fault}, {VMState: vm.FaultState, FaultException: "second\tfault"}}},
			true, slices.Concat(onChain, []string{"Success:\t\tunknown (no execution data)"}, faultTxDetails,
				[]string{"Exception:\t\t" + fault, "Exception:\t\tsecond\t\tfault"})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			require.NoError(t, writeTxState(&out, tx, tc.execs, tc.verbose))
			require.Equal(t, strings.Join(tc.want, "\n")+"\n", out.String())
		})
	}
}

// TestScopeName: neo-go's query prints a scope combination as a number.
func TestScopeName(t *testing.T) {
	require.Equal(t, "None", scopeName(transaction.None))
	require.Equal(t, "CalledByEntry", scopeName(transaction.CalledByEntry))
	require.Equal(t, "WitnessRules", scopeName(transaction.WitnessRules))
	require.Equal(t, "Global", scopeName(transaction.Global))
	require.Equal(t, "WitnessScope(17)", scopeName(transaction.CalledByEntry|transaction.CustomContracts))
}
