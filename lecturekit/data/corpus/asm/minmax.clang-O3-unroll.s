	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"minmax.c"
	.globl	minmax_i32                      # -- Begin function minmax_i32
	.p2align	1
	.type	minmax_i32,@function
minmax_i32:                             # @minmax_i32
# %bb.0:
	li	a3, 2
	lw	t0, 0(a0)
	blt	a1, a3, .LBB0_4
# %bb.1:
	addi	a3, a1, -1
	addi	a1, a1, -2
	li	a4, 7
	andi	a6, a3, 7
	bgeu	a1, a4, .LBB0_5
# %bb.2:
	li	a1, 1
	mv	a5, t0
	mv	a4, a5
	bnez	a6, .LBB0_40
.LBB0_3:
	sext.w	a0, a4
	sw	t0, 0(a2)
	ret
.LBB0_4:
	mv	a4, t0
	sext.w	a0, a4
	sw	t0, 0(a2)
	ret
.LBB0_5:
	li	t1, 0
	andi	a7, a3, -8
	addi	a1, a0, 16
	mv	a5, t0
	j	.LBB0_7
.LBB0_6:                                #   in Loop: Header=BB0_7 Depth=1
	addi	t1, t1, 8
	addi	a1, a1, 32
	beq	a7, t1, .LBB0_39
.LBB0_7:                                # =>This Inner Loop Header: Depth=1
	lw	a3, -12(a1)
	mv	a4, a3
	bge	a3, t0, .LBB0_23
# %bb.8:                                #   in Loop: Header=BB0_7 Depth=1
	bge	a5, a3, .LBB0_24
.LBB0_9:                                #   in Loop: Header=BB0_7 Depth=1
	lw	a5, -8(a1)
	mv	t0, a5
	bge	a5, a4, .LBB0_25
.LBB0_10:                               #   in Loop: Header=BB0_7 Depth=1
	bge	a3, a5, .LBB0_26
.LBB0_11:                               #   in Loop: Header=BB0_7 Depth=1
	lw	a3, -4(a1)
	mv	a4, a3
	bge	a3, t0, .LBB0_27
.LBB0_12:                               #   in Loop: Header=BB0_7 Depth=1
	bge	a5, a3, .LBB0_28
.LBB0_13:                               #   in Loop: Header=BB0_7 Depth=1
	lw	a5, 0(a1)
	mv	t0, a5
	bge	a5, a4, .LBB0_29
.LBB0_14:                               #   in Loop: Header=BB0_7 Depth=1
	bge	a3, a5, .LBB0_30
.LBB0_15:                               #   in Loop: Header=BB0_7 Depth=1
	lw	a3, 4(a1)
	mv	a4, a3
	bge	a3, t0, .LBB0_31
.LBB0_16:                               #   in Loop: Header=BB0_7 Depth=1
	bge	a5, a3, .LBB0_32
.LBB0_17:                               #   in Loop: Header=BB0_7 Depth=1
	lw	a5, 8(a1)
	mv	t0, a5
	bge	a5, a4, .LBB0_33
.LBB0_18:                               #   in Loop: Header=BB0_7 Depth=1
	bge	a3, a5, .LBB0_34
.LBB0_19:                               #   in Loop: Header=BB0_7 Depth=1
	lw	a3, 12(a1)
	mv	a4, a3
	bge	a3, t0, .LBB0_35
.LBB0_20:                               #   in Loop: Header=BB0_7 Depth=1
	bge	a5, a3, .LBB0_36
.LBB0_21:                               #   in Loop: Header=BB0_7 Depth=1
	lw	a5, 16(a1)
	mv	t0, a5
	bge	a5, a4, .LBB0_37
.LBB0_22:                               #   in Loop: Header=BB0_7 Depth=1
	blt	a3, a5, .LBB0_6
	j	.LBB0_38
.LBB0_23:                               #   in Loop: Header=BB0_7 Depth=1
	mv	a4, t0
	blt	a5, a3, .LBB0_9
.LBB0_24:                               #   in Loop: Header=BB0_7 Depth=1
	mv	a3, a5
	lw	a5, -8(a1)
	mv	t0, a5
	blt	a5, a4, .LBB0_10
.LBB0_25:                               #   in Loop: Header=BB0_7 Depth=1
	mv	t0, a4
	blt	a3, a5, .LBB0_11
