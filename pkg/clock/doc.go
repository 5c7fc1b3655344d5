// Package clock is the time source of the services: every timer of the
// P2P server (and of consensus and the pool as they adopt it) is made by
// a Clock, so a test or the network simulator can run many nodes on a
// clock it steps instead of the wall clock.
//
// Real is the wall clock (package time). Fake is a manually stepped
// clock: nothing fires until Advance moves it, and Advance fires the due
// timers one at a time in order of their deadline (creation order among
// equal deadlines), so the same steps give the same firing order.
//
// The interface is the method set of consensus's Clock (Now, NewTimer
// returning a timer with C and Stop), so one Fake can drive both; Timer
// adds Reset, and the Clock adds tickers and AfterFunc.
//
// What a Fake does not control: socket deadlines (net.Conn.SetDeadline)
// compare with the wall clock in the kernel or the runtime, and
// goroutines woken by a timer run when the scheduler lets them. A
// package on a Clock therefore sets no socket deadline (pkg/network
// closes a connection from a clock timer instead), and a test advances
// the clock only once the goroutines it waits for have armed their
// timers (Fake.Pending counts them).
package clock
