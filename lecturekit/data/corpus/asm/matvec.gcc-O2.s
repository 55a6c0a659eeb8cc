	.file	"matvec.c"
	.option pic
	.attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	1
	.globl	matvec_f64
	.type	matvec_f64, @function
matvec_f64:
	ble	a3,zero,.L1
	slli	a3,a3,3
	slli	a6,a4,3
	add	t1,a0,a3
	add	a6,a2,a6
	li	a7,0
.L3:
	slli	a3,a7,3
	fmv.d.x	fa5,zero
	add	a3,a1,a3
	mv	a5,a2
	ble	a4,zero,.L6
.L4:
	fld	fa3,0(a3)
	fld	fa4,0(a5)
	addi	a5,a5,8
	addi	a3,a3,8
	fmadd.d	fa5,fa3,fa4,fa5
	bne	a6,a5,.L4
.L6:
	fsd	fa5,0(a0)
	addi	a0,a0,8
	add	a7,a7,a4
	bne	a0,t1,.L3
.L1:
	ret
	.size	matvec_f64, .-matvec_f64
	.align	1
	.globl	matvec_i32
	.type	matvec_i32, @function
matvec_i32:
	ble	a3,zero,.L9
	slli	a3,a3,2
	slli	t3,a4,2
	add	t5,a0,a3
	add	t3,a2,t3
	li	t4,0
.L11:
	li	a7,0
	ble	a4,zero,.L14
	slli	a6,t4,2
	add	a6,a1,a6
	mv	a5,a2
	li	a7,0
.L12:
	lw	t1,0(a6)
	lw	a3,0(a5)
	addi	a5,a5,4
	addi	a6,a6,4
	mulw	a3,a3,t1
	addw	a7,a3,a7
	bne	t3,a5,.L12
.L14:
	sw	a7,0(a0)
	addi	a0,a0,4
	add	t4,t4,a4
	bne	a0,t5,.L11
.L9:
	ret
	.size	matvec_i32, .-matvec_i32
	.section	.note.GNU-stack,"",@progbits
