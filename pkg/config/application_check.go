package config

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mr-tron/base58"
)

// logLevels are the accepted LogLevel values.
var logLevels = []string{"debug", "info", "warn", "error", "dpanic", "panic", "fatal"}

// ApplyDefaults fills unset values. p is the already defaulted protocol
// configuration (some defaults derive from TimePerBlock).
func (a *ApplicationConfiguration) ApplyDefaults(p *ProtocolConfiguration) {
	if a.LogLevel == "" {
		a.LogLevel = DefaultLogLevel
	}
	if a.LogEncoding == "" {
		a.LogEncoding = DefaultLogEncoding
	}
	if a.RemoveUntraceableBlocks && a.GarbageCollectionPeriod == 0 {
		a.GarbageCollectionPeriod = DefaultGarbageCollectionPeriod
	}
	a.P2P.applyDefaults()
	a.RPC.applyDefaults(p.TimePerBlock)
	setIfZero(&a.Memory.HeapPercent, DefaultMemoryHeapPercent)
	a.Oracle.applyDefaults()
	a.NeoFSBlockFetcher.applyDefaults()
	a.NeoFSStateFetcher.applyDefaults()
}

func setIfZero[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}

func (p *P2P) applyDefaults() {
	setIfZero(&p.PingInterval, DefaultPingInterval)
	setIfZero(&p.PingTimeout, DefaultPingTimeout)
	setIfZero(&p.MaxPeers, DefaultMaxPeers)
	setIfZero(&p.AttemptConnPeers, DefaultAttemptConnPeers)
	setIfZero(&p.ExtensiblePoolSize, DefaultExtensiblePoolSize)
}

func (r *RPC) applyDefaults(timePerBlock time.Duration) {
	if r.SessionEnabled {
		setIfZero(&r.SessionLifetime, max(timePerBlock, minSessionLifetime))
		setIfZero(&r.SessionPoolSize, DefaultSessionPoolSize)
	}
	setIfZero(&r.MaxIteratorResultItems, DefaultMaxIteratorResultItems)
	setIfZero(&r.MaxFindResultItems, DefaultMaxFindResultItems)
	setIfZero(&r.MaxFindStorageResultItems, DefaultMaxFindStorageResultItems)
	setIfZero(&r.MaxNEP11Tokens, DefaultMaxNEP11Tokens)
	setIfZero(&r.MaxRequestBodyBytes, DefaultMaxRequestBodyBytes)
	setIfZero(&r.MaxRequestHeaderBytes, DefaultMaxRequestHeaderBytes)
	setIfZero(&r.MaxWebSocketClients, DefaultMaxWebSocketClients)
	setIfZero(&r.MaxWebSocketFeeds, DefaultMaxWebSocketFeeds)
}

func (o *OracleConfiguration) applyDefaults() {
	setIfZero(&o.RequestTimeout, DefaultOracleRequestTimeout)
	setIfZero(&o.NeoFS.Timeout, DefaultOracleRequestTimeout)
	setIfZero(&o.MaxConcurrentRequests, DefaultOracleMaxConcurrent)
	setIfZero(&o.MaxTaskTimeout, DefaultOracleMaxTaskTimeout)
	setIfZero(&o.RefreshInterval, DefaultOracleRefreshInterval)
}

func (f *NeoFSBlockFetcher) applyDefaults() {
	setIfZero(&f.Timeout, DefaultNeoFSTimeout)
	setIfZero(&f.DownloaderWorkersCount, DefaultNeoFSDownloaderWorkers)
	setIfZero(&f.BQueueSize, DefaultNeoFSBQueueSize)
	setIfZero(&f.OIDBatchSize, f.BQueueSize/2)
	setIfZero(&f.BlockAttribute, DefaultNeoFSBlockAttribute)
}

func (f *NeoFSStateFetcher) applyDefaults() {
	setIfZero(&f.Timeout, DefaultNeoFSTimeout)
	setIfZero(&f.StateAttribute, DefaultNeoFSStateAttribute)
	setIfZero(&f.KeyValueBatchSize, DefaultNeoFSKeyValueBatchSize)
}

