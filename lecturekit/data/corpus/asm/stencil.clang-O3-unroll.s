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
	addi	a3, a2, -2
	addi	a2, a2, -3
	li	a4, 7
	andi	a6, a3, 7
	fld	ft1, 8(a1)
.LBB0_14:                               # Label of block must be emitted
	auipc	a7, %pcrel_hi(.LCPI0_0)
	addi	a7, a7, %pcrel_lo(.LBB0_14)
	bgeu	a2, a4, .LBB0_4
# %bb.2:
	li	a2, 1
	li	t1, 2
	bnez	a6, .LBB0_7
.LBB0_3:
	ret
.LBB0_4:
	andi	a2, a3, -8
	li	a5, 0
	neg	a4, a2
	addi	a2, a0, 32
	addi	a3, a1, 40
	fld	ft0, 0(a7)
.LBB0_5:                                # =>This Inner Loop Header: Depth=1
	fld	ft2, -40(a3)
	fld	ft3, -24(a3)
	fadd.d	ft1, ft2, ft1
	fld	ft2, -32(a3)
	fld	ft4, -16(a3)
	fld	ft5, -24(a3)
	fld	ft6, -8(a3)
	fld	ft7, -16(a3)
	fld	fa0, 0(a3)
	fadd.d	ft2, ft2, ft3
	fld	fa1, -8(a3)
	fadd.d	ft3, ft1, ft3
	fld	ft1, 8(a3)
	fadd.d	ft5, ft5, ft4
	fld	fa2, 0(a3)
	fadd.d	ft7, ft7, ft6
	fld	fa3, 16(a3)
	fadd.d	fa1, fa1, fa0
	fld	fa4, 8(a3)
	fadd.d	fa2, fa2, ft1
	fld	fa5, 24(a3)
	fadd.d	fa4, fa4, fa3
	fld	fa6, 16(a3)
	fadd.d	ft2, ft2, ft4
	fadd.d	ft4, fa6, fa5
	fadd.d	ft5, ft5, ft6
	fadd.d	ft6, ft7, fa0
	fadd.d	ft7, fa1, ft1
	fadd.d	fa0, fa2, fa3
	fadd.d	fa1, fa4, fa5
	fld	ft1, 32(a3)
	fmul.d	ft3, ft3, ft0
	fadd.d	ft4, ft4, ft1
	fmul.d	ft2, ft2, ft0
	fmul.d	ft5, ft5, ft0
	fmul.d	ft6, ft6, ft0
	fmul.d	ft7, ft7, ft0
	fmul.d	fa0, fa0, ft0
	fmul.d	fa1, fa1, ft0
	fsd	ft3, -24(a2)
	fmul.d	ft3, ft4, ft0
	fsd	ft2, -16(a2)
	fsd	ft5, -8(a2)
	fsd	ft6, 0(a2)
	fsd	ft7, 8(a2)
	fsd	fa0, 16(a2)
	fsd	fa1, 24(a2)
	fsd	ft3, 32(a2)
	addi	a5, a5, -8
	addi	a2, a2, 64
	addi	a3, a3, 64
	bne	a4, a5, .LBB0_5
# %bb.6:
	li	a2, 2
	li	a3, 1
	sub	t1, a2, a5
	sub	a2, a3, a5
	beqz	a6, .LBB0_3
.LBB0_7:
	slli	a5, a2, 3
	add	a2, a5, a1
	fld	ft0, -8(a2)
	slli	a3, t1, 3
	fadd.d	ft0, ft0, ft1
	add	a2, a1, a3
	fld	ft1, 0(a2)
	fadd.d	ft2, ft0, ft1
	fld	ft0, 0(a7)
	fmul.d	ft2, ft2, ft0
	add	a5, a5, a0
	li	a4, 1
	fsd	ft2, 0(a5)
	beq	a6, a4, .LBB0_3
