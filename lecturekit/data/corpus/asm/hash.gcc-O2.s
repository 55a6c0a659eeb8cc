	.file	"hash.c"
	.option pic
	.attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	1
	.globl	fnv1a
	.type	fnv1a, @function
fnv1a:
	ble	a1,zero,.L4
	mv	a5,a0
	add	a1,a0,a1
	li	a3,16777216
	li	a0,-2128830464
	addi	a0,a0,-571
	addiw	a3,a3,403
.L3:
	lbu	a4,0(a5)
	addi	a5,a5,1
	xor	a0,a0,a4
	mulw	a0,a3,a0
	bne	a1,a5,.L3
	ret
.L4:
	li	a0,-2128830464
	addi	a0,a0,-571
	ret
	.size	fnv1a, .-fnv1a
	.align	1
	.globl	djb2
	.type	djb2, @function
djb2:
	ble	a1,zero,.L10
	li	a5,4096
	mv	a4,a0
	add	a1,a0,a1
	addi	a0,a5,1285
.L9:
	lbu	a5,0(a4)
	slli	a3,a0,5
	add	a0,a3,a0
	addi	a4,a4,1
	add	a0,a5,a0
	bne	a4,a1,.L9
	ret
.L10:
	li	a0,4096
	addi	a0,a0,1285
	ret
	.size	djb2, .-djb2
	.align	1
	.globl	mix64
	.type	mix64, @function
mix64:
	ble	a1,zero,.L15
	slli	a1,a1,3
	mv	a4,a0
	add	a3,a0,a1
	ld	a2,.LC1
	ld	a0,.LC0
.L14:
	ld	a5,0(a4)
	addi	a4,a4,8
	xor	a0,a0,a5
	srli	a5,a0,33
	xor	a5,a5,a0
	mul	a5,a5,a2
	srli	a0,a5,29
	xor	a0,a0,a5
	bne	a3,a4,.L14
	ret
.L15:
	ld	a0,.LC0
	ret
	.size	mix64, .-mix64
	.section	.rodata.cst8,"aM",@progbits,8
	.align	3
.LC0:
	.dword	-7046029254386353131
	.align	3
.LC1:
	.dword	-49064778989728563
	.section	.note.GNU-stack,"",@progbits
