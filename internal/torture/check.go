package torture

// Check compares the record of a run with the rules, once the top-level call
// has returned; got is what that call panicked with, if it did. It reports
// each broken rule through t.Errorf, and stops at the first one about a node,
// since the nodes above it then break rules too. The rules:
//
//   - a panic value is always an injected *Boom;
//   - no node runs twice, and every node that started has finished;
//   - the root ran, and the call panics exactly when the root did, with the
//     root's value;
//   - a call panics only if a panic was injected;
//   - a node that never ran is not waited for by a node that returned
//     normally (its guard), and an orphan never runs;
//   - a node that returned normally returned the sum of its subtree;
//   - a node exits with the panic its Rule chooses.
func (t *Tree) Check(got any, panicked bool) {
	errorf := t.Errorf
	if f := t.foreign.Load(); f != nil {
		errorf("foreign panic value: %v", f)
	}
	for _, n := range t.Nodes {
		if en, ex := t.entered[n.ID].Load(), t.exited[n.ID].Load(); en != ex {
			errorf("node %d (%s): entered %d times, exited %d times when the call returned", n.ID, t.Name(n), en, ex)
			return
		}
	}
	ran := func(n *Node) bool { return t.entered[n.ID].Load() == 1 }
	val := func(n *Node) *Boom { return t.exitVal[n.ID].Load() }
	root := t.Nodes[0]
	if !ran(root) {
		errorf("the root never ran")
		return
	}
	if !panicked {
		if !t.normal[0].Load() {
			errorf("the call returned but the root exited by a panic")
		}
	} else if b, _ := got.(*Boom); b == nil || b != val(root) {
		errorf("the call panicked with %v, the root exited with %v", got, val(root))
	}
	if panicked && !t.AnyPanic {
		errorf("panic %v with nothing injected", got)
	}
	tasks := map[int][]*Node{} // the tasks of each group
	for _, n := range t.Nodes {
		if n.Guard >= 0 && t.Nodes[n.Guard].Rule == Group && !n.Orphan {
			tasks[n.Guard] = append(tasks[n.Guard], n)
		}
	}
	for _, n := range t.Nodes {
		if n.Orphan {
			if ran(n) {
				errorf("node %d (%s) ran, yet nothing started it", n.ID, t.Name(n))
				return
			}
			continue
		}
		if !ran(n) {
			if n.Guard >= 0 && t.normal[n.Guard].Load() {
				g := t.Nodes[n.Guard]
				errorf("node %d (%s) never ran, yet node %d (%s), which waits for it, returned normally", n.ID, t.Name(n), g.ID, t.Name(g))
				return
			}
			continue
		}
		if t.normal[n.ID].Load() {
			if s := t.sums[n.ID].Load(); s != n.Sum {
				errorf("node %d (%s): sum %d, want %d", n.ID, t.Name(n), s, n.Sum)
				return
			}
		}
		var want *Boom
		switch {
		case n.Pre != nil:
			want = n.Pre
		case n.Rule == Fork:
			a := n.Kids[0]
			if !ran(a) {
				errorf("node %d (%s): its first child %d never ran", n.ID, t.Name(n), a.ID)
				return
			}
			want = val(a)
			if want == nil && len(n.Kids) > 1 {
				b := n.Kids[1]
				if !ran(b) {
					errorf("node %d (%s): its first child returned, its second %d never ran", n.ID, t.Name(n), b.ID)
					return
				}
				want = val(b)
			}
		case n.Rule == Group:
			if !t.checkGroup(n, tasks[n.ID], errorf) {
				return
			}
			continue
		}
		if want == nil && n.Post != nil {
			if !t.postHit[n.ID].Load() {
				errorf("node %d (%s): its children returned, but it never reached its post panic", n.ID, t.Name(n))
				return
			}
			want = n.Post
		}
		if val(n) != want {
			errorf("node %d (%s): exited with %v, want %v", n.ID, t.Name(n), val(n), want)
			return
		}
	}
}

// checkGroup checks the rule of a Group node without a pre panic: it exits
// with the first panic of one of its tasks, which one depending on timing;
// its post panic comes only if no task panicked. It reports whether the rule
// held.
func (t *Tree) checkGroup(n *Node, tasks []*Node, errorf func(format string, args ...any)) bool {
	allowed := map[*Boom]bool{}
	for _, k := range tasks {
		if v := t.exitVal[k.ID].Load(); v != nil {
			allowed[v] = true
		}
	}
	got, post := t.exitVal[n.ID].Load(), t.postHit[n.ID].Load()
	switch {
	case got == nil && (len(allowed) > 0 || n.Post != nil):
		errorf("group node %d (%s) returned normally, yet a task or its post panicked", n.ID, t.Name(n))
	case got != nil && post && (got != n.Post || len(allowed) > 0):
		errorf("group node %d (%s) reached its post panic with %d task panics, and exited with %v", n.ID, t.Name(n), len(allowed), got)
	case got != nil && !post && !allowed[got]:
		errorf("group node %d (%s) panicked with %v, not with the panic of one of its %d tasks", n.ID, t.Name(n), got, len(tasks))
	default:
		return true
	}
	return false
}
