	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"poly.c"
	.section	.sdata,"aw",@progbits
	.p2align	3                               # -- Begin function horner_f64
.LCPI0_0:
	.quad	0x3ff4000000000000              # double 1.25
.LCPI0_1:
	.quad	0x3fe0000000000000              # double 0.5
.LCPI0_2:
	.quad	0xc000000000000000              # double -2
.LCPI0_3:
	.quad	0x400c000000000000              # double 3.5
.LCPI0_4:
	.quad	0xbfe8000000000000              # double -0.75
	.text
	.globl	horner_f64
	.p2align	1
	.type	horner_f64,@function
horner_f64:                             # @horner_f64
# %bb.0:
	blez	a2, .LBB0_3
# %bb.1:
	addi	a3, a2, -1
	li	a4, 7
	andi	a6, a2, 7
.LBB0_14:                               # Label of block must be emitted
	auipc	t2, %pcrel_hi(.LCPI0_0)
	addi	t2, t2, %pcrel_lo(.LBB0_14)
.LBB0_15:                               # Label of block must be emitted
	auipc	t3, %pcrel_hi(.LCPI0_1)
	addi	t3, t3, %pcrel_lo(.LBB0_15)
.LBB0_16:                               # Label of block must be emitted
	auipc	t1, %pcrel_hi(.LCPI0_2)
	addi	t1, t1, %pcrel_lo(.LBB0_16)
.LBB0_17:                               # Label of block must be emitted
	auipc	t0, %pcrel_hi(.LCPI0_3)
	addi	t0, t0, %pcrel_lo(.LBB0_17)
.LBB0_18:                               # Label of block must be emitted
	auipc	a7, %pcrel_hi(.LCPI0_4)
	addi	a7, a7, %pcrel_lo(.LBB0_18)
	bgeu	a3, a4, .LBB0_4
# %bb.2:
	li	a2, 0
	bnez	a6, .LBB0_7
.LBB0_3:
	ret
.LBB0_4:
	andi	a3, a2, -8
	li	a2, 0
	fld	ft0, 0(t2)
	neg	a3, a3
	fld	ft1, 0(t3)
	addi	a4, a0, 32
	fld	ft2, 0(t1)
	addi	a5, a1, 32
	fld	ft3, 0(t0)
	fld	ft4, 0(a7)
.LBB0_5:                                # =>This Inner Loop Header: Depth=1
	fld	ft5, -32(a5)
	fmadd.d	ft6, ft5, ft1, ft0
	fmadd.d	ft6, ft6, ft5, ft2
	fmadd.d	ft6, ft6, ft5, ft3
	fld	ft7, -24(a5)
	fmadd.d	ft5, ft6, ft5, ft4
	fld	ft6, -16(a5)
	fmadd.d	fa0, ft7, ft1, ft0
	fld	fa1, -8(a5)
	fmadd.d	fa2, ft6, ft1, ft0
	fld	fa3, 0(a5)
	fmadd.d	fa4, fa1, ft1, ft0
	fld	fa5, 8(a5)
	fmadd.d	fa6, fa3, ft1, ft0
	fld	fa7, 16(a5)
	fmadd.d	ft8, fa5, ft1, ft0
	fld	ft9, 24(a5)
	fmadd.d	ft10, fa7, ft1, ft0
	fmadd.d	ft11, ft9, ft1, ft0
	fmadd.d	fa0, fa0, ft7, ft2
	fmadd.d	fa2, fa2, ft6, ft2
	fmadd.d	fa4, fa4, fa1, ft2
	fmadd.d	fa6, fa6, fa3, ft2
	fmadd.d	ft8, ft8, fa5, ft2
	fmadd.d	ft10, ft10, fa7, ft2
	fmadd.d	ft11, ft11, ft9, ft2
	fmadd.d	fa0, fa0, ft7, ft3
	fmadd.d	fa2, fa2, ft6, ft3
	fmadd.d	fa4, fa4, fa1, ft3
	fmadd.d	fa6, fa6, fa3, ft3
	fmadd.d	ft8, ft8, fa5, ft3
	fmadd.d	ft10, ft10, fa7, ft3
	fmadd.d	ft11, ft11, ft9, ft3
	fmadd.d	ft7, fa0, ft7, ft4
	fmadd.d	ft6, fa2, ft6, ft4
	fmadd.d	fa0, fa4, fa1, ft4
	fmadd.d	fa1, fa6, fa3, ft4
	fmadd.d	fa2, ft8, fa5, ft4
	fmadd.d	fa3, ft10, fa7, ft4
	fsd	ft5, -32(a4)
	fmadd.d	ft5, ft11, ft9, ft4
	fsd	ft7, -24(a4)
	fsd	ft6, -16(a4)
	fsd	fa0, -8(a4)
	fsd	fa1, 0(a4)
	fsd	fa2, 8(a4)
	fsd	fa3, 16(a4)
	fsd	ft5, 24(a4)
	addi	a2, a2, -8
	addi	a4, a4, 64
	addi	a5, a5, 64
	bne	a3, a2, .LBB0_5