.LBB0_26:                               #   in Loop: Header=BB0_7 Depth=1
	mv	a5, a3
	lw	a3, -4(a1)
	mv	a4, a3
	blt	a3, t0, .LBB0_12
.LBB0_27:                               #   in Loop: Header=BB0_7 Depth=1
	mv	a4, t0
	blt	a5, a3, .LBB0_13
.LBB0_28:                               #   in Loop: Header=BB0_7 Depth=1
	mv	a3, a5
	lw	a5, 0(a1)
	mv	t0, a5
	blt	a5, a4, .LBB0_14
.LBB0_29:                               #   in Loop: Header=BB0_7 Depth=1
	mv	t0, a4
	blt	a3, a5, .LBB0_15
.LBB0_30:                               #   in Loop: Header=BB0_7 Depth=1
	mv	a5, a3
	lw	a3, 4(a1)
	mv	a4, a3
	blt	a3, t0, .LBB0_16
.LBB0_31:                               #   in Loop: Header=BB0_7 Depth=1
	mv	a4, t0
	blt	a5, a3, .LBB0_17
.LBB0_32:                               #   in Loop: Header=BB0_7 Depth=1
	mv	a3, a5
	lw	a5, 8(a1)
	mv	t0, a5
	blt	a5, a4, .LBB0_18
.LBB0_33:                               #   in Loop: Header=BB0_7 Depth=1
	mv	t0, a4
	blt	a3, a5, .LBB0_19
.LBB0_34:                               #   in Loop: Header=BB0_7 Depth=1
	mv	a5, a3
	lw	a3, 12(a1)
	mv	a4, a3
	blt	a3, t0, .LBB0_20
.LBB0_35:                               #   in Loop: Header=BB0_7 Depth=1
	mv	a4, t0
	blt	a5, a3, .LBB0_21
.LBB0_36:                               #   in Loop: Header=BB0_7 Depth=1
	mv	a3, a5
	lw	a5, 16(a1)
	mv	t0, a5
	blt	a5, a4, .LBB0_22
.LBB0_37:                               #   in Loop: Header=BB0_7 Depth=1
	mv	t0, a4
	blt	a3, a5, .LBB0_6
.LBB0_38:                               #   in Loop: Header=BB0_7 Depth=1
	mv	a5, a3
	j	.LBB0_6
.LBB0_39:
	addi	a1, t1, 1
	mv	a4, a5
	beqz	a6, .LBB0_3
.LBB0_40:
	slli	a1, a1, 2
	add	a3, a0, a1
	lw	a4, 0(a3)
	mv	a3, a4
	bge	a4, t0, .LBB0_44
# %bb.41:
	bge	a5, a4, .LBB0_45
.LBB0_42:
	li	a5, 1
	bne	a6, a5, .LBB0_46
.LBB0_43:
	mv	t0, a3
	sext.w	a0, a4
	sw	t0, 0(a2)
	ret
.LBB0_44:
	mv	a3, t0
	blt	a5, a4, .LBB0_42
.LBB0_45:
	mv	a4, a5
	li	a5, 1
	beq	a6, a5, .LBB0_43
.LBB0_46:
	add	a0, a0, a1
	lw	a1, 4(a0)
	mv	t0, a1
	bge	a1, a3, .LBB0_49
# %bb.47:
	bge	a4, a1, .LBB0_50
.LBB0_48:
	li	a3, 2
	bne	a6, a3, .LBB0_51
	j	.LBB0_62
.LBB0_49:
	mv	t0, a3
	blt	a4, a1, .LBB0_48
.LBB0_50:
	mv	a1, a4
	li	a3, 2
	beq	a6, a3, .LBB0_62
.LBB0_51:
	lw	a4, 8(a0)
	mv	a3, a4
	bge	a4, t0, .LBB0_55
# %bb.52:
	bge	a1, a4, .LBB0_56
.LBB0_53:
	li	a1, 3
	bne	a6, a1, .LBB0_57
.LBB0_54:
	mv	t0, a3
	sext.w	a0, a4
	sw	t0, 0(a2)
	ret
.LBB0_55:
	mv	a3, t0
	blt	a1, a4, .LBB0_53
