package vm

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// The strict NeoVM vector runner: it applies the comparison rules of the
// reference C# runner as documented in conformance/neovm/FORMAT.md.

type vecFile struct {
	Category string    `json:"category"`
	Name     string    `json:"name"`
	Tests    []vecCase `json:"tests"`
}

type vecCase struct {
	Name   string          `json:"name"`
	Script json.RawMessage `json:"script"`
	Steps  []vecStep       `json:"steps"`
}

type vecStep struct {
	Name    string    `json:"name"`
	Actions []string  `json:"actions"`
	Result  vecResult `json:"result"`
}

type vecResult struct {
	State            string            `json:"state"`
	ExceptionMessage *string           `json:"exceptionMessage"`
	InvocationStack  []vecContext      `json:"invocationStack"`
	ResultStack      []json.RawMessage `json:"resultStack"`
	HasResultStack   bool              `json:"-"`
	Refs             *int              `json:"refs"`
}

type vecContext struct {
	InstructionPointer int               `json:"instructionPointer"`
	NextInstruction    string            `json:"nextInstruction"`
	EvaluationStack    []json.RawMessage `json:"evaluationStack"`
	HasEvalStack       bool              `json:"-"`
	StaticFields       []json.RawMessage `json:"staticFields"`
	Arguments          []json.RawMessage `json:"arguments"`
	LocalVariables     []json.RawMessage `json:"localVariables"`
}

func TestNeoVMVectors(t *testing.T) {
	root := conformance.Dir(t, "neovm")
	var files []string
	require.NoError(t, filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	}))
	sort.Strings(files)
	var passed, failed, skipped int
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
		var vf vecFile
		require.NoError(t, json.Unmarshal(raw, &vf), f)
		require.NotEmpty(t, vf.Name, f)
		markPresence(t, raw, &vf)
		for _, tc := range vf.Tests {
			if err := runVector(tc); err != nil {
				failed++
				t.Errorf("%s/%s: %s: %v", vf.Category, vf.Name, tc.Name, err)
				continue
			}
			passed++
		}
	}
	fmt.Printf("neovm vectors: %d passed, %d failed, %d skipped\n", passed, failed, skipped)
	require.Zero(t, failed)
	require.NotZero(t, passed)
}

// markPresence records which optional arrays were present (a missing
// resultStack is not compared, a missing evaluationStack neither).
func markPresence(t *testing.T, raw []byte, vf *vecFile) {
	var generic struct {
		Tests []struct {
			Steps []struct {
				Result map[string]json.RawMessage `json:"result"`
			} `json:"steps"`
		} `json:"tests"`
	}
	require.NoError(t, json.Unmarshal(raw, &generic))
	for i, tc := range generic.Tests {
		for j, st := range tc.Steps {
			r := &vf.Tests[i].Steps[j].Result
			r.HasResultStack = hasKeyFold(st.Result, "resultStack")
			var ctxs []map[string]json.RawMessage
			for k, v := range st.Result {
				if strings.EqualFold(k, "invocationStack") {
					require.NoError(t, json.Unmarshal(v, &ctxs))
				}
			}
			for k, c := range ctxs {
				r.InvocationStack[k].HasEvalStack = hasKeyFold(c, "evaluationStack")
			}
		}
	}
}

