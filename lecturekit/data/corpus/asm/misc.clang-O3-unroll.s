	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"misc.c"
	.globl	count_hits                      # -- Begin function count_hits
	.p2align	1
	.type	count_hits,@function
count_hits:                             # @count_hits
# %bb.0:
	blez	a2, .LBB0_4
# %bb.1:
	mv	t0, a0
	addi	a0, a2, -1
	li	a4, 7
	andi	a6, a2, 7
	bgeu	a0, a4, .LBB0_5
# %bb.2:
	li	a0, 0
	li	a2, 0
	bnez	a6, .LBB0_24
.LBB0_3:
	fence	rw, rw
	ret
.LBB0_4:
	li	a0, 0
	fence	rw, rw
	ret
.LBB0_5:
	andi	a4, a2, -8
	li	a2, 0
	li	a0, 0
	neg	a7, a4
	addi	a5, a1, 32
	li	t1, 1
	j	.LBB0_7
.LBB0_6:                                #   in Loop: Header=BB0_7 Depth=1
	addi	a2, a2, -8
	addi	a5, a5, 64
	beq	a7, a2, .LBB0_23
.LBB0_7:                                # =>This Inner Loop Header: Depth=1
	ld	a4, -32(a5)
	beq	a4, a3, .LBB0_15
# %bb.8:                                #   in Loop: Header=BB0_7 Depth=1
	ld	a4, -24(a5)
	beq	a4, a3, .LBB0_16
.LBB0_9:                                #   in Loop: Header=BB0_7 Depth=1
	ld	a4, -16(a5)
	beq	a4, a3, .LBB0_17
.LBB0_10:                               #   in Loop: Header=BB0_7 Depth=1
	ld	a4, -8(a5)
	beq	a4, a3, .LBB0_18
.LBB0_11:                               #   in Loop: Header=BB0_7 Depth=1
	ld	a4, 0(a5)
	beq	a4, a3, .LBB0_19
.LBB0_12:                               #   in Loop: Header=BB0_7 Depth=1
	ld	a4, 8(a5)
	beq	a4, a3, .LBB0_20
.LBB0_13:                               #   in Loop: Header=BB0_7 Depth=1
	ld	a4, 16(a5)
	beq	a4, a3, .LBB0_21
.LBB0_14:                               #   in Loop: Header=BB0_7 Depth=1
	ld	a4, 24(a5)
	bne	a4, a3, .LBB0_6
	j	.LBB0_22
.LBB0_15:                               #   in Loop: Header=BB0_7 Depth=1
	amoadd.d	a4, t1, (t0)
	add	a0, a0, a4
	ld	a4, -24(a5)
	bne	a4, a3, .LBB0_9
.LBB0_16:                               #   in Loop: Header=BB0_7 Depth=1
	amoadd.d	a4, t1, (t0)
	add	a0, a0, a4
	ld	a4, -16(a5)
	bne	a4, a3, .LBB0_10
.LBB0_17:                               #   in Loop: Header=BB0_7 Depth=1
	amoadd.d	a4, t1, (t0)
	add	a0, a0, a4
	ld	a4, -8(a5)
	bne	a4, a3, .LBB0_11
.LBB0_18:                               #   in Loop: Header=BB0_7 Depth=1
	amoadd.d	a4, t1, (t0)
	add	a0, a0, a4
	ld	a4, 0(a5)
	bne	a4, a3, .LBB0_12
.LBB0_19:                               #   in Loop: Header=BB0_7 Depth=1
	amoadd.d	a4, t1, (t0)
	add	a0, a0, a4
	ld	a4, 8(a5)
	bne	a4, a3, .LBB0_13
.LBB0_20:                               #   in Loop: Header=BB0_7 Depth=1
	amoadd.d	a4, t1, (t0)
	add	a0, a0, a4
	ld	a4, 16(a5)
	bne	a4, a3, .LBB0_14