.LBB0_56:
	mv	a4, a1
	li	a1, 3
	beq	a6, a1, .LBB0_54
.LBB0_57:
	lw	a1, 12(a0)
	mv	t0, a1
	bge	a1, a3, .LBB0_60
# %bb.58:
	bge	a4, a1, .LBB0_61
.LBB0_59:
	li	a3, 4
	beq	a6, a3, .LBB0_62
	j	.LBB0_63
.LBB0_60:
	mv	t0, a3
	blt	a4, a1, .LBB0_59
.LBB0_61:
	mv	a1, a4
	li	a3, 4
	bne	a6, a3, .LBB0_63
.LBB0_62:
	mv	a4, a1
	sext.w	a0, a4
	sw	t0, 0(a2)
	ret
.LBB0_63:
	lw	a4, 16(a0)
	mv	a3, a4
	bge	a4, t0, .LBB0_67
# %bb.64:
	bge	a1, a4, .LBB0_68
.LBB0_65:
	li	a1, 5
	bne	a6, a1, .LBB0_69
.LBB0_66:
	mv	t0, a3
	sext.w	a0, a4
	sw	t0, 0(a2)
	ret
.LBB0_67:
	mv	a3, t0
	blt	a1, a4, .LBB0_65
.LBB0_68:
	mv	a4, a1
	li	a1, 5
	beq	a6, a1, .LBB0_66
.LBB0_69:
	lw	a1, 20(a0)
	mv	a5, a1
	bge	a1, a3, .LBB0_73
# %bb.70:
	bge	a4, a1, .LBB0_74
.LBB0_71:
	li	a3, 6
	bne	a6, a3, .LBB0_75
.LBB0_72:
	mv	a4, a1
	mv	t0, a5
	sext.w	a0, a4
	sw	t0, 0(a2)
	ret
.LBB0_73:
	mv	a5, a3
	blt	a4, a1, .LBB0_71
.LBB0_74:
	mv	a1, a4
	li	a3, 6
	beq	a6, a3, .LBB0_72
.LBB0_75:
	lw	a4, 24(a0)
	mv	t0, a4
	blt	a4, a5, .LBB0_77
# %bb.76:
	mv	t0, a5
.LBB0_77:
	blt	a1, a4, .LBB0_3
	j	.LBB0_62
.Lfunc_end0:
	.size	minmax_i32, .Lfunc_end0-minmax_i32
                                        # -- End function
	.globl	range_f32                       # -- Begin function range_f32
	.p2align	1
	.type	range_f32,@function
range_f32:                              # @range_f32
# %bb.0:
	li	a2, 2
	flw	ft0, 0(a0)
	blt	a1, a2, .LBB1_4
# %bb.1:
	addi	a3, a1, -1
	addi	a2, a1, -2
	li	a4, 7
	andi	a1, a3, 7
	bgeu	a2, a4, .LBB1_5
# %bb.2:
	li	a2, 1
	fmv.s	ft1, ft0
	bnez	a1, .LBB1_8
.LBB1_3:
	fsub.s	fa0, ft0, ft1
	ret
.LBB1_4:
	fsub.s	fa0, ft0, ft0
	ret
.LBB1_5:
	li	a2, 0
	andi	a3, a3, -8
	addi	a4, a0, 16
	fmv.s	ft1, ft0
.LBB1_6:                                # =>This Inner Loop Header: Depth=1
	flw	ft2, -12(a4)
	fmin.s	ft1, ft1, ft2
	fmax.s	ft0, ft0, ft2
	flw	ft2, -8(a4)
	fmin.s	ft1, ft1, ft2
	fmax.s	ft0, ft0, ft2
	flw	ft2, -4(a4)
	fmin.s	ft1, ft1, ft2
	fmax.s	ft0, ft0, ft2
	flw	ft2, 0(a4)
	fmin.s	ft1, ft1, ft2
	fmax.s	ft0, ft0, ft2
	flw	ft2, 4(a4)
	fmin.s	ft1, ft1, ft2
	fmax.s	ft0, ft0, ft2
	flw	ft2, 8(a4)
	fmin.s	ft1, ft1, ft2
	fmax.s	ft0, ft0, ft2
	flw	ft2, 12(a4)
	fmin.s	ft1, ft1, ft2
	fmax.s	ft0, ft0, ft2
	flw	ft2, 16(a4)
	fmin.s	ft1, ft1, ft2
	addi	a2, a2, 8
	fmax.s	ft0, ft0, ft2
	addi	a4, a4, 32
	bne	a3, a2, .LBB1_6