// Validate checks the application configuration for consistency.
func (a *ApplicationConfiguration) Validate() error {
	checks := []func() error{
		a.validateLogger,
		a.validateDB,
		a.validateLedger,
		a.P2P.validate,
		a.validateServices,
		a.validateListeners,
		a.Memory.validate,
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func (a *ApplicationConfiguration) validateLogger() error {
	if a.LogEncoding != "" && a.LogEncoding != "console" && a.LogEncoding != "json" {
		return fmt.Errorf("%w: LogEncoding %q, want console or json", ErrLogging, a.LogEncoding)
	}
	if a.LogLevel != "" && !slices.Contains(logLevels, strings.ToLower(a.LogLevel)) {
		return fmt.Errorf("%w: LogLevel %q, want one of %v", ErrLogging, a.LogLevel, logLevels)
	}
	return nil
}

func (a *ApplicationConfiguration) validateDB() error {
	db := a.DBConfiguration
	switch db.Type {
	case DBLevelDB:
		if db.LevelDBOptions.DataDirectoryPath == "" {
			return fmt.Errorf("%w: leveldb needs LevelDBOptions.DataDirectoryPath", ErrDBType)
		}
	case DBBoltDB:
		if db.BoltDBOptions.FilePath == "" {
			return fmt.Errorf("%w: boltdb needs BoltDBOptions.FilePath", ErrDBType)
		}
	case DBInMemory:
	default:
		return fmt.Errorf("%w: DBConfiguration.Type %q, want %s, %s or %s",
			ErrDBType, db.Type, DBLevelDB, DBBoltDB, DBInMemory)
	}
	if a.MempoolPersistence.MaxTransactions < 0 {
		return fmt.Errorf("%w: MempoolPersistence.MaxTransactions %d is negative", ErrDBType,
			a.MempoolPersistence.MaxTransactions)
	}
	return nil
}

func (a *ApplicationConfiguration) validateLedger() error {
	if a.TrustedHeader.Index != 0 && !a.RemoveUntraceableBlocks {
		return fmt.Errorf("%w: TrustedHeader needs RemoveUntraceableBlocks", ErrInvalid)
	}
	return nil
}

func (p *P2P) validate() error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"P2P.BroadcastTxsBatchDelay", p.BroadcastTxsBatchDelay},
		{"P2P.DialTimeout", p.DialTimeout},
		{"P2P.PingInterval", p.PingInterval},
		{"P2P.PingTimeout", p.PingTimeout},
		{"P2P.ProtoTickInterval", p.ProtoTickInterval},
	} {
		if d.v < 0 {
			return fmt.Errorf("%w: %s is negative (%s)", ErrDuration, d.name, d.v)
		}
	}
	if p.BroadcastFactor < 0 || p.BroadcastFactor > 100 {
		return fmt.Errorf("%w: P2P.BroadcastFactor %d, want 0..100", ErrInvalid, p.BroadcastFactor)
	}
	if p.MinPeers < 0 || p.MaxPeers < 0 || p.AttemptConnPeers < 0 || p.ExtensiblePoolSize < 0 {
		return fmt.Errorf("%w: P2P peer counts and ExtensiblePoolSize must not be negative", ErrInvalid)
	}
	if p.MinPeers > p.MaxPeers {
		return fmt.Errorf("%w: P2P.MinPeers %d exceeds MaxPeers %d", ErrInvalid, p.MinPeers, p.MaxPeers)
	}
	_, err := p.ListenAddresses()
	return err
}

