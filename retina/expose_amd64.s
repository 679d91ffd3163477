//go:build !purego

#include "textflag.h"

// func exposeCells(targets *float32, level *float64, x *float64, k *exposeConsts, light bool, out *Bits, noisy *Bits)
//
// For the 400 cells, eight at a time (50 steps of two groups of four; a word of states every
// 8 steps, the last word after 2):
//	d = level - g
//	fL, fE = d's sign bit set ? (riseL, riseEnd) : (decayL, decayEnd)
//	x = (g + d*fL) - thr            (each product rounded: no fused multiply-add)
//	level = g + d*fE
//	noisy bit = x*x < band2 (ordered: a NaN is not in the band)
//	state bit = the sign bit of x (of 0 - x with light)
TEXT ·exposeCells(SB), NOSPLIT, $0-56
	MOVQ targets+0(FP), SI
	MOVQ level+8(FP), DI
	MOVQ x+16(FP), R8
	MOVQ k+24(FP), AX
	MOVQ out+40(FP), R9
	MOVQ noisy+48(FP), R10
	VBROADCASTSD 0(AX), Y10  // decayL
	VBROADCASTSD 8(AX), Y11  // riseL
	VBROADCASTSD 16(AX), Y12 // decayEnd
	VBROADCASTSD 24(AX), Y13 // riseEnd
	VBROADCASTSD 32(AX), Y14 // thr
	VBROADCASTSD 40(AX), Y15 // band2
	VXORPD Y9, Y9, Y9        // +0
	MOVQ $50, R12            // pairs of groups left
	XORQ CX, CX              // the group's first bit in the word
	XORQ R11, R11            // states of the word
	XORQ DX, DX            // noisy cells of the word

loop:
	VCVTPS2PD (SI), Y0
	VCVTPS2PD 16(SI), Y8
	VMOVUPD (DI), Y1
	VMOVUPD 32(DI), Y7
	VSUBPD Y0, Y1, Y2
	VSUBPD Y8, Y7, Y7
	VBLENDVPD Y2, Y11, Y10, Y3
	VBLENDVPD Y7, Y11, Y10, Y1
	VBLENDVPD Y2, Y13, Y12, Y4
	VBLENDVPD Y7, Y13, Y12, Y6
	VMULPD Y3, Y2, Y5
	VMULPD Y1, Y7, Y1
	VADDPD Y5, Y0, Y5
	VADDPD Y1, Y8, Y1
	VSUBPD Y14, Y5, Y5
	VSUBPD Y14, Y1, Y1
	VMULPD Y4, Y2, Y2
	VMULPD Y6, Y7, Y7
	VADDPD Y2, Y0, Y2
	VADDPD Y7, Y8, Y7
	VMOVUPD Y2, (DI)
	VMOVUPD Y7, 32(DI)
	VMOVUPD Y5, (R8)
	VMOVUPD Y1, 32(R8)
	VMULPD Y5, Y5, Y3
	VMULPD Y1, Y1, Y4
	VCMPPD $0x11, Y15, Y3, Y3 // LT_OQ: x*x < band2
	VCMPPD $0x11, Y15, Y4, Y4
	VMOVMSKPD Y3, AX
	VMOVMSKPD Y4, R13
	SHLQ $4, R13
	ORQ R13, AX
	CMPB light+32(FP), $0
	JEQ dark
	VSUBPD Y5, Y9, Y5 // 0 - x
	VSUBPD Y1, Y9, Y1

dark:
	VMOVMSKPD Y5, BX
	VMOVMSKPD Y1, R13
	SHLQ $4, R13
	ORQ R13, BX
	SHLQ CX, AX
	SHLQ CX, BX
	ORQ AX, DX
	ORQ BX, R11
	ADDQ $32, SI
	ADDQ $64, DI
	ADDQ $64, R8
	ADDQ $8, CX
	CMPQ CX, $64
	JNE next
	MOVQ R11, (R9)
	MOVQ DX, (R10)
	ADDQ $8, R9
	ADDQ $8, R10
	XORQ CX, CX
	XORQ R11, R11
	XORQ DX, DX

next:
	DECQ R12
	JNE loop
	MOVQ R11, (R9) // the last word's 16 cells
	MOVQ DX, (R10)
	VZEROUPPER
	RET

// func finishCells(m *[N]float64, add *[N]float64, den *[N]float64, v *[N]float64)
//
// v[i] = min((m[i] + add[i]) / den[i], 1) for the 400 cells, four at a time, as Go's min
// gives it: the sum when it is a NaN (VMINPD returns its second source then).
TEXT ·finishCells(SB), NOSPLIT, $0-32
	MOVQ m+0(FP), SI
	MOVQ add+8(FP), DI
	MOVQ den+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ $0x3ff0000000000000, AX // 1.0
	MOVQ AX, X14
	VBROADCASTSD X14, Y14
	MOVQ $100, CX

finish:
	VMOVUPD (SI), Y0
	VADDPD (DI), Y0, Y0
	VDIVPD (R8), Y0, Y0
	VMINPD Y0, Y14, Y0
	VMOVUPD Y0, (R9)
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $32, R8
	ADDQ $32, R9
	DECQ CX
	JNE finish
	VZEROUPPER
	RET