.LBB0_21:                               #   in Loop: Header=BB0_7 Depth=1
	amoadd.d	a4, t1, (t0)
	add	a0, a0, a4
	ld	a4, 24(a5)
	bne	a4, a3, .LBB0_6
.LBB0_22:                               #   in Loop: Header=BB0_7 Depth=1
	amoadd.d	a4, t1, (t0)
	add	a0, a0, a4
	j	.LBB0_6
.LBB0_23:
	neg	a2, a2
	beqz	a6, .LBB0_3
.LBB0_24:
	slli	a2, a2, 3
	add	a4, a1, a2
	ld	a4, 0(a4)
	bne	a4, a3, .LBB0_26
# %bb.25:
	li	a4, 1
	amoadd.d	a4, a4, (t0)
	add	a0, a0, a4
.LBB0_26:
	li	a4, 1
	beq	a6, a4, .LBB0_3
# %bb.27:
	add	a1, a1, a2
	ld	a2, 8(a1)
	bne	a2, a3, .LBB0_29
# %bb.28:
	li	a2, 1
	amoadd.d	a2, a2, (t0)
	add	a0, a0, a2
.LBB0_29:
	li	a2, 2
	beq	a6, a2, .LBB0_3
# %bb.30:
	ld	a2, 16(a1)
	bne	a2, a3, .LBB0_32
# %bb.31:
	li	a2, 1
	amoadd.d	a2, a2, (t0)
	add	a0, a0, a2
.LBB0_32:
	li	a2, 3
	beq	a6, a2, .LBB0_3
# %bb.33:
	ld	a2, 24(a1)
	bne	a2, a3, .LBB0_35
# %bb.34:
	li	a2, 1
	amoadd.d	a2, a2, (t0)
	add	a0, a0, a2
.LBB0_35:
	li	a2, 4
	beq	a6, a2, .LBB0_3
# %bb.36:
	ld	a2, 32(a1)
	bne	a2, a3, .LBB0_38
# %bb.37:
	li	a2, 1
	amoadd.d	a2, a2, (t0)
	add	a0, a0, a2
.LBB0_38:
	li	a2, 5
	beq	a6, a2, .LBB0_3
# %bb.39:
	ld	a2, 40(a1)
	bne	a2, a3, .LBB0_41
# %bb.40:
	li	a2, 1
	amoadd.d	a2, a2, (t0)
	add	a0, a0, a2
.LBB0_41:
	li	a2, 6
	beq	a6, a2, .LBB0_3
# %bb.42:
	ld	a1, 48(a1)
	bne	a1, a3, .LBB0_3
# %bb.43:
	li	a1, 1
	amoadd.d	a1, a1, (t0)
	add	a0, a0, a1
	fence	rw, rw
	ret
.Lfunc_end0:
	.size	count_hits, .Lfunc_end0-count_hits
                                        # -- End function
	.globl	cas_max                         # -- Begin function cas_max
	.p2align	1
	.type	cas_max,@function
cas_max:                                # @cas_max
# %bb.0:
	lw	a2, 0(a0)
.LBB1_1:                                # =>This Loop Header: Depth=1
                                        #     Child Loop BB1_19 Depth 2
                                        #     Child Loop BB1_22 Depth 2
                                        #     Child Loop BB1_25 Depth 2
                                        #     Child Loop BB1_28 Depth 2
                                        #     Child Loop BB1_31 Depth 2
                                        #     Child Loop BB1_34 Depth 2
                                        #     Child Loop BB1_37 Depth 2
                                        #     Child Loop BB1_40 Depth 2
	sext.w	a4, a2
	bge	a4, a1, .LBB1_18
# %bb.2:                                #   in Loop: Header=BB1_1 Depth=1
.LBB1_19:                               #   Parent Loop BB1_1 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	lr.w.aqrl	a3, (a0)
	bne	a3, a4, .LBB1_21
# %bb.20:                               #   in Loop: Header=BB1_19 Depth=2
	sc.w.aqrl	a5, a1, (a0)
	bnez	a5, .LBB1_19
