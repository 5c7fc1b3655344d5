package message

import "errors"

// Sentinel errors of message framing.
var (
	// ErrPayloadTooLarge is returned for a frame whose payload exceeds
	// PayloadMaxSize.
	ErrPayloadTooLarge = errors.New("message: payload too large")
	// ErrBadCompression is returned for a compressed payload that does not
	// decompress to its announced length within PayloadMaxSize.
	ErrBadCompression = errors.New("message: bad compressed payload")
	// ErrUnknownCommand is returned for a command byte the reference does
	// not define. The frame itself was read completely: a server that
	// behaves as the reference drops such a message and keeps the peer.
	ErrUnknownCommand = errors.New("message: unknown command")
	// ErrEmptyPayload is returned for a command that carries a payload but
	// came with none.
	ErrEmptyPayload = errors.New("message: empty payload")
	// ErrBadPayload wraps the payload decoder's error.
	ErrBadPayload = errors.New("message: bad payload")
)
