	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"dot.c"
	.globl	dot_f64                         # -- Begin function dot_f64
	.p2align	1
	.type	dot_f64,@function
dot_f64:                                # @dot_f64
# %bb.0:
	blez	a2, .LBB0_4
# %bb.1:
	addi	a3, a2, -1
	li	a4, 7
	andi	a6, a2, 7
	bgeu	a3, a4, .LBB0_5
# %bb.2:
	li	a2, 0
	fmv.d.x	fa0, zero
	bnez	a6, .LBB0_8
.LBB0_3:
	ret
.LBB0_4:
	fmv.d.x	fa0, zero
	ret
.LBB0_5:
	andi	a3, a2, -8
	li	a2, 0
	neg	a4, a3
	addi	a5, a1, 32
	addi	a3, a0, 32
	fmv.d.x	fa0, zero
.LBB0_6:                                # =>This Inner Loop Header: Depth=1
	fld	ft0, -32(a3)
	fld	ft1, -32(a5)
	fmadd.d	ft0, ft0, ft1, fa0
	fld	ft1, -24(a3)
	fld	ft2, -24(a5)
	fmadd.d	ft0, ft1, ft2, ft0
	fld	ft1, -16(a3)
	fld	ft2, -16(a5)
	fmadd.d	ft0, ft1, ft2, ft0
	fld	ft1, -8(a3)
	fld	ft2, -8(a5)
	fmadd.d	ft0, ft1, ft2, ft0
	fld	ft1, 0(a3)
	fld	ft2, 0(a5)
	fmadd.d	ft0, ft1, ft2, ft0
	fld	ft1, 8(a3)
	fld	ft2, 8(a5)
	fmadd.d	ft0, ft1, ft2, ft0
	fld	ft1, 16(a3)
	fld	ft2, 16(a5)
	fmadd.d	ft0, ft1, ft2, ft0
	fld	ft1, 24(a3)
	fld	ft2, 24(a5)
	fmadd.d	fa0, ft1, ft2, ft0
	addi	a2, a2, -8
	addi	a5, a5, 64
	addi	a3, a3, 64
	bne	a4, a2, .LBB0_6
# %bb.7:
	neg	a2, a2
	beqz	a6, .LBB0_3
.LBB0_8:
	slli	a3, a2, 3
	add	a4, a0, a3
	add	a3, a3, a1
	fld	ft0, 0(a4)
	fld	ft1, 0(a3)
	fmadd.d	fa0, ft0, ft1, fa0
	li	a3, 1
	beq	a6, a3, .LBB0_3
# %bb.9:
	addi	a3, a2, 1
	slli	a3, a3, 3
	add	a4, a0, a3
	add	a3, a3, a1
	fld	ft0, 0(a4)
	fld	ft1, 0(a3)
	fmadd.d	fa0, ft0, ft1, fa0
	li	a3, 2
	beq	a6, a3, .LBB0_3
# %bb.10:
	addi	a3, a2, 2
	slli	a3, a3, 3
	add	a4, a0, a3
	add	a3, a3, a1
	fld	ft0, 0(a4)
	fld	ft1, 0(a3)
	fmadd.d	fa0, ft0, ft1, fa0
	li	a3, 3
	beq	a6, a3, .LBB0_3
# %bb.11:
	addi	a3, a2, 3
	slli	a3, a3, 3
	add	a4, a0, a3
	add	a3, a3, a1
	fld	ft0, 0(a4)
	fld	ft1, 0(a3)
	fmadd.d	fa0, ft0, ft1, fa0
	li	a3, 4
	beq	a6, a3, .LBB0_3
# %bb.12:
	addi	a3, a2, 4
	slli	a3, a3, 3
	add	a4, a0, a3
	add	a3, a3, a1
	fld	ft0, 0(a4)
	fld	ft1, 0(a3)
	fmadd.d	fa0, ft0, ft1, fa0
	li	a3, 5
	beq	a6, a3, .LBB0_3
# %bb.13:
	addi	a3, a2, 5
	slli	a3, a3, 3
	add	a4, a0, a3
	add	a3, a3, a1
	fld	ft0, 0(a4)
	fld	ft1, 0(a3)
	fmadd.d	fa0, ft0, ft1, fa0
	li	a3, 6
	beq	a6, a3, .LBB0_3