.LBB1_21:                               #   in Loop: Header=BB1_1 Depth=1
	beq	a3, a4, .LBB1_18
# %bb.3:                                #   in Loop: Header=BB1_1 Depth=1
	bge	a3, a1, .LBB1_17
# %bb.4:                                #   in Loop: Header=BB1_1 Depth=1
.LBB1_22:                               #   Parent Loop BB1_1 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	lr.w.aqrl	a2, (a0)
	bne	a2, a3, .LBB1_24
# %bb.23:                               #   in Loop: Header=BB1_22 Depth=2
	sc.w.aqrl	a4, a1, (a0)
	bnez	a4, .LBB1_22
.LBB1_24:                               #   in Loop: Header=BB1_1 Depth=1
	beq	a2, a3, .LBB1_17
# %bb.5:                                #   in Loop: Header=BB1_1 Depth=1
	bge	a2, a1, .LBB1_18
# %bb.6:                                #   in Loop: Header=BB1_1 Depth=1
.LBB1_25:                               #   Parent Loop BB1_1 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	lr.w.aqrl	a3, (a0)
	bne	a3, a2, .LBB1_27
# %bb.26:                               #   in Loop: Header=BB1_25 Depth=2
	sc.w.aqrl	a4, a1, (a0)
	bnez	a4, .LBB1_25
.LBB1_27:                               #   in Loop: Header=BB1_1 Depth=1
	beq	a3, a2, .LBB1_18
# %bb.7:                                #   in Loop: Header=BB1_1 Depth=1
	bge	a3, a1, .LBB1_17
# %bb.8:                                #   in Loop: Header=BB1_1 Depth=1
.LBB1_28:                               #   Parent Loop BB1_1 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	lr.w.aqrl	a2, (a0)
	bne	a2, a3, .LBB1_30
# %bb.29:                               #   in Loop: Header=BB1_28 Depth=2
	sc.w.aqrl	a4, a1, (a0)
	bnez	a4, .LBB1_28
.LBB1_30:                               #   in Loop: Header=BB1_1 Depth=1
	beq	a2, a3, .LBB1_17
# %bb.9:                                #   in Loop: Header=BB1_1 Depth=1
	bge	a2, a1, .LBB1_18
# %bb.10:                               #   in Loop: Header=BB1_1 Depth=1
.LBB1_31:                               #   Parent Loop BB1_1 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	lr.w.aqrl	a3, (a0)
	bne	a3, a2, .LBB1_33
# %bb.32:                               #   in Loop: Header=BB1_31 Depth=2
	sc.w.aqrl	a4, a1, (a0)
	bnez	a4, .LBB1_31
.LBB1_33:                               #   in Loop: Header=BB1_1 Depth=1
	beq	a3, a2, .LBB1_18
# %bb.11:                               #   in Loop: Header=BB1_1 Depth=1
	bge	a3, a1, .LBB1_17
# %bb.12:                               #   in Loop: Header=BB1_1 Depth=1
.LBB1_34:                               #   Parent Loop BB1_1 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	lr.w.aqrl	a2, (a0)
	bne	a2, a3, .LBB1_36
# %bb.35:                               #   in Loop: Header=BB1_34 Depth=2
	sc.w.aqrl	a4, a1, (a0)
	bnez	a4, .LBB1_34
.LBB1_36:                               #   in Loop: Header=BB1_1 Depth=1
	beq	a2, a3, .LBB1_17
# %bb.13:                               #   in Loop: Header=BB1_1 Depth=1
	bge	a2, a1, .LBB1_18
# %bb.14:                               #   in Loop: Header=BB1_1 Depth=1
.LBB1_37:                               #   Parent Loop BB1_1 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	lr.w.aqrl	a3, (a0)
	bne	a3, a2, .LBB1_39
