package dao

import "errors"

// Errors.
var (
	// ErrNotFound is returned when a record is absent; it wraps
	// storage.ErrKeyNotFound so either can be tested with errors.Is.
	ErrNotFound = errors.New("dao: not found")
	// ErrCorrupted marks a stored record that does not decode.
	ErrCorrupted = errors.New("dao: corrupted record")
	// ErrNotPrivate is returned by Persist and Discard on a DAO that Private
	// did not create.
	ErrNotPrivate = errors.New("dao: not a private DAO")
	// ErrAlreadyExists is returned by HasTransaction for a transaction on
	// chain.
	ErrAlreadyExists = errors.New("dao: transaction already exists")
	// ErrHasConflicts is returned by HasTransaction for a transaction that
	// an on-chain transaction declared as conflicting.
	ErrHasConflicts = errors.New("dao: transaction has conflicts")
)
