	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"hash.c"
	.globl	fnv1a                           # -- Begin function fnv1a
	.p2align	1
	.type	fnv1a,@function
fnv1a:                                  # @fnv1a
# %bb.0:
	lui	a2, 264421
	slli	a3, a2, 1
	blez	a1, .LBB0_3
# %bb.1:
	lui	a2, 4096
	addi	a4, a1, -1
	li	a5, 7
	addiw	a2, a2, 403
	andi	a6, a1, 7
	bgeu	a4, a5, .LBB0_4
# %bb.2:
	li	a4, 0
	addi	a1, a3, -571
	j	.LBB0_6
.LBB0_3:
	addi	a1, a3, -571
	sext.w	a0, a1
	ret
.LBB0_4:
	lui	a3, 264421
	slli	a7, a3, 1
	li	a4, 0
	andi	t0, a1, -8
	addi	t1, a0, 3
	addi	a1, a7, -571
.LBB0_5:                                # =>This Inner Loop Header: Depth=1
	add	a5, t1, a4
	lbu	a3, -3(a5)
	xor	a1, a1, a3
	mul	a1, a1, a2
	lbu	a3, -2(a5)
	xor	a1, a1, a3
	mulw	a1, a1, a2
	lbu	a3, -1(a5)
	xor	a1, a1, a3
	mul	a1, a1, a2
	lbu	a3, 0(a5)
	xor	a1, a1, a3
	mul	a1, a1, a2
	lbu	a3, 1(a5)
	xor	a1, a1, a3
	mulw	a1, a1, a2
	lbu	a3, 2(a5)
	xor	a1, a1, a3
	mul	a1, a1, a2
	lbu	a3, 3(a5)
	xor	a1, a1, a3
	mul	a1, a1, a2
	lbu	a3, 4(a5)
	xor	a1, a1, a3
	addi	a4, a4, 8
	mulw	a1, a1, a2
	bne	t0, a4, .LBB0_5
.LBB0_6:
	beqz	a6, .LBB0_14
# %bb.7:
	add	a3, a0, a4
	lbu	a3, 0(a3)
	xor	a1, a1, a3
	li	a3, 1
	mulw	a1, a1, a2
	beq	a6, a3, .LBB0_14
# %bb.8:
	add	a0, a0, a4
	lbu	a3, 1(a0)
	xor	a1, a1, a3
	li	a3, 2
	mulw	a1, a1, a2
	beq	a6, a3, .LBB0_14
# %bb.9:
	lbu	a3, 2(a0)
	xor	a1, a1, a3
	li	a3, 3
	mulw	a1, a1, a2
	beq	a6, a3, .LBB0_14
# %bb.10:
	lbu	a3, 3(a0)
	xor	a1, a1, a3
	li	a3, 4
	mulw	a1, a1, a2
	beq	a6, a3, .LBB0_14
# %bb.11:
	lbu	a3, 4(a0)
	xor	a1, a1, a3
	li	a3, 5
	mulw	a1, a1, a2
	beq	a6, a3, .LBB0_14
# %bb.12:
	lbu	a3, 5(a0)
	xor	a1, a1, a3
	li	a3, 6
	mulw	a1, a1, a2
	beq	a6, a3, .LBB0_14
# %bb.13:
	lbu	a0, 6(a0)
	xor	a0, a0, a1
	mulw	a1, a0, a2
.LBB0_14:
	sext.w	a0, a1
	ret
.Lfunc_end0:
	.size	fnv1a, .Lfunc_end0-fnv1a
                                        # -- End function
	.globl	djb2                            # -- Begin function djb2
	.p2align	1
	.type	djb2,@function
djb2:                                   # @djb2
# %bb.0:
	blez	a1, .LBB1_4
# %bb.1:
	addi	a3, a1, -1
	li	a4, 7
	andi	a7, a1, 7
	bgeu	a3, a4, .LBB1_5
# %bb.2:
	lui	a1, 43
	li	a3, 0
	addiw	a4, a1, 1445
                                        # implicit-def: $x11
	bnez	a7, .LBB1_8
.LBB1_3:
	mv	a0, a1
	ret
.LBB1_4:
	lui	a0, 1
	addiw	a0, a0, 1285
	ret
.LBB1_5:
	lui	a6, 1
	li	a3, 0
	andi	t0, a1, -8
	addi	a5, a0, 3
	addiw	a1, a6, 1285