# %bb.38:                               #   in Loop: Header=BB1_37 Depth=2
	sc.w.aqrl	a4, a1, (a0)
	bnez	a4, .LBB1_37
.LBB1_39:                               #   in Loop: Header=BB1_1 Depth=1
	beq	a3, a2, .LBB1_18
# %bb.15:                               #   in Loop: Header=BB1_1 Depth=1
	bge	a3, a1, .LBB1_17
# %bb.16:                               #   in Loop: Header=BB1_1 Depth=1
.LBB1_40:                               #   Parent Loop BB1_1 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	lr.w.aqrl	a2, (a0)
	bne	a2, a3, .LBB1_42
# %bb.41:                               #   in Loop: Header=BB1_40 Depth=2
	sc.w.aqrl	a4, a1, (a0)
	bnez	a4, .LBB1_40
.LBB1_42:                               #   in Loop: Header=BB1_1 Depth=1
	bne	a2, a3, .LBB1_1
.LBB1_17:
	mv	a2, a3
.LBB1_18:
	sext.w	a0, a2
	ret
.Lfunc_end1:
	.size	cas_max, .Lfunc_end1-cas_max
                                        # -- End function
	.section	.sdata,"aw",@progbits
	.p2align	3                               # -- Begin function dispatch
.LCPI2_0:
	.quad	6364136223846793005             # 0x5851f42d4c957f2d
	.text
	.globl	dispatch
	.p2align	1
	.type	dispatch,@function
dispatch:                               # @dispatch
# %bb.0:
	li	a3, 5
	bltu	a3, a0, .LBB2_3
# %bb.1:
	slli	a0, a0, 2
.LBB2_9:                                # Label of block must be emitted
	auipc	a3, %pcrel_hi(.LJTI2_0)
	addi	a3, a3, %pcrel_lo(.LBB2_9)
	add	a0, a0, a3
	lw	a0, 0(a0)
	add	a0, a0, a3
	jr	a0
.LBB2_2:
	add	a0, a2, a1
	ret
.LBB2_3:
	andi	a0, a0, 63
	slli	a0, a0, 3
.LBB2_10:                               # Label of block must be emitted
	auipc	a1, %pcrel_hi(table)
	addi	a1, a1, %pcrel_lo(.LBB2_10)
	add	a0, a0, a1
	ld	a0, 0(a0)
	ret
.LBB2_4:
	sub	a0, a1, a2
	ret
.LBB2_5:
	mul	a0, a2, a1
	ret
.LBB2_6:
	ori	a0, a2, 1
	div	a0, a1, a0
	ret
.LBB2_7:
	sll	a0, a1, a2
	ret
.LBB2_8:
.LBB2_11:                               # Label of block must be emitted
	auipc	a0, %pcrel_hi(.LCPI2_0)
	addi	a0, a0, %pcrel_lo(.LBB2_11)
	ld	a0, 0(a0)
	xor	a0, a0, a1
	ret
.Lfunc_end2:
	.size	dispatch, .Lfunc_end2-dispatch
	.section	.rodata,"a",@progbits
	.p2align	2
.LJTI2_0:
	.word	.LBB2_2-.LJTI2_0
	.word	.LBB2_4-.LJTI2_0
	.word	.LBB2_5-.LJTI2_0
	.word	.LBB2_6-.LJTI2_0
	.word	.LBB2_7-.LJTI2_0
	.word	.LBB2_8-.LJTI2_0
                                        # -- End function
	.section	.sdata,"aw",@progbits
	.p2align	3                               # -- Begin function smooth
.LCPI3_0:
	.quad	0x3fd0000000000000              # double 0.25
.LCPI3_1:
	.quad	0x3fc0000000000000              # double 0.125
.LCPI3_2:
	.quad	0x3fe0000000000000              # double 0.5
	.text
	.globl	smooth
	.p2align	1
	.type	smooth,@function
smooth:                                 # @smooth
# %bb.0:
	li	a2, 4
	blt	a1, a2, .LBB3_4
