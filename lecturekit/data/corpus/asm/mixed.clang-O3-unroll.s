	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"mixed.c"
	.globl	weighted                        # -- Begin function weighted
	.p2align	1
	.type	weighted,@function
weighted:                               # @weighted
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
	neg	a7, a3
	addi	a5, a1, 32
	addi	a3, a0, 16
	fmv.d.x	fa0, zero
.LBB0_6:                                # =>This Inner Loop Header: Depth=1
	lw	a4, -16(a3)
	fcvt.d.w	ft0, a4
	fld	ft1, -32(a5)
	fmadd.d	ft0, ft0, ft1, fa0
	lw	a4, -12(a3)
	fcvt.d.w	ft1, a4
	fld	ft2, -24(a5)
	fmadd.d	ft0, ft1, ft2, ft0
	lw	a4, -8(a3)
	fcvt.d.w	ft1, a4
	fld	ft2, -16(a5)
	fmadd.d	ft0, ft1, ft2, ft0
	lw	a4, -4(a3)
	fcvt.d.w	ft1, a4
	fld	ft2, -8(a5)
	fmadd.d	ft0, ft1, ft2, ft0
	lw	a4, 0(a3)
	fcvt.d.w	ft1, a4
	fld	ft2, 0(a5)
	fmadd.d	ft0, ft1, ft2, ft0
	lw	a4, 4(a3)
	fcvt.d.w	ft1, a4
	fld	ft2, 8(a5)
	fmadd.d	ft0, ft1, ft2, ft0
	lw	a4, 8(a3)
	fcvt.d.w	ft1, a4
	fld	ft2, 16(a5)
	fmadd.d	ft0, ft1, ft2, ft0
	lw	a4, 12(a3)
	fcvt.d.w	ft1, a4
	fld	ft2, 24(a5)
	fmadd.d	fa0, ft1, ft2, ft0
	addi	a2, a2, -8
	addi	a5, a5, 64
	addi	a3, a3, 32
	bne	a7, a2, .LBB0_6
# %bb.7:
	neg	a2, a2
	beqz	a6, .LBB0_3
.LBB0_8:
	slli	a3, a2, 2
	add	a3, a3, a0
	slli	a4, a2, 3
	lw	a3, 0(a3)
	add	a4, a4, a1
	fcvt.d.w	ft0, a3
	fld	ft1, 0(a4)
	fmadd.d	fa0, ft0, ft1, fa0
	li	a3, 1
	beq	a6, a3, .LBB0_3
# %bb.9:
	addi	a3, a2, 1
	slli	a4, a3, 2
	add	a4, a4, a0
	slli	a3, a3, 3
	lw	a4, 0(a4)
	add	a3, a3, a1
	fcvt.d.w	ft0, a4
	fld	ft1, 0(a3)
	fmadd.d	fa0, ft0, ft1, fa0
	li	a3, 2
	beq	a6, a3, .LBB0_3
# %bb.10:
	addi	a3, a2, 2
	slli	a4, a3, 2
	add	a4, a4, a0
	slli	a3, a3, 3
	lw	a4, 0(a4)
	add	a3, a3, a1
	fcvt.d.w	ft0, a4
	fld	ft1, 0(a3)
	fmadd.d	fa0, ft0, ft1, fa0
	li	a3, 3
	beq	a6, a3, .LBB0_3
# %bb.11:
	addi	a3, a2, 3
	slli	a4, a3, 2
	add	a4, a4, a0
	slli	a3, a3, 3
	lw	a4, 0(a4)
	add	a3, a3, a1
	fcvt.d.w	ft0, a4
	fld	ft1, 0(a3)
	fmadd.d	fa0, ft0, ft1, fa0
	li	a3, 4
	beq	a6, a3, .LBB0_3
# %bb.12:
	addi	a3, a2, 4
	slli	a4, a3, 2
	add	a4, a4, a0
	slli	a3, a3, 3
	lw	a4, 0(a4)
	add	a3, a3, a1
	fcvt.d.w	ft0, a4
	fld	ft1, 0(a3)
	fmadd.d	fa0, ft0, ft1, fa0
	li	a3, 5
	beq	a6, a3, .LBB0_3
