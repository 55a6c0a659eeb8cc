	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"mixed.c"
	.globl	weighted                        # -- Begin function weighted
	.p2align	1
	.type	weighted,@function
weighted:                               # @weighted
# %bb.0:
	fmv.d.x	fa0, zero
	blez	a2, .LBB0_2
.LBB0_1:                                # =>This Inner Loop Header: Depth=1
	lw	a3, 0(a0)
	fld	ft0, 0(a1)
	fcvt.d.w	ft1, a3
	fmadd.d	fa0, ft1, ft0, fa0
	addi	a2, a2, -1
	addi	a1, a1, 8
	addi	a0, a0, 4
	bnez	a2, .LBB0_1
.LBB0_2:
	ret
.Lfunc_end0:
	.size	weighted, .Lfunc_end0-weighted
                                        # -- End function
	.globl	quantize                        # -- Begin function quantize
	.p2align	1
	.type	quantize,@function
quantize:                               # @quantize
# %bb.0:
	blez	a2, .LBB1_2
.LBB1_1:                                # =>This Inner Loop Header: Depth=1
	flw	ft0, 0(a1)
	fmul.s	ft0, ft0, fa0
	fcvt.w.s	a3, ft0, rtz
	sw	a3, 0(a0)
	addi	a2, a2, -1
	addi	a0, a0, 4
	addi	a1, a1, 4
	bnez	a2, .LBB1_1
.LBB1_2:
	ret
.Lfunc_end1:
	.size	quantize, .Lfunc_end1-quantize
                                        # -- End function
	.globl	norm2                           # -- Begin function norm2
	.p2align	1
	.type	norm2,@function
norm2:                                  # @norm2
# %bb.0:
	fmv.d.x	fa0, zero
	blez	a1, .LBB2_2
.LBB2_1:                                # =>This Inner Loop Header: Depth=1
	fld	ft0, 0(a0)
	fmadd.d	fa0, ft0, ft0, fa0
	addi	a1, a1, -1
	addi	a0, a0, 8
	bnez	a1, .LBB2_1
.LBB2_2:
	fsqrt.d	ft0, fa0
	feq.d	a0, ft0, ft0
	beqz	a0, .LBB2_4
# %bb.3:
	fmv.d	fa0, ft0
	ret
.LBB2_4:
	tail	sqrt@plt
.Lfunc_end2:
	.size	norm2, .Lfunc_end2-norm2
                                        # -- End function
	.globl	ratios                          # -- Begin function ratios
	.p2align	1
	.type	ratios,@function
ratios:                                 # @ratios
# %bb.0:
	blez	a6, .LBB3_2
.LBB3_1:                                # =>This Inner Loop Header: Depth=1
	fld	ft0, 0(a2)
	fld	ft1, 0(a3)
	lw	a7, 0(a4)
	lw	t0, 0(a5)
	fdiv.d	ft0, ft0, ft1
	fsd	ft0, 0(a0)
	divw	t1, a7, t0
	mulw	t0, t1, t0
	subw	a7, a7, t0
	addw	a7, a7, t1
	sw	a7, 0(a1)
	addi	a6, a6, -1
	addi	a1, a1, 4
	addi	a5, a5, 4
	addi	a4, a4, 4
	addi	a0, a0, 8
	addi	a3, a3, 8
	addi	a2, a2, 8
	bnez	a6, .LBB3_1
.LBB3_2:
	ret
.Lfunc_end3:
	.size	ratios, .Lfunc_end3-ratios
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
