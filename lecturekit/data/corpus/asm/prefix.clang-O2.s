	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"prefix.c"
	.globl	prefix_i64                      # -- Begin function prefix_i64
	.p2align	1
	.type	prefix_i64,@function
prefix_i64:                             # @prefix_i64
# %bb.0:
	blez	a2, .LBB0_3
# %bb.1:
	li	a3, 0
.LBB0_2:                                # =>This Inner Loop Header: Depth=1
	ld	a4, 0(a1)
	add	a3, a3, a4
	sd	a3, 0(a0)
	addi	a2, a2, -1
	addi	a0, a0, 8
	addi	a1, a1, 8
	bnez	a2, .LBB0_2
.LBB0_3:
	ret
.Lfunc_end0:
	.size	prefix_i64, .Lfunc_end0-prefix_i64
                                        # -- End function
	.globl	prefix_f64                      # -- Begin function prefix_f64
	.p2align	1
	.type	prefix_f64,@function
prefix_f64:                             # @prefix_f64
# %bb.0:
	blez	a2, .LBB1_3
# %bb.1:
	fmv.d.x	ft0, zero
.LBB1_2:                                # =>This Inner Loop Header: Depth=1
	fld	ft1, 0(a1)
	fadd.d	ft0, ft0, ft1
	fsd	ft0, 0(a0)
	addi	a2, a2, -1
	addi	a0, a0, 8
	addi	a1, a1, 8
	bnez	a2, .LBB1_2
.LBB1_3:
	ret
.Lfunc_end1:
	.size	prefix_f64, .Lfunc_end1-prefix_f64
                                        # -- End function
	.globl	histogram                       # -- Begin function histogram
	.p2align	1
	.type	histogram,@function
histogram:                              # @histogram
# %bb.0:
	blez	a2, .LBB2_2
.LBB2_1:                                # =>This Inner Loop Header: Depth=1
	lbu	a3, 0(a1)
	slli	a3, a3, 2
	add	a3, a3, a0
	lw	a4, 0(a3)
	addiw	a4, a4, 1
	sw	a4, 0(a3)
	addi	a2, a2, -1
	addi	a1, a1, 1
	bnez	a2, .LBB2_1
.LBB2_2:
	ret
.Lfunc_end2:
	.size	histogram, .Lfunc_end2-histogram
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