# %bb.13:
	addi	a3, a2, 5
	slli	a4, a3, 2
	add	a4, a4, a0
	slli	a3, a3, 3
	lw	a4, 0(a4)
	add	a3, a3, a1
	fcvt.d.w	ft0, a4
	fld	ft1, 0(a3)
	fmadd.d	fa0, ft0, ft1, fa0
	li	a3, 6
	beq	a6, a3, .LBB0_3
# %bb.14:
	addi	a2, a2, 6
	slli	a3, a2, 2
	add	a0, a0, a3
	slli	a2, a2, 3
	lw	a0, 0(a0)
	add	a1, a1, a2
	fcvt.d.w	ft0, a0
	fld	ft1, 0(a1)
	fmadd.d	fa0, ft0, ft1, fa0
	ret
.Lfunc_end0:
	.size	weighted, .Lfunc_end0-weighted
                                        # -- End function
	.globl	quantize                        # -- Begin function quantize
	.p2align	1
	.type	quantize,@function
quantize:                               # @quantize
# %bb.0:
	blez	a2, .LBB1_3
# %bb.1:
	addi	a3, a2, -1
	li	a4, 7
	andi	a6, a2, 7
	bgeu	a3, a4, .LBB1_4
# %bb.2:
	li	a2, 0
	bnez	a6, .LBB1_7
.LBB1_3:
	ret
.LBB1_4:
	andi	a3, a2, -8
	li	a2, 0
	neg	a7, a3
	addi	a5, a0, 16
	addi	a3, a1, 16
.LBB1_5:                                # =>This Inner Loop Header: Depth=1
	flw	ft0, -16(a3)
	flw	ft1, -12(a3)
	fmul.s	ft0, ft0, fa0
	flw	ft2, -8(a3)
	fmul.s	ft1, ft1, fa0
	fmul.s	ft2, ft2, fa0
	fcvt.w.s	t1, ft0, rtz
	fcvt.w.s	t0, ft1, rtz
	flw	ft0, -4(a3)
	fcvt.w.s	t2, ft2, rtz
	flw	ft1, 0(a3)
	fmul.s	ft0, ft0, fa0
	flw	ft2, 4(a3)
	fmul.s	ft1, ft1, fa0
	flw	ft3, 8(a3)
	fmul.s	ft2, ft2, fa0
	flw	ft4, 12(a3)
	fmul.s	ft3, ft3, fa0
	fmul.s	ft4, ft4, fa0
	fcvt.w.s	t3, ft0, rtz
	sw	t1, -16(a5)
	fcvt.w.s	t1, ft1, rtz
	sw	t0, -12(a5)
	fcvt.w.s	t0, ft2, rtz
	sw	t2, -8(a5)
	fcvt.w.s	t2, ft3, rtz
	sw	t3, -4(a5)
	sw	t1, 0(a5)
	fcvt.w.s	a4, ft4, rtz
	sw	t0, 4(a5)
	sw	t2, 8(a5)
	sw	a4, 12(a5)
	addi	a2, a2, -8
	addi	a5, a5, 32
	addi	a3, a3, 32
	bne	a7, a2, .LBB1_5
# %bb.6:
	neg	a2, a2
	beqz	a6, .LBB1_3
.LBB1_7:
	slli	a3, a2, 2
	add	a4, a1, a3
	flw	ft0, 0(a4)
	fmul.s	ft0, ft0, fa0
	fcvt.w.s	a4, ft0, rtz
	add	a3, a3, a0
	li	a5, 1
	sw	a4, 0(a3)
	beq	a6, a5, .LBB1_3
# %bb.8:
	addi	a3, a2, 1
	slli	a3, a3, 2
	add	a4, a1, a3
	flw	ft0, 0(a4)
	fmul.s	ft0, ft0, fa0
	fcvt.w.s	a4, ft0, rtz
	add	a3, a3, a0
	li	a5, 2
	sw	a4, 0(a3)
	beq	a6, a5, .LBB1_3
