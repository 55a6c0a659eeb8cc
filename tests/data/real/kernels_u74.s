	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"kernels.c"
	.globl	dot
	.p2align	1
	.type	dot,@function
dot:
	li	a3, 0
	blez	a2, .LBB0_2
.LBB0_1:
	lw	a4, 0(a0)
	lw	a5, 0(a1)
	mul	a4, a5, a4
	add	a3, a3, a4
	addi	a2, a2, -1
	addi	a1, a1, 4
	addi	a0, a0, 4
	bnez	a2, .LBB0_1
.LBB0_2:
	mv	a0, a3
	ret
.Lfunc_end0:
	.size	dot, .Lfunc_end0-dot

	.globl	divide
	.p2align	1
	.type	divide,@function
divide:
	divw	a3, a0, a1
	slliw	a4, a0, 3
	mulw	a5, a3, a1
	addw	a1, a3, a4
	subw	a3, a0, a5
	mv	a0, a1
	sw	a3, 0(a2)
	ret
.Lfunc_end1:
	.size	divide, .Lfunc_end1-divide

	.globl	poly
	.p2align	1
	.type	poly,@function
poly:
	fld	ft0, 24(a0)
	fld	ft1, 16(a0)
	fmadd.d	ft0, ft0, fa0, ft1
	fld	ft1, 8(a0)
	fmadd.d	ft0, ft0, fa0, ft1
	fld	ft1, 0(a0)
	fmadd.d	fa0, ft0, fa0, ft1
	ret
.Lfunc_end2:
	.size	poly, .Lfunc_end2-poly

	.globl	bytes
	.p2align	1
	.type	bytes,@function
bytes:
	add	a1, a1, a0
	lb	a2, 0(a1)
	lbu	a0, 2(a1)
	xori	a2, a2, 90
	sb	a2, 1(a1)
	ret
.Lfunc_end3:
	.size	bytes, .Lfunc_end3-bytes

	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
