// Package bigint converts between math/big integers and Neo's integer byte
// form: little-endian two's complement in the fewest bytes that keep the
// sign, with zero as the empty string. The VM, StdLib and native storage all
// use this form.
package bigint
