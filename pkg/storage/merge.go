package storage

// mergeSeek runs lower.Seek(rng) and merges its stream with upper, the
// sorted (in seek order) changes of the layers above it: an upper entry
// replaces the lower key it equals, a deletion hides it. fn sees keys in
// seek order. Keys coming from upper are copied into a scratch buffer, so
// fn cannot alter the maps they come from.
func mergeSeek(lower Store, rng SeekRange, upper []entry, fn func(k, v []byte) bool) error {
	if len(upper) == 0 {
		return lower.Seek(rng, fn)
	}
	var (
		i       int
		kbuf    []byte
		stopped bool
	)
	emit := func(e entry) bool {
		if e.del {
			return true
		}
		kbuf = append(kbuf[:0], e.key...)
		return fn(kbuf, e.val)
	}
	err := lower.Seek(rng, func(k, v []byte) bool {
		for ; i < len(upper); i++ {
			c := compareKey(upper[i].key, k, rng.Backwards)
			if c > 0 {
				break
			}
			e := upper[i]
			if c == 0 {
				i++
				if !emit(e) {
					stopped = true
					return false
				}
				return true
			}
			if !emit(e) {
				stopped = true
				return false
			}
		}
		if !fn(k, v) {
			stopped = true
			return false
		}
		return true
	})
	if err != nil || stopped {
		return err
	}
	for ; i < len(upper); i++ {
		if !emit(upper[i]) {
			return nil
		}
	}
	return nil
}

// compareKey compares u with k in seek order: negative if u comes first.
func compareKey(u string, k []byte, backwards bool) int {
	var c int
	switch {
	case u == string(k):
		return 0
	case u < string(k):
		c = -1
	default:
		c = 1
	}
	if backwards {
		return -c
	}
	return c
}
