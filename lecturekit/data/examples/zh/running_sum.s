# 累加求和（经由寄存器的递推）：for (j = 0; j < MAX; j++) s = s + B[j];
#   $s1 = &B[j]，$s3 = &B[MAX]，$s4 = s
loop:   lw    $t0, 0($s1)        # B[j]
        add   $s4, $s4, $t0      # s = s + B[j]（需要上一次迭代的 s）
        addi  $s1, $s1, 4
        bne   $s1, $s3, loop
