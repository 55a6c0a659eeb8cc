	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"minmax.c"
	.globl	minmax_i32                      # -- Begin function minmax_i32
	.p2align	1
	.type	minmax_i32,@function
minmax_i32:                             # @minmax_i32
# %bb.0:
	lw	a4, 0(a0)
	li	a3, 2
	blt	a1, a3, .LBB0_7
# %bb.1:
	addi	a1, a1, -1
	addi	a3, a0, 4
	mv	a5, a4
	j	.LBB0_3
.LBB0_2:                                #   in Loop: Header=BB0_3 Depth=1
	addi	a1, a1, -1
	addi	a3, a3, 4
	mv	a4, a6
	mv	a5, a0
	beqz	a1, .LBB0_8
.LBB0_3:                                # =>This Inner Loop Header: Depth=1
	lw	a0, 0(a3)
	mv	a6, a0
	blt	a0, a4, .LBB0_5
# %bb.4:                                #   in Loop: Header=BB0_3 Depth=1
	mv	a6, a4
.LBB0_5:                                #   in Loop: Header=BB0_3 Depth=1
	blt	a5, a0, .LBB0_2
# %bb.6:                                #   in Loop: Header=BB0_3 Depth=1
	mv	a0, a5
	j	.LBB0_2
.LBB0_7:
	mv	a0, a4
	mv	a6, a4
.LBB0_8:
	sw	a6, 0(a2)
	ret
.Lfunc_end0:
	.size	minmax_i32, .Lfunc_end0-minmax_i32
                                        # -- End function
	.globl	range_f32                       # -- Begin function range_f32
	.p2align	1
	.type	range_f32,@function
range_f32:                              # @range_f32
# %bb.0:
	flw	ft0, 0(a0)
	li	a2, 2
	blt	a1, a2, .LBB1_4
# %bb.1:
	addi	a1, a1, -1
	addi	a0, a0, 4
	fmv.s	ft1, ft0
.LBB1_2:                                # =>This Inner Loop Header: Depth=1
	flw	ft2, 0(a0)
	fmin.s	ft1, ft1, ft2
	fmax.s	ft0, ft0, ft2
	addi	a1, a1, -1
	addi	a0, a0, 4
	bnez	a1, .LBB1_2
# %bb.3:
	fsub.s	fa0, ft0, ft1
	ret
.LBB1_4:
	fmv.s	ft1, ft0
	fsub.s	fa0, ft0, ft1
	ret
.Lfunc_end1:
	.size	range_f32, .Lfunc_end1-range_f32
                                        # -- End function
	.globl	clamp_i32                       # -- Begin function clamp_i32
	.p2align	1
	.type	clamp_i32,@function
clamp_i32:                              # @clamp_i32
# %bb.0:
	bgtz	a2, .LBB2_3
.LBB2_1:
	ret
.LBB2_2:                                #   in Loop: Header=BB2_3 Depth=1
	sw	a7, 0(a0)
	addi	a2, a2, -1
	addi	a0, a0, 4
	addi	a1, a1, 4
	beqz	a2, .LBB2_1
.LBB2_3:                                # =>This Inner Loop Header: Depth=1
	lw	a5, 0(a1)
	mv	a6, a4
	blt	a4, a5, .LBB2_5
# %bb.4:                                #   in Loop: Header=BB2_3 Depth=1
	mv	a6, a5
.LBB2_5:                                #   in Loop: Header=BB2_3 Depth=1
	mv	a7, a3
	blt	a5, a3, .LBB2_2
# %bb.6:                                #   in Loop: Header=BB2_3 Depth=1
	mv	a7, a6
	j	.LBB2_2
.Lfunc_end2:
	.size	clamp_i32, .Lfunc_end2-clamp_i32
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