# %bb.6:
	neg	a2, a2
	beqz	a6, .LBB0_3
.LBB0_7:
	slli	a3, a2, 3
	add	a4, a1, a3
	fld	ft5, 0(a4)
	fld	ft0, 0(t2)
	fld	ft1, 0(t3)
	fmadd.d	ft3, ft5, ft1, ft0
	fld	ft2, 0(t1)
	fmadd.d	ft4, ft3, ft5, ft2
	fld	ft3, 0(t0)
	fmadd.d	ft6, ft4, ft5, ft3
	fld	ft4, 0(a7)
	fmadd.d	ft5, ft6, ft5, ft4
	add	a3, a3, a0
	li	a4, 1
	fsd	ft5, 0(a3)
	beq	a6, a4, .LBB0_3
# %bb.8:
	addi	a3, a2, 1
	slli	a3, a3, 3
	add	a4, a1, a3
	fld	ft5, 0(a4)
	fmadd.d	ft6, ft5, ft1, ft0
	fmadd.d	ft6, ft6, ft5, ft2
	fmadd.d	ft6, ft6, ft5, ft3
	fmadd.d	ft5, ft6, ft5, ft4
	add	a3, a3, a0
	li	a4, 2
	fsd	ft5, 0(a3)
	beq	a6, a4, .LBB0_3
# %bb.9:
	addi	a3, a2, 2
	slli	a3, a3, 3
	add	a4, a1, a3
	fld	ft5, 0(a4)
	fmadd.d	ft6, ft5, ft1, ft0
	fmadd.d	ft6, ft6, ft5, ft2
	fmadd.d	ft6, ft6, ft5, ft3
	fmadd.d	ft5, ft6, ft5, ft4
	add	a3, a3, a0
	li	a4, 3
	fsd	ft5, 0(a3)
	beq	a6, a4, .LBB0_3
# %bb.10:
	addi	a3, a2, 3
	slli	a3, a3, 3
	add	a4, a1, a3
	fld	ft5, 0(a4)
	fmadd.d	ft6, ft5, ft1, ft0
	fmadd.d	ft6, ft6, ft5, ft2
	fmadd.d	ft6, ft6, ft5, ft3
	fmadd.d	ft5, ft6, ft5, ft4
	add	a3, a3, a0
	li	a4, 4
	fsd	ft5, 0(a3)
	beq	a6, a4, .LBB0_3
# %bb.11:
	addi	a3, a2, 4
	slli	a3, a3, 3
	add	a4, a1, a3
	fld	ft5, 0(a4)
	fmadd.d	ft6, ft5, ft1, ft0
	fmadd.d	ft6, ft6, ft5, ft2
	fmadd.d	ft6, ft6, ft5, ft3
	fmadd.d	ft5, ft6, ft5, ft4
	add	a3, a3, a0
	li	a4, 5
	fsd	ft5, 0(a3)
	beq	a6, a4, .LBB0_3
