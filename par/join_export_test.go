package par

import (
	"sync/atomic"
	"unsafe"

	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// RecordDepth is how many levels of a recursion record their forks.
const RecordDepth = split.RecordDepth

// Ask asks w for work, as a hungry participant or the heartbeat does: it
// sets the ask in w's gate, at the handle's own address, where Join2 and
// Forks load it (sched's TestGateFirst), and the gate opens until its
// owner's next fork looks. Any goroutine.
func Ask(w *Worker) {
	atomic.OrUint32((*uint32)(unsafe.Pointer(w)), sched.GateAsk)
}

// JoinEager is the sorts' fork: b stealable at once.
func JoinEager(w *Worker, a, b func(w *Worker)) { w.joinEager(a, b) }

// HandlesChecked reports whether this platform tells goroutines apart for
// the handle checks (sched.Worker.Mine): whether a handle looked at from a
// goroutine other than its holder's is not that goroutine's.
func HandlesChecked() bool {
	p := sched.New(1)
	defer p.Close()
	checked := false
	p.Run(func(w *sched.Worker) {
		foreign := make(chan bool)
		go func() { foreign <- !w.Mine() }()
		checked = <-foreign
	})
	return checked
}