.LBB1_6:                                # =>This Inner Loop Header: Depth=1
	slli	a2, a1, 5
	add	a4, a5, a3
	add	a1, a1, a2
	lbu	a2, -3(a4)
	add	a1, a1, a2
	slli	a2, a1, 5
	add	a1, a1, a2
	lbu	a2, -2(a4)
	add	a1, a1, a2
	slli	a2, a1, 5
	add	a1, a1, a2
	lbu	a2, -1(a4)
	add	a1, a1, a2
	slli	a2, a1, 5
	add	a1, a1, a2
	lbu	a2, 0(a4)
	add	a1, a1, a2
	slli	a2, a1, 5
	add	a1, a1, a2
	lbu	a2, 1(a4)
	add	a1, a1, a2
	slli	a2, a1, 5
	add	a1, a1, a2
	lbu	a2, 2(a4)
	add	a1, a1, a2
	slli	a2, a1, 5
	add	a1, a1, a2
	lbu	a2, 3(a4)
	add	a1, a1, a2
	slli	a2, a1, 5
	add	a1, a1, a2
	lbu	a2, 4(a4)
	addi	a3, a3, 8
	add	a1, a1, a2
	bne	t0, a3, .LBB1_6
# %bb.7:
	slli	a4, a1, 5
	add	a4, a4, a1
	beqz	a7, .LBB1_3
.LBB1_8:
	add	a1, a0, a3
	lbu	a1, 0(a1)
	li	a5, 1
	add	a1, a1, a4
	beq	a7, a5, .LBB1_3
# %bb.9:
	add	a0, a0, a3
	slli	a3, a1, 5
	add	a1, a1, a3
	lbu	a3, 1(a0)
	li	a4, 2
	add	a1, a1, a3
	beq	a7, a4, .LBB1_3
# %bb.10:
	slli	a3, a1, 5
	add	a1, a1, a3
	lbu	a3, 2(a0)
	li	a4, 3
	add	a1, a1, a3
	beq	a7, a4, .LBB1_3
# %bb.11:
	slli	a3, a1, 5
	add	a1, a1, a3
	lbu	a3, 3(a0)
	li	a4, 4
	add	a1, a1, a3
	beq	a7, a4, .LBB1_3
# %bb.12:
	slli	a3, a1, 5
	add	a1, a1, a3
	lbu	a3, 4(a0)
	li	a4, 5
	add	a1, a1, a3
	beq	a7, a4, .LBB1_3
# %bb.13:
	slli	a3, a1, 5
	add	a1, a1, a3
	lbu	a3, 5(a0)
	li	a4, 6
	add	a1, a1, a3
	beq	a7, a4, .LBB1_3
# %bb.14:
	slli	a2, a1, 5
	add	a1, a1, a2
	lbu	a0, 6(a0)
	add	a1, a1, a0
	mv	a0, a1
	ret
.Lfunc_end1:
	.size	djb2, .Lfunc_end1-djb2
                                        # -- End function
	.section	.sdata,"aw",@progbits
	.p2align	3                               # -- Begin function mix64
.LCPI2_0:
	.quad	-7046029254386353131            # 0x9e3779b97f4a7c15
.LCPI2_1:
	.quad	-49064778989728563              # 0xff51afd7ed558ccd
	.text
	.globl	mix64
	.p2align	1
	.type	mix64,@function
mix64:                                  # @mix64
# %bb.0:
.LBB2_15:                               # Label of block must be emitted
	auipc	a7, %pcrel_hi(.LCPI2_0)
	addi	a7, a7, %pcrel_lo(.LBB2_15)
	blez	a1, .LBB2_4
# %bb.1:
.LBB2_16:                               # Label of block must be emitted
	auipc	a2, %pcrel_hi(.LCPI2_1)
	addi	a2, a2, %pcrel_lo(.LBB2_16)
	addi	a3, a1, -1
	li	a4, 7
	ld	a2, 0(a2)
	andi	a6, a1, 7
	bgeu	a3, a4, .LBB2_5
# %bb.2:
	li	a3, 0
	ld	a1, 0(a7)
	bnez	a6, .LBB2_8
.LBB2_3:
	mv	a0, a1
	ret
.LBB2_4:
	ld	a0, 0(a7)
	ret
.LBB2_5:
	andi	a1, a1, -8
	li	a4, 0
	neg	t0, a1
	addi	a3, a0, 32
	ld	a1, 0(a7)
