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
	slli	a2, a2, 1
	addi	a2, a2, -571
	blez	a1, .LBB0_3
# %bb.1:
	lui	a3, 4096
	addiw	a3, a3, 403
.LBB0_2:                                # =>This Inner Loop Header: Depth=1
	lbu	a4, 0(a0)
	xor	a2, a2, a4
	mulw	a2, a2, a3
	addi	a1, a1, -1
	addi	a0, a0, 1
	bnez	a1, .LBB0_2
.LBB0_3:
	sext.w	a0, a2
	ret
.Lfunc_end0:
	.size	fnv1a, .Lfunc_end0-fnv1a
                                        # -- End function
	.globl	djb2                            # -- Begin function djb2
	.p2align	1
	.type	djb2,@function
djb2:                                   # @djb2
# %bb.0:
	lui	a2, 1
	addiw	a2, a2, 1285
	blez	a1, .LBB1_2
.LBB1_1:                                # =>This Inner Loop Header: Depth=1
	lbu	a3, 0(a0)
	slli	a4, a2, 5
	add	a2, a2, a4
	add	a2, a2, a3
	addi	a1, a1, -1
	addi	a0, a0, 1
	bnez	a1, .LBB1_1
.LBB1_2:
	mv	a0, a2
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
.LBB2_4:                                # Label of block must be emitted
	auipc	a2, %pcrel_hi(.LCPI2_0)
	addi	a2, a2, %pcrel_lo(.LBB2_4)
	ld	a2, 0(a2)
	blez	a1, .LBB2_3
# %bb.1:
.LBB2_5:                                # Label of block must be emitted
	auipc	a3, %pcrel_hi(.LCPI2_1)
	addi	a3, a3, %pcrel_lo(.LBB2_5)
	ld	a3, 0(a3)
.LBB2_2:                                # =>This Inner Loop Header: Depth=1
	ld	a4, 0(a0)
	xor	a2, a2, a4
	srli	a4, a2, 33
	xor	a2, a2, a4
	mul	a2, a2, a3
	srli	a4, a2, 29
	xor	a2, a2, a4
	addi	a1, a1, -1
	addi	a0, a0, 8
	bnez	a1, .LBB2_2
.LBB2_3:
	mv	a0, a2
	ret
.Lfunc_end2:
	.size	mix64, .Lfunc_end2-mix64
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
