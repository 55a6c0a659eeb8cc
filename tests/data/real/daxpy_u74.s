	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"daxpy.c"
	.globl	daxpy
	.p2align	1
	.type	daxpy,@function
daxpy:
	lui	a0, %hi(C)
	lui	a1, %hi(B)
	addi	a0, a0, %lo(C)
	addi	a1, a1, %lo(B)
	li	a2, 1000
.LBB0_1:
	fld	ft0, 0(a1)
	fld	ft1, 0(a0)
	fmadd.d	ft0, fa0, ft0, ft1
	fsd	ft0, 0(a0)
	addi	a2, a2, -1
	addi	a0, a0, 8
	addi	a1, a1, 8
	bnez	a2, .LBB0_1
	ret
.Lfunc_end0:
	.size	daxpy, .Lfunc_end0-daxpy

	.globl	daxpy_p
	.p2align	1
	.type	daxpy_p,@function
daxpy_p:
	blez	a2, .LBB1_2
.LBB1_1:
	fld	ft0, 0(a1)
	fld	ft1, 0(a0)
	fmadd.d	ft0, fa0, ft0, ft1
	fsd	ft0, 0(a0)
	addi	a2, a2, -1
	addi	a0, a0, 8
	addi	a1, a1, 8
	bnez	a2, .LBB1_1
.LBB1_2:
	ret
.Lfunc_end1:
	.size	daxpy_p, .Lfunc_end1-daxpy_p

	.type	B,@object
	.bss
	.globl	B
	.p2align	3
B:
	.zero	8000
	.size	B, 8000

	.type	C,@object
	.globl	C
	.p2align	3
C:
	.zero	8000
	.size	C, 8000

	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