# %bb.1:
	addi	a2, a1, -3
	addi	a3, a1, -4
	li	a5, 7
	fld	ft1, 0(a0)
	andi	a1, a2, 7
	fld	ft0, 8(a0)
.LBB3_15:                               # Label of block must be emitted
	auipc	a4, %pcrel_hi(.LCPI3_0)
	addi	a4, a4, %pcrel_lo(.LBB3_15)
.LBB3_16:                               # Label of block must be emitted
	auipc	a7, %pcrel_hi(.LCPI3_1)
	addi	a7, a7, %pcrel_lo(.LBB3_16)
.LBB3_17:                               # Label of block must be emitted
	auipc	a6, %pcrel_hi(.LCPI3_2)
	addi	a6, a6, %pcrel_lo(.LBB3_17)
	bgeu	a3, a5, .LBB3_5
# %bb.2:
	li	a2, 0
	fmv.d.x	fa0, zero
	li	a3, 3
	bnez	a1, .LBB3_8
.LBB3_3:
	ret
.LBB3_4:
	fmv.d.x	fa0, zero
	ret
.LBB3_5:
	andi	a2, a2, -8
	li	a5, 0
	neg	a2, a2
	addi	a3, a0, 40
	fld	ft2, 0(a4)
	fmv.d.x	fa0, zero
	fld	ft3, 0(a7)
	fld	ft4, 0(a6)
.LBB3_6:                                # =>This Inner Loop Header: Depth=1
	fmul.d	ft5, ft0, ft2
	fld	ft6, -24(a3)
	fmadd.d	ft1, ft1, ft3, ft5
	fmul.d	ft5, ft6, ft2
	fmadd.d	ft1, ft6, ft4, ft1
	fld	ft7, -16(a3)
	fmadd.d	ft0, ft0, ft3, ft5
	fmul.d	ft5, ft7, ft2
	fmadd.d	ft1, ft7, ft3, ft1
	fmadd.d	ft0, ft7, ft4, ft0
	fld	fa1, -8(a3)
	fmadd.d	ft5, ft6, ft3, ft5
	fmul.d	ft6, fa1, ft2
	fadd.d	ft1, fa0, ft1
	fmadd.d	ft0, fa1, ft3, ft0
	fmadd.d	ft5, fa1, ft4, ft5
	fld	fa0, 0(a3)
	fmadd.d	ft6, ft7, ft3, ft6
	fmul.d	ft7, fa0, ft2
	fadd.d	ft0, ft1, ft0
	fmadd.d	ft1, fa0, ft3, ft5
	fmadd.d	ft5, fa0, ft4, ft6
	fld	ft6, 8(a3)
	fmadd.d	ft7, fa1, ft3, ft7
	fmul.d	fa1, ft6, ft2
	fadd.d	ft0, ft0, ft1
	fmadd.d	ft1, ft6, ft3, ft5
	fmadd.d	ft5, ft6, ft4, ft7
	fld	ft7, 16(a3)
	fmadd.d	fa0, fa0, ft3, fa1
	fmul.d	fa1, ft7, ft2
	fadd.d	ft0, ft0, ft1
	fmadd.d	ft5, ft7, ft3, ft5
	fmadd.d	fa0, ft7, ft4, fa0
	fld	ft1, 24(a3)
	fmadd.d	ft6, ft6, ft3, fa1
	fmul.d	fa1, ft1, ft2
	fadd.d	ft5, ft0, ft5
	fmadd.d	fa0, ft1, ft3, fa0
	fmadd.d	ft6, ft1, ft4, ft6
	fmadd.d	ft7, ft7, ft3, fa1
	fld	ft0, 32(a3)
	fadd.d	ft5, ft5, fa0
	fmadd.d	ft6, ft0, ft3, ft6
	fmadd.d	ft7, ft0, ft4, ft7
	fld	fa0, 40(a3)
	fadd.d	ft5, ft5, ft6
	fmadd.d	ft6, fa0, ft3, ft7
	fadd.d	fa0, ft5, ft6
	addi	a5, a5, -8
	addi	a3, a3, 64
	bne	a2, a5, .LBB3_6