# %bb.7:
	addi	a2, a2, 1
	beqz	a1, .LBB1_3
.LBB1_8:
	slli	a2, a2, 2
	add	a3, a0, a2
	flw	ft2, 0(a3)
	fmin.s	ft1, ft1, ft2
	li	a3, 1
	fmax.s	ft0, ft0, ft2
	beq	a1, a3, .LBB1_3
# %bb.9:
	add	a0, a0, a2
	flw	ft2, 4(a0)
	fmin.s	ft1, ft1, ft2
	li	a2, 2
	fmax.s	ft0, ft0, ft2
	beq	a1, a2, .LBB1_3
# %bb.10:
	flw	ft2, 8(a0)
	fmin.s	ft1, ft1, ft2
	li	a2, 3
	fmax.s	ft0, ft0, ft2
	beq	a1, a2, .LBB1_3
# %bb.11:
	flw	ft2, 12(a0)
	fmin.s	ft1, ft1, ft2
	li	a2, 4
	fmax.s	ft0, ft0, ft2
	beq	a1, a2, .LBB1_3
# %bb.12:
	flw	ft2, 16(a0)
	fmin.s	ft1, ft1, ft2
	li	a2, 5
	fmax.s	ft0, ft0, ft2
	beq	a1, a2, .LBB1_3
# %bb.13:
	flw	ft2, 20(a0)
	fmin.s	ft1, ft1, ft2
	li	a2, 6
	fmax.s	ft0, ft0, ft2
	beq	a1, a2, .LBB1_3
# %bb.14:
	flw	ft2, 24(a0)
	fmin.s	ft1, ft1, ft2
	fmax.s	ft0, ft0, ft2
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
	blez	a2, .LBB2_3
# %bb.1:
	addi	a5, a2, -1
	li	a7, 7
	andi	a6, a2, 7
	bgeu	a5, a7, .LBB2_4
# %bb.2:
	li	a7, 0
	bnez	a6, .LBB2_39
.LBB2_3:
	ret
.LBB2_4:
	andi	a2, a2, -8
	li	t0, 0
	neg	a7, a2
	addi	t1, a0, 16
	addi	a2, a1, 16
	j	.LBB2_6
.LBB2_5:                                #   in Loop: Header=BB2_6 Depth=1
	sw	t3, 12(t1)
	addi	t0, t0, -8
	addi	t1, t1, 32
	addi	a2, a2, 32
	beq	a7, t0, .LBB2_38
.LBB2_6:                                # =>This Inner Loop Header: Depth=1
	lw	a5, -16(a2)
	mv	t2, a4
	bge	a4, a5, .LBB2_22
# %bb.7:                                #   in Loop: Header=BB2_6 Depth=1
	mv	t3, a3
	bge	a5, a3, .LBB2_23
.LBB2_8:                                #   in Loop: Header=BB2_6 Depth=1
	lw	a5, -12(a2)
	mv	t2, a4
	sw	t3, -16(t1)
	bge	a4, a5, .LBB2_24
.LBB2_9:                                #   in Loop: Header=BB2_6 Depth=1
	mv	t3, a3
	bge	a5, a3, .LBB2_25
.LBB2_10:                               #   in Loop: Header=BB2_6 Depth=1
	lw	a5, -8(a2)
	mv	t2, a4
	sw	t3, -12(t1)
	bge	a4, a5, .LBB2_26
.LBB2_11:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, a3
	bge	a5, a3, .LBB2_27
.LBB2_12:                               #   in Loop: Header=BB2_6 Depth=1
	lw	a5, -4(a2)
	mv	t2, a4
	sw	t3, -8(t1)
	bge	a4, a5, .LBB2_28
.LBB2_13:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, a3
	bge	a5, a3, .LBB2_29
.LBB2_14:                               #   in Loop: Header=BB2_6 Depth=1
	lw	a5, 0(a2)
	mv	t2, a4
	sw	t3, -4(t1)
	bge	a4, a5, .LBB2_30
.LBB2_15:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, a3
	bge	a5, a3, .LBB2_31
