// Package promutil holds the Prometheus helpers shared by the services
// that export metrics (mempool, RPC server). A service builds its
// collectors, passes each through Register with the Registerer from its
// Config, and keeps whatever collector Register returns.
package promutil

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// Register registers c with reg. When a collector with the same
// description is already registered (several pools or servers in one
// process), that collector is returned instead, provided it has c's type.
// Other failures are returned unwrapped, with c.
func Register[C prometheus.Collector](reg prometheus.Registerer, c C) (C, error) {
	err := reg.Register(c)
	if err == nil {
		return c, nil
	}
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		if old, ok := are.ExistingCollector.(C); ok {
			return old, nil
		}
	}
	return c, err
}