# %bb.12:
	addi	a3, a2, 5
	slli	a3, a3, 3
	add	a4, a1, a3
	fld	ft5, 0(a4)
	fmadd.d	ft6, ft5, ft1, ft0
	fmadd.d	ft6, ft6, ft5, ft2
	fmadd.d	ft6, ft6, ft5, ft3
	fmadd.d	ft5, ft6, ft5, ft4
	add	a3, a3, a0
	li	a4, 6
	fsd	ft5, 0(a3)
	beq	a6, a4, .LBB0_3
# %bb.13:
	addi	a2, a2, 6
	slli	a2, a2, 3
	add	a1, a1, a2
	fld	ft5, 0(a1)
	fmadd.d	ft0, ft5, ft1, ft0
	fmadd.d	ft0, ft0, ft5, ft2
	fmadd.d	ft0, ft0, ft5, ft3
	fmadd.d	ft0, ft0, ft5, ft4
	add	a0, a0, a2
	fsd	ft0, 0(a0)
	ret
.Lfunc_end0:
	.size	horner_f64, .Lfunc_end0-horner_f64
                                        # -- End function
	.globl	horner_i64                      # -- Begin function horner_i64
	.p2align	1
	.type	horner_i64,@function
horner_i64:                             # @horner_i64
# %bb.0:
	addi	sp, sp, -32
	sd	s0, 24(sp)                      # 8-byte Folded Spill
	sd	s1, 16(sp)                      # 8-byte Folded Spill
	sd	s2, 8(sp)                       # 8-byte Folded Spill
	sd	s3, 0(sp)                       # 8-byte Folded Spill
	blez	a2, .LBB1_13
# %bb.1:
	addi	a3, a2, -1
	li	a4, 7
	andi	a6, a2, 7
	bgeu	a3, a4, .LBB1_3
# %bb.2:
	li	a2, 0
	bnez	a6, .LBB1_6
	j	.LBB1_13
.LBB1_3:
	andi	a2, a2, -8
	li	t0, 0
	neg	a7, a2
	addi	a5, a0, 32
	addi	a3, a1, 32
.LBB1_4:                                # =>This Inner Loop Header: Depth=1
	ld	a2, -32(a3)
	ld	a4, -24(a3)
	slli	t1, a2, 1
	slli	t2, a4, 1
	add	t1, t1, a2
	add	t2, t2, a4
	addi	t1, t1, 5
	addi	t2, t2, 5
	mul	t1, t1, a2
	mul	t2, t2, a4
	addi	t1, t1, -7
	addi	t2, t2, -7
	mul	t1, t1, a2
	mul	t2, t2, a4
	addi	t1, t1, 11
	addi	t2, t2, 11
	mul	a2, t1, a2
	mul	a4, t2, a4
	addi	a2, a2, -13
	addi	a4, a4, -13
	sd	a2, -32(a5)
	sd	a4, -24(a5)
	ld	t1, -16(a3)
	ld	t3, -8(a3)
	ld	t5, 0(a3)
	slli	t2, t1, 1
	ld	a2, 8(a3)
	slli	t4, t3, 1
	ld	a4, 16(a3)
	slli	t6, t5, 1
	ld	s0, 24(a3)
	add	t2, t2, t1
	slli	s1, a2, 1
	add	t4, t4, t3
	slli	s2, a4, 1
	add	t6, t6, t5
	slli	s3, s0, 1
	addi	t2, t2, 5
	add	s1, s1, a2
	addi	t4, t4, 5
	add	s2, s2, a4
	addi	t6, t6, 5
	add	s3, s3, s0
	mul	t2, t2, t1
	addi	s1, s1, 5
	mul	t4, t4, t3
	addi	s2, s2, 5
	mul	t6, t6, t5
	addi	s3, s3, 5
	addi	t2, t2, -7
	mul	s1, s1, a2
	addi	t4, t4, -7
	mul	s2, s2, a4
	addi	t6, t6, -7
	mul	s3, s3, s0
	mul	t2, t2, t1
	addi	s1, s1, -7
	mul	t4, t4, t3
	addi	s2, s2, -7
	mul	t6, t6, t5
	addi	s3, s3, -7
	addi	t2, t2, 11
	mul	s1, s1, a2
	addi	t4, t4, 11
	mul	s2, s2, a4
	addi	t6, t6, 11
	mul	s3, s3, s0
	mul	t1, t2, t1
	addi	s1, s1, 11
	mul	t2, t4, t3
	addi	t3, s2, 11
	mul	t4, t6, t5
	addi	t5, s3, 11
	mul	t6, s1, a2
	addi	s1, t1, -13
	mul	t1, t3, a4
	addi	a2, t2, -13
	mul	s0, t5, s0
	addi	a4, t4, -13
	sd	s1, -16(a5)
	addi	s1, t6, -13
	sd	a2, -8(a5)
	addi	a2, t1, -13
	sd	a4, 0(a5)
	addi	a4, s0, -13
	sd	s1, 8(a5)
	sd	a2, 16(a5)
	sd	a4, 24(a5)
	addi	t0, t0, -8
	addi	a5, a5, 64
	addi	a3, a3, 64
	bne	a7, t0, .LBB1_4
