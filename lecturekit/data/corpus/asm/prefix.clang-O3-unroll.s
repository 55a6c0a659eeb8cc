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
	addi	a3, a2, -1
	li	a4, 7
	andi	a6, a2, 7
	bgeu	a3, a4, .LBB0_4
# %bb.2:
	li	a2, 0
	li	t0, 0
	bnez	a6, .LBB0_7
.LBB0_3:
	ret
.LBB0_4:
	andi	a3, a2, -8
	li	a2, 0
	li	t0, 0
	neg	a7, a3
	addi	a5, a0, 32
	addi	a3, a1, 32
.LBB0_5:                                # =>This Inner Loop Header: Depth=1
	ld	a4, -32(a3)
	add	t0, t0, a4
	ld	a4, -24(a3)
	add	t1, a4, t0
	ld	a4, -16(a3)
	add	t2, a4, t1
	ld	a4, -8(a3)
	add	t3, a4, t2
	ld	a4, 0(a3)
	add	t4, a4, t3
	ld	a4, 8(a3)
	add	t6, a4, t4
	ld	t5, 16(a3)
	sd	t0, -32(a5)
	sd	t1, -24(a5)
	add	a4, t5, t6
	ld	t0, 24(a3)
	sd	t2, -16(a5)
	sd	t3, -8(a5)
	sd	t4, 0(a5)
	add	t0, t0, a4
	sd	t6, 8(a5)
	sd	a4, 16(a5)
	sd	t0, 24(a5)
	addi	a2, a2, -8
	addi	a5, a5, 64
	addi	a3, a3, 64
	bne	a7, a2, .LBB0_5
# %bb.6:
	neg	a2, a2
	beqz	a6, .LBB0_3
.LBB0_7:
	slli	a5, a2, 3
	add	a3, a1, a5
	ld	a3, 0(a3)
	add	a3, a3, t0
	add	a4, a0, a5
	li	a5, 1
	sd	a3, 0(a4)
	beq	a6, a5, .LBB0_3
# %bb.8:
	addi	a4, a2, 1
	slli	a4, a4, 3
	add	a5, a1, a4
	ld	a5, 0(a5)
	add	a3, a3, a5
	add	a4, a4, a0
	li	a5, 2
	sd	a3, 0(a4)
	beq	a6, a5, .LBB0_3
# %bb.9:
	addi	a4, a2, 2
	slli	a4, a4, 3
	add	a5, a1, a4
	ld	a5, 0(a5)
	add	a3, a3, a5
	add	a4, a4, a0
	li	a5, 3
	sd	a3, 0(a4)
	beq	a6, a5, .LBB0_3
# %bb.10:
	addi	a4, a2, 3
	slli	a4, a4, 3
	add	a5, a1, a4
	ld	a5, 0(a5)
	add	a3, a3, a5
	add	a4, a4, a0
	li	a5, 4
	sd	a3, 0(a4)
	beq	a6, a5, .LBB0_3
# %bb.11:
	addi	a4, a2, 4
	slli	a4, a4, 3
	add	a5, a1, a4
	ld	a5, 0(a5)
	add	a3, a3, a5
	add	a4, a4, a0
	li	a5, 5
	sd	a3, 0(a4)
	beq	a6, a5, .LBB0_3
# %bb.12:
	addi	a4, a2, 5
	slli	a4, a4, 3
	add	a5, a1, a4
	ld	a5, 0(a5)
	add	a3, a3, a5
	add	a4, a4, a0
	li	a5, 6
	sd	a3, 0(a4)
	beq	a6, a5, .LBB0_3
# %bb.13:
	addi	a2, a2, 6
	slli	a2, a2, 3
	add	a1, a1, a2
	ld	a1, 0(a1)
	add	a1, a1, a3
	add	a0, a0, a2
	sd	a1, 0(a0)
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
	addi	a3, a2, -1
	li	a4, 7
	andi	a6, a2, 7
	bgeu	a3, a4, .LBB1_4
