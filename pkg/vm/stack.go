package vm

import (
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/encoding/bigint"

	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// elem is one stack or slot entry. Integers that fit in int64 live inline
// (it == nil) so that arithmetic and stack shuffles do not allocate.
type elem struct {
	it stackitem.Item
	n  int64
}

func itemElem(it stackitem.Item) elem {
	if i, ok := it.(*stackitem.Integer); ok {
		if n, ok := i.Int64(); ok {
			return elem{n: n}
		}
	}
	return elem{it: it}
}

func (e elem) item() stackitem.Item {
	if e.it == nil {
		return stackitem.NewInt(e.n)
	}
	return e.it
}

// Stack is an evaluation stack. Every change keeps the VM's reference
// counter in step, as the reference EvaluationStack does.
type Stack struct {
	e  []elem
	rc *stackitem.RefCounter
}

func newStack(rc *stackitem.RefCounter) *Stack {
	return &Stack{e: make([]elem, 0, 16), rc: rc}
}

func (s *Stack) addRef(e elem) {
	if e.it == nil {
		s.rc.Inc(1)
		return
	}
	s.rc.Add(e.it, 1)
}

func (s *Stack) removeRef(e elem) {
	if e.it == nil {
		s.rc.Inc(-1)
		return
	}
	s.rc.Remove(e.it)
}

// Len is the number of items.
func (s *Stack) Len() int { return len(s.e) }

func (s *Stack) push(e elem) {
	s.e = append(s.e, e)
	s.addRef(e)
}

// pushCounted appends without touching compound reference counts, adding
// n to the global count (reference PushItemCounted).
func (s *Stack) pushCounted(e elem, n int) {
	s.e = append(s.e, e)
	s.rc.Inc(n)
}

func (s *Stack) pushInt(n int64) {
	s.e = append(s.e, elem{n: n})
	s.rc.Inc(1)
}

func (s *Stack) pushBool(b bool) {
	s.e = append(s.e, elem{it: stackitem.Bool(b)})
	s.rc.Inc(1)
}

// Push puts it on top of the stack.
func (s *Stack) Push(it stackitem.Item) { s.push(itemElem(it)) }

// PushInt pushes an Integer.
func (s *Stack) PushInt(n int64) { s.pushInt(n) }

// PushBool pushes a Boolean.
func (s *Stack) PushBool(b bool) { s.pushBool(b) }

func (s *Stack) peekElem(i int) (elem, error) {
	if i < 0 {
		i += len(s.e)
		if i < 0 {
			return elem{}, fmt.Errorf("%w: peek %d/%d", ErrStackUnderflow, i, len(s.e))
		}
	}
	if i >= len(s.e) {
		return elem{}, fmt.Errorf("%w: peek %d/%d", ErrStackUnderflow, i, len(s.e))
	}
	return s.e[len(s.e)-1-i], nil
}

// Peek returns the item i positions below the top (0 is the top).
func (s *Stack) Peek(i int) (stackitem.Item, error) {
	e, err := s.peekElem(i)
	if err != nil {
		return nil, err
	}
	return e.item(), nil
}

func (s *Stack) removeNoRef(i int) (elem, error) {
	if i < 0 {
		i += len(s.e)
	}
	if i < 0 || i >= len(s.e) {
		return elem{}, fmt.Errorf("%w: remove %d/%d", ErrStackUnderflow, i, len(s.e))
	}
	idx := len(s.e) - 1 - i
	e := s.e[idx]
	if i == 0 {
		s.e[idx] = elem{}
		s.e = s.e[:idx]
		return e, nil
	}
	copy(s.e[idx:], s.e[idx+1:])
	s.e[len(s.e)-1] = elem{}
	s.e = s.e[:len(s.e)-1]
	return e, nil
}

func (s *Stack) remove(i int) (elem, error) {
	e, err := s.removeNoRef(i)
	if err == nil {
		s.removeRef(e)
	}
	return e, err
}

// Pop removes and returns the top item.
func (s *Stack) Pop() (stackitem.Item, error) {
	e, err := s.remove(0)
	if err != nil {
		return nil, err
	}
	return e.item(), nil
}

// PopBigInt pops the top item as an integer.
func (s *Stack) PopBigInt() (*big.Int, error) {
	e, err := s.remove(0)
	if err != nil {
		return nil, err
	}
	if e.it == nil {
		return big.NewInt(e.n), nil
	}
	return e.it.BigInt()
}

// PopBytes pops the top item as bytes (an integer in its minimal
// little-endian two's complement form); Null and compound items are an
// error wrapping stackitem.ErrInvalidCast.
func (s *Stack) PopBytes() ([]byte, error) {
	e, err := s.remove(0)
	if err != nil {
		return nil, err
	}
	if e.it == nil {
		return bigint.Int64ToBytes(e.n, nil), nil
	}
	return e.it.Bytes()
}

// PopBool pops the top item as a boolean.
func (s *Stack) PopBool() (bool, error) {
	e, err := s.remove(0)
	if err != nil {
		return false, err
	}
	if e.it == nil {
		return e.n != 0, nil
	}
	return e.it.Bool()
}

// Items returns the items bottom first (a copy).
func (s *Stack) Items() []stackitem.Item {
	out := make([]stackitem.Item, len(s.e))
	for i, e := range s.e {
		out[i] = e.item()
	}
	return out
}

func (s *Stack) clear() {
	for _, e := range s.e {
		s.removeRef(e)
	}
	clear(s.e)
	s.e = s.e[:0]
}

func (s *Stack) insert(i int, e elem) error {
	if i > len(s.e) {
		return fmt.Errorf("%w: insert %d/%d", ErrStackUnderflow, i, len(s.e))
	}
	idx := len(s.e) - i
	s.e = append(s.e, elem{})
	copy(s.e[idx+1:], s.e[idx:])
	s.e[idx] = e
	s.addRef(e)
	return nil
}

func (s *Stack) reverse(n int) error {
	if n < 0 || n > len(s.e) {
		return fmt.Errorf("%w: reverse %d/%d", ErrStackUnderflow, n, len(s.e))
	}
	for i, j := len(s.e)-n, len(s.e)-1; i < j; i, j = i+1, j-1 {
		s.e[i], s.e[j] = s.e[j], s.e[i]
	}
	return nil
}

func (s *Stack) roll(n int) error {
	if n < 0 || n >= len(s.e) {
		return fmt.Errorf("%w: roll %d/%d", ErrStackUnderflow, n, len(s.e))
	}
	if n == 0 {
		return nil
	}
	idx := len(s.e) - 1 - n
	e := s.e[idx]
	copy(s.e[idx:], s.e[idx+1:])
	s.e[len(s.e)-1] = e
	return nil
}

// Slots (static fields, locals, arguments) are fixed-size []elem; nil
// means not initialised.

// fillNull sets every entry of s to Null and counts them.
func fillNull(s []elem, rc *stackitem.RefCounter) {
	for i := range s {
		s[i].it = stackitem.Null{}
	}
	rc.Inc(len(s))
}

// clearRefs releases the references of a slot's entries.
func clearRefs(s []elem, rc *stackitem.RefCounter) {
	for _, e := range s {
		if e.it == nil {
			rc.Inc(-1)
		} else {
			rc.Remove(e.it)
		}
	}
}
