	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"misc.c"
	.globl	count_hits                      # -- Begin function count_hits
	.p2align	1
	.type	count_hits,@function
count_hits:                             # @count_hits
# %bb.0:
	li	a4, 0
	blez	a2, .LBB0_5
# %bb.1:
	li	a6, 1
	j	.LBB0_3
.LBB0_2:                                #   in Loop: Header=BB0_3 Depth=1
	addi	a2, a2, -1
	addi	a1, a1, 8
	beqz	a2, .LBB0_5
.LBB0_3:                                # =>This Inner Loop Header: Depth=1
	ld	a5, 0(a1)
	bne	a5, a3, .LBB0_2
# %bb.4:                                #   in Loop: Header=BB0_3 Depth=1
	amoadd.d	a5, a6, (a0)
	add	a4, a4, a5
	j	.LBB0_2
.LBB0_5:
	fence	rw, rw
	mv	a0, a4
	ret
.Lfunc_end0:
	.size	count_hits, .Lfunc_end0-count_hits
                                        # -- End function
	.globl	cas_max                         # -- Begin function cas_max
	.p2align	1
	.type	cas_max,@function
cas_max:                                # @cas_max
# %bb.0:
	lw	a3, 0(a0)
.LBB1_1:                                # =>This Loop Header: Depth=1
                                        #     Child Loop BB1_4 Depth 2
	sext.w	a2, a3
	bge	a2, a1, .LBB1_3
# %bb.2:                                #   in Loop: Header=BB1_1 Depth=1
.LBB1_4:                                #   Parent Loop BB1_1 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	lr.w.aqrl	a3, (a0)
	bne	a3, a2, .LBB1_6
# %bb.5:                                #   in Loop: Header=BB1_4 Depth=2
	sc.w.aqrl	a4, a1, (a0)
	bnez	a4, .LBB1_4
.LBB1_6:                                #   in Loop: Header=BB1_1 Depth=1
	bne	a3, a2, .LBB1_1
.LBB1_3:
	mv	a0, a2
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
	fld	ft4, 0(a0)
	fld	ft1, 8(a0)
.LBB3_5:                                # Label of block must be emitted
	auipc	a2, %pcrel_hi(.LCPI3_0)
	addi	a2, a2, %pcrel_lo(.LBB3_5)
	fld	ft0, 0(a2)
.LBB3_6:                                # Label of block must be emitted
	auipc	a2, %pcrel_hi(.LCPI3_1)
	addi	a2, a2, %pcrel_lo(.LBB3_6)
	fld	ft2, 0(a2)
.LBB3_7:                                # Label of block must be emitted
	auipc	a2, %pcrel_hi(.LCPI3_2)
	addi	a2, a2, %pcrel_lo(.LBB3_7)
	fld	ft3, 0(a2)
	addi	a1, a1, -3
	addi	a0, a0, 24
	fmv.d.x	fa0, zero
.LBB3_2:                                # =>This Inner Loop Header: Depth=1
	fmv.d	ft5, ft1
	fld	ft1, -8(a0)
	fld	ft6, 0(a0)
	fmul.d	ft7, ft5, ft0
	fmadd.d	ft7, ft4, ft2, ft7
	fmv.d	ft4, ft5
	fmadd.d	ft5, ft1, ft3, ft7
	fmadd.d	ft5, ft6, ft2, ft5
	fadd.d	fa0, fa0, ft5
	addi	a1, a1, -1
	addi	a0, a0, 8
	bnez	a1, .LBB3_2
# %bb.3:
	ret
.LBB3_4:
	fmv.d.x	fa0, zero
	ret
.Lfunc_end3:
	.size	smooth, .Lfunc_end3-smooth
                                        # -- End function
	.globl	count_less                      # -- Begin function count_less
	.p2align	1
	.type	count_less,@function
count_less:                             # @count_less
# %bb.0:
	li	a3, 0
	blez	a2, .LBB4_2
.LBB4_1:                                # =>This Inner Loop Header: Depth=1
	fld	ft0, 0(a0)
	fld	ft1, 0(a1)
	flt.d	a4, ft0, ft1
	addw	a3, a3, a4
	addi	a2, a2, -1
	addi	a1, a1, 8
	addi	a0, a0, 8
	bnez	a2, .LBB4_1
.LBB4_2:
	mv	a0, a3
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
	and	a0, a0, a1
	lui	a1, 61681
	addiw	a1, a1, -241
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
