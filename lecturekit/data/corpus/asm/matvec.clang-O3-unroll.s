	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"matvec.c"
	.globl	matvec_f64                      # -- Begin function matvec_f64
	.p2align	1
	.type	matvec_f64,@function
matvec_f64:                             # @matvec_f64
# %bb.0:
	addi	sp, sp, -80
	sd	ra, 72(sp)                      # 8-byte Folded Spill
	sd	s0, 64(sp)                      # 8-byte Folded Spill
	sd	s1, 56(sp)                      # 8-byte Folded Spill
	sd	s2, 48(sp)                      # 8-byte Folded Spill
	sd	s3, 40(sp)                      # 8-byte Folded Spill
	sd	s4, 32(sp)                      # 8-byte Folded Spill
	sd	s5, 24(sp)                      # 8-byte Folded Spill
	sd	s6, 16(sp)                      # 8-byte Folded Spill
	sd	s7, 8(sp)                       # 8-byte Folded Spill
	blez	a3, .LBB0_17
# %bb.1:
	blez	a4, .LBB0_16
# %bb.2:
	andi	a5, a4, -8
	li	t0, 0
	addi	a6, a4, -1
	andi	a7, a4, 7
	neg	s6, a5
	addi	t1, a2, 32
	addi	t2, a1, 32
	slli	t3, a4, 3
	fmv.d.x	ft0, zero
	li	t4, 7
	li	t5, 1
	li	t6, 2
	li	s5, 3
	li	s4, 4
	li	s2, 5
	li	s3, 6
	j	.LBB0_4
.LBB0_3:                                #   in Loop: Header=BB0_4 Depth=1
	slli	a5, t0, 3
	add	a5, a5, a0
	addi	t0, t0, 1
	add	t2, t2, t3
	fsd	ft1, 0(a5)
	beq	t0, a3, .LBB0_17
.LBB0_4:                                # =>This Loop Header: Depth=1
                                        #     Child Loop BB0_7 Depth 2
	bgeu	a6, t4, .LBB0_6
# %bb.5:                                #   in Loop: Header=BB0_4 Depth=1
	li	s1, 0
	fmv.d	ft1, ft0
	bnez	a7, .LBB0_9
	j	.LBB0_3
.LBB0_6:                                #   in Loop: Header=BB0_4 Depth=1
	li	s0, 0
	mv	s1, t2
	mv	a5, t1
	fmv.d	ft1, ft0
