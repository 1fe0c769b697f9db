/* Shared memory's banks: see smem.h. */
#include "gputui/experiments/smem.h"

int gt_bk_busiest(const uint32_t *q, int n)
{
    uint32_t words[32][128];
    int count[32] = {0}, most = 0;

    for (int i = 0; i < n && i < 128; i++) {
        uint32_t b = q[i] % 32;
        int k = 0;
        while (k < count[b] && words[b][k] != q[i])
            k++;
        if (k == count[b])
            words[b][count[b]++] = q[i];
        if (count[b] > most)
            most = count[b];
    }
    return most;
}