.LBB2_6:                                # =>This Inner Loop Header: Depth=1
	ld	a5, -32(a3)
	xor	a1, a1, a5
	srli	a5, a1, 33
	xor	a1, a1, a5
	mul	a1, a1, a2
	srli	a5, a1, 29
	xor	a1, a1, a5
	ld	a5, -24(a3)
	xor	a1, a1, a5
	srli	a5, a1, 33
	xor	a1, a1, a5
	mul	a1, a1, a2
	srli	a5, a1, 29
	xor	a1, a1, a5
	ld	a5, -16(a3)
	xor	a1, a1, a5
	srli	a5, a1, 33
	xor	a1, a1, a5
	mul	a1, a1, a2
	srli	a5, a1, 29
	xor	a1, a1, a5
	ld	a5, -8(a3)
	xor	a1, a1, a5
	srli	a5, a1, 33
	xor	a1, a1, a5
	mul	a1, a1, a2
	srli	a5, a1, 29
	xor	a1, a1, a5
	ld	a5, 0(a3)
	xor	a1, a1, a5
	srli	a5, a1, 33
	xor	a1, a1, a5
	mul	a1, a1, a2
	srli	a5, a1, 29
	xor	a1, a1, a5
	ld	a5, 8(a3)
	xor	a1, a1, a5
	srli	a5, a1, 33
	xor	a1, a1, a5
	mul	a1, a1, a2
	srli	a5, a1, 29
	xor	a1, a1, a5
	ld	a5, 16(a3)
	xor	a1, a1, a5
	srli	a5, a1, 33
	xor	a1, a1, a5
	mul	a1, a1, a2
	srli	a5, a1, 29
	xor	a1, a1, a5
	ld	a5, 24(a3)
	xor	a1, a1, a5
	srli	a5, a1, 33
	xor	a1, a1, a5
	mul	a1, a1, a2
	srli	a5, a1, 29
	addi	a4, a4, -8
	xor	a1, a1, a5
	addi	a3, a3, 64
	bne	t0, a4, .LBB2_6
# %bb.7:
	neg	a3, a4
	beqz	a6, .LBB2_3
.LBB2_8:
	slli	a3, a3, 3
	add	a4, a0, a3
	ld	a4, 0(a4)
	xor	a1, a1, a4
	srli	a4, a1, 33
	xor	a1, a1, a4
	mul	a1, a1, a2
	srli	a4, a1, 29
	li	a5, 1
	xor	a1, a1, a4
	beq	a6, a5, .LBB2_3
# %bb.9:
	add	a0, a0, a3
	ld	a3, 8(a0)
	xor	a1, a1, a3
	srli	a3, a1, 33
	xor	a1, a1, a3
	mul	a1, a1, a2
	srli	a3, a1, 29
	li	a4, 2
	xor	a1, a1, a3
	beq	a6, a4, .LBB2_3
# %bb.10:
	ld	a3, 16(a0)
	xor	a1, a1, a3
	srli	a3, a1, 33
	xor	a1, a1, a3
	mul	a1, a1, a2
	srli	a3, a1, 29
	li	a4, 3
	xor	a1, a1, a3
	beq	a6, a4, .LBB2_3
# %bb.11:
	ld	a3, 24(a0)
	xor	a1, a1, a3
	srli	a3, a1, 33
	xor	a1, a1, a3
	mul	a1, a1, a2
	srli	a3, a1, 29
	li	a4, 4
	xor	a1, a1, a3
	beq	a6, a4, .LBB2_3
# %bb.12:
	ld	a3, 32(a0)
	xor	a1, a1, a3
	srli	a3, a1, 33
	xor	a1, a1, a3
	mul	a1, a1, a2
	srli	a3, a1, 29
	li	a4, 5
	xor	a1, a1, a3
	beq	a6, a4, .LBB2_3
# %bb.13:
	ld	a3, 40(a0)
	xor	a1, a1, a3
	srli	a3, a1, 33
	xor	a1, a1, a3
	mul	a1, a1, a2
	srli	a3, a1, 29
	li	a4, 6
	xor	a1, a1, a3
	beq	a6, a4, .LBB2_3
# %bb.14:
	ld	a0, 48(a0)
	xor	a0, a0, a1
	srli	a1, a0, 33
	xor	a0, a0, a1
	mul	a0, a0, a2
	srli	a1, a0, 29
	xor	a1, a1, a0
	mv	a0, a1
	ret
.Lfunc_end2:
	.size	mix64, .Lfunc_end2-mix64
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
