#include "textflag.h"

// func prefetchLines(p unsafe.Pointer, lines int)
// PRFM PLDL1KEEP on lines >= 1 lines of 64 bytes from p; a prefetch never
// faults.
TEXT ·prefetchLines(SB), NOSPLIT, $0-16
	MOVD p+0(FP), R0
	MOVD lines+8(FP), R1
loop:
	PRFM (R0), PLDL1KEEP
	ADD  $64, R0
	SUBS $1, R1
	BNE  loop
	RET