# %bb.8:
	add	a7, a3, a1
	addi	a4, t1, 1
	fld	ft2, -8(a7)
	slli	a5, a4, 3
	fadd.d	ft2, ft2, ft1
	add	t0, a1, a5
	fld	ft1, 0(t0)
	fadd.d	ft2, ft2, ft1
	fmul.d	ft2, ft2, ft0
	add	a3, a3, a0
	li	a4, 2
	fsd	ft2, 0(a3)
	beq	a6, a4, .LBB0_3
# %bb.9:
	addi	a3, t1, 2
	fld	ft2, 0(a2)
	slli	a3, a3, 3
	fadd.d	ft2, ft2, ft1
	add	a2, a1, a3
	fld	ft1, 0(a2)
	fadd.d	ft2, ft2, ft1
	fmul.d	ft2, ft2, ft0
	add	a4, a0, a5
	li	a5, 3
	fsd	ft2, 0(a4)
	beq	a6, a5, .LBB0_3
# %bb.10:
	addi	a4, t1, 3
	fld	ft2, 0(t0)
	slli	a5, a4, 3
	fadd.d	ft2, ft2, ft1
	add	t0, a1, a5
	fld	ft1, 0(t0)
	fadd.d	ft2, ft2, ft1
	fmul.d	ft2, ft2, ft0
	add	a3, a3, a0
	li	a4, 4
	fsd	ft2, 0(a3)
	beq	a6, a4, .LBB0_3
# %bb.11:
	addi	a3, t1, 4
	fld	ft2, 0(a2)
	slli	a3, a3, 3
	fadd.d	ft2, ft2, ft1
	add	a2, a1, a3
	fld	ft1, 0(a2)
	fadd.d	ft2, ft2, ft1
	fmul.d	ft2, ft2, ft0
	add	a4, a0, a5
	li	a5, 5
	fsd	ft2, 0(a4)
	beq	a6, a5, .LBB0_3
# %bb.12:
	addi	a4, t1, 5
	fld	ft2, 0(t0)
	slli	a4, a4, 3
	fadd.d	ft2, ft2, ft1
	add	a1, a1, a4
	fld	ft1, 0(a1)
	fadd.d	ft2, ft2, ft1
	fmul.d	ft2, ft2, ft0
	add	a1, a0, a3
	li	a3, 6
	fsd	ft2, 0(a1)
	beq	a6, a3, .LBB0_3
# %bb.13:
	fld	ft2, 0(a2)
	fadd.d	ft1, ft2, ft1
	fld	ft2, 48(a7)
	fadd.d	ft1, ft1, ft2
	fmul.d	ft0, ft1, ft0
	add	a0, a0, a4
	fsd	ft0, 0(a0)
	ret
.Lfunc_end0:
	.size	stencil3, .Lfunc_end0-stencil3
                                        # -- End function
	.globl	blur5                           # -- Begin function blur5
	.p2align	1
	.type	blur5,@function
blur5:                                  # @blur5
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
	li	a3, 5
	blt	a2, a3, .LBB1_13
# %bb.1:
	lw	t3, 0(a1)
	addi	a3, a2, -4
	lw	t1, 4(a1)
	addi	a2, a2, -5
	li	a4, 7
	lw	t0, 8(a1)
	andi	a6, a3, 7
	bgeu	a2, a4, .LBB1_3
# %bb.2:
	li	t5, 2
	li	a4, 4
	bnez	a6, .LBB1_6
	j	.LBB1_13
.LBB1_3:
	andi	a3, a3, -8
	li	t5, 0
	neg	a7, a3
	addi	a3, a0, 20
	addi	a4, a1, 24
	li	t2, 6