# %bb.5:
	neg	a2, t0
	beqz	a6, .LBB1_13
.LBB1_6:
	slli	a3, a2, 3
	add	a4, a1, a3
	ld	a4, 0(a4)
	slli	a5, a4, 1
	add	a5, a5, a4
	addi	a5, a5, 5
	mul	a5, a5, a4
	addi	a5, a5, -7
	mul	a5, a5, a4
	addi	a5, a5, 11
	mul	a4, a5, a4
	addi	a4, a4, -13
	add	a3, a3, a0
	li	a5, 1
	sd	a4, 0(a3)
	beq	a6, a5, .LBB1_13
# %bb.7:
	addi	a3, a2, 1
	slli	a3, a3, 3
	add	a4, a1, a3
	ld	a4, 0(a4)
	slli	a5, a4, 1
	add	a5, a5, a4
	addi	a5, a5, 5
	mul	a5, a5, a4
	addi	a5, a5, -7
	mul	a5, a5, a4
	addi	a5, a5, 11
	mul	a4, a5, a4
	addi	a4, a4, -13
	add	a3, a3, a0
	li	a5, 2
	sd	a4, 0(a3)
	beq	a6, a5, .LBB1_13
# %bb.8:
	addi	a3, a2, 2
	slli	a3, a3, 3
	add	a4, a1, a3
	ld	a4, 0(a4)
	slli	a5, a4, 1
	add	a5, a5, a4
	addi	a5, a5, 5
	mul	a5, a5, a4
	addi	a5, a5, -7
	mul	a5, a5, a4
	addi	a5, a5, 11
	mul	a4, a5, a4
	addi	a4, a4, -13
	add	a3, a3, a0
	li	a5, 3
	sd	a4, 0(a3)
	beq	a6, a5, .LBB1_13
# %bb.9:
	addi	a3, a2, 3
	slli	a3, a3, 3
	add	a4, a1, a3
	ld	a4, 0(a4)
	slli	a5, a4, 1
	add	a5, a5, a4
	addi	a5, a5, 5
	mul	a5, a5, a4
	addi	a5, a5, -7
	mul	a5, a5, a4
	addi	a5, a5, 11
	mul	a4, a5, a4
	addi	a4, a4, -13
	add	a3, a3, a0
	li	a5, 4
	sd	a4, 0(a3)
	beq	a6, a5, .LBB1_13
# %bb.10:
	addi	a3, a2, 4
	slli	a3, a3, 3
	add	a4, a1, a3
	ld	a4, 0(a4)
	slli	a5, a4, 1
	add	a5, a5, a4
	addi	a5, a5, 5
	mul	a5, a5, a4
	addi	a5, a5, -7
	mul	a5, a5, a4
	addi	a5, a5, 11
	mul	a4, a5, a4
	addi	a4, a4, -13
	add	a3, a3, a0
	li	a5, 5
	sd	a4, 0(a3)
	beq	a6, a5, .LBB1_13
# %bb.11:
	addi	a3, a2, 5
	slli	a3, a3, 3
	add	a4, a1, a3
	ld	a4, 0(a4)
	slli	a5, a4, 1
	add	a5, a5, a4
	addi	a5, a5, 5
	mul	a5, a5, a4
	addi	a5, a5, -7
	mul	a5, a5, a4
	addi	a5, a5, 11
	mul	a4, a5, a4
	addi	a4, a4, -13
	add	a3, a3, a0
	li	a5, 6
	sd	a4, 0(a3)
	beq	a6, a5, .LBB1_13