func hasKeyFold(m map[string]json.RawMessage, key string) bool {
	for k := range m {
		if strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}

func parseScript(raw json.RawMessage) ([]byte, error) {
	var tokens []string
	if err := json.Unmarshal(raw, &tokens); err != nil {
		var s string
		if err2 := json.Unmarshal(raw, &s); err2 != nil {
			return nil, err
		}
		tokens = []string{s}
	}
	var out []byte
	for _, tok := range tokens {
		if op, err := opcode.FromString(tok); err == nil {
			out = append(out, byte(op))
			continue
		}
		if !strings.HasPrefix(tok, "0x") && !strings.HasPrefix(tok, "0X") {
			return nil, fmt.Errorf("bad script token %q", tok)
		}
		b, err := hex.DecodeString(tok[2:])
		if err != nil {
			return nil, fmt.Errorf("bad script token %q: %w", tok, err)
		}
		out = append(out, b...)
	}
	return out, nil
}

// testSyscalls are the syscalls of the reference test engine.
func testSyscalls(v *VM, id uint32) error {
	switch id {
	case 0x77777777:
		v.Estack().Push(stackitem.NewInterop(new(struct{ x int })))
		return nil
	case 0xaddeadde:
		return v.Throw(stackitem.ByteString("error"))
	}
	return fmt.Errorf("unknown syscall 0x%08x", id)
}

func runVector(tc vecCase) error {
	script, err := parseScript(tc.Script)
	if err != nil {
		return err
	}
	v := New()
	v.SyscallHandler = testSyscalls
	if len(script) > 0 {
		if _, err := v.LoadScript(script); err != nil {
			return err
		}
	}
	for i, st := range tc.Steps {
		for _, a := range st.Actions {
			switch strings.ToLower(a) {
			case "execute":
				_ = v.Run() // the state is what the vectors check
			case "stepinto":
				v.StepInto()
			case "stepout":
				v.StepOut()
			case "stepover":
				v.StepOver()
			default:
				return fmt.Errorf("step %d: unknown action %q", i, a)
			}
		}
		if err := checkResult(v, st.Result); err != nil {
			return fmt.Errorf("step %d (%s): %w", i, st.Name, err)
		}
	}
	return nil
}

func checkResult(v *VM, r vecResult) error {
	if !strings.EqualFold(v.State().String(), r.State) {
		return fmt.Errorf("state %s, expected %s (fault: %v)", v.State(), r.State, v.FaultException())
	}
	if v.State() == FaultState {
		if r.ExceptionMessage != nil {
			got := ""
			if v.FaultException() != nil {
				got = v.FaultException().Error()
			}
			if !strings.HasSuffix(got, ": "+*r.ExceptionMessage) {
				return fmt.Errorf("exception %q, expected %q", got, *r.ExceptionMessage)
			}
		}
		return nil
	}
	if r.Refs != nil && *r.Refs != v.References() {
		return fmt.Errorf("refs %d, expected %d", v.References(), *r.Refs)
	}
	ctxs := v.InvocationStack()
	if len(ctxs) != len(r.InvocationStack) {
		return fmt.Errorf("invocation depth %d, expected %d", len(ctxs), len(r.InvocationStack))
	}
	for i, exp := range r.InvocationStack {
		if err := checkContext(ctxs[i], exp); err != nil {
			return fmt.Errorf("context %d: %w", i, err)
		}
	}
	if r.HasResultStack {
		if err := compareList(reverse(v.ResultStack().Items()), r.ResultStack); err != nil {
			return fmt.Errorf("result stack: %w", err)
		}
	}
	return nil
}

func reverse(items []stackitem.Item) []stackitem.Item {
	for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
		items[i], items[j] = items[j], items[i]
	}
	return items
}

