//go:build linux

package sched_test

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/sched"
)

// setAffinity sets the processors that every thread of the process may run
// on to the mask set, and returns the mask the calling thread had.
func setAffinity(t *testing.T, set uint64) (old uint64) {
	t.Helper()
	_, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(old), uintptr(unsafe.Pointer(&old)))
	require.Zero(t, e, "sched_getaffinity")
	tasks, err := os.ReadDir("/proc/self/task")
	require.NoError(t, err)
	for _, task := range tasks {
		tid, err := strconv.Atoi(task.Name())
		require.NoError(t, err)
		syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, uintptr(tid), unsafe.Sizeof(set), uintptr(unsafe.Pointer(&set)))
	}
	return old
}

// TestWorkerOnABusyProcessorYieldsIt: a pool worker whose thread shares its
// processor with another busy thread of the process (as a virtual machine's
// scheduler may place a thread woken while the other processor is halted)
// gives the processor up at its yields (sched_yield), finds them held up,
// and marks the pool contended; a worker that only yielded to the Go
// scheduler would spin on through its linger while the busy thread waits.
func TestWorkerOnABusyProcessorYieldsIt(t *testing.T) {
	if testing.Short() {
		t.Skip("pins the process to one processor")
	}
	p := sched.New(1)
	defer p.Close()
	old := setAffinity(t, 1) // every thread on processor 0
	defer setAffinity(t, old)
	marked := false
	for try := 0; try < 200 && !marked; try++ {
		p.Spawn(func(*sched.Worker) {}).Wait() // wakes the worker, which then searches
		for t0 := time.Now(); time.Since(t0) < 2*time.Millisecond && !marked; {
			marked = p.Load().Contended // this goroutine's thread stays busy meanwhile
		}
	}
	require.True(t, marked, "the worker never found its processor taken")
}
