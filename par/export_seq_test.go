package par

// SetSeqFlip makes the ...Seq functions change between working alone and on
// the pool as often as they can, so that tests go through every transition.
func SetSeqFlip(on bool) { seqFlip.Store(on) }

// SeqTimeAlone is the time alone that a pass's judges take when its stint
// alone measured alone, its pieces fill, emit and work, and its try's dry
// pieces, if dries > 0, the least serial part dryS and work dryW.
func SeqTimeAlone(alone, fill, emit, work, dryS, dryW float64, dries int) float64 {
	r := seqRun[int, struct{}]{seqPool: new(seqPool[int, struct{}])}
	r.costAlone, r.costFill, r.costEmit, r.costWork = alone, fill, emit, work
	r.dries, r.dryCosts.Serial, r.dryCosts.Work = dries, dryS, dryW
	return r.timeAlone()
}