func (a *ApplicationConfiguration) validateServices() error {
	wallets := []struct {
		name string
		svc  InternalService
	}{
		{"Consensus", a.Consensus},
		{"P2PNotary", a.P2PNotary},
		{"StateRoot", a.StateRoot},
		{"Oracle", InternalService{Enabled: a.Oracle.Enabled, UnlockWallet: a.Oracle.UnlockWallet}},
	}
	for _, w := range wallets {
		if w.svc.Enabled && w.svc.UnlockWallet.Path == "" {
			return fmt.Errorf("%w: %s is enabled but UnlockWallet.Path is empty", ErrInvalid, w.name)
		}
	}
	if a.RPC.SessionExpansionEnabled && !a.RPC.SessionEnabled {
		return fmt.Errorf("%w: RPC.SessionExpansionEnabled needs RPC.SessionEnabled", ErrInvalid)
	}
	if tls := a.RPC.TLSConfig; tls.Enabled && (tls.CertFile == "" || tls.KeyFile == "") {
		return fmt.Errorf("%w: RPC.TLSConfig is enabled but CertFile or KeyFile is empty", ErrInvalid)
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"RPC.SessionLifetime", a.RPC.SessionLifetime},
		{"Oracle.MaxTaskTimeout", a.Oracle.MaxTaskTimeout},
		{"Oracle.RefreshInterval", a.Oracle.RefreshInterval},
		{"Oracle.RequestTimeout", a.Oracle.RequestTimeout},
		{"Oracle.ResponseTimeout", a.Oracle.ResponseTimeout},
		{"Oracle.NeoFS.Timeout", a.Oracle.NeoFS.Timeout},
	} {
		if d.v < 0 {
			return fmt.Errorf("%w: %s is negative (%s)", ErrDuration, d.name, d.v)
		}
	}
	if err := a.NeoFSBlockFetcher.NeoFSService.validate("NeoFSBlockFetcher"); err != nil {
		return err
	}
	if f := a.NeoFSBlockFetcher; f.BQueueSize > 0 && f.BQueueSize < f.OIDBatchSize {
		return fmt.Errorf("%w: NeoFSBlockFetcher.BQueueSize %d is below OIDBatchSize %d",
			ErrInvalid, f.BQueueSize, f.OIDBatchSize)
	}
	return a.NeoFSStateFetcher.NeoFSService.validate("NeoFSStateFetcher")
}

func (s *NeoFSService) validate(name string) error {
	if !s.Enabled {
		return nil
	}
	if s.ContainerID == "" {
		return fmt.Errorf("%w: %s.ContainerID is empty", ErrInvalid, name)
	}
	if b, err := base58.Decode(s.ContainerID); err != nil || len(b) != 32 {
		return fmt.Errorf("%w: %s.ContainerID %q is not a base58 32-byte container ID", ErrInvalid, name, s.ContainerID)
	}
	if len(s.Addresses) == 0 {
		return fmt.Errorf("%w: %s.Addresses is empty", ErrInvalid, name)
	}
	if s.Timeout < 0 {
		return fmt.Errorf("%w: %s.Timeout is negative", ErrDuration, name)
	}
	return nil
}

// validateListeners rejects a host:port used twice by the enabled services
// (port 0, "any free port", may repeat).
func (a *ApplicationConfiguration) validateListeners() error {
	type listener struct{ owner, addr string }
	var all []listener
	p2p, err := a.P2P.ListenAddresses()
	if err != nil {
		return err
	}
	for _, l := range p2p {
		all = append(all, listener{"P2P", l.Address})
	}
	add := func(owner string, svc BasicService) {
		if svc.Enabled {
			for _, addr := range svc.Addresses {
				all = append(all, listener{owner, addr})
			}
		}
	}
	add("RPC", a.RPC.BasicService)
	if a.RPC.Enabled {
		add("RPC.TLSConfig", a.RPC.TLSConfig.BasicService)
	}
	add("Prometheus", a.Prometheus)
	add("Pprof", a.Pprof.BasicService)
	type bound struct{ host, owner string }
	byPort := make(map[string][]bound, len(all))
	for _, l := range all {
		host, port, err := net.SplitHostPort(l.addr)
		if err != nil {
			return fmt.Errorf("%w: %s address %q: %w", ErrAddress, l.owner, l.addr, err)
		}
		if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return fmt.Errorf("%w: %s address %q has a bad port", ErrAddress, l.owner, l.addr)
		}
		if port == "0" {
			continue
		}
		host = normalHost(host)
		for _, b := range byPort[port] {
			// A wildcard listener takes the port on every address.
			if b.host == host || b.host == "" || host == "" {
				return fmt.Errorf("%w: %s address %q clashes with a %s listener on port %s",
					ErrAddress, l.owner, l.addr, b.owner, port)
			}
		}
		byPort[port] = append(byPort[port], bound{host, l.owner})
	}
	return nil
}

// normalHost maps the "any address" spellings to one form so that ":80" and
// "0.0.0.0:80" are seen as the same listener.
func normalHost(h string) string {
	switch h {
	case "", "0.0.0.0", "::", "[::]":
		return ""
	}
	return h
}
