package buildinfo

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUserAgent(t *testing.T) {
	ua := UserAgent()
	require.True(t, strings.HasPrefix(ua, "/n3d:") && strings.HasSuffix(ua, "/"), ua)
	require.Contains(t, ua, Version)
	require.True(t, strings.HasPrefix(GoVersion(), "go"))
}
