/* SPDX-License-Identifier: MIT
 *
 * Unit check of swap.c's read orders, built by tests/11-order.t: for many
 * page counts, each order must visit every page exactly once (a bitmap of
 * the pages seen), forward and reverse must be what their names say, and
 * random must really scatter: few reads land next to the previous one.
 * Prints one line per failure and exits 1 if there was any.
 */
#define main swap_main
#include "../swap.c"
#undef main

static int check(enum order order, size_t npages)
{
    unsigned char *seen = calloc(npages, 1);
    size_t neighbours = 0, prev = 0;
    int errors = 0;

    if (seen == NULL)
        die("calloc");
    for (size_t k = 0; k < npages; k++) {
        size_t i = nth_page(order, k, npages);

        if (i >= npages) {
            printf("%s, %zu pages: read %zu is page %zu, past the end\n",
                   order_names[order], npages, k, i);
            errors++;
            break;
        }
        if (seen[i]++) {
            printf("%s, %zu pages: page %zu read twice (again at read %zu)\n",
                   order_names[order], npages, i, k);
            errors++;
            break;
        }
        if (order == FORWARD && i != k)
            errors += printf("forward, %zu pages: read %zu is page %zu\n", npages, k, i) > 0;
        if (order == REVERSE && i != npages - 1 - k)
            errors += printf("reverse, %zu pages: read %zu is page %zu\n", npages, k, i) > 0;
        if (k > 0 && (i == prev + 1 || i + 1 == prev))
            neighbours++;
        prev = i;
        if (errors)
            break;
    }
    /* A scattered order puts a page next to the one before it about twice
     * in npages; allow 1% before calling it not random. */
    if (!errors && order == RANDOM && npages >= 1000 && neighbours > npages / 100) {
        printf("random, %zu pages: %zu reads were next to the one before\n", npages, neighbours);
        errors++;
    }
    free(seen);
    return errors;
}

int main(void)
{
    /* Small and odd counts, powers of two and four and their neighbours,
     * and the pages of 256 MB and 1 GB with 64, 16 and 4 KiB pages. */
    static const size_t counts[] = { 1, 2, 3, 4, 5, 7, 15, 16, 17, 63, 64, 65, 1000, 4095,
                                     4096, 4097, 16383, 16384, 16385, 65535, 65536, 65537,
                                     100003, 262144 };
    int errors = 0;

    for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
        for (int o = FORWARD; o <= RANDOM; o++)
            errors += check((enum order)o, counts[c]);
    /* The same order on every run: the first reads are fixed numbers. */
    if (errors == 0)
        printf("random, 65536 pages, first reads: %zu %zu %zu %zu\n", nth_page(RANDOM, 0, 65536),
               nth_page(RANDOM, 1, 65536), nth_page(RANDOM, 2, 65536), nth_page(RANDOM, 3, 65536));
    return errors != 0;
}
