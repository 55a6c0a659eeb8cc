	.file	"dot.c"
	.option pic
	.attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	1
	.globl	dot_f64
	.type	dot_f64, @function
dot_f64:
	fmv.d.x	fa0,zero
	ble	a2,zero,.L4
	slli	a2,a2,3
	add	a5,a0,a2
.L3:
	fld	fa4,0(a0)
	fld	fa5,0(a1)
	addi	a0,a0,8
	addi	a1,a1,8
	fmadd.d	fa0,fa4,fa5,fa0
	bne	a0,a5,.L3
	ret
.L4:
	ret
	.size	dot_f64, .-dot_f64
	.align	1
	.globl	dot_f32
	.type	dot_f32, @function
dot_f32:
	fmv.w.x	fa0,zero
	ble	a2,zero,.L10
	slli	a2,a2,2
	add	a5,a0,a2
.L9:
	flw	fa4,0(a0)
	flw	fa5,0(a1)
	addi	a0,a0,4
	addi	a1,a1,4
	fmadd.s	fa0,fa4,fa5,fa0
	bne	a0,a5,.L9
	ret
.L10:
	ret
	.size	dot_f32, .-dot_f32
	.align	1
	.globl	dot_i32
	.type	dot_i32, @function
dot_i32:
	ble	a2,zero,.L15
	slli	a2,a2,2
	mv	a5,a0
	add	a2,a0,a2
	li	a0,0
.L14:
	lw	a4,0(a5)
	lw	a3,0(a1)
	addi	a5,a5,4
	addi	a1,a1,4
	mul	a4,a4,a3
	add	a0,a0,a4
	bne	a2,a5,.L14
	ret
.L15:
	li	a0,0
	ret
	.size	dot_i32, .-dot_i32
	.align	1
	.globl	dot4acc
	.type	dot4acc, @function
dot4acc:
	li	a5,3
	ble	a2,a5,.L20
	fmv.d.x	fa3,zero
	addi	a5,a2,-4
	srli	a5,a5,2
	fmv.d	fa4,fa3
	fmv.d	fa2,fa3
	fmv.d	fa5,fa3
	slli	a5,a5,5
	addi	a4,a0,32
	add	a5,a5,a4
.L19:
	fld	ft5,0(a0)
	fld	ft4,0(a1)
	fld	ft3,8(a0)
	fld	ft2,8(a1)
	fld	ft1,16(a0)
	fld	ft0,16(a1)
	fld	fa0,24(a0)
	fld	fa1,24(a1)
	addi	a0,a0,32
	fmadd.d	fa5,ft5,ft4,fa5
	fmadd.d	fa2,ft3,ft2,fa2
	fmadd.d	fa4,ft1,ft0,fa4
	fmadd.d	fa3,fa0,fa1,fa3
	addi	a1,a1,32
	bne	a5,a0,.L19
	fadd.d	fa0,fa5,fa2
	fadd.d	fa4,fa4,fa3
	fadd.d	fa0,fa0,fa4
	ret
.L20:
	fmv.d.x	fa0,zero
	ret
	.size	dot4acc, .-dot4acc
	.section	.note.GNU-stack,"",@progbits