# %bb.12:
	addi	a2, a2, 6
	slli	a2, a2, 3
	add	a1, a1, a2
	ld	a1, 0(a1)
	slli	a3, a1, 1
	add	a3, a3, a1
	addi	a3, a3, 5
	mul	a3, a3, a1
	addi	a3, a3, -7
	mul	a3, a3, a1
	addi	a3, a3, 11
	mul	a1, a3, a1
	addi	a1, a1, -13
	add	a0, a0, a2
	sd	a1, 0(a0)
.LBB1_13:
	ld	s0, 24(sp)                      # 8-byte Folded Reload
	ld	s1, 16(sp)                      # 8-byte Folded Reload
	ld	s2, 8(sp)                       # 8-byte Folded Reload
	ld	s3, 0(sp)                       # 8-byte Folded Reload
	addi	sp, sp, 32
	ret
.Lfunc_end1:
	.size	horner_i64, .Lfunc_end1-horner_i64
                                        # -- End function
	.globl	cmul                            # -- Begin function cmul
	.p2align	1
	.type	cmul,@function
cmul:                                   # @cmul
# %bb.0:
	addi	sp, sp, -16
	fsd	fs0, 8(sp)                      # 8-byte Folded Spill
	blez	a6, .LBB2_3
# %bb.1:
	addi	t0, a6, -1
	li	t1, 7
	andi	a7, a6, 7
	bgeu	t0, t1, .LBB2_4
# %bb.2:
	li	a6, 0
	bnez	a7, .LBB2_7
.LBB2_3:
	fld	fs0, 8(sp)                      # 8-byte Folded Reload
	addi	sp, sp, 16
	ret
.LBB2_4:
	andi	t0, a6, -8
	li	a6, 0
	neg	t0, t0
	addi	t1, a1, 32
	addi	t2, a0, 32
	addi	t3, a5, 32
	addi	t4, a3, 32
	addi	t5, a4, 32
	addi	t6, a2, 32
