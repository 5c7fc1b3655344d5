package jsonpath

import "strconv"

// Limits of the reference.
const (
	// MaxDepth is the number of levels a path may go down.
	MaxDepth = 6
	// MaxObjects is the number of values a step may select.
	MaxObjects = 1024
)

type tokenKind byte

const (
	tokInvalid tokenKind = iota
	tokRoot
	tokDot
	tokLBracket
	tokRBracket
	tokStar
	tokComma
	tokColon
	tokIdent
	tokString
	tokNumber
)

// walker holds a path being applied: the text, the read position and the
// levels left.
type walker struct {
	path  string
	pos   int
	depth int
}

// Get applies path to doc (a value of Parse) and returns the selected
// values (never nil) and true, or false for an invalid path or one that
// breaks a limit.
func Get(path string, doc any) ([]any, bool) {
	if path == "" {
		return []any{doc}, true
	}
	w := walker{path: path, depth: MaxDepth}
	if k, _ := w.next(); k != tokRoot {
		return nil, false
	}
	cur := []any{doc}
	for w.pos < len(w.path) {
		var ok bool
		switch k, _ := w.next(); k {
		case tokDot:
			cur, ok = w.dot(cur)
		case tokLBracket:
			cur, ok = w.bracket(cur)
		}
		if !ok || len(cur) > MaxObjects {
			return nil, false
		}
	}
	if cur == nil {
		cur = []any{}
	}
	return cur, true
}

// next reads one token; an invalid one leaves the position where it is.
func (w *walker) next() (tokenKind, string) {
	if w.pos >= len(w.path) {
		return tokInvalid, ""
	}
	start := w.pos
	c := w.path[start]
	kind := tokInvalid
	end := start + 1
	switch {
	case c == '$':
		kind = tokRoot
	case c == '.':
		kind = tokDot
	case c == '[':
		kind = tokLBracket
	case c == ']':
		kind = tokRBracket
	case c == '*':
		kind = tokStar
	case c == ',':
		kind = tokComma
	case c == ':':
		kind = tokColon
	case c == '\'':
		for end < len(w.path) && w.path[end] != '\'' {
			end++
		}
		if end == len(w.path) {
			return tokInvalid, ""
		}
		end++
		kind = tokString
	case isIdentStart(c):
		for end < len(w.path) && (isIdentStart(w.path[end]) || isDigit(w.path[end])) {
			end++
		}
		kind = tokIdent
	case c == '-' || isDigit(c):
		for end < len(w.path) && isDigit(w.path[end]) {
			end++
		}
		kind = tokNumber
	default:
		return tokInvalid, ""
	}
	w.pos = end
	return kind, w.path[start:end]
}

