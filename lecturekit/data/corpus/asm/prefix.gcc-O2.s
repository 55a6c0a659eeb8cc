	.file	"prefix.c"
	.option pic
	.attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	1
	.globl	prefix_i64
	.type	prefix_i64, @function
prefix_i64:
	ble	a2,zero,.L1
	slli	a2,a2,3
	add	a3,a1,a2
	li	a5,0
.L3:
	ld	a4,0(a1)
	addi	a0,a0,8
	addi	a1,a1,8
	add	a5,a5,a4
	sd	a5,-8(a0)
	bne	a1,a3,.L3
.L1:
	ret
	.size	prefix_i64, .-prefix_i64
	.align	1
	.globl	prefix_f64
	.type	prefix_f64, @function
prefix_f64:
	ble	a2,zero,.L6
	fmv.d.x	fa5,zero
	slli	a2,a2,3
	add	a5,a1,a2
.L8:
	fld	fa4,0(a1)
	addi	a0,a0,8
	addi	a1,a1,8
	fadd.d	fa5,fa5,fa4
	fsd	fa5,-8(a0)
	bne	a1,a5,.L8
.L6:
	ret
	.size	prefix_f64, .-prefix_f64
	.align	1
	.globl	histogram
	.type	histogram, @function
histogram:
	ble	a2,zero,.L10
	add	a2,a1,a2
.L12:
	lbu	a5,0(a1)
	addi	a1,a1,1
	slli	a5,a5,2
	add	a5,a0,a5
	lw	a4,0(a5)
	addiw	a4,a4,1
	sw	a4,0(a5)
	bne	a2,a1,.L12
.L10:
	ret
	.size	histogram, .-histogram
	.section	.note.GNU-stack,"",@progbits
