	.text
	.attribute	4, 16
	.attribute	5, "rv64i2p0_m2p0_a2p0_f2p0_d2p0_c2p0"
	.file	"matvec.c"
	.globl	matvec_f64                      # -- Begin function matvec_f64
	.p2align	1
	.type	matvec_f64,@function
matvec_f64:                             # @matvec_f64
# %bb.0:
	blez	a3, .LBB0_6
# %bb.1:
	li	a7, 0
	slli	a6, a4, 3
	fmv.d.x	ft0, zero
	j	.LBB0_3
.LBB0_2:                                #   in Loop: Header=BB0_3 Depth=1
	slli	a5, a7, 3
	add	a5, a5, a0
	fsd	ft1, 0(a5)
	addi	a7, a7, 1
	add	a1, a1, a6
	beq	a7, a3, .LBB0_6
.LBB0_3:                                # =>This Loop Header: Depth=1
                                        #     Child Loop BB0_5 Depth 2
	fmv.d	ft1, ft0
	blez	a4, .LBB0_2
# %bb.4:                                #   in Loop: Header=BB0_3 Depth=1
	mv	t0, a1
	mv	t1, a2
	mv	a5, a4
	fmv.d	ft1, ft0
.LBB0_5:                                #   Parent Loop BB0_3 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	fld	ft2, 0(t0)
	fld	ft3, 0(t1)
	fmadd.d	ft1, ft2, ft3, ft1
	addi	a5, a5, -1
	addi	t1, t1, 8
	addi	t0, t0, 8
	bnez	a5, .LBB0_5
	j	.LBB0_2
.LBB0_6:
	ret
.Lfunc_end0:
	.size	matvec_f64, .Lfunc_end0-matvec_f64
                                        # -- End function
	.globl	matvec_i32                      # -- Begin function matvec_i32
	.p2align	1
	.type	matvec_i32,@function
matvec_i32:                             # @matvec_i32
# %bb.0:
	blez	a3, .LBB1_6
# %bb.1:
	li	a7, 0
	slli	a6, a4, 2
	j	.LBB1_3
.LBB1_2:                                #   in Loop: Header=BB1_3 Depth=1
	slli	a5, a7, 2
	add	a5, a5, a0
	sw	t0, 0(a5)
	addi	a7, a7, 1
	add	a1, a1, a6
	beq	a7, a3, .LBB1_6
.LBB1_3:                                # =>This Loop Header: Depth=1
                                        #     Child Loop BB1_5 Depth 2
	li	t0, 0
	blez	a4, .LBB1_2
# %bb.4:                                #   in Loop: Header=BB1_3 Depth=1
	mv	t1, a1
	mv	t2, a2
	mv	t4, a4
.LBB1_5:                                #   Parent Loop BB1_3 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	lw	t3, 0(t1)
	lw	a5, 0(t2)
	mulw	a5, a5, t3
	addw	t0, a5, t0
	addi	t4, t4, -1
	addi	t2, t2, 4
	addi	t1, t1, 4
	bnez	t4, .LBB1_5
	j	.LBB1_2
.LBB1_6:
	ret
.Lfunc_end1:
	.size	matvec_i32, .Lfunc_end1-matvec_i32
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
