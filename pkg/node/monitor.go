package node

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/zap"
)

// monitorShutdownTimeout bounds the wait for running monitoring requests.
const monitorShutdownTimeout = 5 * time.Second

// startMonitoring starts the Prometheus metrics listeners (/metrics on
// every path, as neo-go) and the pprof listeners (/debug/pprof/) when their
// sections enable them. Addresses are bound at once, so a busy port fails
// the start. The returned stop shuts them down.
func (n *Node) startMonitoring(ctx context.Context) (stop func() error, addrs []net.Addr, err error) {
	a := n.cfg.ApplicationConfiguration
	var servers []*monitorServer
	closeAll := func() {
		for _, s := range servers {
			_ = s.ln.Close() // never served: nothing else to release
		}
	}
	add := func(svc config.BasicService, name string, h http.Handler) error {
		if !svc.Enabled {
			return nil
		}
		for _, addr := range svc.Addresses {
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return fmt.Errorf("%s: listen %s: %w", name, addr, err)
			}
			servers = append(servers, &monitorServer{name: name, ln: ln,
				srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}})
		}
		return nil
	}
	promHandler := promhttp.HandlerFor(n.gatherer, promhttp.HandlerOpts{})
	if err := add(a.Prometheus, "prometheus", promHandler); err != nil {
		closeAll()
		return nil, nil, err
	}
	if err := add(a.Pprof.BasicService, "pprof", pprofHandler()); err != nil {
		closeAll()
		return nil, nil, err
	}
	if a.Pprof.Enabled {
		if a.Pprof.EnableBlock {
			runtime.SetBlockProfileRate(1)
		}
		if a.Pprof.EnableMutex {
			runtime.SetMutexProfileFraction(1)
		}
	}
	g := newGroup(ctx, n.log.Named("monitor"))
	for _, s := range servers {
		addrs = append(addrs, s.ln.Addr())
		n.log.Info("monitoring listening", zap.String("service", s.name), zap.Stringer("address", s.ln.Addr()))
		g.goRun(s.serve)
	}
	return g.stop, addrs, nil
}

// pprofHandler serves the runtime profiles under /debug/pprof/.
func pprofHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// monitorServer is one bound monitoring listener.
type monitorServer struct {
	name string
	ln   net.Listener
	srv  *http.Server
}

// serve serves until ctx ends, then shuts the server down.
func (s *monitorServer) serve(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- s.srv.Serve(s.ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("%s: %w", s.name, err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), monitorShutdownTimeout)
	defer cancel()
	err := s.srv.Shutdown(sctx)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}