# %bb.14:
	addi	a2, a2, 6
	slli	a2, a2, 3
	add	a0, a0, a2
	add	a1, a1, a2
	fld	ft0, 0(a0)
	fld	ft1, 0(a1)
	fmadd.d	fa0, ft0, ft1, fa0
	ret
.Lfunc_end0:
	.size	dot_f64, .Lfunc_end0-dot_f64
                                        # -- End function
	.globl	dot_f32                         # -- Begin function dot_f32
	.p2align	1
	.type	dot_f32,@function
dot_f32:                                # @dot_f32
# %bb.0:
	blez	a2, .LBB1_4
# %bb.1:
	addi	a3, a2, -1
	li	a4, 7
	andi	a6, a2, 7
	bgeu	a3, a4, .LBB1_5
# %bb.2:
	li	a2, 0
	fmv.w.x	fa0, zero
	bnez	a6, .LBB1_8
.LBB1_3:
	ret
.LBB1_4:
	fmv.w.x	fa0, zero
	ret
.LBB1_5:
	andi	a3, a2, -8
	li	a2, 0
	neg	a4, a3
	addi	a5, a1, 16
	addi	a3, a0, 16
	fmv.w.x	fa0, zero
.LBB1_6:                                # =>This Inner Loop Header: Depth=1
	flw	ft0, -16(a3)
	flw	ft1, -16(a5)
	fmadd.s	ft0, ft0, ft1, fa0
	flw	ft1, -12(a3)
	flw	ft2, -12(a5)
	fmadd.s	ft0, ft1, ft2, ft0
	flw	ft1, -8(a3)
	flw	ft2, -8(a5)
	fmadd.s	ft0, ft1, ft2, ft0
	flw	ft1, -4(a3)
	flw	ft2, -4(a5)
	fmadd.s	ft0, ft1, ft2, ft0
	flw	ft1, 0(a3)
	flw	ft2, 0(a5)
	fmadd.s	ft0, ft1, ft2, ft0
	flw	ft1, 4(a3)
	flw	ft2, 4(a5)
	fmadd.s	ft0, ft1, ft2, ft0
	flw	ft1, 8(a3)
	flw	ft2, 8(a5)
	fmadd.s	ft0, ft1, ft2, ft0
	flw	ft1, 12(a3)
	flw	ft2, 12(a5)
	fmadd.s	fa0, ft1, ft2, ft0
	addi	a2, a2, -8
	addi	a5, a5, 32
	addi	a3, a3, 32
	bne	a4, a2, .LBB1_6
# %bb.7:
	neg	a2, a2
	beqz	a6, .LBB1_3
.LBB1_8:
	slli	a3, a2, 2
	add	a4, a0, a3
	add	a3, a3, a1
	flw	ft0, 0(a4)
	flw	ft1, 0(a3)
	fmadd.s	fa0, ft0, ft1, fa0
	li	a3, 1
	beq	a6, a3, .LBB1_3
# %bb.9:
	addi	a3, a2, 1
	slli	a3, a3, 2
	add	a4, a0, a3
	add	a3, a3, a1
	flw	ft0, 0(a4)
	flw	ft1, 0(a3)
	fmadd.s	fa0, ft0, ft1, fa0
	li	a3, 2
	beq	a6, a3, .LBB1_3
# %bb.10:
	addi	a3, a2, 2
	slli	a3, a3, 2
	add	a4, a0, a3
	add	a3, a3, a1
	flw	ft0, 0(a4)
	flw	ft1, 0(a3)
	fmadd.s	fa0, ft0, ft1, fa0
	li	a3, 3
	beq	a6, a3, .LBB1_3
# %bb.11:
	addi	a3, a2, 3
	slli	a3, a3, 2
	add	a4, a0, a3
	add	a3, a3, a1
	flw	ft0, 0(a4)
	flw	ft1, 0(a3)
	fmadd.s	fa0, ft0, ft1, fa0
	li	a3, 4
	beq	a6, a3, .LBB1_3