# %bb.7:
	li	a3, 3
	neg	a2, a5
	sub	a3, a3, a5
	beqz	a1, .LBB3_3
.LBB3_8:
	fld	ft3, 0(a4)
	fmul.d	ft4, ft0, ft3
	fld	ft2, 0(a7)
	slli	a2, a2, 3
	fmadd.d	ft5, ft1, ft2, ft4
	add	a2, a2, a0
	fld	ft4, 16(a2)
	fld	ft1, 0(a6)
	slli	a3, a3, 3
	fmadd.d	ft5, ft4, ft1, ft5
	add	a0, a0, a3
	fld	ft6, 0(a0)
	fmadd.d	ft5, ft6, ft2, ft5
	fadd.d	fa0, fa0, ft5
	li	a0, 1
	beq	a1, a0, .LBB3_3
# %bb.9:
	fmul.d	ft5, ft4, ft3
	fmadd.d	ft5, ft0, ft2, ft5
	fld	ft0, 24(a2)
	fmadd.d	ft5, ft0, ft1, ft5
	fld	ft6, 32(a2)
	fmadd.d	ft5, ft6, ft2, ft5
	fadd.d	fa0, fa0, ft5
	li	a0, 2
	beq	a1, a0, .LBB3_3
# %bb.10:
	fmul.d	ft5, ft0, ft3
	fmadd.d	ft5, ft4, ft2, ft5
	fld	ft4, 32(a2)
	fmadd.d	ft5, ft4, ft1, ft5
	fld	ft6, 40(a2)
	fmadd.d	ft5, ft6, ft2, ft5
	fadd.d	fa0, fa0, ft5
	li	a0, 3
	beq	a1, a0, .LBB3_3
# %bb.11:
	fmul.d	ft5, ft4, ft3
	fmadd.d	ft5, ft0, ft2, ft5
	fld	ft0, 40(a2)
	fmadd.d	ft5, ft0, ft1, ft5
	fld	ft6, 48(a2)
	fmadd.d	ft5, ft6, ft2, ft5
	fadd.d	fa0, fa0, ft5
	li	a0, 4
	beq	a1, a0, .LBB3_3
# %bb.12:
	fmul.d	ft5, ft0, ft3
	fmadd.d	ft5, ft4, ft2, ft5
	fld	ft4, 48(a2)
	fmadd.d	ft5, ft4, ft1, ft5
	fld	ft6, 56(a2)
	fmadd.d	ft5, ft6, ft2, ft5
	fadd.d	fa0, fa0, ft5
	li	a0, 5
	beq	a1, a0, .LBB3_3
# %bb.13:
	fmul.d	ft5, ft4, ft3
	fmadd.d	ft5, ft0, ft2, ft5
	fld	ft0, 56(a2)
	fmadd.d	ft5, ft0, ft1, ft5
	fld	ft6, 64(a2)
	fmadd.d	ft5, ft6, ft2, ft5
	fadd.d	fa0, fa0, ft5
	li	a0, 6
	beq	a1, a0, .LBB3_3
# %bb.14:
	fmul.d	ft0, ft0, ft3
	fmadd.d	ft0, ft4, ft2, ft0
	fld	ft3, 64(a2)
	fmadd.d	ft0, ft3, ft1, ft0
	fld	ft1, 72(a2)
	fmadd.d	ft0, ft1, ft2, ft0
	fadd.d	fa0, fa0, ft0
	ret
.Lfunc_end3:
	.size	smooth, .Lfunc_end3-smooth
                                        # -- End function
	.globl	count_less                      # -- Begin function count_less
	.p2align	1
	.type	count_less,@function
count_less:                             # @count_less
# %bb.0:
	blez	a2, .LBB4_4