func checkContext(c *Context, exp vecContext) error {
	if c.IP() != exp.InstructionPointer {
		return fmt.Errorf("ip %d, expected %d", c.IP(), exp.InstructionPointer)
	}
	if c.NextOpcode().String() != exp.NextInstruction {
		return fmt.Errorf("next instruction %s, expected %s", c.NextOpcode(), exp.NextInstruction)
	}
	if exp.HasEvalStack {
		if err := compareList(reverse(c.Estack().Items()), exp.EvaluationStack); err != nil {
			return fmt.Errorf("evaluation stack: %w", err)
		}
	}
	for _, s := range []struct {
		name string
		got  []stackitem.Item
		exp  []json.RawMessage
	}{
		{"static fields", c.StaticFields(), exp.StaticFields},
		{"arguments", c.Arguments(), exp.Arguments},
		{"local variables", c.Locals(), exp.LocalVariables},
	} {
		if err := compareList(s.got, s.exp); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	return nil
}

func compareList(got []stackitem.Item, exp []json.RawMessage) error {
	if len(got) != len(exp) {
		return fmt.Errorf("%d items, expected %d", len(got), len(exp))
	}
	for i := range got {
		e, err := canonExpected(exp[i])
		if err != nil {
			return err
		}
		if a := canonActual(got[i]); a != e {
			return fmt.Errorf("item %d: %s, expected %s", i, a, e)
		}
	}
	return nil
}

// canonActual renders an item in the canonical form both sides are
// compared in (type, exact value, recursively).
func canonActual(it stackitem.Item) string {
	switch x := it.(type) {
	case stackitem.Null:
		return "null"
	case stackitem.Bool:
		return fmt.Sprintf("bool(%t)", bool(x))
	case *stackitem.Integer:
		return "int(" + x.String() + ")"
	case stackitem.ByteString:
		return "bytes(" + hex.EncodeToString(x) + ")"
	case *stackitem.Buffer:
		b, _ := x.Bytes()
		return "buffer(" + hex.EncodeToString(b) + ")"
	case *stackitem.Pointer:
		return fmt.Sprintf("pointer(%d)", x.Position())
	case *stackitem.Interop:
		return "interop"
	case *stackitem.Array:
		parts := make([]string, x.Len())
		for i, s := range x.Items() {
			parts[i] = canonActual(s)
		}
		return strings.ToLower(x.Type().String()) + "[" + strings.Join(parts, ",") + "]"
	case *stackitem.Map:
		parts := make([]string, x.Len())
		for i, e := range x.Elements() {
			kb, _ := e.Key.Bytes() // keys are primitive
			parts[i] = hex.EncodeToString(kb) + ":" + canonActual(e.Value)
		}
		return "map{" + strings.Join(parts, ",") + "}"
	}
	return "unknown"
}

func canonExpected(raw json.RawMessage) (string, error) {
	var it struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(raw, &it); err != nil {
		return "", err
	}
	switch strings.ToLower(it.Type) {
	case "null":
		return "null", nil
	case "boolean":
		var b bool
		err := json.Unmarshal(it.Value, &b)
		return fmt.Sprintf("bool(%t)", b), err
	case "integer":
		s := strings.Trim(string(it.Value), "\"")
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return "", fmt.Errorf("bad integer %s", it.Value)
		}
		return "int(" + n.String() + ")", nil
	case "bytestring", "buffer":
		b, err := hexValue(it.Value)
		name := map[bool]string{true: "bytes", false: "buffer"}[strings.EqualFold(it.Type, "bytestring")]
		return name + "(" + hex.EncodeToString(b) + ")", err
	case "string":
		var s string
		err := json.Unmarshal(it.Value, &s)
		return "bytes(" + hex.EncodeToString([]byte(s)) + ")", err
	case "pointer":
		var p int
		err := json.Unmarshal(it.Value, &p)
		return fmt.Sprintf("pointer(%d)", p), err
	case "interop":
		return "interop", nil
	case "array", "struct":
		var elems []json.RawMessage
		if err := json.Unmarshal(it.Value, &elems); err != nil {
			return "", err
		}
		parts := make([]string, len(elems))
		for i, e := range elems {
			s, err := canonExpected(e)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return strings.ToLower(it.Type) + "[" + strings.Join(parts, ",") + "]", nil
	case "map":
		return canonExpectedMap(it.Value)
	}
	return "", fmt.Errorf("unknown item type %q", it.Type)
}

func hexValue(raw json.RawMessage) ([]byte, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	if s == "" {
		return nil, nil
	}
	if !strings.HasPrefix(s, "0x") && !strings.HasPrefix(s, "0X") {
		return nil, fmt.Errorf("hex value %q without 0x", s)
	}
	return hex.DecodeString(s[2:])
}

// canonExpectedMap keeps the JSON object's key order.
func canonExpectedMap(raw json.RawMessage) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return "", err
	}
	var parts []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", err
		}
		key, _ := tok.(string)
		kb, err := hexValue(json.RawMessage(fmt.Sprintf("%q", key)))
		if err != nil {
			return "", err
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return "", err
		}
		s, err := canonExpected(val)
		if err != nil {
			return "", err
		}
		parts = append(parts, hex.EncodeToString(kb)+":"+s)
	}
	return "map{" + strings.Join(parts, ",") + "}", nil
}
