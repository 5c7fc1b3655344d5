package node

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"go.uber.org/zap"
)

// stage is a started service and the function that stops it (cancels its
// goroutines and waits for them).
type stage struct {
	name string
	stop func() error
}

// stages stops the started services in the reverse order of their start.
type stages struct {
	log  *zap.Logger
	list []stage
}

func (s *stages) add(name string, stop func() error) {
	s.list = append(s.list, stage{name: name, stop: stop})
}

// stopAll stops every stage, last started first, and joins their errors.
func (s *stages) stopAll() error {
	var errs []error
	for i := len(s.list) - 1; i >= 0; i-- {
		st := s.list[i]
		if err := st.stop(); err != nil {
			s.log.Error("service stopped with an error", zap.String("service", st.name), zap.Error(err))
			errs = append(errs, fmt.Errorf("%s: %w", st.name, err))
			continue
		}
		s.log.Info("service stopped", zap.String("service", st.name))
	}
	s.list = nil
	return errors.Join(errs...)
}

// group runs a stage's goroutines under one cancellable context.
type group struct {
	ctx    context.Context
	cancel context.CancelFunc
	log    *zap.Logger
	wg     sync.WaitGroup
	mu     sync.Mutex
	err    error // the first goroutine failure
}

func newGroup(parent context.Context, log *zap.Logger) *group {
	ctx, cancel := context.WithCancel(parent)
	return &group{ctx: ctx, cancel: cancel, log: log}
}

// goRun runs f; an error other than a cancellation is logged at once and
// kept for stop.
func (g *group) goRun(f func(ctx context.Context) error) {
	g.wg.Go(func() {
		if err := f(g.ctx); err != nil && !errors.Is(err, context.Canceled) {
			g.log.Error("service goroutine failed", zap.Error(err))
			g.mu.Lock()
			if g.err == nil {
				g.err = err
			}
			g.mu.Unlock()
		}
	})
}

// stop cancels the goroutines, waits for them and returns the first
// failure.
func (g *group) stop() error {
	g.cancel()
	g.wg.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.err
}
