package oracle

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
)

const storeJSON = `{"store":{"book":[{"title":"Sayings of the Century","price":8.95},{"title":"Moby Dick","price":8.99}],"name":"<shop> & \"co\""}}`

// dataServer is a TLS server with the oracle test endpoints; plain is a
// plain HTTP server for the https → http redirection. release ends the
// slow handlers.
type dataServer struct {
	tls     *httptest.Server
	plain   *httptest.Server
	release chan struct{}
}

func newDataServer(t *testing.T) *dataServer {
	ds := &dataServer{release: make(chan struct{})}
	mux := http.NewServeMux()
	write := func(ctype string, status int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			if ctype != "" {
				w.Header().Set("Content-Type", ctype)
			}
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		}
	}
	mux.HandleFunc("/json", write("application/json", http.StatusOK, storeJSON))
	mux.HandleFunc("/json-charset", write("application/json; charset=utf-8", http.StatusOK, `{"a":1}`))
	mux.HandleFunc("/text", write("text/plain", http.StatusOK, "hello"))
	mux.HandleFunc("/html", write("text/html", http.StatusOK, "<html></html>"))
	mux.HandleFunc("/bad-ctype", write("???", http.StatusOK, `{"a":1}`))
	mux.HandleFunc("/big", write("application/json", http.StatusOK, strings.Repeat("a", transaction.MaxOracleResultSize+1)))
	mux.HandleFunc("/max", write("application/json", http.StatusOK, strings.Repeat("a", transaction.MaxOracleResultSize)))
	mux.HandleFunc("/empty", write("application/json", http.StatusOK, ""))
	mux.HandleFunc("/not-utf8", write("application/json", http.StatusOK, "\xff\xfe"))
	mux.HandleFunc("/forbidden", write("", http.StatusForbidden, ""))
	mux.HandleFunc("/timeout", write("", http.StatusRequestTimeout, ""))
	mux.HandleFunc("/fail", write("", http.StatusInternalServerError, ""))
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-ds.release:
		}
	})
	mux.HandleFunc("/slow-body", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"a":`))
		w.(http.Flusher).Flush()
		<-ds.release // not the request's context: it may end before the client gives up

	})
	for i := 1; i <= 3; i++ {
		next := "/json"
		if i > 1 {
			next = fmt.Sprintf("/r%d", i-1)
		}
		mux.Handle(fmt.Sprintf("/r%d", i), http.RedirectHandler(next, http.StatusFound))
	}
	mux.HandleFunc("/to-plain", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, ds.plain.URL+"/json", http.StatusFound)
	})
	ds.tls = httptest.NewTLSServer(mux)
	ds.plain = httptest.NewServer(mux)
	t.Cleanup(func() {
		close(ds.release)
		ds.tls.Close()
		ds.plain.Close()
	})
	return ds
}

func (ds *dataServer) tlsConfig() *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(ds.tls.Certificate())
	return &tls.Config{RootCAs: pool}
}

// fetchService is a service for fetch tests only (no chain).
func fetchService(t *testing.T, ds *dataServer, mod func(*config.OracleConfiguration)) *Service {
	oc := config.OracleConfiguration{AllowPrivateHost: true, RequestTimeout: 30 * time.Second}
	if mod != nil {
		mod(&oc)
	}
	return &Service{cfg: Config{Oracle: oc}, log: testLogger(t), client: NewHTTPClient(oc, ds.tlsConfig())}
}

func strp(s string) *string { return &s }

func TestFetch(t *testing.T) {
	ds := newDataServer(t)
	s := fetchService(t, ds, func(c *config.OracleConfiguration) {
		c.AllowedContentTypes = []string{"application/json", "text/plain"}
	})
	u := ds.tls.URL
	cases := []struct {
		name   string
		url    string
		filter *string
		code   transaction.OracleResponseCode
		result string
		served bool
	}{
		{"json", u + "/json", nil, transaction.OracleSuccess, storeJSON, true},
		{"filter", u + "/json", strp("$.store.book[0].title"), transaction.OracleSuccess, `["Sayings of the Century"]`, true},
		{"filter many", u + "/json", strp("$..price"), transaction.OracleSuccess, `[8.95,8.99]`, true},
		{"filter escapes", u + "/json", strp("$.store.name"), transaction.OracleSuccess, `["\u003Cshop\u003E \u0026 \u0022co\u0022"]`, true},
		{"filter nothing", u + "/json", strp("$.nope"), transaction.OracleSuccess, `[]`, true},
		{"empty filter", u + "/json", strp(""), transaction.OracleSuccess,
			"[" + strings.ReplaceAll(storeJSON, `"<shop> & \"co\""`, `"\u003Cshop\u003E \u0026 \u0022co\u0022"`) + "]", true},
		{"bad filter", u + "/json", strp("$.["), transaction.OracleError, "", true},
		{"filter on text", u + "/text", strp("$"), transaction.OracleError, "", true},
		{"text", u + "/text", nil, transaction.OracleSuccess, "hello", true},
		{"charset param", u + "/json-charset", nil, transaction.OracleSuccess, `{"a":1}`, true},
		{"content type", u + "/html", nil, transaction.OracleContentTypeNotSupported, "", true},
		{"bad content type", u + "/bad-ctype", nil, transaction.OracleContentTypeNotSupported, "", true},
		{"404", u + "/nothing-here", nil, transaction.OracleNotFound, "", true},
		{"403", u + "/forbidden", nil, transaction.OracleForbidden, "", true},
		{"408", u + "/timeout", nil, transaction.OracleTimeout, "", true},
		{"500", u + "/fail", nil, transaction.OracleError, "", true},
		{"too large", u + "/big", nil, transaction.OracleResponseTooLarge, "", true},
		{"largest", u + "/max", nil, transaction.OracleSuccess, strings.Repeat("a", transaction.MaxOracleResultSize), true},
		{"empty body", u + "/empty", nil, transaction.OracleError, "", true},
		{"not utf-8", u + "/not-utf8", nil, transaction.OracleError, "", true},
		{"redirects", u + "/r2", strp("$.store.book[1].title"), transaction.OracleSuccess, `["Moby Dick"]`, true},
		{"too many redirects", u + "/r3", nil, transaction.OracleForbidden, "", false},
		{"https to http", u + "/to-plain", nil, transaction.OracleForbidden, "", false},
		{"http", ds.plain.URL + "/json", nil, transaction.OracleProtocolNotSupported, "", false},
		{"neofs", "neofs:6pJtLUnGqDxE2EitZYLsDzsfTDVegD6BrRUn8QAFZWyt/5Cyxb3wrHDw5pqY63hb5otCSsJ24ZfYmsA8NAjtho2gr", nil, transaction.OracleError, "", false},
		{"ftp", "ftp://example.com/x", nil, transaction.OracleProtocolNotSupported, "", false},
		{"malformed", "not a url", nil, transaction.OracleProtocolNotSupported, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, served := s.fetch(context.Background(), 7, &neostate.OracleRequest{URL: c.url, Filter: c.filter})
			require.Equal(t, c.served, served)
			require.Equal(t, uint64(7), resp.ID)
			require.Equal(t, c.code, resp.Code, "result %q", resp.Result)
			require.Equal(t, c.result, string(resp.Result))
		})
	}
}

// TestFetchTimeout: a server that answers after the request timeout (no
// headers, or a stalled body) is an Error, as in the reference (the 408
// status only is Timeout).
func TestFetchTimeout(t *testing.T) {
	ds := newDataServer(t)
	s := fetchService(t, ds, func(c *config.OracleConfiguration) { c.RequestTimeout = 200 * time.Millisecond })
	for _, path := range []string{"/slow", "/slow-body"} {
		resp, _ := s.fetch(context.Background(), 1, &neostate.OracleRequest{URL: ds.tls.URL + path})
		require.Equal(t, transaction.OracleError, resp.Code, path)
		require.Empty(t, resp.Result)
	}
}

// TestFetchPrivateHost: without AllowPrivateHost the loopback server is
// refused (Forbidden), also behind a name.
func TestFetchPrivateHost(t *testing.T) {
	ds := newDataServer(t)
	s := fetchService(t, ds, func(c *config.OracleConfiguration) { c.AllowPrivateHost = false })
	resp, served := s.fetch(context.Background(), 1, &neostate.OracleRequest{URL: ds.tls.URL + "/json"})
	require.False(t, served)
	require.Equal(t, transaction.OracleForbidden, resp.Code)
	_, port, err := net.SplitHostPort(ds.tls.Listener.Addr().String())
	require.NoError(t, err)
	resp, _ = s.fetch(context.Background(), 1, &neostate.OracleRequest{URL: "https://localhost:" + port + "/json"})
	require.Equal(t, transaction.OracleForbidden, resp.Code)
}

func TestIsReserved(t *testing.T) {
	for ip, want := range map[string]bool{
		"127.0.0.1": true, "10.1.2.3": true, "172.16.0.1": true, "172.32.0.1": false, "192.168.1.1": true,
		"100.64.0.1": true, "169.254.1.1": true, "192.0.0.8": true, "198.18.0.1": true, "198.20.0.1": false,
		"0.0.0.0": true, "224.0.0.1": true, "255.255.255.255": true, "8.8.8.8": false, "1.1.1.1": false,
		"::1": true, "fc00::1": true, "fd12::1": true, "fe80::1": true, "fec0::1": true, "2001:4860::8888": false,
		"2002:7f00:0001::1": true, "2002:0808:0808::1": false, "::ffff:127.0.0.1": true, "::ffff:8.8.8.8": false,
	} {
		require.Equal(t, want, isReserved(net.ParseIP(ip)), ip)
	}
}

func TestAllowedType(t *testing.T) {
	require.True(t, allowedType("anything", nil))
	allowed := []string{"application/json"}
	require.True(t, allowedType("application/json", allowed))
	require.True(t, allowedType("Application/JSON; charset=utf-8", allowed))
	require.False(t, allowedType("text/plain", allowed))
	require.False(t, allowedType("", allowed))
}