.LBB1_4:                                # =>This Inner Loop Header: Depth=1
	lw	s5, -12(a4)
	mulw	t6, t0, t2
	lw	t4, -8(a4)
	mulw	s2, s5, t2
	lw	a5, -8(a4)
	addw	s3, s5, t1
	addw	t6, t6, t3
	lw	t3, -4(a4)
	addw	s4, a5, t0
	addw	s2, s2, t1
	slliw	t1, s3, 2
	addw	a2, t6, t4
	slliw	s1, s4, 2
	addw	s0, s2, t3
	addw	a2, a2, t1
	addw	s1, s1, s0
	sraiw	a2, a2, 4
	sraiw	s1, s1, 4
	sw	a2, -12(a3)
	lw	a2, -4(a4)
	sw	s1, -8(a3)
	mulw	s1, a5, t2
	lw	s0, 0(a4)
	lw	t1, 0(a4)
	addw	t3, a2, s5
	addw	t0, s1, t0
	mulw	t4, a2, t2
	mulw	t6, s0, t2
	lw	s1, 4(a4)
	lw	s2, 4(a4)
	addw	s3, s0, a5
	addw	t4, t4, s5
	lw	s4, 8(a4)
	addw	s5, s1, a2
	addw	t6, t6, a5
	slliw	t3, t3, 2
	addw	a5, t0, t1
	slliw	t0, s3, 2
	addw	t1, t4, s2
	slliw	t4, s5, 2
	addw	t6, t6, s4
	addw	s2, a5, t3
	lw	t3, 8(a4)
	addw	s3, t1, t0
	mulw	a5, s1, t2
	addw	t4, t6, t4
	lw	t1, 12(a4)
	lw	t6, 12(a4)
	addw	s4, t3, s0
	addw	s5, a5, a2
	mulw	s6, t3, t2
	mulw	a2, t1, t2
	lw	t0, 16(a4)
	lw	s8, 16(a4)
	addw	s7, t1, s1
	addw	s9, s6, s0
	lw	s6, 20(a4)
	addw	s10, a2, s1
	addw	s1, t0, t3
	addw	a5, s5, t6
	slliw	s0, s4, 2
	addw	t6, s9, s8
	slliw	a2, s7, 2
	addw	s4, s10, s6
	slliw	s1, s1, 2
	addw	s5, a5, s0
	sraiw	s0, s2, 4
	addw	t6, t6, a2
	sraiw	a2, s3, 4
	addw	s1, s4, s1
	sraiw	a5, t4, 4
	sw	s0, -4(a3)
	sraiw	s0, s5, 4
	sw	a2, 0(a3)
	sraiw	a2, t6, 4
	sw	a5, 4(a3)
	sraiw	a5, s1, 4
	sw	s0, 8(a3)
	sw	a2, 12(a3)
	sw	a5, 16(a3)
	addi	t5, t5, -8
	addi	a3, a3, 32
	addi	a4, a4, 32
	bne	a7, t5, .LBB1_4
# %bb.5:
	li	a4, 4
	li	a3, 2
	sub	a4, a4, t5
	sub	t5, a3, t5
	beqz	a6, .LBB1_13
.LBB1_6:
	addi	a3, t5, 1
	slli	t6, a3, 2
	slli	a4, a4, 2
	li	a7, 6
	add	a2, a1, t6
	add	a4, a4, a1
	mulw	a3, t0, a7
	lw	s0, 0(a2)
	lw	a4, 0(a4)
	addw	a2, s0, t1
	addw	a3, a3, t3
	slliw	a2, a2, 2
	addw	a3, a3, a4
	addw	a2, a2, a3
	slli	a5, t5, 2
	sraiw	a2, a2, 4
	add	a3, a0, a5
	li	a4, 1
	sw	a2, 0(a3)
	beq	a6, a4, .LBB1_13
# %bb.7:
	addi	a2, t5, 2
	slli	t4, a2, 2
	add	a2, a1, t4
	add	t2, a5, a1
	mulw	a3, s0, a7
	lw	t3, 0(a2)
	lw	a2, 12(t2)
	addw	a4, t3, t0
	addw	a3, a3, t1
	slliw	a4, a4, 2
	addw	a2, a2, a3
	addw	a2, a2, a4
	sraiw	a2, a2, 4
	add	a3, a0, t6
	li	a4, 2
	sw	a2, 0(a3)
	beq	a6, a4, .LBB1_13
