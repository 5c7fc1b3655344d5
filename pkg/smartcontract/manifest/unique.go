package manifest

// firstDuplicate returns the first element of vals whose key was already
// seen. Small lists are scanned; longer ones use a set so that a manifest
// of many entries cannot make the check quadratic.
func firstDuplicate[T any, K comparable](vals []T, key func(T) K) (T, bool) {
	const scanLimit = 16
	if len(vals) <= scanLimit {
		for i := 1; i < len(vals); i++ {
			ki := key(vals[i])
			for j := range i {
				if key(vals[j]) == ki {
					return vals[i], true
				}
			}
		}
		var zero T
		return zero, false
	}
	seen := make(map[K]struct{}, len(vals))
	for _, v := range vals {
		k := key(v)
		if _, ok := seen[k]; ok {
			return v, true
		}
		seen[k] = struct{}{}
	}
	var zero T
	return zero, false
}
