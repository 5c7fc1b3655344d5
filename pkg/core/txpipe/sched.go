package txpipe

import (
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
)

// job is one transaction to process.
type job struct {
	tx   *transaction.Transaction
	hash util.Uint256
	src  Source
}

// fifo is a queue of jobs.
type fifo struct {
	jobs []job
	head int
}

func (q *fifo) len() int { return len(q.jobs) - q.head }

func (q *fifo) push(j job) { q.jobs = append(q.jobs, j) }

func (q *fifo) pop() job {
	j := q.jobs[q.head]
	q.jobs[q.head] = job{}
	q.head++
	if q.head == len(q.jobs) { // empty: reuse the array from its start
		q.jobs, q.head = q.jobs[:0], 0
	} else if q.head >= 64 && q.head*2 >= len(q.jobs) { // mostly consumed: compact
		n := copy(q.jobs, q.jobs[q.head:])
		clear(q.jobs[n:])
		q.jobs, q.head = q.jobs[:n], 0
	}
	return j
}

// sched holds one queue per source and serves the sources round-robin:
// the active ring lists the sources with queued jobs, pop takes the first
// job of the first source and moves that source to the back of the ring
// if it has more. A source flooding the pipeline therefore gets one turn
// in as many as there are active sources, and its backlog is bounded by
// perSource; the total by maxQueued. Not safe for concurrent use: the
// Pipeline's mutex guards it.
type sched struct {
	queues    map[Source]*fifo
	active    fifo // jobs carrying only src: the ring of sources
	n         int
	perSource int
	maxQueued int
}

func newSched(perSource, maxQueued int) *sched {
	return &sched{queues: make(map[Source]*fifo), perSource: perSource, maxQueued: maxQueued}
}

// push queues j unless its source's queue or the whole scheduler is full.
func (s *sched) push(j job) bool {
	if s.n >= s.maxQueued {
		return false
	}
	q := s.queues[j.src]
	if q == nil {
		q = new(fifo)
		s.queues[j.src] = q
	}
	if q.len() >= s.perSource {
		return false
	}
	if q.len() == 0 {
		s.active.push(job{src: j.src})
	}
	q.push(j)
	s.n++
	return true
}

// pop returns the next job in round-robin order.
func (s *sched) pop() (job, bool) {
	if s.active.len() == 0 {
		return job{}, false
	}
	src := s.active.pop().src
	q := s.queues[src]
	j := q.pop()
	s.n--
	if q.len() > 0 {
		s.active.push(job{src: src})
	} else {
		delete(s.queues, src)
	}
	return j, true
}

// drain removes and returns every queued job.
func (s *sched) drain() []job {
	var res []job
	for {
		j, ok := s.pop()
		if !ok {
			return res
		}
		res = append(res, j)
	}
}
