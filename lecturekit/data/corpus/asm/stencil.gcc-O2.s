	.file	"stencil.c"
	.option pic
	.attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	1
	.globl	stencil3
	.type	stencil3, @function
stencil3:
	li	a5,2
	ble	a2,a5,.L1
	slli	a2,a2,3
	fld	fa3,0(a1)
	fld	fa4,8(a1)
	addi	a5,a1,16
	addi	a0,a0,8
	add	a1,a1,a2
	fld	fa2,.LC0,a4
.L3:
	fadd.d	fa5,fa3,fa4
	fmv.d	fa3,fa4
	fld	fa4,0(a5)
	addi	a0,a0,8
	addi	a5,a5,8
	fadd.d	fa5,fa5,fa4
	fmul.d	fa5,fa5,fa2
	fsd	fa5,-8(a0)
	bne	a1,a5,.L3
.L1:
	ret
	.size	stencil3, .-stencil3
	.align	1
	.globl	blur5
	.type	blur5, @function
blur5:
	li	a5,4
	ble	a2,a5,.L6
	slli	a2,a2,2
	lw	t3,0(a1)
	lw	t1,4(a1)
	lw	a7,8(a1)
	lw	a6,12(a1)
	addi	a3,a1,16
	addi	a0,a0,8
	add	a1,a1,a2
.L8:
	slliw	a4,a7,1
	slliw	a5,t1,2
	addw	a4,a4,a7
	addw	a5,a5,t3
	mv	a2,a6
	slliw	t3,a6,2
	slliw	a4,a4,1
	lw	a6,0(a3)
	addw	a5,a5,a4
	addw	a5,a5,t3
	addw	a5,a5,a6
	sraiw	a5,a5,4
	sw	a5,0(a0)
	addi	a3,a3,4
	mv	t3,t1
	addi	a0,a0,4
	mv	t1,a7
	mv	a7,a2
	bne	a1,a3,.L8
.L6:
	ret
	.size	blur5, .-blur5
	.align	1
	.globl	daxpy
	.type	daxpy, @function
daxpy:
	ble	a2,zero,.L10
	slli	a2,a2,3
	add	a5,a0,a2
.L12:
	fld	fa4,0(a0)
	fld	fa5,0(a1)
	addi	a0,a0,8
	addi	a1,a1,8
	fmadd.d	fa5,fa5,fa0,fa4
	fsd	fa5,-8(a0)
	bne	a0,a5,.L12
.L10:
	ret
	.size	daxpy, .-daxpy
	.section	.rodata.cst8,"aM",@progbits,8
	.align	3
.LC0:
	.word	1431655765
	.word	1070945621
	.section	.note.GNU-stack,"",@progbits