.LBB2_16:                               #   in Loop: Header=BB2_6 Depth=1
	lw	a5, 4(a2)
	mv	t2, a4
	sw	t3, 0(t1)
	bge	a4, a5, .LBB2_32
.LBB2_17:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, a3
	bge	a5, a3, .LBB2_33
.LBB2_18:                               #   in Loop: Header=BB2_6 Depth=1
	lw	a5, 8(a2)
	mv	t2, a4
	sw	t3, 4(t1)
	bge	a4, a5, .LBB2_34
.LBB2_19:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, a3
	bge	a5, a3, .LBB2_35
.LBB2_20:                               #   in Loop: Header=BB2_6 Depth=1
	lw	a5, 12(a2)
	mv	t2, a4
	sw	t3, 8(t1)
	bge	a4, a5, .LBB2_36
.LBB2_21:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, a3
	blt	a5, a3, .LBB2_5
	j	.LBB2_37
.LBB2_22:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t2, a5
	mv	t3, a3
	blt	a5, a3, .LBB2_8
.LBB2_23:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, t2
	lw	a5, -12(a2)
	mv	t2, a4
	sw	t3, -16(t1)
	blt	a4, a5, .LBB2_9
.LBB2_24:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t2, a5
	mv	t3, a3
	blt	a5, a3, .LBB2_10
.LBB2_25:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, t2
	lw	a5, -8(a2)
	mv	t2, a4
	sw	t3, -12(t1)
	blt	a4, a5, .LBB2_11
.LBB2_26:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t2, a5
	mv	t3, a3
	blt	a5, a3, .LBB2_12
.LBB2_27:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, t2
	lw	a5, -4(a2)
	mv	t2, a4
	sw	t3, -8(t1)
	blt	a4, a5, .LBB2_13
.LBB2_28:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t2, a5
	mv	t3, a3
	blt	a5, a3, .LBB2_14
.LBB2_29:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, t2
	lw	a5, 0(a2)
	mv	t2, a4
	sw	t3, -4(t1)
	blt	a4, a5, .LBB2_15
.LBB2_30:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t2, a5
	mv	t3, a3
	blt	a5, a3, .LBB2_16
.LBB2_31:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, t2
	lw	a5, 4(a2)
	mv	t2, a4
	sw	t3, 0(t1)
	blt	a4, a5, .LBB2_17
.LBB2_32:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t2, a5
	mv	t3, a3
	blt	a5, a3, .LBB2_18
.LBB2_33:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, t2
	lw	a5, 8(a2)
	mv	t2, a4
	sw	t3, 4(t1)
	blt	a4, a5, .LBB2_19
.LBB2_34:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t2, a5
	mv	t3, a3
	blt	a5, a3, .LBB2_20
.LBB2_35:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, t2
	lw	a5, 12(a2)
	mv	t2, a4
	sw	t3, 8(t1)
	blt	a4, a5, .LBB2_21
.LBB2_36:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t2, a5
	mv	t3, a3
	blt	a5, a3, .LBB2_5
.LBB2_37:                               #   in Loop: Header=BB2_6 Depth=1
	mv	t3, t2
	j	.LBB2_5
.LBB2_38:
	neg	a7, t0
	beqz	a6, .LBB2_3
.LBB2_39:
	slli	t1, a7, 2
	add	a2, a1, t1
	lw	a2, 0(a2)
	mv	t0, a4
	bge	a4, a2, .LBB2_42
# %bb.40:
	mv	a5, a3
	bge	a2, a3, .LBB2_43
.LBB2_41:
	add	a2, a0, t1
	li	t0, 1
	sw	a5, 0(a2)
	beq	a6, t0, .LBB2_3
	j	.LBB2_44
.LBB2_42:
	mv	t0, a2
	mv	a5, a3
	blt	a2, a3, .LBB2_41
.LBB2_43:
	mv	a5, t0
	add	a2, a0, t1
	li	t0, 1
	sw	a5, 0(a2)
	beq	a6, t0, .LBB2_3
.LBB2_44:
	addi	a2, a7, 1
	slli	t1, a2, 2
	add	a2, a1, t1
	lw	a2, 0(a2)
	mv	t0, a4
	bge	a4, a2, .LBB2_47
# %bb.45:
	mv	a5, a3
	bge	a2, a3, .LBB2_48