.LBB2_5:                                # =>This Inner Loop Header: Depth=1
	fld	ft0, -32(t4)
	fneg.d	ft1, ft0
	fld	ft2, -32(t3)
	fld	ft3, -32(t5)
	fmul.d	ft1, ft2, ft1
	fmul.d	ft0, ft3, ft0
	fld	ft4, -24(t4)
	fld	ft5, -32(t6)
	fneg.d	ft6, ft4
	fmadd.d	ft1, ft5, ft3, ft1
	fld	ft3, -24(t3)
	fmadd.d	ft0, ft5, ft2, ft0
	fld	ft2, -16(t4)
	fld	ft5, -24(t5)
	fmul.d	ft6, ft3, ft6
	fneg.d	ft7, ft2
	fld	fa0, -8(t4)
	fmul.d	ft4, ft5, ft4
	fld	fa1, -16(t3)
	fld	fa2, -16(t5)
	fneg.d	fa3, fa0
	fmul.d	ft7, fa1, ft7
	fld	fa4, -8(t3)
	fmul.d	ft2, fa2, ft2
	fld	fa5, 0(t4)
	fld	fa6, -8(t5)
	fmul.d	fa3, fa4, fa3
	fld	fa7, -24(t6)
	fneg.d	ft8, fa5
	fmul.d	fa0, fa6, fa0
	fld	ft9, 0(t3)
	fsd	ft1, -32(t2)
	fmadd.d	ft1, fa7, ft5, ft6
	fld	ft5, -16(t6)
	fmul.d	ft6, ft9, ft8
	fsd	ft0, -32(t1)
	fmadd.d	ft0, fa7, ft3, ft4
	fmadd.d	ft3, ft5, fa2, ft7
	fld	ft4, -8(t6)
	fmadd.d	ft2, ft5, fa1, ft2
	fld	ft5, 0(t6)
	fmadd.d	ft7, ft4, fa6, fa3
	fld	fa1, 8(t4)
	fmadd.d	ft4, ft4, fa4, fa0
	fld	fa0, 0(t5)
	fsd	ft1, -24(t2)
	fneg.d	ft1, fa1
	fmadd.d	ft6, ft5, fa0, ft6
	fld	fa2, 8(t3)
	fmul.d	fa0, fa0, fa5
	fld	fa3, 16(t4)
	fld	fa4, 8(t5)
	fmul.d	ft1, fa2, ft1
	fneg.d	fa5, fa3
	fld	fa6, 24(t4)
	fmul.d	fa1, fa4, fa1
	fld	fa7, 16(t3)
	fld	ft8, 16(t5)
	fneg.d	ft10, fa6
	fmul.d	fa5, fa7, fa5
	fld	ft11, 24(t3)
	fmul.d	fa3, ft8, fa3
	fld	fs0, 24(t5)
	fsd	ft0, -24(t1)
	fmul.d	ft0, ft11, ft10
	fld	ft10, 8(t6)
	fmul.d	fa6, fs0, fa6
	fmadd.d	ft5, ft5, ft9, fa0
	fsd	ft3, -16(t2)
	fmadd.d	ft1, ft10, fa4, ft1
	fld	ft3, 16(t6)
	fmadd.d	fa0, ft10, fa2, fa1
	fsd	ft2, -16(t1)
	fmadd.d	ft2, ft3, ft8, fa5
	fld	fa1, 24(t6)
	fmadd.d	ft3, ft3, fa7, fa3
	fsd	ft7, -8(t2)
	fsd	ft4, -8(t1)
	fmadd.d	ft0, fa1, fs0, ft0
	fmadd.d	ft4, fa1, ft11, fa6
	fsd	ft6, 0(t2)
	fsd	ft5, 0(t1)
	fsd	ft1, 8(t2)
	fsd	fa0, 8(t1)
	fsd	ft2, 16(t2)
	fsd	ft3, 16(t1)
	fsd	ft0, 24(t2)
	fsd	ft4, 24(t1)
	addi	a6, a6, -8
	addi	t1, t1, 64
	addi	t2, t2, 64
	addi	t3, t3, 64
	addi	t4, t4, 64
	addi	t5, t5, 64
	addi	t6, t6, 64
	bne	t0, a6, .LBB2_5
# %bb.6:
	neg	a6, a6
	beqz	a7, .LBB2_3
.LBB2_7:
	slli	t0, a6, 3
	add	t1, a3, t0
	fld	ft0, 0(t1)
	add	t1, a5, t0
	add	t2, a4, t0
	fneg.d	ft1, ft0
	fld	ft2, 0(t1)
	fld	ft3, 0(t2)
	fmul.d	ft1, ft2, ft1
	fmul.d	ft0, ft3, ft0
	add	t1, a2, t0
	fld	ft4, 0(t1)
	fmadd.d	ft1, ft4, ft3, ft1
	fmadd.d	ft0, ft4, ft2, ft0
	add	t1, a0, t0
	add	t0, t0, a1
	li	t2, 1
	fsd	ft1, 0(t1)
	fsd	ft0, 0(t0)
	beq	a7, t2, .LBB2_3
# %bb.8:
	addi	t0, a6, 1
	slli	t0, t0, 3
	add	t1, a3, t0
	fld	ft0, 0(t1)
	add	t1, a5, t0
	add	t2, a4, t0
	fneg.d	ft1, ft0
	fld	ft2, 0(t1)
	fld	ft3, 0(t2)
	fmul.d	ft1, ft2, ft1
	fmul.d	ft0, ft3, ft0
	add	t1, a2, t0
	fld	ft4, 0(t1)
	fmadd.d	ft1, ft4, ft3, ft1
	fmadd.d	ft0, ft4, ft2, ft0
	add	t1, a0, t0
	add	t0, t0, a1
	li	t2, 2
	fsd	ft1, 0(t1)
	fsd	ft0, 0(t0)
	beq	a7, t2, .LBB2_3
