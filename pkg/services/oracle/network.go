package oracle

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"syscall"

	"github.com/n3d-io/n3d/pkg/config"
)

// ErrRestrictedRedirect is the error of a request the client refused: to
// a reserved address (without AllowPrivateHost), after too many
// redirections or from https to http. It answers Forbidden.
var ErrRestrictedRedirect = errors.New("oracle: restricted request target")

// maxRedirects is the number of redirections a request may follow (the
// reference's, neo-modules PR 698).
const maxRedirects = 2

// reservedNets are the networks the oracle does not connect to unless
// AllowPrivateHost is set (RFC 6890 private, shared, loopback,
// link-local, benchmarking and unique/site-local ranges), as the
// reference lists them.
var reservedNets = mustParseCIDRs(
	"10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
	"172.16.0.0/12", "192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15",
	"fc00::/7", "fe80::/10", "fec0::/10",
)

// sixToFour is the 6to4 prefix: such an address embeds an IPv4 one (bytes
// 2 to 5) that is checked instead.
var sixToFour = mustParseCIDRs("2002::/16")[0]

func mustParseCIDRs(cidrs ...string) []*net.IPNet {
	out := make([]*net.IPNet, len(cidrs))
	for i, c := range cidrs {
		_, n, err := net.ParseCIDR(c)
		if err != nil {
			panic(err)
		}
		out[i] = n
	}
	return out
}

// isReserved reports whether ip is an address the oracle must not reach:
// anything but global unicast, or inside a reserved network.
func isReserved(ip net.IP) bool {
	if !ip.IsGlobalUnicast() {
		return true
	}
	if ip4 := ip.To16(); sixToFour.Contains(ip) && ip4 != nil {
		ip = net.IPv4(ip4[2], ip4[3], ip4[4], ip4[5])
	}
	return slices.ContainsFunc(reservedNets, func(n *net.IPNet) bool { return n.Contains(ip) })
}

// guardAddress is the dialer's check of every resolved address.
func guardAddress(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("%w: address %s: %w", ErrRestrictedRedirect, address, err)
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return fmt.Errorf("%w: address %s is not an IP", ErrRestrictedRedirect, address)
	}
	if isReserved(ip) {
		return fmt.Errorf("%w: %s is not a public unicast address", ErrRestrictedRedirect, ip)
	}
	return nil
}

// checkRedirect allows at most maxRedirects redirections and never one
// from https to another scheme.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > maxRedirects {
		return fmt.Errorf("%w: more than %d redirections", ErrRestrictedRedirect, maxRedirects)
	}
	if len(via) > 0 && via[0].URL.Scheme == "https" && req.URL.Scheme != "https" {
		return fmt.Errorf("%w: redirection from %s to insecure %s", ErrRestrictedRedirect,
			via[len(via)-1].URL, req.URL)
	}
	return nil
}

// NewHTTPClient returns the oracle's HTTP client with the reference's
// rules: no keep-alive, the whole request (body included) bounded by
// RequestTimeout, the redirection rules of checkRedirect and, unless
// AllowPrivateHost, a dialer that refuses reserved addresses after name
// resolution (so neither a name nor a redirection can reach them). tlsCfg
// may be nil.
func NewHTTPClient(cfg config.OracleConfiguration, tlsCfg *tls.Config) *http.Client {
	d := &net.Dialer{}
	if !cfg.AllowPrivateHost {
		d.Control = guardAddress
	}
	return &http.Client{
		Transport: &http.Transport{
			DisableKeepAlives: true,
			DialContext:       d.DialContext,
			TLSClientConfig:   tlsCfg,
		},
		Timeout:       cfg.RequestTimeout,
		CheckRedirect: checkRedirect,
	}
}
