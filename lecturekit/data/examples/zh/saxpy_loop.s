# 课上的循环（软件流水线）：for (j = 0; j < MAX; j++) C[j] += A * B[j];
#   $s0 = A，$s1 = &B[j]，$s2 = &C[j]，$s3 = &B[MAX]（每个字 4 字节）
loop:   lw    $t0, 0($s1)        # B[j]
        mul   $t1, $t0, $s0      # A * B[j]
        lw    $t2, 0($s2)        # C[j]
        add   $t2, $t2, $t1      # C[j] + A * B[j]
        sw    $t2, 0($s2)        # C[j] = ...
        addi  $s1, $s1, 4        # j++（B 的指针）
        addi  $s2, $s2, 4        # j++（C 的指针）
        bne   $s1, $s3, loop     # 直到 j == MAX