# %bb.1:
	addi	a3, a2, -1
	li	a4, 7
	andi	a6, a2, 7
	bgeu	a3, a4, .LBB4_5
# %bb.2:
	li	a4, 0
	li	t0, 0
	bnez	a6, .LBB4_8
.LBB4_3:
	sext.w	a0, t0
	ret
.LBB4_4:
	li	a0, 0
	ret
.LBB4_5:
	andi	a3, a2, -8
	li	a4, 0
	li	t0, 0
	neg	a7, a3
	addi	a3, a1, 32
	addi	a5, a0, 32
.LBB4_6:                                # =>This Inner Loop Header: Depth=1
	fld	ft0, -32(a5)
	fld	ft1, -32(a3)
	flt.d	a2, ft0, ft1
	fld	ft0, -24(a5)
	fld	ft1, -24(a3)
	addw	t0, t0, a2
	flt.d	a2, ft0, ft1
	fld	ft0, -16(a5)
	fld	ft1, -16(a3)
	addw	t0, t0, a2
	flt.d	a2, ft0, ft1
	fld	ft0, -8(a5)
	fld	ft1, -8(a3)
	addw	t0, t0, a2
	flt.d	a2, ft0, ft1
	fld	ft0, 0(a5)
	fld	ft1, 0(a3)
	addw	t0, t0, a2
	flt.d	a2, ft0, ft1
	fld	ft0, 8(a5)
	fld	ft1, 8(a3)
	addw	t0, t0, a2
	flt.d	a2, ft0, ft1
	fld	ft0, 16(a5)
	fld	ft1, 16(a3)
	addw	t0, t0, a2
	flt.d	a2, ft0, ft1
	fld	ft0, 24(a5)
	fld	ft1, 24(a3)
	addw	t0, t0, a2
	flt.d	a2, ft0, ft1
	addw	t0, t0, a2
	addi	a4, a4, -8
	addi	a3, a3, 64
	addi	a5, a5, 64
	bne	a7, a4, .LBB4_6
# %bb.7:
	neg	a4, a4
	beqz	a6, .LBB4_3
.LBB4_8:
	slli	a3, a4, 3
	add	a5, a0, a3
	add	a3, a3, a1
	fld	ft0, 0(a5)
	fld	ft1, 0(a3)
	flt.d	a3, ft0, ft1
	li	a5, 1
	addw	t0, t0, a3
	beq	a6, a5, .LBB4_3
# %bb.9:
	addi	a3, a4, 1
	slli	a3, a3, 3
	add	a5, a0, a3
	add	a3, a3, a1
	fld	ft0, 0(a5)
	fld	ft1, 0(a3)
	flt.d	a3, ft0, ft1
	li	a5, 2
	addw	t0, t0, a3
	beq	a6, a5, .LBB4_3
# %bb.10:
	addi	a3, a4, 2
	slli	a3, a3, 3
	add	a5, a0, a3
	add	a3, a3, a1
	fld	ft0, 0(a5)
	fld	ft1, 0(a3)
	flt.d	a3, ft0, ft1
	li	a5, 3
	addw	t0, t0, a3
	beq	a6, a5, .LBB4_3
# %bb.11:
	addi	a3, a4, 3
	slli	a3, a3, 3
	add	a5, a0, a3
	add	a3, a3, a1
	fld	ft0, 0(a5)
	fld	ft1, 0(a3)
	flt.d	a3, ft0, ft1
	li	a5, 4
	addw	t0, t0, a3
	beq	a6, a5, .LBB4_3
# %bb.12:
	addi	a3, a4, 4
	slli	a3, a3, 3
	add	a5, a0, a3
	add	a3, a3, a1
	fld	ft0, 0(a5)
	fld	ft1, 0(a3)
	flt.d	a3, ft0, ft1
	li	a5, 5
	addw	t0, t0, a3
	beq	a6, a5, .LBB4_3