# %bb.2:
	li	a2, 0
	fmv.d.x	ft0, zero
	bnez	a6, .LBB1_7
.LBB1_3:
	ret
.LBB1_4:
	andi	a3, a2, -8
	li	a2, 0
	neg	a4, a3
	addi	a5, a0, 32
	addi	a3, a1, 32
	fmv.d.x	ft0, zero
.LBB1_5:                                # =>This Inner Loop Header: Depth=1
	fld	ft1, -32(a3)
	fadd.d	ft0, ft0, ft1
	fld	ft1, -24(a3)
	fadd.d	ft1, ft0, ft1
	fld	ft2, -16(a3)
	fadd.d	ft2, ft1, ft2
	fld	ft3, -8(a3)
	fadd.d	ft3, ft2, ft3
	fld	ft4, 0(a3)
	fadd.d	ft4, ft3, ft4
	fld	ft5, 8(a3)
	fadd.d	ft5, ft4, ft5
	fld	ft6, 16(a3)
	fadd.d	ft6, ft5, ft6
	fld	ft7, 24(a3)
	fsd	ft0, -32(a5)
	fadd.d	ft0, ft6, ft7
	fsd	ft1, -24(a5)
	fsd	ft2, -16(a5)
	fsd	ft3, -8(a5)
	fsd	ft4, 0(a5)
	fsd	ft5, 8(a5)
	fsd	ft6, 16(a5)
	fsd	ft0, 24(a5)
	addi	a2, a2, -8
	addi	a5, a5, 64
	addi	a3, a3, 64
	bne	a4, a2, .LBB1_5
# %bb.6:
	neg	a2, a2
	beqz	a6, .LBB1_3
.LBB1_7:
	slli	a3, a2, 3
	add	a4, a1, a3
	fld	ft1, 0(a4)
	fadd.d	ft0, ft0, ft1
	add	a3, a3, a0
	li	a4, 1
	fsd	ft0, 0(a3)
	beq	a6, a4, .LBB1_3
# %bb.8:
	addi	a3, a2, 1
	slli	a3, a3, 3
	add	a4, a1, a3
	fld	ft1, 0(a4)
	fadd.d	ft0, ft0, ft1
	add	a3, a3, a0
	li	a4, 2
	fsd	ft0, 0(a3)
	beq	a6, a4, .LBB1_3
# %bb.9:
	addi	a3, a2, 2
	slli	a3, a3, 3
	add	a4, a1, a3
	fld	ft1, 0(a4)
	fadd.d	ft0, ft0, ft1
	add	a3, a3, a0
	li	a4, 3
	fsd	ft0, 0(a3)
	beq	a6, a4, .LBB1_3
# %bb.10:
	addi	a3, a2, 3
	slli	a3, a3, 3
	add	a4, a1, a3
	fld	ft1, 0(a4)
	fadd.d	ft0, ft0, ft1
	add	a3, a3, a0
	li	a4, 4
	fsd	ft0, 0(a3)
	beq	a6, a4, .LBB1_3
# %bb.11:
	addi	a3, a2, 4
	slli	a3, a3, 3
	add	a4, a1, a3
	fld	ft1, 0(a4)
	fadd.d	ft0, ft0, ft1
	add	a3, a3, a0
	li	a4, 5
	fsd	ft0, 0(a3)
	beq	a6, a4, .LBB1_3
# %bb.12:
	addi	a3, a2, 5
	slli	a3, a3, 3
	add	a4, a1, a3
	fld	ft1, 0(a4)
	fadd.d	ft0, ft0, ft1
	add	a3, a3, a0
	li	a4, 6
	fsd	ft0, 0(a3)
	beq	a6, a4, .LBB1_3
# %bb.13:
	addi	a2, a2, 6
	slli	a2, a2, 3
	add	a1, a1, a2
	fld	ft1, 0(a1)
	fadd.d	ft0, ft0, ft1
	add	a0, a0, a2
	fsd	ft0, 0(a0)
	ret
