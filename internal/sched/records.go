package sched

import (
	"reflect"
	"unsafe"
)

// The record cache: a worker's job records kept by type for reuse without
// the allocator, since a job another goroutine may run must live on the heap
// (Go cannot keep it on the forking frame's stack, as Rayon does).

// typeCache keeps a worker's job records by type, for reuse without the
// allocator: free lists for detached tasks (alloc, free), and stacks for
// forks (take, put). A slot belongs to one type at a time; a type whose slot
// another holds takes it over when none of the other's fork records is in
// use (take and alloc), else allocates, so that a program that uses more
// types of call than the cache has slots does not leave a later type
// allocating at every fork for good (go test -bench Pipeline -benchmem
// ./par/pipe runs pipe's Max after every other terminal). Owner only.
type typeCache struct {
	keys   [16]reflect.Type
	lists  [16]freeList
	stacks [16]recordStack
	last   int // the slot found last: a recursion asks for one type again and again
}

// typeKey returns an identity of type T that the language promises: the
// reflect.Type of *T (equal for identical types, and pointer-shaped, so that
// making it allocates nothing).
func typeKey[T any]() reflect.Type { return reflect.TypeOf((*T)(nil)) }

// claim returns the cache slot of key k, or -1: the slot found last if it
// holds k, else the slot that holds k, else a free one; else, if evict is
// set, the first slot none of whose fork records is in use, its cached
// records dropped.
func (c *typeCache) claim(k reflect.Type, evict bool) int {
	if c.keys[c.last] == k {
		return c.last
	}
	free := -1
	for i := range c.keys {
		switch c.keys[i] {
		case k:
			c.last = i
			return i
		case nil:
			if free < 0 {
				free = i
			}
		}
	}
	if free < 0 && evict {
		for i := range c.stacks {
			if c.stacks[i].top == 0 {
				c.stacks[i].drop(0, len(c.stacks[i].recs))
				c.stacks[i].recs = nil
				c.lists[i] = freeList{}
				free = i
				break
			}
		}
	}
	if free >= 0 {
		c.keys[free] = k
		c.last = free
	}
	return free
}

// alloc returns a zeroed or reused *T from w's cache, for a job type T whose
// first field is Job and whose record may end on another worker (free). Owner
// only.
func alloc[T any](w *Worker) *T {
	if i := w.cache.claim(typeKey[T](), true); i >= 0 {
		if j := w.cache.lists[i].pop(); j != nil {
			return payload[T](j)
		}
	}
	return new(T)
}

// free gives t back to w's cache once nobody can reach it: after its task
// has run. The caller clears t's references first so that they do not
// outlive it. Owner only.
func free[T any](w *Worker, t *T) {
	if i := w.cache.claim(typeKey[T](), false); i >= 0 {
		w.cache.lists[i].push((*Job)(unsafe.Pointer(t)))
	}
}

// recordStack is a worker's stack of fork records of one type. The forks of one
// worker nest: a fork ends (finish or abandon) before the fork that was running
// when it began, whatever ran in between, since that ran on the same
// goroutine. So a record is taken from the top and given back to it by an
// index step each way, and stays in the stack between uses with its run
// function set; each record knows its stack and its place in it. Owner only.
//
// A fork whose deferred call is itself cut short (a task run while End waits
// for a thief calls runtime.Goexit) never gives its record back; the next put
// below it then finds the stack higher than its own place and drops what is
// above, so a record is reused only after a put by the frame that took it.
type recordStack struct {
	recs []*Job // nil entries were dropped
	top  int    // recs[:top] are in use
}

// maxRecords bounds a stack: forks nested deeper than this allocate.
const maxRecords = 256

// take returns a record of type T for a fork on w, whose first field is Job;
// the fork gives it back with put (a record that is not cached ignores it).
// A reused record holds what its last user left: its owner is w, its panic
// was cleared when its fork ended (finish, abandon), and users clear their
// references before put; so a user initializes only a fresh record, one
// without a run function (see takeRec). Owner only.
func take[T any](w *Worker) *T {
	i := w.cache.claim(typeKey[T](), true)
	if i < 0 {
		return new(T)
	}
	s := &w.cache.stacks[i]
	k := s.top
	if k < len(s.recs) {
		if j := s.recs[k]; j != nil {
			s.top++
			return payload[T](j)
		}
	} else if k == maxRecords {
		return new(T)
	} else {
		s.recs = append(s.recs, nil)
	}
	t := new(T)
	j := (*Job)(unsafe.Pointer(t))
	j.stack, j.place = s, k
	s.recs[k] = j
	s.top++
	return t
}

// put gives j back to its stack, once its fork has ended: nobody else can
// reach it then. Owner only.
func (j *Job) put() {
	s := j.stack
	if s == nil {
		return
	}
	if s.top != j.place+1 {
		s.drop(j.place+1, s.top) // records above j were not given back: see recordStack
	}
	s.top = j.place
}

// drop forgets the records at [from, to) of s.
func (s *recordStack) drop(from, to int) {
	for i := from; i < to; i++ {
		if r := s.recs[i]; r != nil {
			r.stack = nil // a dropped record is nobody's to give back
			s.recs[i] = nil
		}
	}
}
