	.file	"poly.c"
	.option pic
	.attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	1
	.globl	horner_f64
	.type	horner_f64, @function
horner_f64:
	ble	a2,zero,.L1
	slli	a2,a2,3
	add	a5,a1,a2
	fld	ft0,.LC0,a4
	fld	fa0,.LC1,a4
	fld	fa1,.LC2,a4
	fld	fa2,.LC3,a4
	fld	fa3,.LC4,a4
.L3:
	fld	fa4,0(a1)
	addi	a0,a0,8
	addi	a1,a1,8
	fmadd.d	fa5,fa4,ft0,fa0
	fmadd.d	fa5,fa5,fa4,fa1
	fmadd.d	fa5,fa5,fa4,fa2
	fmadd.d	fa5,fa5,fa4,fa3
	fsd	fa5,-8(a0)
	bne	a5,a1,.L3
.L1:
	ret
	.size	horner_f64, .-horner_f64
	.align	1
	.globl	horner_i64
	.type	horner_i64, @function
horner_i64:
	ble	a2,zero,.L6
	slli	a2,a2,3
	add	a3,a1,a2
.L8:
	ld	a4,0(a1)
	addi	a0,a0,8
	addi	a1,a1,8
	slli	a5,a4,1
	add	a5,a5,a4
	addi	a5,a5,5
	mul	a5,a5,a4
	addi	a5,a5,-7
	mul	a5,a5,a4
	addi	a5,a5,11
	mul	a5,a5,a4
	addi	a5,a5,-13
	sd	a5,-8(a0)
	bne	a3,a1,.L8
.L6:
	ret
	.size	horner_i64, .-horner_i64
	.align	1
	.globl	cmul
	.type	cmul, @function
cmul:
	ble	a6,zero,.L10
	slli	a6,a6,3
	li	a7,0
.L12:
	add	t3,a3,a7
	add	t1,a5,a7
	add	t4,a4,a7
	fld	fa5,0(t3)
	fld	fa4,0(t1)
	fld	fa2,0(t4)
	add	t1,a2,a7
	fmul.d	fa3,fa5,fa4
	fmul.d	fa1,fa2,fa5
	fld	fa5,0(t1)
	add	t3,a1,a7
	add	t1,a0,a7
	addi	a7,a7,8
	fmadd.d	fa4,fa5,fa4,fa1
	fmsub.d	fa5,fa5,fa2,fa3
	fsd	fa4,0(t3)
	fsd	fa5,0(t1)
	bne	a6,a7,.L12
.L10:
	ret
	.size	cmul, .-cmul
	.section	.rodata.cst8,"aM",@progbits,8
	.align	3
.LC0:
	.word	0
	.word	1071644672
	.align	3
.LC1:
	.word	0
	.word	1072955392
	.align	3
.LC2:
	.word	0
	.word	-1073741824
	.align	3
.LC3:
	.word	0
	.word	1074528256
	.align	3
.LC4:
	.word	0
	.word	-1075314688
	.section	.note.GNU-stack,"",@progbits
