# 经由内存的递推：for (i = 1; i < MAX; i++) a[i] = a[i-1] * x;
#   $s0 = x，$s1 = &a[i]，$s3 = &a[MAX]
loop:   lw    $t0, -4($s1)       # a[i-1]：上一次迭代存入的值
        mul   $t1, $t0, $s0      # a[i-1] * x
        sw    $t1, 0($s1)        # a[i]
        addi  $s1, $s1, 4
        bne   $s1, $s3, loop
