	.file	"misc.c"
	.option pic
	.attribute arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0"
	.attribute unaligned_access, 0
	.attribute stack_align, 16
	.text
	.align	1
	.globl	count_hits
	.type	count_hits, @function
count_hits:
	mv	a6,a0
	ble	a2,zero,.L5
	slli	a2,a2,3
	add	a4,a1,a2
	li	a0,0
	li	a2,1
	j	.L4
.L3:
	addi	a1,a1,8
	beq	a1,a4,.L2
.L4:
	ld	a5,0(a1)
	bne	a5,a3,.L3
	amoadd.d a5,a2,0(a6)
	addi	a1,a1,8
	add	a0,a0,a5
	bne	a1,a4,.L4
.L2:
	fence	iorw,iorw
	ret
.L5:
	li	a0,0
	fence	iorw,iorw
	ret
	.size	count_hits, .-count_hits
	.align	1
	.globl	cas_max
	.type	cas_max, @function
cas_max:
	mv	a5,a0
	lw	a0,0(a0)
.L10:
	ble	a1,a0,.L9
	fence iorw,ow;  1: lr.w.aq a4,0(a5); bne a4,a0,1f; sc.w.aq a3,a1,0(a5); bnez a3,1b; 1:
	subw	a3,a4,a0
	sext.w	a0,a4
	bne	a3,zero,.L10
.L9:
	ret
	.size	cas_max, .-cas_max
	.align	1
	.globl	dispatch
	.type	dispatch, @function
dispatch:
	li	a5,5
	bgtu	a0,a5,.L14
	lla	a4,.L16
	slli	a5,a0,2
	add	a5,a5,a4
	lw	a5,0(a5)
	add	a5,a5,a4
	jr	a5
	.section	.rodata
	.align	2
	.align	2
.L16:
	.word	.L21-.L16
	.word	.L20-.L16
	.word	.L19-.L16
	.word	.L18-.L16
	.word	.L17-.L16
	.word	.L15-.L16
	.text
.L17:
	sll	a0,a1,a2
	ret
.L15:
	ld	a5,.LC0
	xor	a0,a1,a5
	ret
.L21:
	add	a0,a1,a2
	ret
.L20:
	sub	a0,a1,a2
	ret
.L19:
	mul	a0,a1,a2
	ret
.L18:
	ori	a2,a2,1
	div	a0,a1,a2
	ret
.L14:
	andi	a0,a0,63
	slli	a0,a0,3
	lla	a5,.LANCHOR0
	add	a5,a5,a0
	ld	a0,0(a5)
	ret
	.size	dispatch, .-dispatch
	.align	1
	.globl	smooth
	.type	smooth, @function
smooth:
	li	a5,3
	ble	a1,a5,.L26
	fmv.d.x	fa0,zero
	slli	a1,a1,3
	fld	ft0,0(a0)
	fld	fa2,8(a0)
	fld	fa3,16(a0)
	addi	a5,a0,24
	fld	ft2,.LC1,a4
	add	a0,a0,a1
	fld	fa1,.LC2,a4
	fld	ft1,.LC3,a4
.L25:
	fmul.d	fa5,fa2,ft2
	fld	fa4,0(a5)
	addi	a5,a5,8
	fmadd.d	fa5,ft0,fa1,fa5
	fmv.d	ft0,fa2
	fmv.d	fa2,fa3
	fmadd.d	fa5,fa3,ft1,fa5
	fmv.d	fa3,fa4
	fmadd.d	fa4,fa4,fa1,fa5
	fadd.d	fa0,fa0,fa4
	bne	a0,a5,.L25
	ret
.L26:
	fmv.d.x	fa0,zero
	ret
	.size	smooth, .-smooth
	.align	1
	.globl	count_less
	.type	count_less, @function
count_less:
	ble	a2,zero,.L31
	slli	a2,a2,3
	mv	a5,a0
	add	a3,a0,a2
	li	a0,0
.L30:
	fld	fa5,0(a5)
	fld	fa4,0(a1)
	addi	a5,a5,8
	addi	a1,a1,8
	frflags	a2
	flt.d	a4,fa5,fa4
	fsflags a2
	snez	a4,a4
	addw	a0,a4,a0
	bne	a3,a5,.L30
	ret
.L31:
	li	a0,0
	ret
	.size	count_less, .-count_less
	.align	1
	.globl	hypot_sum
	.type	hypot_sum, @function
hypot_sum:
	addi	sp,sp,-48
	fsd	fs0,8(sp)
	sd	ra,40(sp)
	sd	s0,32(sp)
	sd	s1,24(sp)
	sd	s2,16(sp)
	fmv.d.x	fs0,zero
	ble	a2,zero,.L33
	slli	a2,a2,3
	mv	s0,a0
	mv	s1,a1
	add	s2,a0,a2
.L35:
	fld	fa1,0(s1)
	fld	fa0,0(s0)
	addi	s0,s0,8
	addi	s1,s1,8
	call	hypot@plt
	fadd.d	fs0,fs0,fa0
	bne	s0,s2,.L35
.L33:
	ld	ra,40(sp)
	ld	s0,32(sp)
	fmv.d	fa0,fs0
	ld	s1,24(sp)
	ld	s2,16(sp)
	fld	fs0,8(sp)
	addi	sp,sp,48
	jr	ra
	.size	hypot_sum, .-hypot_sum
	.align	1
	.globl	scaled_exp
	.type	scaled_exp, @function
scaled_exp:
	fld	fa5,.LC3,a5
	fmul.d	fa0,fa0,fa5
	tail	exp@plt
	.size	scaled_exp, .-scaled_exp
	.align	1
	.globl	mask_bits
	.type	mask_bits, @function
mask_bits:
	srli	a5,a0,32
	li	a0,252645376
	slli	a5,a5,32
	addi	a0,a0,-241
	or	a0,a5,a0
	ret
	.size	mask_bits, .-mask_bits
	.globl	table
	.section	.rodata.cst8,"aM",@progbits,8
	.align	3
.LC0:
	.dword	6364136223846793005
	.align	3
.LC1:
	.word	0
	.word	1070596096
	.align	3
.LC2:
	.word	0
	.word	1069547520
	.align	3
.LC3:
	.word	0
	.word	1071644672
	.bss
	.align	3
	.set	.LANCHOR0,. + 0
	.type	table, @object
	.size	table, 512
table:
	.zero	512
	.section	.note.GNU-stack,"",@progbits