# %bb.12:
	addi	a3, a2, 4
	slli	a3, a3, 2
	add	a4, a0, a3
	add	a3, a3, a1
	flw	ft0, 0(a4)
	flw	ft1, 0(a3)
	fmadd.s	fa0, ft0, ft1, fa0
	li	a3, 5
	beq	a6, a3, .LBB1_3
# %bb.13:
	addi	a3, a2, 5
	slli	a3, a3, 2
	add	a4, a0, a3
	add	a3, a3, a1
	flw	ft0, 0(a4)
	flw	ft1, 0(a3)
	fmadd.s	fa0, ft0, ft1, fa0
	li	a3, 6
	beq	a6, a3, .LBB1_3
# %bb.14:
	addi	a2, a2, 6
	slli	a2, a2, 2
	add	a0, a0, a2
	add	a1, a1, a2
	flw	ft0, 0(a0)
	flw	ft1, 0(a1)
	fmadd.s	fa0, ft0, ft1, fa0
	ret
.Lfunc_end1:
	.size	dot_f32, .Lfunc_end1-dot_f32
                                        # -- End function
	.globl	dot_i32                         # -- Begin function dot_i32
	.p2align	1
	.type	dot_i32,@function
dot_i32:                                # @dot_i32
# %bb.0:
	blez	a2, .LBB2_4
# %bb.1:
	addi	a3, a2, -1
	li	a4, 7
	andi	a6, a2, 7
	bgeu	a3, a4, .LBB2_5
# %bb.2:
	li	a4, 0
	li	t0, 0
	bnez	a6, .LBB2_8
.LBB2_3:
	mv	a0, t0
	ret
.LBB2_4:
	li	a0, 0
	ret
.LBB2_5:
	andi	a3, a2, -8
	li	a4, 0
	li	t0, 0
	neg	a7, a3
	addi	a3, a1, 16
	addi	a5, a0, 16
.LBB2_6:                                # =>This Inner Loop Header: Depth=1
	lw	t1, -16(a5)
	lw	a2, -16(a3)
	mul	t1, a2, t1
	lw	t2, -12(a5)
	lw	a2, -12(a3)
	add	t0, t0, t1
	mul	t1, a2, t2
	lw	t2, -8(a5)
	lw	a2, -8(a3)
	add	t0, t0, t1
	mul	t1, a2, t2
	lw	t2, -4(a5)
	lw	a2, -4(a3)
	add	t0, t0, t1
	mul	t1, a2, t2
	lw	t2, 0(a5)
	lw	a2, 0(a3)
	add	t0, t0, t1
	mul	t1, a2, t2
	lw	t2, 4(a5)
	lw	a2, 4(a3)
	add	t0, t0, t1
	mul	a2, a2, t2
	lw	t1, 8(a5)
	lw	t2, 8(a3)
	add	t0, t0, a2
	lw	t3, 12(a5)
	mul	a2, t2, t1
	lw	t1, 12(a3)
	add	t0, t0, a2
	mul	a2, t1, t3
	add	t0, t0, a2
	addi	a4, a4, -8
	addi	a3, a3, 32
	addi	a5, a5, 32
	bne	a7, a4, .LBB2_6
# %bb.7:
	neg	a4, a4
	beqz	a6, .LBB2_3
.LBB2_8:
	slli	a3, a4, 2
	add	a5, a0, a3
	add	a3, a3, a1
	lw	a5, 0(a5)
	lw	a3, 0(a3)
	mul	a3, a3, a5
	li	a5, 1
	add	t0, t0, a3
	beq	a6, a5, .LBB2_3
# %bb.9:
	addi	a3, a4, 1
	slli	a3, a3, 2
	add	a5, a0, a3
	add	a3, a3, a1
	lw	a5, 0(a5)
	lw	a3, 0(a3)
	mul	a3, a3, a5
	li	a5, 2
	add	t0, t0, a3
	beq	a6, a5, .LBB2_3
# %bb.10:
	addi	a3, a4, 2
	slli	a3, a3, 2
	add	a5, a0, a3
	add	a3, a3, a1
	lw	a5, 0(a5)
	lw	a3, 0(a3)
	mul	a3, a3, a5
	li	a5, 3
	add	t0, t0, a3
	beq	a6, a5, .LBB2_3