# %bb.8:
	addi	a2, t5, 3
	slli	a3, a2, 2
	li	t1, 6
	add	a2, a1, a3
	mulw	a4, t3, t1
	lw	a7, 0(a2)
	lw	a2, 16(t2)
	addw	a5, a7, s0
	addw	a4, a4, t0
	slliw	a5, a5, 2
	addw	a2, a2, a4
	addw	a2, a2, a5
	sraiw	a2, a2, 4
	add	a4, a0, t4
	li	a5, 3
	sw	a2, 0(a4)
	beq	a6, a5, .LBB1_13
# %bb.9:
	addi	a2, t5, 4
	slli	t4, a2, 2
	add	a2, a1, t4
	mulw	a4, a7, t1
	lw	t0, 0(a2)
	lw	a2, 20(t2)
	addw	a5, t0, t3
	addw	a4, a4, s0
	slliw	a5, a5, 2
	addw	a2, a2, a4
	addw	a2, a2, a5
	sraiw	a2, a2, 4
	add	a3, a3, a0
	li	a4, 4
	sw	a2, 0(a3)
	beq	a6, a4, .LBB1_13
# %bb.10:
	addi	a2, t5, 5
	slli	a3, a2, 2
	li	t1, 6
	add	a2, a1, a3
	mulw	a5, t0, t1
	lw	a4, 0(a2)
	lw	a2, 24(t2)
	addw	s0, a4, a7
	addw	a5, a5, t3
	slliw	s0, s0, 2
	addw	a2, a2, a5
	addw	a2, a2, s0
	sraiw	a2, a2, 4
	add	a5, a0, t4
	li	s0, 5
	sw	a2, 0(a5)
	beq	a6, s0, .LBB1_13
# %bb.11:
	addi	a2, t5, 6
	slli	t3, a2, 2
	add	a1, a1, t3
	mulw	a5, a4, t1
	lw	a1, 0(a1)
	lw	s0, 28(t2)
	addw	a2, a1, t0
	addw	a5, a5, a7
	slliw	a2, a2, 2
	addw	a5, a5, s0
	addw	a2, a2, a5
	sraiw	a2, a2, 4
	add	a3, a3, a0
	sw	a2, 0(a3)
	beq	a6, t1, .LBB1_13
# %bb.12:
	li	a2, 6
	mulw	a1, a1, a2
	lw	a2, 28(t2)
	lw	a3, 32(t2)
	addw	a2, a2, a4
	addw	a1, a1, t0
	slliw	a2, a2, 2
	addw	a1, a1, a3
	addw	a1, a1, a2
	sraiw	a1, a1, 4
	add	a0, a0, t3
	sw	a1, 0(a0)
.LBB1_13:
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
	addi	sp, sp, 96
	ret
.Lfunc_end1:
	.size	blur5, .Lfunc_end1-blur5
                                        # -- End function
	.globl	daxpy                           # -- Begin function daxpy
	.p2align	1
	.type	daxpy,@function
daxpy:                                  # @daxpy
# %bb.0:
	blez	a2, .LBB2_3
# %bb.1:
	addi	a3, a2, -1
	li	a4, 7
	andi	a6, a2, 7
	bgeu	a3, a4, .LBB2_4
# %bb.2:
	li	a2, 0
	bnez	a6, .LBB2_7
.LBB2_3:
	ret
.LBB2_4:
	andi	a3, a2, -8
	li	a2, 0
	neg	a4, a3
	addi	a5, a0, 32
	addi	a3, a1, 32
