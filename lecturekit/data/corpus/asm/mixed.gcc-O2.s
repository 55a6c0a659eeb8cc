	.file	"mixed.c"
	.option pic
	.attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	1
	.globl	weighted
	.type	weighted, @function
weighted:
	fmv.d.x	fa0,zero
	ble	a2,zero,.L4
	slli	a2,a2,2
	add	a4,a0,a2
.L3:
	lw	a5,0(a0)
	fld	fa5,0(a1)
	addi	a0,a0,4
	fcvt.d.w	fa4,a5
	addi	a1,a1,8
	fmadd.d	fa0,fa4,fa5,fa0
	bne	a4,a0,.L3
	ret
.L4:
	ret
	.size	weighted, .-weighted
	.align	1
	.globl	quantize
	.type	quantize, @function
quantize:
	ble	a2,zero,.L7
	slli	a2,a2,2
	add	a4,a1,a2
.L9:
	flw	fa5,0(a1)
	addi	a0,a0,4
	addi	a1,a1,4
	fmul.s	fa5,fa0,fa5
	fcvt.w.s a5,fa5,rtz
	sw	a5,-4(a0)
	bne	a1,a4,.L9
.L7:
	ret
	.size	quantize, .-quantize
	.align	1
	.globl	norm2
	.type	norm2, @function
norm2:
	fmv.d.x	fa0,zero
	ble	a1,zero,.L17
	slli	a1,a1,3
	add	a5,a0,a1
.L13:
	fld	fa5,0(a0)
	addi	a0,a0,8
	fmadd.d	fa0,fa5,fa5,fa0
	bne	a5,a0,.L13
	fmv.d.x	fa5,zero
	frflags	a4
	flt.d	a5,fa0,fa5
	fsflags a4
	bne	a5,zero,.L20
	fsqrt.d	fa0,fa0
	ret
.L17:
	ret
.L20:
	tail	sqrt@plt
	.size	norm2, .-norm2
	.align	1
	.globl	ratios
	.type	ratios, @function
ratios:
	ble	a6,zero,.L21
	slli	a6,a6,2
	li	a7,0
.L23:
	add	t3,a5,a7
	add	t1,a4,a7
	lw	t1,0(t1)
	lw	t4,0(t3)
	fld	fa5,0(a2)
	fld	fa4,0(a3)
	divw	t3,t1,t4
	add	t5,a1,a7
	fdiv.d	fa5,fa5,fa4
	addi	a7,a7,4
	addi	a0,a0,8
	addi	a2,a2,8
	addi	a3,a3,8
	fsd	fa5,-8(a0)
	remw	t1,t1,t4
	addw	t1,t3,t1
	sw	t1,0(t5)
	bne	a6,a7,.L23
.L21:
	ret
	.size	ratios, .-ratios
	.section	.note.GNU-stack,"",@progbits
