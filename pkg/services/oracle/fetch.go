package oracle

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"unicode/utf8"

	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/services/oracle/jsonpath"
)

// URL schemes the reference answers.
const (
	schemeHTTPS = "https"
	schemeNeoFS = "neofs"
)

// userAgent is the User-Agent header of the reference's requests.
const userAgent = "NeoOracleService/3.0"

// errTooLarge is a body above transaction.MaxOracleResultSize.
var errTooLarge = errors.New("oracle: response too large")

// fetch answers request id: the response code and, on success, the
// (filtered) result, mapped from the outcome as the reference does; served
// tells that a server answered (the answer took a round trip).
func (s *Service) fetch(ctx context.Context, id uint64, req *neostate.OracleRequest) (resp *transaction.OracleResponse, served bool) {
	resp = &transaction.OracleResponse{ID: id, Code: transaction.OracleSuccess}
	log := s.log.With(zap.Uint64("request", id), zap.String("url", req.URL))
	u, err := url.ParseRequestURI(req.URL)
	if err != nil {
		log.Warn("malformed oracle request URL", zap.Error(err))
		resp.Code = transaction.OracleProtocolNotSupported
		return resp, false
	}
	switch u.Scheme {
	case schemeHTTPS:
		resp.Result, resp.Code, served = s.fetchHTTPS(ctx, log, req.URL)
	case schemeNeoFS:
		// n3d has no NeoFS client: the answer is the reference's for a
		// node without NeoFS nodes configured.
		log.Warn("NeoFS oracle requests are not supported by this node")
		resp.Code = transaction.OracleError
	default:
		log.Warn("unsupported oracle request scheme", zap.String("scheme", u.Scheme))
		resp.Code = transaction.OracleProtocolNotSupported
	}
	if resp.Code == transaction.OracleSuccess && req.Filter != nil {
		resp.Result, err = applyFilter(resp.Result, *req.Filter)
		if err != nil {
			log.Warn("oracle filter failed", zap.Stringp("filter", req.Filter), zap.Error(err))
			resp.Code = transaction.OracleError
			resp.Result = nil
		}
	}
	return resp, served
}

// fetchHTTPS performs a GET and maps its outcome.
func (s *Service) fetchHTTPS(ctx context.Context, log *zap.Logger, rawURL string) ([]byte, transaction.OracleResponseCode, bool) {
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		log.Warn("cannot make the oracle HTTP request", zap.Error(err))
		return nil, transaction.OracleError, false
	}
	httpReq.Header.Set("User-Agent", userAgent)
	httpReq.Header.Set("Content-Type", "application/json")
	r, err := s.client.Do(httpReq)
	if err != nil {
		code := transaction.OracleError
		if errors.Is(err, ErrRestrictedRedirect) {
			code = transaction.OracleForbidden
		}
		log.Warn("oracle request failed", zap.Error(err), zap.Stringer("code", code))
		// A request that timed out waited as long as a served one: the
		// response is built on the chain as it is now, as the reference
		// builds it after the fetch returns.
		return nil, code, timedOut(err)
	}
	defer func() { _ = r.Body.Close() }() // nothing to do about a close error of a read body
	switch r.StatusCode {
	case http.StatusOK:
	case http.StatusForbidden:
		return nil, transaction.OracleForbidden, true
	case http.StatusNotFound:
		return nil, transaction.OracleNotFound, true
	case http.StatusRequestTimeout:
		return nil, transaction.OracleTimeout, true
	default:
		return nil, transaction.OracleError, true
	}
	if !allowedType(r.Header.Get("Content-Type"), s.cfg.Oracle.AllowedContentTypes) {
		return nil, transaction.OracleContentTypeNotSupported, true
	}
	body, err := readBody(r.Body)
	if err != nil {
		log.Warn("cannot read the oracle response", zap.Error(err))
		if errors.Is(err, errTooLarge) {
			return nil, transaction.OracleResponseTooLarge, true
		}
		return nil, transaction.OracleError, true
	}
	return body, transaction.OracleSuccess, true
}

// readBody reads at most MaxOracleResultSize bytes of UTF-8 as the
// reference does: a longer body is errTooLarge, an empty one is an error
// (io.EOF) too.
func readBody(r io.Reader) ([]byte, error) {
	const limit = transaction.MaxOracleResultSize
	buf := make([]byte, limit+1)
	n, err := io.ReadFull(r, buf)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) && n <= limit:
		if !utf8.Valid(buf[:n]) {
			return nil, errors.New("oracle: response is not UTF-8")
		}
		return buf[:n], nil
	case err == nil || n > limit:
		return nil, fmt.Errorf("%w: more than %d bytes", errTooLarge, limit)
	}
	return nil, fmt.Errorf("oracle: reading the response: %w", err)
}

// allowedType reports whether the Content-Type header is allowed (any is
// when the list is empty).
func allowedType(header string, allowed []string) bool {
	if len(allowed) == 0 {
		return true
	}
	typ, _, err := mime.ParseMediaType(header)
	return err == nil && slices.Contains(allowed, typ)
}

// applyFilter selects the path's values of the JSON document data.
func applyFilter(data []byte, path string) ([]byte, error) {
	doc, err := jsonpath.Parse(data)
	if err != nil {
		return nil, err
	}
	res, ok := jsonpath.Get(path, doc)
	if !ok {
		return nil, fmt.Errorf("oracle: invalid filter %q", path)
	}
	return jsonpath.Marshal(res)
}

// timedOut tells whether err ended a request that waited for its time
// limit (the client's timeout or the context's deadline).
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