# %bb.9:
	addi	a3, a2, 2
	slli	a3, a3, 2
	add	a4, a1, a3
	flw	ft0, 0(a4)
	fmul.s	ft0, ft0, fa0
	fcvt.w.s	a4, ft0, rtz
	add	a3, a3, a0
	li	a5, 3
	sw	a4, 0(a3)
	beq	a6, a5, .LBB1_3
# %bb.10:
	addi	a3, a2, 3
	slli	a3, a3, 2
	add	a4, a1, a3
	flw	ft0, 0(a4)
	fmul.s	ft0, ft0, fa0
	fcvt.w.s	a4, ft0, rtz
	add	a3, a3, a0
	li	a5, 4
	sw	a4, 0(a3)
	beq	a6, a5, .LBB1_3
# %bb.11:
	addi	a3, a2, 4
	slli	a3, a3, 2
	add	a4, a1, a3
	flw	ft0, 0(a4)
	fmul.s	ft0, ft0, fa0
	fcvt.w.s	a4, ft0, rtz
	add	a3, a3, a0
	li	a5, 5
	sw	a4, 0(a3)
	beq	a6, a5, .LBB1_3
# %bb.12:
	addi	a3, a2, 5
	slli	a3, a3, 2
	add	a4, a1, a3
	flw	ft0, 0(a4)
	fmul.s	ft0, ft0, fa0
	fcvt.w.s	a4, ft0, rtz
	add	a3, a3, a0
	li	a5, 6
	sw	a4, 0(a3)
	beq	a6, a5, .LBB1_3
# %bb.13:
	addi	a2, a2, 6
	slli	a2, a2, 2
	add	a1, a1, a2
	flw	ft0, 0(a1)
	fmul.s	ft0, ft0, fa0
	fcvt.w.s	a1, ft0, rtz
	add	a0, a0, a2
	sw	a1, 0(a0)
	ret
.Lfunc_end1:
	.size	quantize, .Lfunc_end1-quantize
                                        # -- End function
	.globl	norm2                           # -- Begin function norm2
	.p2align	1
	.type	norm2,@function
norm2:                                  # @norm2
# %bb.0:
	blez	a1, .LBB2_3
# %bb.1:
	addi	a3, a1, -1
	li	a4, 7
	andi	a2, a1, 7
	bgeu	a3, a4, .LBB2_4
# %bb.2:
	li	a1, 0
	fmv.d.x	fa0, zero
	bnez	a2, .LBB2_7
	j	.LBB2_14
.LBB2_3:
	fmv.d.x	fa0, zero
	j	.LBB2_14
.LBB2_4:
	andi	a3, a1, -8
	li	a1, 0
	neg	a3, a3
	addi	a4, a0, 32
	fmv.d.x	fa0, zero
.LBB2_5:                                # =>This Inner Loop Header: Depth=1
	fld	ft0, -32(a4)
	fmadd.d	ft0, ft0, ft0, fa0
	fld	ft1, -24(a4)
	fmadd.d	ft0, ft1, ft1, ft0
	fld	ft1, -16(a4)
	fmadd.d	ft0, ft1, ft1, ft0
	fld	ft1, -8(a4)
	fmadd.d	ft0, ft1, ft1, ft0
	fld	ft1, 0(a4)
	fmadd.d	ft0, ft1, ft1, ft0
	fld	ft1, 8(a4)
	fmadd.d	ft0, ft1, ft1, ft0
	fld	ft1, 16(a4)
	fmadd.d	ft0, ft1, ft1, ft0
	fld	ft1, 24(a4)
	fmadd.d	fa0, ft1, ft1, ft0
	addi	a1, a1, -8
	addi	a4, a4, 64
	bne	a3, a1, .LBB2_5
# %bb.6:
	neg	a1, a1
	beqz	a2, .LBB2_14
.LBB2_7:
	slli	a1, a1, 3
	add	a3, a0, a1
	fld	ft0, 0(a3)
	fmadd.d	fa0, ft0, ft0, fa0
	li	a3, 1
	beq	a2, a3, .LBB2_14
# %bb.8:
	add	a0, a0, a1
	fld	ft0, 8(a0)
	fmadd.d	fa0, ft0, ft0, fa0
	li	a1, 2
	beq	a2, a1, .LBB2_14