# %bb.13:
	addi	a3, a4, 5
	slli	a3, a3, 3
	add	a5, a0, a3
	add	a3, a3, a1
	fld	ft0, 0(a5)
	fld	ft1, 0(a3)
	flt.d	a3, ft0, ft1
	li	a5, 6
	addw	t0, t0, a3
	beq	a6, a5, .LBB4_3
# %bb.14:
	addi	a3, a4, 6
	slli	a3, a3, 3
	add	a0, a0, a3
	add	a1, a1, a3
	fld	ft0, 0(a0)
	fld	ft1, 0(a1)
	flt.d	a0, ft0, ft1
	addw	t0, t0, a0
	sext.w	a0, t0
	ret
.Lfunc_end4:
	.size	count_less, .Lfunc_end4-count_less
                                        # -- End function
	.globl	hypot_sum                       # -- Begin function hypot_sum
	.p2align	1
	.type	hypot_sum,@function
hypot_sum:                              # @hypot_sum
# %bb.0:
	addi	sp, sp, -48
	sd	ra, 40(sp)                      # 8-byte Folded Spill
	sd	s0, 32(sp)                      # 8-byte Folded Spill
	sd	s1, 24(sp)                      # 8-byte Folded Spill
	sd	s2, 16(sp)                      # 8-byte Folded Spill
	fsd	fs0, 8(sp)                      # 8-byte Folded Spill
	blez	a2, .LBB5_3
# %bb.1:
	mv	s2, a2
	mv	s1, a1
	mv	s0, a0
	fmv.d.x	fs0, zero
.LBB5_2:                                # =>This Inner Loop Header: Depth=1
	fld	fa0, 0(s0)
	fld	fa1, 0(s1)
	call	hypot@plt
	fadd.d	fs0, fs0, fa0
	addi	s2, s2, -1
	addi	s1, s1, 8
	addi	s0, s0, 8
	bnez	s2, .LBB5_2
	j	.LBB5_4
.LBB5_3:
	fmv.d.x	fs0, zero
.LBB5_4:
	fmv.d	fa0, fs0
	ld	ra, 40(sp)                      # 8-byte Folded Reload
	ld	s0, 32(sp)                      # 8-byte Folded Reload
	ld	s1, 24(sp)                      # 8-byte Folded Reload
	ld	s2, 16(sp)                      # 8-byte Folded Reload
	fld	fs0, 8(sp)                      # 8-byte Folded Reload
	addi	sp, sp, 48
	ret
.Lfunc_end5:
	.size	hypot_sum, .Lfunc_end5-hypot_sum
                                        # -- End function
	.section	.sdata,"aw",@progbits
	.p2align	3                               # -- Begin function scaled_exp
.LCPI6_0:
	.quad	0x3fe0000000000000              # double 0.5
	.text
	.globl	scaled_exp
	.p2align	1
	.type	scaled_exp,@function
scaled_exp:                             # @scaled_exp
# %bb.0:
.LBB6_1:                                # Label of block must be emitted
	auipc	a0, %pcrel_hi(.LCPI6_0)
	addi	a0, a0, %pcrel_lo(.LBB6_1)
	fld	ft0, 0(a0)
	fmul.d	fa0, fa0, ft0
	tail	exp@plt
.Lfunc_end6:
	.size	scaled_exp, .Lfunc_end6-scaled_exp
                                        # -- End function
	.globl	mask_bits                       # -- Begin function mask_bits
	.p2align	1
	.type	mask_bits,@function
mask_bits:                              # @mask_bits
# %bb.0:
	li	a1, -1
	slli	a1, a1, 32
	lui	a2, 61681
	and	a0, a0, a1
	addiw	a1, a2, -241
	or	a0, a0, a1
	ret
.Lfunc_end7:
	.size	mask_bits, .Lfunc_end7-mask_bits
                                        # -- End function
	.type	table,@object                   # @table
	.bss
	.globl	table
	.p2align	3
table:
	.zero	512
	.size	table, 512

	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
