	.file	"minmax.c"
	.option pic
	.attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	1
	.globl	minmax_i32
	.type	minmax_i32, @function
minmax_i32:
	li	a5,1
	lw	a3,0(a0)
	ble	a1,a5,.L6
	slli	a1,a1,2
	addi	a4,a0,4
	add	a7,a0,a1
	mv	a0,a3
.L5:
	lw	a5,0(a4)
	addi	a4,a4,4
	mv	a6,a5
	ble	a5,a3,.L3
	mv	a6,a3
.L3:
	mv	a1,a5
	sext.w	a3,a6
	bge	a5,a0,.L4
	mv	a1,a0
.L4:
	sext.w	a0,a1
	bne	a4,a7,.L5
	sw	a3,0(a2)
	ret
.L6:
	mv	a0,a3
	sw	a3,0(a2)
	ret
	.size	minmax_i32, .-minmax_i32
	.align	1
	.globl	range_f32
	.type	range_f32, @function
range_f32:
	addi	sp,sp,-64
	fsd	fs0,24(sp)
	flw	fs0,0(a0)
	fsd	fs1,16(sp)
	sd	ra,56(sp)
	sd	s0,48(sp)
	sd	s1,40(sp)
	fsd	fs2,8(sp)
	li	a5,1
	fmv.s	fs1,fs0
	ble	a1,a5,.L10
	slli	a1,a1,2
	addi	s0,a0,4
	add	s1,a0,a1
.L11:
	flw	fs2,0(s0)
	fmv.s	fa1,fs0
	addi	s0,s0,4
	fmv.s	fa0,fs2
	call	fminf@plt
	fmv.s	fa1,fs1
	fmv.s	fs0,fa0
	fmv.s	fa0,fs2
	call	fmaxf@plt
	fmv.s	fs1,fa0
	bne	s0,s1,.L11
.L10:
	ld	ra,56(sp)
	ld	s0,48(sp)
	fsub.s	fa0,fs1,fs0
	ld	s1,40(sp)
	fld	fs0,24(sp)
	fld	fs1,16(sp)
	fld	fs2,8(sp)
	addi	sp,sp,64
	jr	ra
	.size	range_f32, .-range_f32
	.align	1
	.globl	clamp_i32
	.type	clamp_i32, @function
clamp_i32:
	ble	a2,zero,.L15
	slli	a2,a2,2
	add	a6,a1,a2
	mv	a7,a4
.L19:
	lw	a2,0(a1)
	mv	a5,a3
	addi	a1,a1,4
	bgt	a3,a2,.L17
	sext.w	a5,a7
	ble	a4,a2,.L17
	sext.w	a5,a2
.L17:
	sw	a5,0(a0)
	addi	a0,a0,4
	bne	a6,a1,.L19
.L15:
	ret
	.size	clamp_i32, .-clamp_i32
	.section	.note.GNU-stack,"",@progbits
