package par

// SetSeqFlip makes the ...Seq functions change between working alone and on
// the pool as often as they can, so that tests go through every transition.
func SetSeqFlip(on bool) { seqFlip.Store(on) }
