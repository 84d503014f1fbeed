/* SPDX-License-Identifier: MIT
 *
 * Unit check of swap.c's latency histogram, built by tests/21-latency.t:
 * swap.c itself, its main renamed, and this main instead.
 */
#define main swap_main
#include "../swap.c"
#undef main

/* A test build (tests/21-latency.t): nanoseconds on stdin, one a line, into
 * one histogram; out come its count, median, 99th percentile, slowest and
 * sum, in nanoseconds, how many samples its buckets hold, and then the
 * same four as -l's line shows them. */
int main(void)
{
    struct histogram *h = &latency.kind[0];
    unsigned long long ns, held = 0;
    char a[32], b[32], c[32], d[32];

    while (scanf("%llu", &ns) == 1)
        histogram_add(h, ns);
    for (unsigned i = 0; i < BUCKETS; i++)
        held += h->count[i];
    printf("%llu %llu %llu %llu %llu %llu\n", (unsigned long long)h->n,
           (unsigned long long)histogram_quantile(h, 0.5), (unsigned long long)histogram_quantile(h, 0.99),
           (unsigned long long)h->max_ns, (unsigned long long)h->total_ns, held);
    printf("[%s] [%s] [%s] [%s]\n", duration_text(a, sizeof(a), histogram_quantile(h, 0.5), 6),
           duration_text(b, sizeof(b), histogram_quantile(h, 0.99), 6),
           duration_text(c, sizeof(c), h->max_ns, 6), duration_text(d, sizeof(d), h->total_ns, 6));
    return 0;
}