# %bb.11:
	addi	a3, a4, 3
	slli	a3, a3, 2
	add	a5, a0, a3
	add	a3, a3, a1
	lw	a5, 0(a5)
	lw	a3, 0(a3)
	mul	a3, a3, a5
	li	a5, 4
	add	t0, t0, a3
	beq	a6, a5, .LBB2_3
# %bb.12:
	addi	a3, a4, 4
	slli	a3, a3, 2
	add	a5, a0, a3
	add	a3, a3, a1
	lw	a5, 0(a5)
	lw	a3, 0(a3)
	mul	a3, a3, a5
	li	a5, 5
	add	t0, t0, a3
	beq	a6, a5, .LBB2_3
# %bb.13:
	addi	a3, a4, 5
	slli	a3, a3, 2
	add	a5, a0, a3
	add	a3, a3, a1
	lw	a5, 0(a5)
	lw	a3, 0(a3)
	mul	a3, a3, a5
	li	a5, 6
	add	t0, t0, a3
	beq	a6, a5, .LBB2_3
# %bb.14:
	addi	a3, a4, 6
	slli	a3, a3, 2
	add	a0, a0, a3
	add	a1, a1, a3
	lw	a0, 0(a0)
	lw	a1, 0(a1)
	mul	a0, a1, a0
	add	t0, t0, a0
	mv	a0, t0
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
	addi	a3, a2, -4
	srli	a2, a3, 2
	addi	a2, a2, 1
	li	a4, 12
	andi	a6, a2, 3
	fmv.d.x	ft0, zero
	bgeu	a3, a4, .LBB3_5
# %bb.2:
	li	a7, 0
	li	a3, 3
	fmv.d	ft1, ft0
	fmv.d	ft2, ft0
	fmv.d	ft3, ft0
	bnez	a6, .LBB3_8
.LBB3_3:
	fadd.d	ft2, ft3, ft2
	fadd.d	ft0, ft1, ft0
	fadd.d	fa0, ft2, ft0
	ret
.LBB3_4:
	fmv.d.x	fa0, zero
	ret
.LBB3_5:
	andi	a4, a2, -4
	addi	a5, a1, 64
	addi	a2, a0, 64
	li	a3, 3
	fmv.d	ft1, ft0
	fmv.d	ft2, ft0
	fmv.d	ft3, ft0
.LBB3_6:                                # =>This Inner Loop Header: Depth=1
	fld	ft4, -64(a2)
	fld	ft5, -64(a5)
	fld	ft6, -56(a2)
	fld	ft7, -56(a5)
	fld	fa0, -48(a2)
	fld	fa1, -48(a5)
	fld	fa2, -40(a2)
	fld	fa3, -40(a5)
	fld	fa4, -32(a2)
	fmadd.d	ft3, ft4, ft5, ft3
	fld	ft4, -32(a5)
	fmadd.d	ft2, ft6, ft7, ft2
	fld	ft5, -24(a2)
	fmadd.d	ft1, fa0, fa1, ft1
	fld	ft6, -24(a5)
	fmadd.d	ft0, fa2, fa3, ft0
	fld	ft7, -16(a2)
	fld	fa0, -16(a5)
	fld	fa1, -8(a2)
	fld	fa2, -8(a5)
	fmadd.d	ft3, fa4, ft4, ft3
	fld	ft4, 0(a2)
	fmadd.d	ft2, ft5, ft6, ft2
	fld	ft5, 0(a5)
	fmadd.d	ft1, ft7, fa0, ft1
	fld	ft6, 8(a2)
	fmadd.d	ft0, fa1, fa2, ft0
	fld	ft7, 8(a5)
	fld	fa0, 16(a2)
	fld	fa1, 16(a5)
	fld	fa2, 24(a2)
	fmadd.d	ft3, ft4, ft5, ft3
	fld	ft4, 24(a5)
	fmadd.d	ft2, ft6, ft7, ft2
	fld	ft5, 32(a2)
	fmadd.d	ft1, fa0, fa1, ft1
	fld	ft6, 32(a5)
	fmadd.d	ft0, fa2, ft4, ft0
	fld	ft4, 40(a2)
	fld	ft7, 40(a5)
	fld	fa0, 48(a2)
	fld	fa1, 48(a5)
	fmadd.d	ft3, ft5, ft6, ft3
	fld	ft5, 56(a2)
	fmadd.d	ft2, ft4, ft7, ft2
	fld	ft4, 56(a5)
	fmadd.d	ft1, fa0, fa1, ft1
	fmadd.d	ft0, ft5, ft4, ft0
	addi	a4, a4, -4
	addi	a3, a3, 16
	addi	a5, a5, 128
	addi	a2, a2, 128
	bnez	a4, .LBB3_6