.LBB2_5:                                # =>This Inner Loop Header: Depth=1
	fld	ft0, -32(a3)
	fld	ft1, -32(a5)
	fld	ft2, -24(a3)
	fld	ft3, -24(a5)
	fld	ft4, -16(a3)
	fld	ft5, -16(a5)
	fld	ft6, -8(a3)
	fld	ft7, -8(a5)
	fld	fa1, 0(a3)
	fld	fa2, 0(a5)
	fmadd.d	ft0, fa0, ft0, ft1
	fld	ft1, 8(a3)
	fmadd.d	ft2, fa0, ft2, ft3
	fld	ft3, 8(a5)
	fmadd.d	ft4, fa0, ft4, ft5
	fld	ft5, 16(a3)
	fmadd.d	ft6, fa0, ft6, ft7
	fld	ft7, 16(a5)
	fmadd.d	fa1, fa0, fa1, fa2
	fld	fa2, 24(a3)
	fmadd.d	ft1, fa0, ft1, ft3
	fld	ft3, 24(a5)
	fmadd.d	ft5, fa0, ft5, ft7
	fsd	ft0, -32(a5)
	fmadd.d	ft0, fa0, fa2, ft3
	fsd	ft2, -24(a5)
	fsd	ft4, -16(a5)
	fsd	ft6, -8(a5)
	fsd	fa1, 0(a5)
	fsd	ft1, 8(a5)
	fsd	ft5, 16(a5)
	fsd	ft0, 24(a5)
	addi	a2, a2, -8
	addi	a5, a5, 64
	addi	a3, a3, 64
	bne	a4, a2, .LBB2_5
# %bb.6:
	neg	a2, a2
	beqz	a6, .LBB2_3
.LBB2_7:
	slli	a3, a2, 3
	add	a4, a1, a3
	add	a3, a3, a0
	fld	ft0, 0(a4)
	fld	ft1, 0(a3)
	fmadd.d	ft0, fa0, ft0, ft1
	li	a4, 1
	fsd	ft0, 0(a3)
	beq	a6, a4, .LBB2_3
# %bb.8:
	addi	a3, a2, 1
	slli	a3, a3, 3
	add	a4, a1, a3
	add	a3, a3, a0
	fld	ft0, 0(a4)
	fld	ft1, 0(a3)
	fmadd.d	ft0, fa0, ft0, ft1
	li	a4, 2
	fsd	ft0, 0(a3)
	beq	a6, a4, .LBB2_3
# %bb.9:
	addi	a3, a2, 2
	slli	a3, a3, 3
	add	a4, a1, a3
	add	a3, a3, a0
	fld	ft0, 0(a4)
	fld	ft1, 0(a3)
	fmadd.d	ft0, fa0, ft0, ft1
	li	a4, 3
	fsd	ft0, 0(a3)
	beq	a6, a4, .LBB2_3
# %bb.10:
	addi	a3, a2, 3
	slli	a3, a3, 3
	add	a4, a1, a3
	add	a3, a3, a0
	fld	ft0, 0(a4)
	fld	ft1, 0(a3)
	fmadd.d	ft0, fa0, ft0, ft1
	li	a4, 4
	fsd	ft0, 0(a3)
	beq	a6, a4, .LBB2_3
# %bb.11:
	addi	a3, a2, 4
	slli	a3, a3, 3
	add	a4, a1, a3
	add	a3, a3, a0
	fld	ft0, 0(a4)
	fld	ft1, 0(a3)
	fmadd.d	ft0, fa0, ft0, ft1
	li	a4, 5
	fsd	ft0, 0(a3)
	beq	a6, a4, .LBB2_3
# %bb.12:
	addi	a3, a2, 5
	slli	a3, a3, 3
	add	a4, a1, a3
	add	a3, a3, a0
	fld	ft0, 0(a4)
	fld	ft1, 0(a3)
	fmadd.d	ft0, fa0, ft0, ft1
	li	a4, 6
	fsd	ft0, 0(a3)
	beq	a6, a4, .LBB2_3
# %bb.13:
	addi	a2, a2, 6
	slli	a2, a2, 3
	add	a1, a1, a2
	add	a0, a0, a2
	fld	ft0, 0(a1)
	fld	ft1, 0(a0)
	fmadd.d	ft0, fa0, ft0, ft1
	fsd	ft0, 0(a0)
	ret
.Lfunc_end2:
	.size	daxpy, .Lfunc_end2-daxpy
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