# %bb.9:
	fld	ft0, 16(a0)
	fmadd.d	fa0, ft0, ft0, fa0
	li	a1, 3
	beq	a2, a1, .LBB2_14
# %bb.10:
	fld	ft0, 24(a0)
	fmadd.d	fa0, ft0, ft0, fa0
	li	a1, 4
	beq	a2, a1, .LBB2_14
# %bb.11:
	fld	ft0, 32(a0)
	fmadd.d	fa0, ft0, ft0, fa0
	li	a1, 5
	beq	a2, a1, .LBB2_14
# %bb.12:
	fld	ft0, 40(a0)
	fmadd.d	fa0, ft0, ft0, fa0
	li	a1, 6
	beq	a2, a1, .LBB2_14
# %bb.13:
	fld	ft0, 48(a0)
	fmadd.d	fa0, ft0, ft0, fa0
.LBB2_14:
	fsqrt.d	ft0, fa0
	feq.d	a0, ft0, ft0
	beqz	a0, .LBB2_16
# %bb.15:
	fmv.d	fa0, ft0
	ret
.LBB2_16:
	tail	sqrt@plt
.Lfunc_end2:
	.size	norm2, .Lfunc_end2-norm2
                                        # -- End function
	.globl	ratios                          # -- Begin function ratios
	.p2align	1
	.type	ratios,@function
ratios:                                 # @ratios
# %bb.0:
	addi	sp, sp, -96
	sd	s0, 88(sp)                      # 8-byte Folded Spill
	sd	s1, 80(sp)                      # 8-byte Folded Spill
	sd	s2, 72(sp)                      # 8-byte Folded Spill
	sd	s3, 64(sp)                      # 8-byte Folded Spill
	sd	s4, 56(sp)                      # 8-byte Folded Spill
	sd	s5, 48(sp)                      # 8-byte Folded Spill
	sd	s6, 40(sp)                      # 8-byte Folded Spill
	sd	s7, 32(sp)                      # 8-byte Folded Spill
	sd	s8, 24(sp)                      # 8-byte Folded Spill
	sd	s9, 16(sp)                      # 8-byte Folded Spill
	sd	s10, 8(sp)                      # 8-byte Folded Spill
	sd	s11, 0(sp)                      # 8-byte Folded Spill
	blez	a6, .LBB3_9
# %bb.1:
	addi	t0, a6, -1
	li	t1, 3
	andi	a7, a6, 3
	bgeu	t0, t1, .LBB3_3
# %bb.2:
	li	a6, 0
	bnez	a7, .LBB3_6
	j	.LBB3_9
.LBB3_3:
	andi	t0, a6, -4
	li	a6, 0
	neg	t0, t0
	addi	t1, a0, 16
	addi	t2, a4, 8
	addi	t3, a5, 8
	addi	t4, a1, 8
	addi	t5, a3, 16
	addi	t6, a2, 16
.LBB3_4:                                # =>This Inner Loop Header: Depth=1
	fld	ft0, -16(t6)
	fld	ft1, -16(t5)
	fdiv.d	ft0, ft0, ft1
	fld	ft1, -8(t6)
	fld	ft2, -8(t5)
	fdiv.d	ft1, ft1, ft2
	fld	ft2, 0(t6)
	fld	ft3, 0(t5)
	fdiv.d	ft2, ft2, ft3
	fld	ft3, 8(t6)
	fld	ft4, 8(t5)
	fdiv.d	ft3, ft3, ft4
	lw	s3, -8(t2)
	lw	s7, -8(t3)
	divw	s2, s3, s7
	lw	s4, -4(t2)
	lw	s10, -4(t3)
	divw	s5, s4, s10
	lw	s6, 0(t2)
	lw	s1, 0(t3)
	divw	s8, s6, s1
	lw	s9, 4(t2)
	lw	s0, 4(t3)
	divw	s11, s9, s0
	mulw	s7, s2, s7
	mulw	s10, s5, s10
	subw	s3, s3, s7
	mulw	s1, s8, s1
	subw	s4, s4, s10
	mulw	s7, s11, s0
	addw	s2, s3, s2
	subw	s3, s6, s1
	fsd	ft0, -16(t1)
	addw	s4, s4, s5
	fsd	ft1, -8(t1)
	subw	s1, s9, s7
	sw	s2, -8(t4)
	addw	s0, s3, s8
	sw	s4, -4(t4)
	fsd	ft2, 0(t1)
	addw	s1, s1, s11
	sw	s0, 0(t4)
	fsd	ft3, 8(t1)
	sw	s1, 4(t4)
	addi	a6, a6, -4
	addi	t1, t1, 32
	addi	t2, t2, 16
	addi	t3, t3, 16
	addi	t4, t4, 16
	addi	t5, t5, 32
	addi	t6, t6, 32
	bne	t0, a6, .LBB3_4