# %bb.7:
	addi	a7, a3, -3
	beqz	a6, .LBB3_3
.LBB3_8:
	slli	a2, a7, 3
	add	a5, a0, a2
	ori	a4, a2, 8
	add	t0, a1, a2
	ori	a2, a2, 16
	fld	ft4, 0(a5)
	add	a5, a0, a4
	add	t1, a1, a4
	slli	a3, a3, 3
	fld	ft5, 0(t0)
	add	a4, a0, a2
	fld	ft6, 0(a5)
	add	a2, a2, a1
	fld	ft7, 0(t1)
	add	a5, a0, a3
	fld	fa0, 0(a4)
	add	a3, a3, a1
	fld	fa1, 0(a2)
	fmadd.d	ft3, ft4, ft5, ft3
	fld	ft4, 0(a5)
	fmadd.d	ft2, ft6, ft7, ft2
	fld	ft5, 0(a3)
	fmadd.d	ft1, fa0, fa1, ft1
	fmadd.d	ft0, ft4, ft5, ft0
	li	a2, 1
	beq	a6, a2, .LBB3_3
# %bb.9:
	addi	a2, a7, 4
	slli	a3, a2, 3
	add	a4, a0, a3
	ori	a5, a3, 8
	ori	a2, a2, 3
	add	t0, a1, a3
	ori	a3, a3, 16
	fld	ft4, 0(a4)
	add	a4, a0, a5
	add	t1, a1, a5
	slli	a2, a2, 3
	fld	ft5, 0(t0)
	add	a5, a0, a3
	fld	ft6, 0(a4)
	add	a3, a3, a1
	fld	ft7, 0(t1)
	add	a4, a0, a2
	fld	fa0, 0(a5)
	add	a2, a2, a1
	fld	fa1, 0(a3)
	fmadd.d	ft3, ft4, ft5, ft3
	fld	ft4, 0(a4)
	fmadd.d	ft2, ft6, ft7, ft2
	fld	ft5, 0(a2)
	fmadd.d	ft1, fa0, fa1, ft1
	fmadd.d	ft0, ft4, ft5, ft0
	li	a2, 2
	beq	a6, a2, .LBB3_3
# %bb.10:
	addi	a2, a7, 8
	slli	a3, a2, 3
	add	a4, a0, a3
	ori	a5, a3, 8
	ori	a2, a2, 3
	add	a6, a1, a3
	ori	a3, a3, 16
	fld	ft4, 0(a4)
	add	a4, a0, a5
	add	a7, a1, a5
	slli	a2, a2, 3
	fld	ft5, 0(a6)
	add	a5, a0, a3
	fld	ft6, 0(a4)
	add	a3, a3, a1
	fld	ft7, 0(a7)
	add	a0, a0, a2
	fld	fa0, 0(a5)
	add	a1, a1, a2
	fld	fa1, 0(a3)
	fmadd.d	ft3, ft4, ft5, ft3
	fld	ft4, 0(a0)
	fmadd.d	ft2, ft6, ft7, ft2
	fld	ft5, 0(a1)
	fmadd.d	ft1, fa0, fa1, ft1
	fmadd.d	ft0, ft4, ft5, ft0
	fadd.d	ft2, ft3, ft2
	fadd.d	ft0, ft1, ft0
	fadd.d	fa0, ft2, ft0
	ret
.Lfunc_end3:
	.size	dot4acc, .Lfunc_end3-dot4acc
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