.Lfunc_end1:
	.size	prefix_f64, .Lfunc_end1-prefix_f64
                                        # -- End function
	.globl	histogram                       # -- Begin function histogram
	.p2align	1
	.type	histogram,@function
histogram:                              # @histogram
# %bb.0:
	blez	a2, .LBB2_13
# %bb.1:
	addi	a4, a2, -1
	li	a5, 7
	andi	a6, a2, 7
	bgeu	a4, a5, .LBB2_3
# %bb.2:
	li	a4, 0
	j	.LBB2_5
.LBB2_3:
	li	a4, 0
	andi	a7, a2, -8
	addi	t0, a1, 3
.LBB2_4:                                # =>This Inner Loop Header: Depth=1
	add	a3, t0, a4
	lbu	a2, -3(a3)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a5, 0(a2)
	addiw	a5, a5, 1
	sw	a5, 0(a2)
	lbu	a2, -2(a3)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a5, 0(a2)
	addiw	a5, a5, 1
	sw	a5, 0(a2)
	lbu	a2, -1(a3)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a5, 0(a2)
	addiw	a5, a5, 1
	sw	a5, 0(a2)
	lbu	a2, 0(a3)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a5, 0(a2)
	addiw	a5, a5, 1
	sw	a5, 0(a2)
	lbu	a2, 1(a3)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a5, 0(a2)
	addiw	a5, a5, 1
	sw	a5, 0(a2)
	lbu	a2, 2(a3)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a5, 0(a2)
	addiw	a5, a5, 1
	sw	a5, 0(a2)
	lbu	a2, 3(a3)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a5, 0(a2)
	addiw	a5, a5, 1
	sw	a5, 0(a2)
	lbu	a2, 4(a3)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a3, 0(a2)
	addiw	a3, a3, 1
	addi	a4, a4, 8
	sw	a3, 0(a2)
	bne	a7, a4, .LBB2_4
.LBB2_5:
	beqz	a6, .LBB2_13
# %bb.6:
	add	a2, a1, a4
	lbu	a2, 0(a2)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a5, 0(a2)
	addiw	a5, a5, 1
	li	a3, 1
	sw	a5, 0(a2)
	beq	a6, a3, .LBB2_13
# %bb.7:
	add	a1, a1, a4
	lbu	a2, 1(a1)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a3, 0(a2)
	addiw	a3, a3, 1
	li	a4, 2
	sw	a3, 0(a2)
	beq	a6, a4, .LBB2_13
# %bb.8:
	lbu	a2, 2(a1)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a3, 0(a2)
	addiw	a3, a3, 1
	li	a4, 3
	sw	a3, 0(a2)
	beq	a6, a4, .LBB2_13
# %bb.9:
	lbu	a2, 3(a1)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a3, 0(a2)
	addiw	a3, a3, 1
	li	a4, 4
	sw	a3, 0(a2)
	beq	a6, a4, .LBB2_13
# %bb.10:
	lbu	a2, 4(a1)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a3, 0(a2)
	addiw	a3, a3, 1
	li	a4, 5
	sw	a3, 0(a2)
	beq	a6, a4, .LBB2_13
# %bb.11:
	lbu	a2, 5(a1)
	slli	a2, a2, 2
	add	a2, a2, a0
	lw	a3, 0(a2)
	addiw	a3, a3, 1
	li	a4, 6
	sw	a3, 0(a2)
	beq	a6, a4, .LBB2_13
# %bb.12:
	lbu	a1, 6(a1)
	slli	a1, a1, 2
	add	a0, a0, a1
	lw	a1, 0(a0)
	addiw	a1, a1, 1
	sw	a1, 0(a0)
.LBB2_13:
	ret
.Lfunc_end2:
	.size	histogram, .Lfunc_end2-histogram
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