# %bb.5:
	neg	a6, a6
	beqz	a7, .LBB3_9
.LBB3_6:
	slli	t0, a6, 3
	add	t1, a2, t0
	add	t2, a3, t0
	fld	ft0, 0(t1)
	fld	ft1, 0(t2)
	fdiv.d	ft0, ft0, ft1
	slli	t1, a6, 2
	add	t2, a4, t1
	add	t3, a5, t1
	lw	t2, 0(t2)
	lw	t3, 0(t3)
	divw	t4, t2, t3
	mulw	t3, t4, t3
	subw	t2, t2, t3
	add	t0, t0, a0
	addw	t2, t2, t4
	add	t1, t1, a1
	li	t3, 1
	fsd	ft0, 0(t0)
	sw	t2, 0(t1)
	beq	a7, t3, .LBB3_9
# %bb.7:
	addi	t0, a6, 1
	slli	t1, t0, 3
	add	t2, a2, t1
	add	t3, a3, t1
	fld	ft0, 0(t2)
	fld	ft1, 0(t3)
	fdiv.d	ft0, ft0, ft1
	slli	t0, t0, 2
	add	t2, a4, t0
	add	t3, a5, t0
	lw	t2, 0(t2)
	lw	t3, 0(t3)
	divw	t4, t2, t3
	mulw	t3, t4, t3
	subw	t2, t2, t3
	add	t1, t1, a0
	addw	t2, t2, t4
	add	t0, t0, a1
	li	t3, 2
	fsd	ft0, 0(t1)
	sw	t2, 0(t0)
	beq	a7, t3, .LBB3_9
# %bb.8:
	addi	a6, a6, 2
	slli	a7, a6, 3
	add	a2, a2, a7
	add	a3, a3, a7
	fld	ft0, 0(a2)
	fld	ft1, 0(a3)
	fdiv.d	ft0, ft0, ft1
	slli	a2, a6, 2
	add	a3, a4, a2
	add	a4, a5, a2
	lw	a3, 0(a3)
	lw	a4, 0(a4)
	divw	a5, a3, a4
	mulw	a4, a5, a4
	subw	a3, a3, a4
	add	a0, a0, a7
	addw	a3, a3, a5
	add	a1, a1, a2
	fsd	ft0, 0(a0)
	sw	a3, 0(a1)
.LBB3_9:
	ld	s0, 88(sp)                      # 8-byte Folded Reload
	ld	s1, 80(sp)                      # 8-byte Folded Reload
	ld	s2, 72(sp)                      # 8-byte Folded Reload
	ld	s3, 64(sp)                      # 8-byte Folded Reload
	ld	s4, 56(sp)                      # 8-byte Folded Reload
	ld	s5, 48(sp)                      # 8-byte Folded Reload
	ld	s6, 40(sp)                      # 8-byte Folded Reload
	ld	s7, 32(sp)                      # 8-byte Folded Reload
	ld	s8, 24(sp)                      # 8-byte Folded Reload
	ld	s9, 16(sp)                      # 8-byte Folded Reload
	ld	s10, 8(sp)                      # 8-byte Folded Reload
	ld	s11, 0(sp)                      # 8-byte Folded Reload
	addi	sp, sp, 96
	ret
.Lfunc_end3:
	.size	ratios, .Lfunc_end3-ratios
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