.LBB2_46:
	add	a2, a0, t1
	li	t0, 2
	sw	a5, 0(a2)
	beq	a6, t0, .LBB2_3
	j	.LBB2_49
.LBB2_47:
	mv	t0, a2
	mv	a5, a3
	blt	a2, a3, .LBB2_46
.LBB2_48:
	mv	a5, t0
	add	a2, a0, t1
	li	t0, 2
	sw	a5, 0(a2)
	beq	a6, t0, .LBB2_3
.LBB2_49:
	addi	a2, a7, 2
	slli	t1, a2, 2
	add	a2, a1, t1
	lw	a2, 0(a2)
	mv	t0, a4
	bge	a4, a2, .LBB2_52
# %bb.50:
	mv	a5, a3
	bge	a2, a3, .LBB2_53
.LBB2_51:
	add	a2, a0, t1
	li	t0, 3
	sw	a5, 0(a2)
	beq	a6, t0, .LBB2_3
	j	.LBB2_54
.LBB2_52:
	mv	t0, a2
	mv	a5, a3
	blt	a2, a3, .LBB2_51
.LBB2_53:
	mv	a5, t0
	add	a2, a0, t1
	li	t0, 3
	sw	a5, 0(a2)
	beq	a6, t0, .LBB2_3
.LBB2_54:
	addi	a2, a7, 3
	slli	t1, a2, 2
	add	a2, a1, t1
	lw	a2, 0(a2)
	mv	t0, a4
	bge	a4, a2, .LBB2_57
# %bb.55:
	mv	a5, a3
	bge	a2, a3, .LBB2_58
.LBB2_56:
	add	a2, a0, t1
	li	t0, 4
	sw	a5, 0(a2)
	beq	a6, t0, .LBB2_3
	j	.LBB2_59
.LBB2_57:
	mv	t0, a2
	mv	a5, a3
	blt	a2, a3, .LBB2_56
.LBB2_58:
	mv	a5, t0
	add	a2, a0, t1
	li	t0, 4
	sw	a5, 0(a2)
	beq	a6, t0, .LBB2_3
.LBB2_59:
	addi	a2, a7, 4
	slli	t1, a2, 2
	add	a2, a1, t1
	lw	a2, 0(a2)
	mv	t0, a4
	bge	a4, a2, .LBB2_62
# %bb.60:
	mv	a5, a3
	bge	a2, a3, .LBB2_63
.LBB2_61:
	add	a2, a0, t1
	li	t0, 5
	sw	a5, 0(a2)
	beq	a6, t0, .LBB2_3
	j	.LBB2_64
.LBB2_62:
	mv	t0, a2
	mv	a5, a3
	blt	a2, a3, .LBB2_61
.LBB2_63:
	mv	a5, t0
	add	a2, a0, t1
	li	t0, 5
	sw	a5, 0(a2)
	beq	a6, t0, .LBB2_3
.LBB2_64:
	addi	a2, a7, 5
	slli	t1, a2, 2
	add	a2, a1, t1
	lw	a2, 0(a2)
	mv	t0, a4
	bge	a4, a2, .LBB2_67
# %bb.65:
	mv	a5, a3
	bge	a2, a3, .LBB2_68
.LBB2_66:
	add	a2, a0, t1
	li	t0, 6
	sw	a5, 0(a2)
	beq	a6, t0, .LBB2_3
	j	.LBB2_69
.LBB2_67:
	mv	t0, a2
	mv	a5, a3
	blt	a2, a3, .LBB2_66
.LBB2_68:
	mv	a5, t0
	add	a2, a0, t1
	li	t0, 6
	sw	a5, 0(a2)
	beq	a6, t0, .LBB2_3
.LBB2_69:
	addi	a2, a7, 6
	slli	a2, a2, 2
	add	a1, a1, a2
	lw	a1, 0(a1)
	blt	a4, a1, .LBB2_71
# %bb.70:
	mv	a4, a1
.LBB2_71:
	blt	a1, a3, .LBB2_73
# %bb.72:
	mv	a3, a4
.LBB2_73:
	add	a0, a0, a2
	sw	a3, 0(a0)
	ret
.Lfunc_end2:
	.size	clamp_i32, .Lfunc_end2-clamp_i32
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
