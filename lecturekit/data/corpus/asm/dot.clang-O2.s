	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"dot.c"
	.globl	dot_f64                         # -- Begin function dot_f64
	.p2align	1
	.type	dot_f64,@function
dot_f64:                                # @dot_f64
# %bb.0:
	fmv.d.x	fa0, zero
	blez	a2, .LBB0_2
.LBB0_1:                                # =>This Inner Loop Header: Depth=1
	fld	ft0, 0(a0)
	fld	ft1, 0(a1)
	fmadd.d	fa0, ft0, ft1, fa0
	addi	a2, a2, -1
	addi	a1, a1, 8
	addi	a0, a0, 8
	bnez	a2, .LBB0_1
.LBB0_2:
	ret
.Lfunc_end0:
	.size	dot_f64, .Lfunc_end0-dot_f64
                                        # -- End function
	.globl	dot_f32                         # -- Begin function dot_f32
	.p2align	1
	.type	dot_f32,@function
dot_f32:                                # @dot_f32
# %bb.0:
	fmv.w.x	fa0, zero
	blez	a2, .LBB1_2
.LBB1_1:                                # =>This Inner Loop Header: Depth=1
	flw	ft0, 0(a0)
	flw	ft1, 0(a1)
	fmadd.s	fa0, ft0, ft1, fa0
	addi	a2, a2, -1
	addi	a1, a1, 4
	addi	a0, a0, 4
	bnez	a2, .LBB1_1
.LBB1_2:
	ret
.Lfunc_end1:
	.size	dot_f32, .Lfunc_end1-dot_f32
                                        # -- End function
	.globl	dot_i32                         # -- Begin function dot_i32
	.p2align	1
	.type	dot_i32,@function
dot_i32:                                # @dot_i32
# %bb.0:
	li	a3, 0
	blez	a2, .LBB2_2
.LBB2_1:                                # =>This Inner Loop Header: Depth=1
	lw	a4, 0(a0)
	lw	a5, 0(a1)
	mul	a4, a5, a4
	add	a3, a3, a4
	addi	a2, a2, -1
	addi	a1, a1, 4
	addi	a0, a0, 4
	bnez	a2, .LBB2_1
.LBB2_2:
	mv	a0, a3
	ret
.Lfunc_end2:
	.size	dot_i32, .Lfunc_end2-dot_i32
                                        # -- End function
	.globl	dot4acc                         # -- Begin function dot4acc
	.p2align	1
	.type	dot4acc,@function
dot4acc:                                # @dot4acc
# %bb.0:
	li	a3, 4
	blt	a2, a3, .LBB3_4
# %bb.1:
	addi	a1, a1, 16
	addi	a0, a0, 16
	fmv.d.x	ft0, zero
	li	a3, 3
	fmv.d	ft1, ft0
	fmv.d	ft2, ft0
	fmv.d	ft3, ft0
.LBB3_2:                                # =>This Inner Loop Header: Depth=1
	fld	ft4, -16(a0)
	fld	ft5, -16(a1)
	fld	ft6, -8(a0)
	fld	ft7, -8(a1)
	fld	fa0, 0(a0)
	fld	fa1, 0(a1)
	fld	fa2, 8(a0)
	fld	fa3, 8(a1)
	fmadd.d	ft3, ft4, ft5, ft3
	fmadd.d	ft2, ft6, ft7, ft2
	fmadd.d	ft1, fa0, fa1, ft1
	fmadd.d	ft0, fa2, fa3, ft0
	addi	a3, a3, 4
	addi	a1, a1, 32
	addi	a0, a0, 32
	blt	a3, a2, .LBB3_2
# %bb.3:
	fadd.d	ft2, ft3, ft2
	fadd.d	ft0, ft1, ft0
	fadd.d	fa0, ft2, ft0
	ret
.LBB3_4:
	fmv.d.x	fa0, zero
	ret
.Lfunc_end3:
	.size	dot4acc, .Lfunc_end3-dot4acc
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
