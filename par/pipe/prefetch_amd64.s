#include "textflag.h"

// func prefetchLines(p unsafe.Pointer, lines int)
// PREFETCHT0 on lines >= 1 lines of 64 bytes from p; a prefetch never faults.
TEXT ·prefetchLines(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ lines+8(FP), CX
loop:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	DECQ CX
	JNZ  loop
	RET