.LBB0_7:                                #   Parent Loop BB0_4 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	fld	ft2, -32(s1)
	fld	ft3, -32(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	fld	ft2, -24(s1)
	fld	ft3, -24(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	fld	ft2, -16(s1)
	fld	ft3, -16(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	fld	ft2, -8(s1)
	fld	ft3, -8(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	fld	ft2, 0(s1)
	fld	ft3, 0(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	fld	ft2, 8(s1)
	fld	ft3, 8(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	fld	ft2, 16(s1)
	fld	ft3, 16(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	fld	ft2, 24(s1)
	fld	ft3, 24(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	addi	s0, s0, -8
	addi	a5, a5, 64
	addi	s1, s1, 64
	bne	s6, s0, .LBB0_7
# %bb.8:                                #   in Loop: Header=BB0_4 Depth=1
	neg	s1, s0
	beqz	a7, .LBB0_3
.LBB0_9:                                #   in Loop: Header=BB0_4 Depth=1
	mul	s7, t0, a4
	add	a5, s1, s7
	slli	a5, a5, 3
	slli	s0, s1, 3
	add	a5, a5, a1
	add	s0, s0, a2
	fld	ft2, 0(a5)
	fld	ft3, 0(s0)
	fmadd.d	ft1, ft2, ft3, ft1
	beq	a7, t5, .LBB0_3
# %bb.10:                               #   in Loop: Header=BB0_4 Depth=1
	addi	a5, s1, 1
	add	s0, a5, s7
	slli	s0, s0, 3
	slli	a5, a5, 3
	add	s0, s0, a1
	add	a5, a5, a2
	fld	ft2, 0(s0)
	fld	ft3, 0(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	beq	a7, t6, .LBB0_3
# %bb.11:                               #   in Loop: Header=BB0_4 Depth=1
	addi	a5, s1, 2
	add	s0, a5, s7
	slli	s0, s0, 3
	slli	a5, a5, 3
	add	s0, s0, a1
	add	a5, a5, a2
	fld	ft2, 0(s0)
	fld	ft3, 0(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	beq	a7, s5, .LBB0_3
# %bb.12:                               #   in Loop: Header=BB0_4 Depth=1
	addi	a5, s1, 3
	add	s0, a5, s7
	slli	s0, s0, 3
	slli	a5, a5, 3
	add	s0, s0, a1
	add	a5, a5, a2
	fld	ft2, 0(s0)
	fld	ft3, 0(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	beq	a7, s4, .LBB0_3
# %bb.13:                               #   in Loop: Header=BB0_4 Depth=1
	addi	a5, s1, 4
	add	s0, a5, s7
	slli	s0, s0, 3
	slli	a5, a5, 3
	add	s0, s0, a1
	add	a5, a5, a2
	fld	ft2, 0(s0)
	fld	ft3, 0(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	beq	a7, s2, .LBB0_3
# %bb.14:                               #   in Loop: Header=BB0_4 Depth=1
	addi	a5, s1, 5
	add	s0, a5, s7
	slli	s0, s0, 3
	slli	a5, a5, 3
	add	s0, s0, a1
	add	a5, a5, a2
	fld	ft2, 0(s0)
	fld	ft3, 0(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	beq	a7, s3, .LBB0_3
# %bb.15:                               #   in Loop: Header=BB0_4 Depth=1
	addi	a5, s1, 6
	add	s0, a5, s7
	slli	s0, s0, 3
	slli	a5, a5, 3
	add	s0, s0, a1
	add	a5, a5, a2
	fld	ft2, 0(s0)
	fld	ft3, 0(a5)
	fmadd.d	ft1, ft2, ft3, ft1
	j	.LBB0_3
.LBB0_16:
	slli	a2, a3, 3
	li	a1, 0
	call	memset@plt
.LBB0_17:
	ld	ra, 72(sp)                      # 8-byte Folded Reload
	ld	s0, 64(sp)                      # 8-byte Folded Reload
	ld	s1, 56(sp)                      # 8-byte Folded Reload
	ld	s2, 48(sp)                      # 8-byte Folded Reload
	ld	s3, 40(sp)                      # 8-byte Folded Reload
	ld	s4, 32(sp)                      # 8-byte Folded Reload
	ld	s5, 24(sp)                      # 8-byte Folded Reload
	ld	s6, 16(sp)                      # 8-byte Folded Reload
	ld	s7, 8(sp)                       # 8-byte Folded Reload
	addi	sp, sp, 80
	ret
.Lfunc_end0:
	.size	matvec_f64, .Lfunc_end0-matvec_f64
                                        # -- End function
	.globl	matvec_i32                      # -- Begin function matvec_i32
	.p2align	1
	.type	matvec_i32,@function
matvec_i32:                             # @matvec_i32
# %bb.0:
	addi	sp, sp, -112
	sd	ra, 104(sp)                     # 8-byte Folded Spill
	sd	s0, 96(sp)                      # 8-byte Folded Spill
	sd	s1, 88(sp)                      # 8-byte Folded Spill
	sd	s2, 80(sp)                      # 8-byte Folded Spill
	sd	s3, 72(sp)                      # 8-byte Folded Spill
	sd	s4, 64(sp)                      # 8-byte Folded Spill
	sd	s5, 56(sp)                      # 8-byte Folded Spill
	sd	s6, 48(sp)                      # 8-byte Folded Spill
	sd	s7, 40(sp)                      # 8-byte Folded Spill
	sd	s8, 32(sp)                      # 8-byte Folded Spill
	sd	s9, 24(sp)                      # 8-byte Folded Spill
	sd	s10, 16(sp)                     # 8-byte Folded Spill
	sd	s11, 8(sp)                      # 8-byte Folded Spill
	blez	a3, .LBB1_17
# %bb.1:
	blez	a4, .LBB1_16
# %bb.2:
	andi	a5, a4, -8
	li	t0, 0
	addi	a6, a4, -1
	andi	a7, a4, 7
	neg	s7, a5
	addi	t1, a2, 16
	addi	t2, a1, 16
	slli	t3, a4, 2
	li	t4, 7
	li	t5, 1
	li	t6, 2
	li	s5, 3
	li	s4, 4
	li	s2, 5
	li	s3, 6
	j	.LBB1_4
.LBB1_3:                                #   in Loop: Header=BB1_4 Depth=1
	slli	a5, t0, 2
	add	a5, a5, a0
	addi	t0, t0, 1
	add	t2, t2, t3
	sw	s8, 0(a5)
	beq	t0, a3, .LBB1_17
.LBB1_4:                                # =>This Loop Header: Depth=1
                                        #     Child Loop BB1_7 Depth 2
	bgeu	a6, t4, .LBB1_6
# %bb.5:                                #   in Loop: Header=BB1_4 Depth=1
	li	s0, 0
	li	s8, 0
	bnez	a7, .LBB1_9
	j	.LBB1_3
.LBB1_6:                                #   in Loop: Header=BB1_4 Depth=1
	li	s9, 0
	li	s8, 0
	mv	a5, t2
	mv	s1, t1
.LBB1_7:                                #   Parent Loop BB1_4 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	lw	s6, -16(a5)
	lw	s0, -16(s1)
	mulw	s6, s0, s6
	lw	s10, -12(a5)
	lw	s0, -12(s1)
	addw	s6, s6, s8
	mulw	s8, s0, s10
	lw	s10, -8(a5)
	lw	s0, -8(s1)
	addw	s6, s8, s6
	mulw	s8, s0, s10
	lw	s10, -4(a5)
	lw	s0, -4(s1)
	addw	s6, s8, s6
	mulw	s8, s0, s10
	lw	s10, 0(a5)
	lw	s0, 0(s1)
	addw	s6, s8, s6
	mulw	s8, s0, s10
	lw	s10, 4(a5)
	lw	s0, 4(s1)
	addw	s6, s8, s6
	mulw	s0, s0, s10
	lw	s8, 8(a5)
	lw	s10, 8(s1)
	addw	s6, s0, s6
	lw	s11, 12(a5)
	mulw	s0, s10, s8
	lw	s8, 12(s1)
	addw	s6, s0, s6
	mulw	s0, s8, s11
	addw	s8, s0, s6
	addi	s9, s9, -8
	addi	s1, s1, 32
	addi	a5, a5, 32
	bne	s7, s9, .LBB1_7
# %bb.8:                                #   in Loop: Header=BB1_4 Depth=1
	neg	s0, s9
	beqz	a7, .LBB1_3
.LBB1_9:                                #   in Loop: Header=BB1_4 Depth=1
	mul	s6, t0, a4
	add	a5, s0, s6
	slli	a5, a5, 2
	slli	s1, s0, 2
	add	a5, a5, a1
	add	s1, s1, a2
	lw	a5, 0(a5)
	lw	s1, 0(s1)
	mulw	a5, s1, a5
	addw	s8, a5, s8
	beq	a7, t5, .LBB1_3
# %bb.10:                               #   in Loop: Header=BB1_4 Depth=1
	addi	a5, s0, 1
	add	s1, a5, s6
	slli	s1, s1, 2
	slli	a5, a5, 2
	add	s1, s1, a1
	add	a5, a5, a2
	lw	s1, 0(s1)
	lw	a5, 0(a5)
	mulw	a5, a5, s1
	addw	s8, a5, s8
	beq	a7, t6, .LBB1_3
# %bb.11:                               #   in Loop: Header=BB1_4 Depth=1
	addi	a5, s0, 2
	add	s1, a5, s6
	slli	s1, s1, 2
	slli	a5, a5, 2
	add	s1, s1, a1
	add	a5, a5, a2
	lw	s1, 0(s1)
	lw	a5, 0(a5)
	mulw	a5, a5, s1
	addw	s8, a5, s8
	beq	a7, s5, .LBB1_3
# %bb.12:                               #   in Loop: Header=BB1_4 Depth=1
	addi	a5, s0, 3
	add	s1, a5, s6
	slli	s1, s1, 2
	slli	a5, a5, 2
	add	s1, s1, a1
	add	a5, a5, a2
	lw	s1, 0(s1)
	lw	a5, 0(a5)
	mulw	a5, a5, s1
	addw	s8, a5, s8
	beq	a7, s4, .LBB1_3
# %bb.13:                               #   in Loop: Header=BB1_4 Depth=1
	addi	a5, s0, 4
	add	s1, a5, s6
	slli	s1, s1, 2
	slli	a5, a5, 2
	add	s1, s1, a1
	add	a5, a5, a2
	lw	s1, 0(s1)
	lw	a5, 0(a5)
	mulw	a5, a5, s1
	addw	s8, a5, s8
	beq	a7, s2, .LBB1_3
# %bb.14:                               #   in Loop: Header=BB1_4 Depth=1
	addi	a5, s0, 5
	add	s1, a5, s6
	slli	s1, s1, 2
	slli	a5, a5, 2
	add	s1, s1, a1
	add	a5, a5, a2
	lw	s1, 0(s1)
	lw	a5, 0(a5)
	mulw	a5, a5, s1
	addw	s8, a5, s8
	beq	a7, s3, .LBB1_3
# %bb.15:                               #   in Loop: Header=BB1_4 Depth=1
	addi	a5, s0, 6
	add	s0, a5, s6
	slli	s0, s0, 2
	slli	a5, a5, 2
	add	s0, s0, a1
	add	a5, a5, a2
	lw	s0, 0(s0)
	lw	a5, 0(a5)
	mulw	a5, a5, s0
	addw	s8, a5, s8
	j	.LBB1_3
.LBB1_16:
	slli	a2, a3, 2
	li	a1, 0
	call	memset@plt
.LBB1_17:
	ld	ra, 104(sp)                     # 8-byte Folded Reload
	ld	s0, 96(sp)                      # 8-byte Folded Reload
	ld	s1, 88(sp)                      # 8-byte Folded Reload
	ld	s2, 80(sp)                      # 8-byte Folded Reload
	ld	s3, 72(sp)                      # 8-byte Folded Reload
	ld	s4, 64(sp)                      # 8-byte Folded Reload
	ld	s5, 56(sp)                      # 8-byte Folded Reload
	ld	s6, 48(sp)                      # 8-byte Folded Reload
	ld	s7, 40(sp)                      # 8-byte Folded Reload
	ld	s8, 32(sp)                      # 8-byte Folded Reload
	ld	s9, 24(sp)                      # 8-byte Folded Reload
	ld	s10, 16(sp)                     # 8-byte Folded Reload
	ld	s11, 8(sp)                      # 8-byte Folded Reload
	addi	sp, sp, 112
	ret
.Lfunc_end1:
	.size	matvec_i32, .Lfunc_end1-matvec_i32
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
