package config

import (
	"fmt"
	"strconv"
	"strings"
)

// AnnounceableAddress is a P2P listen address with the port to announce to
// peers (0: announce the port actually bound).
type AnnounceableAddress struct {
	// Address is "host:port" as given to net.Listen.
	Address       string
	AnnouncedPort uint16
}

// ListenAddresses parses P2P.Addresses. Each entry is
// "[host]:[port][:announcedPort]"; IPv6 hosts are written in brackets
// ("[::1]:20333:30333"); an empty port means any free port. With no entry
// the node listens on ":0".
func (p *P2P) ListenAddresses() ([]AnnounceableAddress, error) {
	if len(p.Addresses) == 0 {
		return []AnnounceableAddress{{Address: ":0"}}, nil
	}
	out := make([]AnnounceableAddress, 0, len(p.Addresses))
	for i, s := range p.Addresses {
		a, err := parseAnnounceable(s)
		if err != nil {
			return nil, fmt.Errorf("%w: P2P.Addresses[%d] %q: %w", ErrAddress, i, s, err)
		}
		out = append(out, a)
	}
	return out, nil
}

func parseAnnounceable(s string) (AnnounceableAddress, error) {
	if s == "" {
		return AnnounceableAddress{}, fmt.Errorf("empty address")
	}
	var host, rest string
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return AnnounceableAddress{}, fmt.Errorf("missing ']'")
		}
		host, rest = s[:end+1], s[end+1:]
		if rest != "" && rest[0] != ':' {
			return AnnounceableAddress{}, fmt.Errorf("unexpected %q after ']'", rest)
		}
		rest = strings.TrimPrefix(rest, ":")
	} else {
		colons := strings.Count(s, ":")
		if colons > 2 {
			return AnnounceableAddress{}, fmt.Errorf("write IPv6 hosts in brackets, e.g. [::1]:20333")
		}
		var found bool
		host, rest, found = strings.Cut(s, ":")
		if !found {
			return AnnounceableAddress{}, fmt.Errorf("missing port (write host:port, or host:0 for any free port)")
		}
	}
	port, announced, hasAnnounced := strings.Cut(rest, ":")
	if port == "" {
		port = "0"
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return AnnounceableAddress{}, fmt.Errorf("bad port %q", port)
	}
	a := AnnounceableAddress{Address: host + ":" + port}
	if hasAnnounced {
		ap, err := strconv.ParseUint(announced, 10, 16)
		if err != nil {
			return AnnounceableAddress{}, fmt.Errorf("bad announced port %q", announced)
		}
		a.AnnouncedPort = uint16(ap)
	}
	return a, nil
}
