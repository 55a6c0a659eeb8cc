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
.LBB0_4:                                # Label of block must be emitted
	auipc	a3, %pcrel_hi(.LCPI0_0)
	addi	a3, a3, %pcrel_lo(.LBB0_4)
	fld	ft0, 0(a3)
.LBB0_5:                                # Label of block must be emitted
	auipc	a3, %pcrel_hi(.LCPI0_1)
	addi	a3, a3, %pcrel_lo(.LBB0_5)
	fld	ft1, 0(a3)
.LBB0_6:                                # Label of block must be emitted
	auipc	a3, %pcrel_hi(.LCPI0_2)
	addi	a3, a3, %pcrel_lo(.LBB0_6)
	fld	ft2, 0(a3)
.LBB0_7:                                # Label of block must be emitted
	auipc	a3, %pcrel_hi(.LCPI0_3)
	addi	a3, a3, %pcrel_lo(.LBB0_7)
	fld	ft3, 0(a3)
.LBB0_8:                                # Label of block must be emitted
	auipc	a3, %pcrel_hi(.LCPI0_4)
	addi	a3, a3, %pcrel_lo(.LBB0_8)
	fld	ft4, 0(a3)
.LBB0_2:                                # =>This Inner Loop Header: Depth=1
	fld	ft5, 0(a1)
	fmadd.d	ft6, ft5, ft1, ft0
	fmadd.d	ft6, ft6, ft5, ft2
	fmadd.d	ft6, ft6, ft5, ft3
	fmadd.d	ft5, ft6, ft5, ft4
	fsd	ft5, 0(a0)
	addi	a2, a2, -1
	addi	a0, a0, 8
	addi	a1, a1, 8
	bnez	a2, .LBB0_2
.LBB0_3:
	ret
.Lfunc_end0:
	.size	horner_f64, .Lfunc_end0-horner_f64
                                        # -- End function
	.globl	horner_i64                      # -- Begin function horner_i64
	.p2align	1
	.type	horner_i64,@function
horner_i64:                             # @horner_i64
# %bb.0:
	blez	a2, .LBB1_2
.LBB1_1:                                # =>This Inner Loop Header: Depth=1
	ld	a3, 0(a1)
	slli	a4, a3, 1
	add	a4, a4, a3
	addi	a4, a4, 5
	mul	a4, a4, a3
	addi	a4, a4, -7
	mul	a4, a4, a3
	addi	a4, a4, 11
	mul	a3, a4, a3
	addi	a3, a3, -13
	sd	a3, 0(a0)
	addi	a2, a2, -1
	addi	a0, a0, 8
	addi	a1, a1, 8
	bnez	a2, .LBB1_1
.LBB1_2:
	ret
.Lfunc_end1:
	.size	horner_i64, .Lfunc_end1-horner_i64
                                        # -- End function
	.globl	cmul                            # -- Begin function cmul
	.p2align	1
	.type	cmul,@function
cmul:                                   # @cmul
# %bb.0:
	blez	a6, .LBB2_2
.LBB2_1:                                # =>This Inner Loop Header: Depth=1
	fld	ft0, 0(a2)
	fld	ft1, 0(a3)
	fld	ft2, 0(a5)
	fld	ft3, 0(a4)
	fneg.d	ft4, ft1
	fmul.d	ft4, ft2, ft4
	fmadd.d	ft4, ft0, ft3, ft4
	fsd	ft4, 0(a0)
	fmul.d	ft1, ft3, ft1
	fmadd.d	ft0, ft0, ft2, ft1
	fsd	ft0, 0(a1)
	addi	a6, a6, -1
	addi	a1, a1, 8
	addi	a0, a0, 8
	addi	a5, a5, 8
	addi	a3, a3, 8
	addi	a4, a4, 8
	addi	a2, a2, 8
	bnez	a6, .LBB2_1
.LBB2_2:
	ret
.Lfunc_end2:
	.size	cmul, .Lfunc_end2-cmul
                                        # -- End function
	.ident	"Debian clang version 14.0.6"
	.section	".note.GNU-stack","",@progbits
	.addrsig
