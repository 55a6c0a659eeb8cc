	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"stencil.c"
	.section	.sdata,"aw",@progbits
	.p2align	3                               # -- Begin function stencil3
.LCPI0_0:
	.quad	0x3fd5555555555555              # double 0.33333333333333331
	.text
	.globl	stencil3
	.p2align	1
	.type	stencil3,@function
stencil3:                               # @stencil3
# %bb.0:
	li	a3, 3
	blt	a2, a3, .LBB0_3
# %bb.1:
	fld	ft0, 8(a1)
.LBB0_4:                                # Label of block must be emitted
	auipc	a3, %pcrel_hi(.LCPI0_0)
	addi	a3, a3, %pcrel_lo(.LBB0_4)
	fld	ft1, 0(a3)
	addi	a0, a0, 8
	addi	a1, a1, 16
	addi	a2, a2, -2
.LBB0_2:                                # =>This Inner Loop Header: Depth=1
	fld	ft2, -16(a1)
	fadd.d	ft2, ft2, ft0
	fld	ft0, 0(a1)
	fadd.d	ft2, ft2, ft0
	fmul.d	ft2, ft2, ft1
	fsd	ft2, 0(a0)
	addi	a0, a0, 8
	addi	a2, a2, -1
	addi	a1, a1, 8
	bnez	a2, .LBB0_2
.LBB0_3:
	ret
.Lfunc_end0:
	.size	stencil3, .Lfunc_end0-stencil3
                                        # -- End function
	.globl	blur5                           # -- Begin function blur5
	.p2align	1
	.type	blur5,@function
blur5:                                  # @blur5
# %bb.0:
	li	a3, 5
	blt	a2, a3, .LBB1_3
# %bb.1:
	lw	t2, 0(a1)
	lw	a3, 4(a1)
	lw	a5, 8(a1)
	addi	a1, a1, 16
	addi	a2, a2, -4
	addi	a0, a0, 8
	li	a6, 6
.LBB1_2:                                # =>This Inner Loop Header: Depth=1
	mv	a7, a3
	mv	a3, a5
	lw	a5, -4(a1)
	mulw	t0, a3, a6
	lw	t1, 0(a1)
	addw	a4, a5, a7
	slliw	t3, a4, 2
	addw	a4, t0, t2
	addw	a4, a4, t1
	addw	a4, a4, t3
	sraiw	a4, a4, 4
	sw	a4, 0(a0)
	addi	a1, a1, 4
	addi	a2, a2, -1
	addi	a0, a0, 4
	mv	t2, a7
	bnez	a2, .LBB1_2
.LBB1_3:
	ret
.Lfunc_end1:
	.size	blur5, .Lfunc_end1-blur5
                                        # -- End function
	.globl	daxpy                           # -- Begin function daxpy
	.p2align	1
	.type	daxpy,@function
daxpy:                                  # @daxpy
# %bb.0:
	blez	a2, .LBB2_2
.LBB2_1:                                # =>This Inner Loop Header: Depth=1
	fld	ft0, 0(a1)
	fld	ft1, 0(a0)
	fmadd.d	ft0, fa0, ft0, ft1
	fsd	ft0, 0(a0)
	addi	a2, a2, -1
	addi	a0, a0, 8
	addi	a1, a1, 8
	bnez	a2, .LBB2_1
.LBB2_2:
	ret
.Lfunc_end2:
	.size	daxpy, .Lfunc_end2-daxpy
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