# %bb.9:
	addi	t0, a6, 2
	slli	t0, t0, 3
	add	t1, a3, t0
	fld	ft0, 0(t1)
	add	t1, a5, t0
	add	t2, a4, t0
	fneg.d	ft1, ft0
	fld	ft2, 0(t1)
	fld	ft3, 0(t2)
	fmul.d	ft1, ft2, ft1
	fmul.d	ft0, ft3, ft0
	add	t1, a2, t0
	fld	ft4, 0(t1)
	fmadd.d	ft1, ft4, ft3, ft1
	fmadd.d	ft0, ft4, ft2, ft0
	add	t1, a0, t0
	add	t0, t0, a1
	li	t2, 3
	fsd	ft1, 0(t1)
	fsd	ft0, 0(t0)
	beq	a7, t2, .LBB2_3
# %bb.10:
	addi	t0, a6, 3
	slli	t0, t0, 3
	add	t1, a3, t0
	fld	ft0, 0(t1)
	add	t1, a5, t0
	add	t2, a4, t0
	fneg.d	ft1, ft0
	fld	ft2, 0(t1)
	fld	ft3, 0(t2)
	fmul.d	ft1, ft2, ft1
	fmul.d	ft0, ft3, ft0
	add	t1, a2, t0
	fld	ft4, 0(t1)
	fmadd.d	ft1, ft4, ft3, ft1
	fmadd.d	ft0, ft4, ft2, ft0
	add	t1, a0, t0
	add	t0, t0, a1
	li	t2, 4
	fsd	ft1, 0(t1)
	fsd	ft0, 0(t0)
	beq	a7, t2, .LBB2_3
# %bb.11:
	addi	t0, a6, 4
	slli	t0, t0, 3
	add	t1, a3, t0
	fld	ft0, 0(t1)
	add	t1, a5, t0
	add	t2, a4, t0
	fneg.d	ft1, ft0
	fld	ft2, 0(t1)
	fld	ft3, 0(t2)
	fmul.d	ft1, ft2, ft1
	fmul.d	ft0, ft3, ft0
	add	t1, a2, t0
	fld	ft4, 0(t1)
	fmadd.d	ft1, ft4, ft3, ft1
	fmadd.d	ft0, ft4, ft2, ft0
	add	t1, a0, t0
	add	t0, t0, a1
	li	t2, 5
	fsd	ft1, 0(t1)
	fsd	ft0, 0(t0)
	beq	a7, t2, .LBB2_3
# %bb.12:
	addi	t0, a6, 5
	slli	t0, t0, 3
	add	t1, a3, t0
	fld	ft0, 0(t1)
	add	t1, a5, t0
	add	t2, a4, t0
	fneg.d	ft1, ft0
	fld	ft2, 0(t1)
	fld	ft3, 0(t2)
	fmul.d	ft1, ft2, ft1
	fmul.d	ft0, ft3, ft0
	add	t1, a2, t0
	fld	ft4, 0(t1)
	fmadd.d	ft1, ft4, ft3, ft1
	fmadd.d	ft0, ft4, ft2, ft0
	add	t1, a0, t0
	add	t0, t0, a1
	li	t2, 6
	fsd	ft1, 0(t1)
	fsd	ft0, 0(t0)
	beq	a7, t2, .LBB2_3
# %bb.13:
	addi	a6, a6, 6
	slli	a6, a6, 3
	add	a3, a3, a6
	fld	ft0, 0(a3)
	add	a3, a5, a6
	add	a4, a4, a6
	fneg.d	ft1, ft0
	fld	ft2, 0(a3)
	fld	ft3, 0(a4)
	fmul.d	ft1, ft2, ft1
	fmul.d	ft0, ft3, ft0
	add	a2, a2, a6
	fld	ft4, 0(a2)
	fmadd.d	ft1, ft4, ft3, ft1
	fmadd.d	ft0, ft4, ft2, ft0
	add	a0, a0, a6
	add	a1, a1, a6
	fsd	ft1, 0(a0)
	fsd	ft0, 0(a1)
	fld	fs0, 8(sp)                      # 8-byte Folded Reload
	addi	sp, sp, 16
	ret
.Lfunc_end2:
	.size	cmul, .Lfunc_end2-cmul
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