func isIdentStart(c byte) bool { return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
func isDigit(c byte) bool      { return '0' <= c && c <= '9' }

// level uses one level of depth.
func (w *walker) level() bool {
	if w.depth <= 0 {
		return false
	}
	w.depth--
	return true
}

// dot handles what follows a ".": "*", "." name or a name.
func (w *walker) dot(cur []any) ([]any, bool) {
	switch k, v := w.next(); k {
	case tokStar:
		return w.children(cur)
	case tokDot:
		return w.recursive(cur)
	case tokIdent:
		return w.fields(cur, true, v)
	}
	return nil, false
}

// children goes one level down: the elements of arrays and the values of
// objects, in order; scalars drop out.
func (w *walker) children(cur []any) ([]any, bool) {
	if !w.level() {
		return nil, false
	}
	var out []any
	for _, v := range cur {
		switch x := v.(type) {
		case []any:
			if len(out)+len(x) > MaxObjects {
				return nil, false
			}
			out = append(out, x...)
		case Object:
			if len(out)+len(x) > MaxObjects {
				return nil, false
			}
			for _, m := range x {
				out = append(out, m.Value)
			}
		}
	}
	return out, true
}

// recursive is "..name": the name's values at this level, then one level
// down, and so on while levels and values remain.
func (w *walker) recursive(cur []any) ([]any, bool) {
	k, name := w.next()
	if k != tokIdent {
		return nil, false
	}
	var out []any
	for len(cur) > 0 {
		found, _ := w.fields(cur, false, name)
		if len(out)+len(found) > MaxObjects {
			return nil, false
		}
		out = append(out, found...)
		cur, _ = w.children(cur)
	}
	return out, true
}

// fields selects, in each object of cur, the first member of each name.
func (w *walker) fields(cur []any, useLevel bool, names ...string) ([]any, bool) {
	if useLevel && !w.level() {
		return nil, false
	}
	var out []any
	for _, v := range cur {
		obj, ok := v.(Object)
		if !ok {
			continue
		}
		for _, name := range names {
			for _, m := range obj {
				if m.Key == name {
					if len(out)+1 > MaxObjects {
						return nil, false
					}
					out = append(out, m.Value)
					break
				}
			}
		}
	}
	return out, true
}

// indexes selects the elements at the indexes of each array of cur.
func (w *walker) indexes(cur []any, idx ...int) ([]any, bool) {
	if !w.level() {
		return nil, false
	}
	var out []any
	for _, v := range cur {
		arr, ok := v.([]any)
		if !ok {
			continue
		}
		for _, i := range idx {
			if i < 0 {
				i += len(arr)
			}
			if i >= 0 && i < len(arr) {
				if len(out)+1 > MaxObjects {
					return nil, false
				}
				out = append(out, arr[i])
			}
		}
	}
	return out, true
}

// bracket handles what follows a "[".
func (w *walker) bracket(cur []any) ([]any, bool) {
	k, v := w.next()
	switch k {
	case tokStar:
		if k, _ := w.next(); k != tokRBracket {
			return nil, false
		}
		return w.children(cur)
	case tokColon:
		return w.slice(cur, 0)
	case tokNumber:
		return w.afterNumber(cur, v)
	case tokString:
		switch k, _ := w.next(); k {
		case tokComma:
			return w.union(cur, tokString, v)
		case tokRBracket:
			name, ok := unquote(v)
			if !ok {
				return nil, false
			}
			return w.fields(cur, true, name)
		}
	}
	return nil, false
}

func (w *walker) afterNumber(cur []any, num string) ([]any, bool) {
	switch k, _ := w.next(); k {
	case tokColon:
		start, ok := parseIndex(num)
		if !ok {
			return nil, false
		}
		return w.slice(cur, start)
	case tokComma:
		return w.union(cur, tokNumber, num)
	case tokRBracket:
		i, ok := parseIndex(num)
		if !ok {
			return nil, false
		}
		return w.indexes(cur, i)
	}
	return nil, false
}

func parseIndex(s string) (int, bool) {
	n, err := strconv.ParseInt(s, 10, 32)
	return int(n), err == nil
}

// union reads the rest of a list of indexes or of names (all of kind, the
// first one read) up to "]" and selects them.
func (w *walker) union(cur []any, kind tokenKind, first string) ([]any, bool) {
	items := []string{first}
	for {
		k, v := w.next()
		if k != kind {
			return nil, false
		}
		items = append(items, v)
		k, _ = w.next()
		if k == tokRBracket {
			break
		}
		if k != tokComma {
			return nil, false
		}
	}
	if kind == tokNumber {
		idx := make([]int, len(items))
		for i, s := range items {
			n, ok := parseIndex(s)
			if !ok {
				return nil, false
			}
			idx[i] = n
		}
		return w.indexes(cur, idx...)
	}
	for i, s := range items {
		name, ok := unquote(s)
		if !ok {
			return nil, false
		}
		items[i] = name
	}
	return w.fields(cur, true, items...)
}

// slice reads the end of "[start:end]" and selects the ranges.
func (w *walker) slice(cur []any, start int) ([]any, bool) {
	end := 0
	switch k, v := w.next(); k {
	case tokNumber:
		if k, _ := w.next(); k != tokRBracket {
			return nil, false
		}
		n, ok := parseIndex(v)
		if !ok {
			return nil, false
		}
		end = n
	case tokRBracket:
	default:
		return nil, false
	}
	return w.ranges(cur, start, end)
}

// ranges selects arr[start:end] of each array (a negative start counts
// from the end, an end <= 0 too; the range is clipped to the array).
func (w *walker) ranges(cur []any, start, end int) ([]any, bool) {
	if !w.level() {
		return nil, false
	}
	var out []any
	for _, v := range cur {
		arr, ok := v.([]any)
		if !ok {
			continue
		}
		s, e := start, end
		if s < 0 {
			s = max(s+len(arr), 0)
		}
		if e <= 0 {
			e += len(arr)
		}
		e = min(e, len(arr))
		if e <= s {
			continue
		}
		if len(out)+e-s > MaxObjects {
			return nil, false
		}
		out = append(out, arr[s:e]...)
	}
	return out, true
}
