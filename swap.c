// SPDX-License-Identifier: MIT
/*
 * swap.c - Swap, in a Box: watch the kernel move a program's memory out to
 * swap and fault it back in.
 *
 * The program maps SIZE bytes (default 256 MiB) of anonymous memory, writes
 * one byte to every page, then reads every page back.  After each step it
 * prints how much of it is resident in RAM (VmRSS), how much sits in swap
 * (VmSwap), how many major page faults it has taken so far (each one a wait
 * for the swap device) and how long the step took.
 *
 * The program never asks for swapping; the kernel decides.  Run plainly, on
 * a machine with room, everything stays resident.  Run it in a box whose
 * memory limit is below SIZE,
 *
 *     systemd-run --user --scope -p MemoryMax=64M ./swap
 *
 * and the kernel has to push most pages out to swap while they are being
 * written, then bring them back, a readahead cluster per major fault, while
 * they are read.
 *
 * Its options show more of the same run: another read order, a line each
 * time another part is written or read, which pages are where, the cost of
 * each access, what shapes the result, a pause after each line to look at
 * it, its numbers as CSV or JSON records.  swap --help lists them; man swap
 * (man/swap.1) says what each shows.
 */
#define _GNU_SOURCE             /* MAP_ANONYMOUS, MADV_NOHUGEPAGE, RUSAGE_THREAD under -std=c11 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/openat2.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)
#define DEFAULT_SIZE (256 * MiB)

/* The version a student quotes with a number; the Makefile reads it from
 * here, for make install and the manual page's header (man/swap.1). */
#define SWAP_VERSION "1.0"

/* cgroup v1 reports "no limit" as a huge page-counter maximum (about 2^63);
 * anything from 2^62 up cannot be a limit someone set on purpose. */
#define UNLIMITED ULLONG_MAX
#define V1_NO_LIMIT (1ULL << 62)

/* The name every message starts with: always "swap", whatever the program
 * was started as (root's lab runs it through /proc/self/fd/9, the very file
 * it checked, so argv[0] is no name to show a student). */
static const char *const progname = "swap";

/* ------------------------------------------------------------------ errors */

/* A system call failed: name it and what errno says, like perror. */
static void die(const char *what)
{
    fprintf(stderr, "%s: %s: %s\n", progname, what, strerror(errno));
    exit(EXIT_FAILURE);
}

/* What cannot be done, and why, in one line. */
static void refuse(const char *what, const char *why)
{
    fprintf(stderr, "%s: %s: %s\n", progname, what, why);
    exit(EXIT_FAILURE);
}

/* Bad command line: one line naming the problem, exit 2, nothing on stdout. */
static void usage_error(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: ", progname);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (try '%s --help')\n", progname);
    exit(2);
}

/* "16 MB", or "12 KB" when not whole megabytes. */
static void size_text(char *buf, size_t len, unsigned long long bytes)
{
    if (bytes % MiB == 0)
        snprintf(buf, len, "%llu MB", bytes / MiB);
    else
        snprintf(buf, len, "%llu KB", bytes / KiB);
}

static void usage(void)
{
    printf("Usage: %s [-v] [-m] [-l] [-o ORDER] [-i STEP] [--live|--no-live] [--pause]\n"
           "            [--format=FORMAT] [--export-csv=FILE] [--export-json=FILE] [SIZE]\n"
           "Map SIZE bytes of anonymous memory, write one byte per page, read one byte\n"
           "per page, and after each step print VmRSS, VmSwap, major faults and time.\n"
           "\n"
           "  SIZE      whole number of bytes, optional suffix K, M or G (powers of\n"
           "            1024); rounded up to whole pages; default 256M\n"
           "  -o ORDER  the order of the read pass (the write pass is always\n"
           "            forward): forward (default), reverse, or random (the same\n"
           "            permutation of all pages on every run)\n"
           "  -i STEP   also print a line each time another STEP (K, M or G, at\n"
           "            most SIZE) has been written, and again while it is read\n"
           "            back; their time column is the time since the step began\n"
           "  -m        after each line, a map of the pages from first to last:\n"
           "            # in RAM, . in swap, : mixed, blank not touched yet\n"
           "  -l        time every access to a page and sort it by what the kernel\n"
           "            did (no fault, minor fault, major fault): after each step,\n"
           "            per kind, how many, the median, the 99th percentile, the\n"
           "            slowest, their total time and its share of the step's\n"
           "            time\n"
           "  -v        first print what shapes the result: kernel, page size, THP,\n"
           "            swap readahead, swappiness, the LRU, swap devices, zswap,\n"
           "            this cgroup and its limits, the read order; after each step,\n"
           "            the time spent stalled on memory (PSI)\n"
           "  --live, --no-live\n"
           "            with -i, redraw the current step's line (and its map and -l\n"
           "            lines) in place, or print every line; the default: in place\n"
           "            when the output is a terminal\n"
           "  --pause   after each line, stop until Enter (on a terminal) or a line\n"
           "            on standard input; at its end, no more pauses; no step's\n"
           "            time counts them; every line stays (not with --live)\n"
           "  --format=FORMAT\n"
           "            what stdout carries: text (the default, the lines above), or\n"
           "            a record per line of the text, its numbers unrounded, as csv\n"
           "            (RFC 4180: a header row, CRLF line ends) or json (JSON Lines):\n"
           "            step (start, write, read), bytes (of the step, done so far),\n"
           "            rss_kb, swap_kb, major_faults, minor_faults, seconds, order;\n"
           "            with -m, pages_in_ram, pages_in_swap, pages_untouched and\n"
           "            page_map (the map's marks); with -l, for each KIND (no_fault,\n"
           "            minor_fault, major_fault), KIND_count, KIND_median_ns,\n"
           "            KIND_p99_ns, KIND_max_ns and KIND_total_ns on the line that\n"
           "            ends a step; with -l and -i, KIND_heat: the accesses since the\n"
           "            line before per power of two, 2^3 to 2^33 ns.  -v's lines go\n"
           "            to stderr; the maps, -l's lines and the heat lines are not\n"
           "            printed\n"
           "  --export-csv=FILE\n"
           "  --export-json=FILE\n"
           "            also write the records to FILE, as csv or as json, whatever\n"
           "            stdout carries: the text on the screen, the numbers in a\n"
           "            file, from the same run\n"
           "  -h, --help  this text\n"
           "  -V, --version  the program's version\n"
           "\n"
           "To watch it swap, run it in a box smaller than SIZE, e.g.\n"
           "  systemd-run --user --scope -p MemoryMax=64M %s\n",
           progname, progname);
    exit(EXIT_SUCCESS);
}

static void version(void)
{
    printf("%s %s\n", progname, SWAP_VERSION);
    exit(EXIT_SUCCESS);
}

/* ------------------------------------------------------------ read order */

enum order { FORWARD, REVERSE, RANDOM };

static const char *const order_names[] = { "forward", "reverse", "random" };

/* A round of the Feistel network below: any mixing function will do, since
 * the network is a bijection whatever it returns.  This is the finaliser of
 * splitmix64; the round number is the key, so the order is fixed. */
static uint64_t feistel_round(uint64_t half, unsigned round)
{
    uint64_t z = half + 0x9E3779B97F4A7C15ULL * (round + 1);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A pseudo-random permutation of 0 .. 4^half_bits - 1, computed, not stored.
 * Each round swaps the two halves and XORs one with a function of the
 * other; that step undoes itself, so the whole is a bijection. */
static uint64_t feistel(uint64_t x, unsigned half_bits)
{
    uint64_t mask = (1ULL << half_bits) - 1, left = x >> half_bits, right = x & mask;

    for (unsigned round = 0; round < 4; round++) {
        uint64_t next = left ^ (feistel_round(right, round) & mask);

        left = right;
        right = next;
    }
    return left << half_bits | right;
}

/* The page read k-th.  For random, a permutation of the pages that needs no
 * memory at all (a table of page numbers would compete for the same box):
 * the Feistel permutation covers the smallest 4^b >= npages, and "cycle
 * walking" applies it again until the result is a page that exists.  That
 * stays a bijection on 0 .. npages - 1: following one cycle of a
 * permutation from k to the next member below npages never meets a member
 * that another k reaches, so every page is read exactly once.  Since
 * 4^b < 4 * npages, it takes fewer than four steps on average. */
static size_t nth_page(enum order order, size_t k, size_t npages)
{
    unsigned half_bits = 1;
    uint64_t x = k;

    switch (order) {
    case FORWARD:
        return k;
    case REVERSE:
        return npages - 1 - k;
    case RANDOM:
        break;
    }
    while (half_bits < 32 && (1ULL << (2 * half_bits)) < npages)
        half_bits++;
    do
        x = feistel(x, half_bits);
    while (x >= npages);
    return (size_t)x;
}

/* ----------------------------------------------------------- command line */

struct options {
    unsigned long long size;    /* bytes, not yet rounded to pages */
    int verbose, map, latency;
    int pause;                  /* --pause: stop after each line */
    enum order order;
    unsigned long long step;    /* -i: bytes between progress lines; 0: none */
    int live;                   /* --live 1, --no-live 0, else -1: on a terminal */
};

/* What stdout carries (--format), and the files that get the records too
 * (--export-csv, --export-json).  Read where each line is printed, as the
 * live view's and -l's settings are, so kept beside the options. */
enum format { TEXT, CSV, JSON };

static const char *const format_names[] = { "text", "csv", "json" };

static struct {
    enum format format;
    const char *export[JSON + 1];       /* by format: the file named, or NULL */
} output;

/* SIZE is digits with an optional K, M or G.  strtoull alone would accept
 * " 5", "+5" and "-5" (the last one wrapped around), so the first character
 * must be a digit.  what names the number in the error ("size"). */
static unsigned long long parse_size(const char *arg, const char *what)
{
    unsigned long long n, mult = 1;
    char *end;

    if (*arg == '\0')
        usage_error("empty %s", what);
    if (*arg == '-')
        usage_error("negative %s '%s'", what, arg);
    if (!isdigit((unsigned char)*arg))
        usage_error("bad %s '%s': not a whole number", what, arg);

    errno = 0;
    n = strtoull(arg, &end, 10);
    if (errno == ERANGE)
        usage_error("%s '%s' is too big", what, arg);

    switch (*end) {
    case 'K': case 'k': mult = KiB; end++; break;
    case 'M': case 'm': mult = MiB; end++; break;
    case 'G': case 'g': mult = GiB; end++; break;
    }
    if (*end == '.' || *end == ',')
        usage_error("bad %s '%s': not a whole number", what, arg);
    if (*end != '\0')
        usage_error("bad %s '%s': unknown suffix '%s' (use K, M or G)", what, arg, end);
    if (n == 0)
        usage_error("%s '%s' is zero", what, arg);

    /* No process can map more than half of what a pointer can address:
     * the kernel keeps the upper half for itself. */
    if (n > (SIZE_MAX / 2) / mult)
        usage_error("%s '%s' is too big for the address space", what, arg);
    return n * mult;
}

/* Which of N names ARG is, or -1. */
static int name_index(const char *arg, const char *const names[], size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(arg, names[i]) == 0)
            return (int)i;
    return -1;
}

static enum order parse_order(const char *arg)
{
    int i = name_index(arg, order_names, sizeof(order_names) / sizeof(order_names[0]));

    if (i < 0)
        usage_error("bad order '%s' (use forward, reverse or random)", arg);
    return (enum order)i;
}

static enum format parse_format(const char *arg)
{
    int i = name_index(arg, format_names, sizeof(format_names) / sizeof(format_names[0]));

    if (i < 0)
        usage_error("bad format '%s' (use text, csv or json)", arg);
    return (enum format)i;
}

/* SIZE, the one operand; a second one is an error. */
static void take_size(struct options *opt, int *have_size, const char *arg)
{
    if (*have_size)
        usage_error("unexpected argument '%s'", arg);
    opt->size = parse_size(arg, "size");
    *have_size = 1;
}

/* What an option's argument is, for "option '-o' needs an ORDER": the
 * words of usage(). */
static const char *arg_name(int opt)
{
    switch (opt) {
    case 'o': return "an ORDER";
    case 'i': return "a STEP";
    case 'F': return "a FORMAT";
    default: return "a FILE";     /* --export-csv, --export-json */
    }
}

/* Options may be clustered (-vm) and may come after SIZE, as getopt_long
 * lets them; "--" ends them.  getopt would take "-5" for an option '5':
 * a dash and a digit is SIZE, so that parse_size says "negative size".
 * getopt's own messages are off (opterr, the leading ':'): ours name the
 * option as the user typed it. */
static struct options parse_args(int argc, char *argv[])
{
    static const struct option longs[] = {
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { "pause", no_argument, NULL, 'P' },
        { "live", no_argument, NULL, 'L' },
        { "no-live", no_argument, NULL, 'N' },
        { "format", required_argument, NULL, 'F' },
        { "export-csv", required_argument, NULL, 'C' },
        { "export-json", required_argument, NULL, 'J' },
        { NULL, 0, NULL, 0 },
    };
    /* By name: a field not named is 0, and a new one shifts none. */
    struct options opt = { .size = DEFAULT_SIZE, .order = FORWARD, .live = -1 };
    const char *step = NULL;
    int have_size = 0, c, at;

    opterr = 0;
    for (;;) {
        if (optind < argc && argv[optind][0] == '-' && isdigit((unsigned char)argv[optind][1])) {
            take_size(&opt, &have_size, argv[optind++]);
            continue;
        }
        at = optind;
        c = getopt_long(argc, argv, "+:hVvmlo:i:", longs, NULL);
        if (c == -1) {
            if (optind >= argc)
                break;
            if (strcmp(argv[optind - 1], "--") == 0) {     /* the rest are operands */
                while (optind < argc)
                    take_size(&opt, &have_size, argv[optind++]);
                break;
            }
            take_size(&opt, &have_size, argv[optind++]);
            continue;
        }
        switch (c) {
        case 'h': usage(); break;
        case 'V': version(); break;
        case 'L': opt.live = 1; break;
        case 'N': opt.live = 0; break;
        case 'F': output.format = parse_format(optarg); break;
        case 'C': output.export[CSV] = optarg; break;
        case 'J': output.export[JSON] = optarg; break;
        case 'v': opt.verbose = 1; break;
        case 'm': opt.map = 1; break;
        case 'l': opt.latency = 1; break;
        case 'P': opt.pause = 1; break;
        case 'o': opt.order = parse_order(optarg); break;
        case 'i': step = optarg; opt.step = parse_size(step, "step"); break;
        case ':':
            if (strncmp(argv[at], "--", 2) == 0)
                usage_error("option '%s' needs %s", argv[at], arg_name(optopt));
            usage_error("option '-%c' needs %s", optopt, arg_name(optopt));
            break;
        default:                /* a long option as typed, or the short one's letter */
            if (strncmp(argv[at], "--", 2) == 0)
                usage_error("unknown option '%.*s'", (int)strcspn(argv[at], "="), argv[at]);
            usage_error("unknown option '-%c'", optopt);
        }
    }
    if (opt.pause && opt.live == 1)
        usage_error("--pause keeps every line: it does not go with --live");
    if (opt.step > opt.size) {
        char amount[32];

        size_text(amount, sizeof(amount), opt.size);
        usage_error("step '%s' is larger than the size (%s)", step, amount);
    }
    return opt;
}

/* ---------------------------------------------------------------- reading */

/* First line of a small file, without its newline; -1 if it cannot be read. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");

    if (f == NULL)
        return -1;
    if (fgets(buf, (int)len, f) == NULL) {
        fclose(f);
        return -1;
    }
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* A file holding one number, or "max" (cgroup v2's "no limit"). */
static unsigned long long read_limit(const char *dir, const char *name)
{
    char path[PATH_MAX + 64], buf[64], *end;
    unsigned long long n;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (read_line(path, buf, sizeof(buf)) == -1 || strcmp(buf, "max") == 0)
        return UNLIMITED;
    errno = 0;
    n = strtoull(buf, &end, 10);
    if (errno != 0 || end == buf || n >= V1_NO_LIMIT)
        return UNLIMITED;
    return n;
}

/* ------------------------------------------------------------- the report */

static double now(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
        die("clock_gettime");
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds spent so far drawing page maps (-m) and paused (--pause): no
 * step's time counts them. */
static double aside_seconds;

struct clock { double start, aside_seconds; };

static struct clock clock_start(void)
{
    struct clock c = { now(), aside_seconds };

    return c;
}

static double clock_read(struct clock c)
{
    return now() - c.start - (aside_seconds - c.aside_seconds);
}

#define MAP_WIDTH 64            /* marks in a strip of -m's map, at most */

/* The line being printed, for its record (--format, --export-*): what
 * report was told, print_line's numbers, and map_line's counts and strip. */
static struct {
    const char *step;           /* "start", "write" or "read" */
    unsigned long long bytes;   /* of the step, done so far */
    int ends_step;              /* the step's last line: -l's numbers */
    long rss_kb, swap_kb, major, minor;
    double seconds;
    int mapped;                 /* the counts and strip below were read (-m) */
    size_t ram, swapped, untouched;
    char strip[MAP_WIDTH + 1];  /* the map's marks, as its text shows them */
} row;

/* ------------------------------------------------------- page map (-m) */

/* Which of the mapping's pages are where, from /proc/self/pagemap: one
 * 64-bit entry per virtual page, bit 63 "present in RAM", bit 62 "in
 * swap" (Documentation/admin-guide/mm/pagemap.rst).  A page zswap or zram
 * holds is a swapped page too.  A page never touched is neither.  The
 * kernel reads the page tables to answer: nothing is faulted in. */
#ifndef PAGEMAP_PATH
#define PAGEMAP_PATH "/proc/self/pagemap"
#endif
#define PM_PRESENT (1ULL << 63)
#define PM_SWAPPED (1ULL << 62)

static struct {
    int fd;                     /* -1: no map (not asked for, or unreadable) */
    const unsigned char *mem;
    size_t npages, page, cells;
} pagemap = { -1, NULL, 0, 0, 0 };

static void map_start(const unsigned char *mem, size_t npages, size_t page)
{
    char amount[32];

    pagemap.fd = open(PAGEMAP_PATH, O_RDONLY);
    if (pagemap.fd == -1) {
        printf("map: cannot read %s (%s): no page map in this run\n", PAGEMAP_PATH, strerror(errno));
        return;
    }
    pagemap.mem = mem;
    pagemap.npages = npages;
    pagemap.page = page;
    pagemap.cells = npages < MAP_WIDTH ? npages : MAP_WIDTH;
    size_text(amount, sizeof(amount), (unsigned long long)(npages / pagemap.cells) * page);
    if (output.format == TEXT)
        printf("map: %zu marks of %s each: # in RAM, . in swap, : mixed, blank not yet touched\n",
               pagemap.cells, amount);
}

/* The mark for one share of the pages: the state of at least 7 in 8 of
 * them, else mixed.  (A random read leaves a quarter of every share in RAM:
 * mixed, which is the point.) */
static char map_mark(size_t ram, size_t swapped, size_t untouched)
{
    size_t all = ram + swapped + untouched;

    if (8 * ram >= 7 * all)
        return '#';
    if (8 * swapped >= 7 * all)
        return '.';
    if (8 * untouched >= 7 * all)
        return ' ';
    return ':';
}

/* One strip, from the first page to the last.  The entries are read a page
 * of them at a time into a buffer on the stack, which every strip uses
 * again: it stays resident, so the map itself costs no major fault. */
static void map_line(void)
{
    uint64_t entries[512];
    char *strip = row.strip;
    size_t cell = 0, ram = 0, swapped = 0, untouched = 0;
    off_t first;
    double t;

    if (pagemap.fd == -1)
        return;
    t = now();
    row.ram = row.swapped = row.untouched = 0;
    first = (off_t)((uintptr_t)pagemap.mem / pagemap.page) * (off_t)sizeof(uint64_t);
    for (size_t i = 0; i < pagemap.npages;) {
        size_t n = pagemap.npages - i < 512 ? pagemap.npages - i : 512;
        ssize_t got = pread(pagemap.fd, entries, n * sizeof(uint64_t),
                            first + (off_t)(i * sizeof(uint64_t)));

        if (got <= 0 || (size_t)got % sizeof(uint64_t) != 0) {
            printf("map: reading %s failed (%s): no more page maps\n", PAGEMAP_PATH,
                   got == -1 ? strerror(errno) : "short read");
            close(pagemap.fd);
            pagemap.fd = -1;
            return;
        }
        n = (size_t)got / sizeof(uint64_t);
        for (size_t k = 0; k < n; k++, i++) {
            /* Cell c holds the pages from c * npages / cells up. */
            while (cell + 1 < pagemap.cells && i >= (cell + 1) * pagemap.npages / pagemap.cells) {
                strip[cell++] = map_mark(ram, swapped, untouched);
                ram = swapped = untouched = 0;
            }
            if (entries[k] & PM_PRESENT) {
                ram++;
                row.ram++;
            } else if (entries[k] & PM_SWAPPED) {
                swapped++;
                row.swapped++;
            } else {
                untouched++;
                row.untouched++;
            }
        }
    }
    strip[cell++] = map_mark(ram, swapped, untouched);
    strip[cell] = '\0';
    row.mapped = 1;
    if (output.format == TEXT) {
        printf("%-10s[%s]\n", "", strip);
        fflush(stdout);
    }
    aside_seconds += now() - t;
}

/* VmRSS and VmSwap, in kB, from /proc/self/status. */
static void read_status(long *rss_kb, long *swap_kb)
{
    char line[256];
    int found = 0;
    FILE *f = fopen("/proc/self/status", "r");

    if (f == NULL)
        die("/proc/self/status");
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            *rss_kb = strtol(line + 6, NULL, 10);
            found |= 1;
        } else if (strncmp(line, "VmSwap:", 7) == 0) {
            *swap_kb = strtol(line + 7, NULL, 10);
            found |= 2;
        }
    }
    fclose(f);
    if (found != 3) {
        fprintf(stderr, "%s: /proc/self/status: no VmRSS or VmSwap line\n", progname);
        exit(EXIT_FAILURE);
    }
}

static void heat_lines(void);
static void heat_restart(void);
static void pause_here(void);
static void record_line(void);

/* ------------------------------------------- the live view (-i, terminal) */

/* On a projector a scrolling log of -i lines hides the picture: the page
 * map's window moving while the read runs.  So on a terminal each step's
 * progress lines (the line, its map, its heat lines) are drawn as one
 * block, over the block before: the cursor goes back up over it and the
 * screen below is cleared (ANSI CUU and ED, as every terminal emulator
 * since the VT100 knows them).  The lines that end a step are printed as
 * ever, below, and stay.  The block is cut to the terminal's width, so that
 * no line wraps and the count of rows to go back up stays true.  Nothing
 * is changed in the terminal's modes: a Ctrl-C leaves it as it was. */
static struct {
    int on, capturing;
    int rows;                   /* rows of the block now on the screen */
    FILE *screen, *mem;         /* stdout, and the block being drawn */
    char *buf;
    size_t len;
} live;

static int live_wanted(int asked, unsigned long long step)
{
    if (asked != -1)
        return asked && step != 0;
    return step != 0 && isatty(STDOUT_FILENO);
}

/* The block on the screen goes, before whatever comes in its place. */
static void live_erase(void)
{
    if (live.rows > 0)
        printf("\033[%dA\r\033[J", live.rows);
    live.rows = 0;
}

/* What the next lines print goes into a block, not yet to the screen. */
static void live_begin(void)
{
    fflush(stdout);
    live.mem = open_memstream(&live.buf, &live.len);
    if (live.mem == NULL)
        die("open_memstream");
    live.screen = stdout;
    stdout = live.mem;          /* (glibc's stdout is a variable, set as any) */
    live.capturing = 1;
}

static int terminal_columns(void)
{
    struct winsize w;

    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0)
        return w.ws_col;
    return 80;
}

/* The block replaces the one before, each line cut to the width (one
 * column short of it, where some terminals would wrap). */
static void live_end(void)
{
    int cols = terminal_columns() - 1;
    const char *p;

    if (fclose(live.mem) == EOF)
        die("fclose");
    stdout = live.screen;
    live.capturing = 0;
    live_erase();
    for (p = live.buf; *p != '\0';) {
        const char *nl = strchr(p, '\n');
        size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);
        int col = 0;

        for (size_t i = 0; i < n; i++) {
            /* (A UTF-8 continuation byte takes no column of its own.) */
            if (((unsigned char)p[i] & 0xc0) != 0x80 && ++col > cols)
                break;
            putchar(p[i]);
        }
        putchar('\n');
        live.rows++;
        p += n + (nl != NULL);
    }
    free(live.buf);
    fflush(stdout);
}

/* The lesson's line: where the pages are now, and how long it took.  It
 * only prints: what a line closes (the map's strip, the heat lines and
 * their counts) is end_interval's. */
static void print_line(const char *label, double seconds)
{
    long rss_kb = 0, swap_kb = 0;
    struct rusage ru;

    /* A line that stays takes the place of the live block. */
    if (live.on && !live.capturing)
        live_erase();
    read_status(&rss_kb, &swap_kb);
    if (getrusage(RUSAGE_SELF, &ru) == -1)
        die("getrusage");
    /* Whole nanoseconds, as the clock gives them: the record prints this
     * number, and the text rounds the very same one. */
    seconds = (double)(long long)(seconds * 1e9 + 0.5) / 1e9;
    row.rss_kb = rss_kb;
    row.swap_kb = swap_kb;
    row.major = ru.ru_majflt;
    row.minor = ru.ru_minflt;
    row.seconds = seconds;
    if (output.format != TEXT)
        return;
    printf("%-24s RSS %6ld MB   swap %6ld MB   major faults %6ld   %.2f s\n",
           label, rss_kb / 1024, swap_kb / 1024, ru.ru_majflt, seconds);
    /* Line by line, so a class watching through a pipe (or a box that
     * kills the program) still sees every line already reached. */
    fflush(stdout);
}

/* An interval ends at each line: -m draws where the pages are now, -l -i
 * the heat of the accesses since the last line, the record carries both,
 * and the heat starts counting afresh.  Skip it and the next interval's
 * counts start too early. */
static void end_interval(void)
{
    map_line();
    heat_lines();
    record_line();
    heat_restart();
}

/* A line: the text's, its interval's end, its record.  step and bytes say
 * where it stands (bytes of the step done), for the record; ends_step, that
 * -l's numbers for the whole step go with it. */
static void report(const char *label, const char *step, unsigned long long bytes, int ends_step,
                   double seconds)
{
    row.step = step;
    row.bytes = bytes;
    row.ends_step = ends_step;
    row.mapped = 0;
    print_line(label, seconds);
    end_interval();
}

/* -i STEP: where the next progress line of a step is due.  The loops only
 * compare a page count with next, so without -i they cost nothing more. */
struct progress {
    const char *verb;           /* "writing" or "reading" */
    const char *step;           /* "write" or "read": the record's */
    size_t every, next;         /* pages; next is SIZE_MAX when none is due */
    size_t npages, page;
    struct clock start;
};

static struct progress progress_start(const char *verb, const char *name, unsigned long long step,
                                      size_t npages, size_t page, struct clock start)
{
    struct progress p = { verb, name, 0, SIZE_MAX, npages, page, start };

    if (step != 0) {
        p.every = (size_t)((step + page - 1) / page);
        p.next = p.every < npages ? p.every : SIZE_MAX;
    }
    return p;
}

/* done pages of the step are done: print the line, plan the next one.  The
 * step's last one is left to the usual line that ends the step. */
static void progress_line(struct progress *p, size_t done)
{
    char amount[32], label[64];

    size_text(amount, sizeof(amount), (unsigned long long)done * p->page);
    snprintf(label, sizeof(label), "%s: %s", p->verb, amount);
    if (live.on)
        live_begin();
    report(label, p->step, (unsigned long long)done * p->page, 0, clock_read(p->start));
    if (live.on)
        live_end();
    pause_here();
    p->next = p->npages - done > p->every ? done + p->every : SIZE_MAX;
}

/* ------------------------------------------------ one access, timed (-l) */

/* What the kernel did during one access, as this thread's own fault
 * counters say (getrusage(RUSAGE_THREAD): ru_minflt, ru_majflt, which the
 * fault path counts itself, mm_account_fault in mm/memory.c), read just
 * before and just after it.  A major fault waited for the swap device; a
 * minor one made the page, or found it in the swap cache, without waiting;
 * no fault is a load or store that found its page in RAM. */
enum kind { NO_FAULT, MINOR, MAJOR, KINDS };

static const char *const kind_names[KINDS] = { "no fault", "minor fault", "major fault" };

/* Nanoseconds in a histogram of fixed size, whatever SIZE (the program's
 * own memory counts against the box): exact below 8 ns, then 8 buckets for
 * each power of two, each at most an eighth of its lower bound wide, so a
 * percentile read at a bucket's middle is within a sixteenth (about 6 %)
 * of the truth; up to 2^35 ns (34 s), longer ones in the top bucket.  The
 * HdrHistogram idea, at one significant octal digit. */
#define SUB_BITS 3
#define SUBS (1 << SUB_BITS)
#define TOP_POWER 35
#define BUCKETS (SUBS + (TOP_POWER - SUB_BITS) * SUBS)

struct histogram {
    uint64_t count[BUCKETS];
    uint64_t n, total_ns, max_ns;
};

/* -l with -i: each interval between two lines also counted per power of
 * two, from 2^3 ns (8 ns, and anything faster) to 2^33 ns (8.6 s, and
 * anything slower): the columns of a latency heat map, fixed in size. */
#define HEAT_LO 3
#define HEAT_HI 33
#define HEAT_BUCKETS (HEAT_HI - HEAT_LO + 1)

static struct {
    int on, heat;
    struct histogram kind[KINDS];
    uint64_t interval[KINDS][HEAT_BUCKETS];
} latency;

/* The power of two at or below ns (0 for 0 and 1). */
static unsigned power_of(uint64_t ns)
{
    return 63 - (unsigned)__builtin_clzll(ns | 1);
}

static unsigned bucket_of(uint64_t ns)
{
    unsigned power = power_of(ns);

    if (ns < SUBS)
        return (unsigned)ns;
    if (power >= TOP_POWER)
        return BUCKETS - 1;
    return SUBS + (power - SUB_BITS) * SUBS + (unsigned)((ns >> (power - SUB_BITS)) & (SUBS - 1));
}

/* The middle of a bucket: what a percentile that falls in it reads. */
static uint64_t bucket_middle(unsigned b)
{
    unsigned shift;

    if (b < SUBS)
        return b;
    shift = (b - SUBS) / SUBS;
    return ((uint64_t)(SUBS + (b - SUBS) % SUBS) << shift) + ((1ULL << shift) >> 1);
}

static void heat_add(enum kind k, uint64_t ns)
{
    unsigned power = power_of(ns);

    if (power < HEAT_LO)
        power = HEAT_LO;
    if (power > HEAT_HI)
        power = HEAT_HI;
    latency.interval[k][power - HEAT_LO]++;
}

static void histogram_add(struct histogram *h, uint64_t ns)
{
    h->count[bucket_of(ns)]++;
    h->n++;
    h->total_ns += ns;
    if (ns > h->max_ns)
        h->max_ns = ns;
}

/* The p-th quantile (0 < p <= 1): the value of the ceil(p * n)-th smallest
 * sample, to within its bucket; never above the slowest, which is exact. */
static uint64_t histogram_quantile(const struct histogram *h, double p)
{
    uint64_t rank = (uint64_t)(p * (double)h->n), seen = 0;

    if ((double)rank < p * (double)h->n)
        rank++;
    if (rank == 0)
        rank = 1;
    for (unsigned b = 0; b < BUCKETS; b++) {
        seen += h->count[b];
        /* (The top bucket has no upper end: the slowest is its value.) */
        if (seen >= rank)
            return b + 1 < BUCKETS && bucket_middle(b) < h->max_ns ? bucket_middle(b) : h->max_ns;
    }
    return h->max_ns;
}

static uint64_t nanoseconds(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
        die("clock_gettime");
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

struct faults { long minor, major; };

static struct faults thread_faults(void)
{
    struct rusage ru;
    struct faults f;

    if (getrusage(RUSAGE_THREAD, &ru) == -1)
        die("getrusage");
    f.minor = ru.ru_minflt;
    f.major = ru.ru_majflt;
    return f;
}

/* A step begins: empty histograms.  (Their pages are touched here, not
 * during the step's first accesses.) */
static void latency_reset(void)
{
    if (latency.on)
        memset(latency.kind, 0, sizeof(latency.kind));
}

/* One access, between the counters, and timed just inside them: neither
 * getrusage call is in the time, and neither can fault. */
static void latency_add(struct faults before, uint64_t t0, uint64_t t1)
{
    struct faults after = thread_faults();
    enum kind k = after.major > before.major ? MAJOR : after.minor > before.minor ? MINOR : NO_FAULT;

    histogram_add(&latency.kind[k], t1 - t0);
    if (latency.heat)
        heat_add(k, t1 - t0);
}

static void timed_write(volatile unsigned char *p, unsigned char byte)
{
    struct faults before = thread_faults();
    uint64_t t0 = nanoseconds(), t1;

    *p = byte;
    t1 = nanoseconds();
    latency_add(before, t0, t1);
}

static unsigned char timed_read(const volatile unsigned char *p)
{
    struct faults before = thread_faults();
    uint64_t t0 = nanoseconds(), t1;
    unsigned char byte = *p;

    t1 = nanoseconds();
    latency_add(before, t0, t1);
    return byte;
}

/* "850 ns", "1.2 µs", "65 µs", "2.1 ms", "1.9 s": two significant digits,
 * as far as the bucket's precision goes.  Right-aligned in width columns
 * (µ is two bytes, one column). */
static const char *duration_text(char *buf, size_t len, uint64_t ns, int width)
{
    static const char *const units[] = { "ns", "\xc2\xb5s", "ms", "s" };
    double v = (double)ns;
    unsigned u = 0;
    char text[32];

    while (u < 3 && v >= 999.5) {
        v /= 1000;
        u++;
    }
    snprintf(text, sizeof(text), v < 9.95 && u > 0 ? "%.1f %s" : "%.0f %s", v, units[u]);
    snprintf(buf, len, "%*s", width + (u == 1), text);
    return buf;
}

/* After each line of -l -i: for each kind of access in the interval since
 * the line before, its counts per power of two, from the first non-empty
 * one to the last ("2^13..2^15 ns: 12 340 5").  Kinds that did not
 * happen get no line.  (end_interval begins the interval anew.) */
static void heat_lines(void)
{
    if (!latency.heat || output.format != TEXT)
        return;
    for (int k = 0; k < KINDS; k++) {
        const uint64_t *c = latency.interval[k];
        int lo = 0, hi = HEAT_BUCKETS - 1;

        while (lo <= hi && c[lo] == 0)
            lo++;
        while (hi >= lo && c[hi] == 0)
            hi--;
        if (lo > hi)
            continue;
        printf("  heat %-12s 2^%d..2^%d ns:", kind_names[k], lo + HEAT_LO, hi + HEAT_LO);
        for (int b = lo; b <= hi; b++)
            printf(" %llu", (unsigned long long)c[b]);
        putchar('\n');
    }
    fflush(stdout);
}

static void heat_restart(void)
{
    memset(latency.interval, 0, sizeof(latency.interval));
}

/* After a step: a line for each kind of access that happened in it. */
static void latency_lines(double step_seconds)
{
    char median[32], p99[32], slowest[32], sum[32];

    if (!latency.on || output.format != TEXT)
        return;
    for (int k = 0; k < KINDS; k++) {
        const struct histogram *h = &latency.kind[k];

        if (h->n == 0)
            continue;
        printf("  %-12s%8llu  median %s  99th %s  max %s  sum %s %4.0f%%\n", kind_names[k],
               (unsigned long long)h->n,
               duration_text(median, sizeof(median), histogram_quantile(h, 0.5), 6),
               duration_text(p99, sizeof(p99), histogram_quantile(h, 0.99), 6),
               duration_text(slowest, sizeof(slowest), h->max_ns, 6),
               duration_text(sum, sizeof(sum), h->total_ns, 6),
               step_seconds > 0 ? 100.0 * (double)h->total_ns / 1e9 / step_seconds : 0.0);
    }
    fflush(stdout);
}

/* ------------------------------------------ records (--format, --export-*) */

/* A record per line of the text, to stdout (--format=csv or json) and to
 * the files of --export-csv and --export-json.  CSV: RFC 4180, a header
 * row, each row ended by CRLF; no field holds a comma or a quote, and the
 * two that hold blanks (-m's strip, -l -i's counts) are quoted, so that
 * no reader trims the strip's blanks at its ends.  JSON: JSON Lines, an
 * object per line, its keys the CSV's header; the counts an array.  A
 * value that a line has not got (-l's before a step's end, a map that
 * could not be read) is an empty field, or null. */
static struct {
    struct sink {
        FILE *f;
        enum format format;
        const char *name;       /* for an error: the file's, or "stdout" */
    } sink[3];
    int sinks, map;
    enum order order;
} records;

#define COLUMNS 32              /* 8, 4 more with -m, 15 more with -l, 3 with -l -i */

/* What a value is: how each format writes it. */
enum value { NUMBER, WORD, MARKS, NUMBERS };

struct column {
    char name[24];
    char value[HEAT_BUCKETS * 21 + 1];  /* "": none; NUMBERS: blank-separated */
    enum value type;
};

static void column(struct column *c, size_t *n, const char *name, enum value type, const char *fmt, ...)
{
    snprintf(c[*n].name, sizeof(c[*n].name), "%s", name);
    c[*n].type = type;
    c[*n].value[0] = '\0';
    if (fmt != NULL) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(c[*n].value, sizeof(c[*n].value), fmt, ap);
        va_end(ap);
    }
    (*n)++;
}

/* The columns, named, with the line's values: the header's names too. */
static size_t row_columns(struct column *c)
{
    static const char *const kinds[KINDS] = { "no_fault", "minor_fault", "major_fault" };
    size_t n = 0;

    column(c, &n, "step", WORD, "%s", row.step != NULL ? row.step : "");
    column(c, &n, "bytes", NUMBER, "%llu", row.bytes);
    column(c, &n, "rss_kb", NUMBER, "%ld", row.rss_kb);
    column(c, &n, "swap_kb", NUMBER, "%ld", row.swap_kb);
    column(c, &n, "major_faults", NUMBER, "%ld", row.major);
    column(c, &n, "minor_faults", NUMBER, "%ld", row.minor);
    column(c, &n, "seconds", NUMBER, "%.9f", row.seconds);
    column(c, &n, "order", WORD, "%s", order_names[records.order]);
    if (records.map) {
        column(c, &n, "pages_in_ram", NUMBER, row.mapped ? "%zu" : NULL, row.ram);
        column(c, &n, "pages_in_swap", NUMBER, row.mapped ? "%zu" : NULL, row.swapped);
        column(c, &n, "pages_untouched", NUMBER, row.mapped ? "%zu" : NULL, row.untouched);
        column(c, &n, "page_map", MARKS, row.mapped ? "%s" : NULL, row.strip);
    }
    for (int k = 0; latency.on && k < KINDS; k++) {
        const struct histogram *h = &latency.kind[k];
        /* A kind that did not happen has a count and a total, 0, and no
         * median, 99th percentile or slowest. */
        const char *all = row.ends_step ? "%llu" : NULL, *some = row.ends_step && h->n > 0 ? "%llu" : NULL;
        char name[24];

        snprintf(name, sizeof(name), "%s_count", kinds[k]);
        column(c, &n, name, NUMBER, all, (unsigned long long)h->n);
        snprintf(name, sizeof(name), "%s_median_ns", kinds[k]);
        column(c, &n, name, NUMBER, some, (unsigned long long)histogram_quantile(h, 0.5));
        snprintf(name, sizeof(name), "%s_p99_ns", kinds[k]);
        column(c, &n, name, NUMBER, some, (unsigned long long)histogram_quantile(h, 0.99));
        snprintf(name, sizeof(name), "%s_max_ns", kinds[k]);
        column(c, &n, name, NUMBER, some, (unsigned long long)h->max_ns);
        snprintf(name, sizeof(name), "%s_total_ns", kinds[k]);
        column(c, &n, name, NUMBER, all, (unsigned long long)h->total_ns);
    }
    /* -l -i: the interval's counts per power of two, 2^3 ns to 2^33 ns,
     * every one (a kind that did not happen: all 0); the heat lines show
     * those from the first non-empty to the last. */
    for (int k = 0; latency.heat && k < KINDS; k++) {
        char name[24], counts[HEAT_BUCKETS * 21 + 1];
        size_t len = 0;

        for (int b = 0; b < HEAT_BUCKETS; b++)
            len += (size_t)snprintf(counts + len, sizeof(counts) - len, "%s%llu", b == 0 ? "" : " ",
                                    (unsigned long long)latency.interval[k][b]);
        snprintf(name, sizeof(name), "%s_heat", kinds[k]);
        column(c, &n, name, NUMBERS, "%s", counts);
    }
    return n;
}

/* One row (or the header's) to one stream, flushed at once, as the text's
 * lines are: a run the kernel kills leaves every record already reached.
 * The strings are the program's own words and marks: none needs escaping. */
static void record_write(const struct sink *s, const struct column *c, size_t n, int header)
{
    for (size_t i = 0; i < n; i++) {
        const char *sep = i == 0 ? "" : ",", *v = c[i].value;
        int quoted = c[i].type == MARKS || c[i].type == NUMBERS;

        if (s->format == CSV && (header || v[0] == '\0' || !quoted))
            fprintf(s->f, "%s%s", sep, header ? c[i].name : v);
        else if (s->format == CSV)
            fprintf(s->f, "%s\"%s\"", sep, v);
        else if (v[0] == '\0')
            fprintf(s->f, "%s\"%s\":null", i == 0 ? "{" : sep, c[i].name);
        else if (c[i].type == NUMBERS) {
            fprintf(s->f, "%s\"%s\":[", i == 0 ? "{" : sep, c[i].name);
            for (; *v != '\0'; v++)
                putc(*v == ' ' ? ',' : *v, s->f);
            putc(']', s->f);
        } else if (c[i].type != NUMBER)
            fprintf(s->f, "%s\"%s\":\"%s\"", i == 0 ? "{" : sep, c[i].name, v);
        else
            fprintf(s->f, "%s\"%s\":%s", i == 0 ? "{" : sep, c[i].name, v);
    }
    fputs(s->format == CSV ? "\r\n" : "}\n", s->f);
    if (fflush(s->f) == EOF || ferror(s->f))
        die(s->name);
}

static void record_line(void)
{
    struct column c[COLUMNS];
    size_t n;

    if (records.sinks == 0)
        return;
    n = row_columns(c);
    for (int i = 0; i < records.sinks; i++)
        record_write(&records.sink[i], c, n, 0);
}

/* A stream for the records; CSV's starts with the header row. */
static void records_add(FILE *f, enum format format, const char *name)
{
    records.sink[records.sinks] = (struct sink){ f, format, name };
    if (format == CSV) {
        struct column c[COLUMNS];
        size_t n = row_columns(c);

        record_write(&records.sink[records.sinks], c, n, 1);
    }
    records.sinks++;
}

/* An export file, for writing.  "/dev/fd/N" is descriptor N as given (a
 * script's pipe or file): no name is opened.  Root opens a name only
 * through no symbolic link (openat2's RESOLVE_NO_SYMLINKS, Linux 5.6) and
 * in a folder of root's that no one else may write: a student's link or
 * file in /tmp makes root write nothing of hers, or over a file of root's,
 * where fs.protected_symlinks is 0.  Anyone else writes with her rights. */
static FILE *export_open(const char *path)
{
    char dir[PATH_MAX], *end;
    const char *base = strrchr(path, '/');
    struct stat st;
    long n;
    int dfd, fd;

    if (strncmp(path, "/dev/fd/", 8) == 0 && isdigit((unsigned char)path[8])) {
        n = strtol(path + 8, &end, 10);
        if (*end != '\0' || n > INT_MAX)
            errno = EBADF, die(path);
        if ((fd = fcntl((int)n, F_DUPFD_CLOEXEC, 3)) == -1)
            die(path);
        return fdopen(fd, "w");
    }
    if (geteuid() != 0)
        return fopen(path, "w");
    if (snprintf(dir, sizeof dir, "%.*s", base == NULL ? 1 : base == path ? 1 : (int)(base - path),
                 base == NULL ? "." : path) >= (int)sizeof dir) {
        errno = ENAMETOOLONG;
        die(path);
    }
    base = base == NULL ? path : base + 1;
    if (*base == '\0') {
        errno = EISDIR;
        die(path);
    }
#ifdef __NR_openat2
    struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS };

    dfd = (int)syscall(__NR_openat2, AT_FDCWD, dir, &how, sizeof how);
#else
    dfd = -1, errno = ENOSYS;
#endif
    if (dfd == -1 && errno == ELOOP)
        refuse(path, "a symbolic link on the way, which root does not follow");
    if (dfd == -1 && errno == ENOSYS)
        refuse(path, "root writes a file only through openat2 (Linux 5.6)");
    if (dfd == -1 || fstat(dfd, &st) == -1)
        die(path);
    if (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))
        refuse(path, "its folder is another user's, or others may write it: root writes none there");
    fd = openat(dfd, base, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd == -1)
        die(path);
    close(dfd);
    return fdopen(fd, "w");
}

/* Where the records go, before anything is printed.  With the records on
 * stdout, what the program still prints as text (-v's lines, a page map
 * that cannot be read) goes to stderr: stdout stays one CSV or JSON
 * stream.  map: -m's columns; order: the read order, a column. */
static void records_open(int map, enum order order)
{
    records.map = map;
    records.order = order;
    if (output.format != TEXT) {
        records_add(stdout, output.format, "stdout");
        stdout = stderr;        /* (glibc's stdout is a variable, set as any) */
    }
    for (int format = CSV; format <= JSON; format++) {
        FILE *f;

        if (output.export[format] == NULL)
            continue;
        f = export_open(output.export[format]);
        if (f == NULL)
            die(output.export[format]);
        records_add(f, (enum format)format, output.export[format]);
    }
}

/* Closed, so that a write that failed late is said (the real stdout too,
 * when it carries the records). */
static void records_close(void)
{
    for (int i = 0; i < records.sinks; i++)
        if (fclose(records.sink[i].f) == EOF)
            die(records.sink[i].name);
}

/* ------------------------------------------------- the environment (-v) */

struct memcg {
    int version;                /* 1 or 2; 0: no memory controller found */
    char path[PATH_MAX];        /* as /proc/self/cgroup names it */
    char dir[PATH_MAX];         /* where its files are */
    unsigned long long mem_limit, swap_limit;   /* bytes, or UNLIMITED */
};

/* Where a cgroup hierarchy is mounted: v2 (fstype cgroup2), or the v1 one
 * that carries the memory controller.  Also the mount's own root, which is
 * not "/" when a container sees only part of the tree. */
static int find_cgroup_mount(int version, char *mnt, size_t mntlen, char *root, size_t rootlen)
{
    char line[4096];
    FILE *f = fopen("/proc/self/mountinfo", "r");

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        char r[PATH_MAX], m[PATH_MAX], fstype[64], opts[1024];
        const char *sep = strstr(line, " - ");

        if (sep == NULL || sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) != 2 ||
            sscanf(sep + 3, "%63s %*s %1023s", fstype, opts) != 2)
            continue;
        if ((version == 2 && strcmp(fstype, "cgroup2") == 0) ||
            (version == 1 && strcmp(fstype, "cgroup") == 0 &&
             (strstr(opts, ",memory") != NULL || strncmp(opts, "memory", 6) == 0))) {
            snprintf(mnt, mntlen, "%s", m);
            snprintf(root, rootlen, "%s", r);
            fclose(f);
            return 0;
        }
    }
    fclose(f);
    return -1;
}

/* The line of /proc/self/cgroup for the v1 memory hierarchy, or for v2
 * ("0::/path").  Hybrid hosts have both; only the v1 one limits memory. */
static int find_cgroup_path(int version, char *path, size_t len)
{
    char line[PATH_MAX + 128];
    FILE *f = fopen("/proc/self/cgroup", "r");

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        char *controllers = strchr(line, ':'), *p;

        if (controllers == NULL || (p = strchr(++controllers, ':')) == NULL)
            continue;
        *p++ = '\0';
        p[strcspn(p, "\n")] = '\0';
        if (version == 2 ? strncmp(line, "0:", 2) == 0 && *controllers == '\0'
                         : strstr(controllers, "memory") != NULL) {
            snprintf(path, len, "%s", p);
            fclose(f);
            return 0;
        }
    }
    fclose(f);
    return -1;
}

/* True if the v2 cgroup in dir has the memory controller: listed in its own
 * cgroup.controllers.  On hybrid hosts the v2 tree has none. */
static int v2_has_memory(const char *dir)
{
    char path[PATH_MAX + 32], buf[512];

    snprintf(path, sizeof(path), "%s/cgroup.controllers", dir);
    if (read_line(path, buf, sizeof(buf)) == -1)
        return 0;
    for (char *w = strtok(buf, " "); w != NULL; w = strtok(NULL, " "))
        if (strcmp(w, "memory") == 0)
            return 1;
    return 0;
}

static unsigned long long min_ull(unsigned long long a, unsigned long long b)
{
    return a < b ? a : b;
}

/* This process's memory cgroup and the limits that bind it: the smallest
 * along the way up to the top of the mount, since a parent's limit binds
 * its children too (a systemd scope sits below slices that may set some). */
static struct memcg find_memcg(void)
{
    struct memcg cg = { .version = 0, .mem_limit = UNLIMITED, .swap_limit = UNLIMITED };
    char mnt[PATH_MAX] = "", root[PATH_MAX], dir[PATH_MAX];
    unsigned long long memsw = UNLIMITED;
    size_t top;

    for (int v = 1; v <= 2 && cg.version == 0; v++) {
        const char *rel;

        if (find_cgroup_path(v, cg.path, sizeof(cg.path)) == -1 ||
            find_cgroup_mount(v, mnt, sizeof(mnt), root, sizeof(root)) == -1)
            continue;
        rel = cg.path;
        if (strcmp(root, "/") != 0 && strncmp(rel, root, strlen(root)) == 0)
            rel += strlen(root);
        if (snprintf(cg.dir, sizeof(cg.dir), "%s%s", mnt,
                     strcmp(rel, "/") == 0 ? "" : rel) >= (int)sizeof(cg.dir))
            continue;
        if (v == 1 || v2_has_memory(cg.dir))
            cg.version = v;
    }
    if (cg.version == 0)
        return cg;

    top = strlen(mnt);
    snprintf(dir, sizeof(dir), "%s", cg.dir);
    for (;;) {
        char *slash;

        if (cg.version == 2) {
            cg.mem_limit = min_ull(cg.mem_limit, read_limit(dir, "memory.max"));
            cg.swap_limit = min_ull(cg.swap_limit, read_limit(dir, "memory.swap.max"));
        } else {
            cg.mem_limit = min_ull(cg.mem_limit, read_limit(dir, "memory.limit_in_bytes"));
            memsw = min_ull(memsw, read_limit(dir, "memory.memsw.limit_in_bytes"));
        }
        slash = strrchr(dir, '/');
        if (strlen(dir) <= top || slash == NULL || (size_t)(slash - dir) < top)
            break;
        *slash = '\0';
    }
    /* v1 limits memory and memory+swap; what is left over is for swap. */
    if (cg.version == 1 && memsw != UNLIMITED)
        cg.swap_limit = memsw > cg.mem_limit ? memsw - cg.mem_limit : 0;
    return cg;
}

/* What -v's readahead line needs to know of the swap devices that are on. */
struct swap_seen {
    int disks, zram;
    char rotating[PATH_MAX];    /* the first one on a disk that says it rotates */
};

/* Whether the disk under a swap device says it rotates: for a swapfile,
 * the disk of its file system; for a partition, the whole disk's queue.
 * 1, 0, or -1 when it cannot be told. */
static int swap_rotational(const char *name)
{
    struct stat st;
    char path[96], buf[16];
    dev_t dev;

    if (stat(name, &st) == -1)
        return -1;
    dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
    snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/rotational", major(dev), minor(dev));
    if (read_line(path, buf, sizeof(buf)) == -1) {
        snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/rotational", major(dev), minor(dev));
        if (read_line(path, buf, sizeof(buf)) == -1)
            return -1;
    }
    return buf[0] == '1';
}

/* Free swap, in bytes, over all swap devices that are on, and how many are
 * on in *ndev; prints each one when verbose, and notes in *seen (if not
 * NULL) what the readahead line needs. */
static unsigned long long swap_devices(int verbose, int *ndev, struct swap_seen *seen)
{
    unsigned long long free_kb = 0;
    int n = 0;
    FILE *f = fopen("/proc/swaps", "r");

    if (f != NULL) {
        char line[PATH_MAX + 128];

        while (fgets(line, sizeof(line), f) != NULL) {
            char name[PATH_MAX], type[32];
            unsigned long long size_kb, used_kb;

            if (sscanf(line, "%4095s %31s %llu %llu", name, type, &size_kb, &used_kb) != 4)
                continue;       /* the header line */
            n++;
            free_kb += size_kb - used_kb;
            if (verbose)
                printf("%-16s%s (%s, %llu MB, %llu MB used)\n", "swap device:", name,
                       strncmp(name, "/dev/zram", 9) == 0 ? "zram" : type,
                       size_kb / 1024, used_kb / 1024);
            if (seen == NULL)
                continue;
            if (strncmp(name, "/dev/zram", 9) == 0)
                seen->zram++;
            else {
                seen->disks++;
                if (seen->rotating[0] == '\0' && swap_rotational(name) == 1)
                    snprintf(seen->rotating, sizeof(seen->rotating), "%s", name);
            }
        }
        fclose(f);
    }
    if (verbose && n == 0)
        printf("%-16s%s\n", "swap device:", "none");
    *ndev = n;
    return free_kb * KiB;
}


/* Which swap readahead a fault gets, and why.  swapin_readahead
 * (mm/swap_state.c) takes the VMA mode (a window of virtual pages around
 * the fault) when swap_use_vma_readahead() says so: vma_ra_enabled is true
 * and no swap device that is on sits on a rotational disk (nr_rotate_swap,
 * counted by swapon in mm/swapfile.c); else the cluster mode (the aligned
 * block of 2^page-cluster swap slots).  zram reads a fault's page alone
 * (SWP_SYNCHRONOUS_IO).  Read in 6.12: swap_use_vma_readahead, line 338,
 * and swapon's atomic_inc(&nr_rotate_swap) for a device whose disk is
 * not bdev_nonrot, line 3520 (a swapfile's is its file system's).  The
 * same rule in 7.3.4: mm/swap_state.c line 617, and mm/swapfile.c line
 * 3735, where bdev_nonrot has become !bdev_rot. */
static void print_readahead(const struct swap_seen *seen)
{
    char buf[16];
    int vma = 1;

    if (read_line("/sys/kernel/mm/swap/vma_ra_enabled", buf, sizeof(buf)) == 0)
        vma = strcmp(buf, "true") == 0;
    if (seen->disks == 0)
        printf("%-16s%s\n", "readahead:", seen->zram != 0 ? "none: zram reads each fault's page alone (synchronous I/O)"
               : "none (no swap device)");
    else if (!vma)
        printf("%-16s%s\n", "readahead:", "cluster (/sys/kernel/mm/swap/vma_ra_enabled is false)");
    else if (seen->rotating[0] != '\0')
        printf("%-16scluster (%s is on a disk that says it rotates: queue/rotational 1; "
               "swapon reads it, so a change counts from the next swapon)\n", "readahead:", seen->rotating);
    else
        printf("%-16s%s\n", "readahead:", "VMA (vma_ra_enabled, and no swap device on a rotational disk; "
               "swapon reads queue/rotational, so a change counts from the next swapon)");
}

static const char *limit_text(unsigned long long bytes, char *buf, size_t len)
{
    if (bytes == UNLIMITED)
        return "none";
    snprintf(buf, len, "%llu MB", bytes / MiB);
    return buf;
}

/* Which LRU reclaim works with decides who gives way when a box is full,
 * the program or the file cache: the multi-generational LRU (Linux 6.1+,
 * on by default in Debian 13, Ubuntu 23.10+, Fedora, Arch) or the classic
 * active/inactive lists.  Bit 0 of lru_gen/enabled is MGLRU's main switch. */
static void print_lru(void)
{
    char buf[64], *end;

    if (read_line("/sys/kernel/mm/lru_gen/enabled", buf, sizeof(buf)) == 0) {
        unsigned long mask;

        errno = 0;
        mask = strtoul(buf, &end, 16);
        if (errno != 0 || end == buf || *end != '\0')
            printf("%-16sunknown (lru_gen/enabled says '%s')\n", "LRU:", buf);
        else
            printf("%-16s%s (lru_gen/enabled %s)\n", "LRU:",
                   mask & 1 ? "multi-generational (MGLRU)" : "classic active/inactive", buf);
    } else if (access("/sys/kernel/mm", F_OK) == 0) {
        printf("%-16s%s\n", "LRU:", "classic active/inactive (no MGLRU in this kernel)");
    } else {
        printf("%-16s%s\n", "LRU:", "unknown (no /sys/kernel/mm)");
    }
}

/* ------------------------------------------------------- memory stalls */

/* Pressure stall information (Documentation/accounting/psi.rst): the time,
 * in microseconds since boot, that some task (some) or every task (full)
 * of a group waited for memory: reclaim, swap-in, refaults.  The box's
 * own on cgroup v2 (memory.pressure), else the whole machine's. */
struct stall {
    int on;
    char path[PATH_MAX + 32];
    const char *whose;
    unsigned long long some, full;      /* totals at the step's start */
};

static int read_pressure(const char *path, unsigned long long *some, unsigned long long *full)
{
    char line[256];
    int found = 0;
    FILE *f = fopen(path, "r");

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        const char *total = strstr(line, "total=");

        if (total == NULL)
            continue;
        if (strncmp(line, "some ", 5) == 0) {
            *some = strtoull(total + 6, NULL, 10);
            found |= 1;
        } else if (strncmp(line, "full ", 5) == 0) {
            *full = strtoull(total + 6, NULL, 10);
            found |= 2;
        }
    }
    fclose(f);
    return found == 3 ? 0 : -1;
}

/* Where the stall time comes from, said in -v's PSI line. */
static struct stall stall_source(void)
{
    struct stall st = { 0 };
    struct memcg cg = find_memcg();

    if (cg.version == 2) {
        snprintf(st.path, sizeof(st.path), "%s/memory.pressure", cg.dir);
        st.whose = "this cgroup";
        if (read_pressure(st.path, &st.some, &st.full) == 0) {
            st.on = 1;
            return st;
        }
    }
    snprintf(st.path, sizeof(st.path), "%s", "/proc/pressure/memory");
    st.whose = "whole machine";
    st.on = read_pressure(st.path, &st.some, &st.full) == 0;
    return st;
}

static void print_stall_source(void)
{
    struct stall st = stall_source();

    if (!st.on)
        /* psi_enable decides, kernel/sched/psi.c: false when the kernel
         * is built with CONFIG_PSI_DEFAULT_DISABLED (as this project's 6.18
         * host is), and "psi=" on the command line sets it either way;
         * off, psi_proc_init makes no /proc/pressure. */
        printf("%-16s%s\n", "PSI:", "not available (no /proc/pressure/memory: a kernel without "
               "CONFIG_PSI, or booted with psi=0, or built with CONFIG_PSI_DEFAULT_DISABLED=y "
               "and booted without psi=1: add psi=1 to the kernel's command line)");
    else if (strcmp(st.whose, "this cgroup") == 0)
        printf("%-16s%s (%s)\n", "PSI:", "this cgroup", st.path);
    else
        printf("%-16s%s (%s): the box is not cgroup v2\n", "PSI:", "the whole machine", st.path);
}

/* -v, after a step: the stall time it added, then the totals move on. */
static void stall_line(struct stall *st)
{
    unsigned long long some, full;

    if (!st->on || read_pressure(st->path, &some, &full) == -1)
        return;
    printf("%-24s some %8.2f s   full %8.2f s   (%s)\n", "stalled on memory:",
           (double)(some - st->some) / 1e6, (double)(full - st->full) / 1e6, st->whose);
    fflush(stdout);
    st->some = some;
    st->full = full;
}

static void print_environment(long page, enum order order)
{
    struct utsname u;
    struct memcg cg = find_memcg();
    char buf[256], *mode;
    long cluster = -1;
    int ndev;
    struct swap_seen seen = { 0 };

    if (uname(&u) == -1)
        die("uname");
    printf("%-16s%s\n", "kernel:", u.release);
    printf("%-16s%ld bytes\n", "page size:", page);

    if (read_line("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf)) == 0 &&
        (mode = strchr(buf, '[')) != NULL) {
        mode++;
        mode[strcspn(mode, "]")] = '\0';
        printf("%-16s%s (this program opts out: MADV_NOHUGEPAGE)\n", "THP:", mode);
    } else {
        printf("%-16s%s\n", "THP:", "not available");
    }

    if (read_line("/proc/sys/vm/page-cluster", buf, sizeof(buf)) == 0)
        cluster = strtol(buf, NULL, 10);
    if (cluster >= 0 && cluster < 16)
        printf("%-16s%ld (swap readahead up to %ld pages)\n", "page-cluster:", cluster, 1L << cluster);
    else
        printf("%-16s%s\n", "page-cluster:", "unknown");
    printf("%-16s%s\n", "swappiness:",
           read_line("/proc/sys/vm/swappiness", buf, sizeof(buf)) == 0 ? buf : "unknown");
    print_lru();

    swap_devices(1, &ndev, &seen);
    print_readahead(&seen);
    if (read_line("/sys/module/zswap/parameters/enabled", buf, sizeof(buf)) == 0)
        printf("%-16s%s\n", "zswap:", buf[0] == 'Y' ? "on" : "off");
    else
        printf("%-16s%s\n", "zswap:", "not available");

    if (cg.version == 0) {
        printf("%-16s%s\n", "cgroup:", "no memory controller found");
    } else {
        printf("%-16sv%d %s\n", "cgroup:", cg.version, cg.path);
        printf("%-16s%s\n", "memory limit:", limit_text(cg.mem_limit, buf, sizeof(buf)));
        printf("%-16s%s\n", "swap limit:", limit_text(cg.swap_limit, buf, sizeof(buf)));
    }
    printf("%-16s%s (the write pass is always forward)\n", "read order:", order_names[order]);
    print_stall_source();
}

/* In a box smaller than SIZE with no swap to spill into, the kernel's OOM
 * killer ends the program mid-write.  Say so first, so "Killed" is no
 * mystery; then go on, since that is a lesson too. */
static void warn_if_box_will_kill(unsigned long long size)
{
    struct memcg cg = find_memcg();
    unsigned long long usable;
    char buf[64];
    int ndev;

    if (cg.mem_limit == UNLIMITED || cg.mem_limit >= size)
        return;
    usable = min_ull(swap_devices(0, &ndev, NULL), cg.swap_limit);
    if (usable == 0)
        fprintf(stderr, "%s: warning: memory limit %s is below %llu MB and %s, so the kernel "
                "will kill this program\n", progname, limit_text(cg.mem_limit, buf, sizeof(buf)),
                size / MiB, cg.swap_limit == 0 ? "the swap limit is 0" :
                ndev == 0 ? "no swap is on" : "the swap devices are full");
    else if (cg.mem_limit + usable < size)
        fprintf(stderr, "%s: warning: memory limit %s plus %llu MB of usable swap is below "
                "%llu MB, so the kernel will kill this program\n", progname,
                limit_text(cg.mem_limit, buf, sizeof(buf)), usable / MiB, size / MiB);
}

/* ------------------------------------------------------ the pause (--pause) */

/* After each line the run waits where it is, so that a student can look at
 * it (/proc/PID/status, smaps_rollup, the box's memory.stat) at leisure,
 * until told to go on: Enter on a terminal, else a line on standard input,
 * read a byte at a time so that no more is taken than the line.  At the end
 * of the input the pauses end.  Neither the time (the step's clock) nor the
 * stall time (-v) of the wait is the step's. */
static struct {
    int on, tty;
    struct stall *stall;
} pausing;

static void pause_here(void)
{
    struct stall *st = pausing.stall;
    unsigned long long some0 = 0, full0 = 0, some1, full1;
    int psi;
    ssize_t got;
    char c;
    double t;

    if (!pausing.on)
        return;
    /* Whoever reads stdout knows the run is paused once the line is there. */
    if (fflush(stdout) == EOF)
        die("standard output");
    t = now();
    psi = st != NULL && st->on && read_pressure(st->path, &some0, &full0) == 0;
    if (pausing.tty)
        fprintf(stderr, "%s: PID %ld paused: press Enter to go on (Ctrl-D: no more pauses) ",
                progname, (long)getpid());
    else
        fprintf(stderr, "%s: PID %ld paused: a line on standard input goes on\n", progname,
                (long)getpid());
    do
        got = read(STDIN_FILENO, &c, 1);
    while ((got == 1 && c != '\n') || (got == -1 && errno == EINTR));
    if (got == -1)
        die("standard input");
    if (got == 0) {
        pausing.on = 0;
        if (pausing.tty)
            fputc('\n', stderr);   /* after Ctrl-D, the next line on a line of its own */
    }
    if (psi && read_pressure(st->path, &some1, &full1) == 0) {
        st->some += some1 - some0;
        st->full += full1 - full0;
    }
    aside_seconds += now() - t;
}

/* --------------------------------------------------------------- the work */

static void *map_anonymous(size_t size)
{
    void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (mem == MAP_FAILED)
        die("mmap");
    /* With THP "always" the kernel would fault this in 2 MB at a time and
     * swap it in huge chunks; one base page per touch keeps one first touch
     * one fault, as the lesson says.  Kernels without THP reject the advice:
     * nothing to opt out of, so carry on. */
    if (madvise(mem, size, MADV_NOHUGEPAGE) == -1 && errno != EINVAL)
        die("madvise");
    return mem;
}

/* Never 0, and different on neighbouring pages: since Linux 6.12 a page of
 * zeros is only marked in a bitmap, never written to the swap device, so
 * zero bytes would "swap" without any disk I/O. */
static unsigned char page_byte(size_t i)
{
    return (unsigned char)(i % 255 + 1);
}

/* volatile: every store and load is the experiment; the compiler must not
 * merge, reorder or drop any of them. */
static void write_pages(volatile unsigned char *mem, size_t npages, size_t page,
                        struct progress *progress)
{
    for (size_t i = 0; i < npages; i++) {
        if (latency.on)
            timed_write(&mem[i * page], page_byte(i));
        else
            mem[i * page] = page_byte(i);
        if (i + 1 == progress->next)
            progress_line(progress, i + 1);
    }
}

/* Reads every page back, in the given order; returns how many came back
 * wrong, the first one in *first_bad. */
static size_t read_pages(const volatile unsigned char *mem, size_t npages, size_t page,
                         enum order order, struct progress *progress, size_t *first_bad)
{
    size_t bad = 0;

    for (size_t k = 0; k < npages; k++) {
        size_t i = nth_page(order, k, npages);
        unsigned char byte = latency.on ? timed_read(&mem[i * page]) : mem[i * page];

        if (byte != page_byte(i) && bad++ == 0)
            *first_bad = i;
        if (k + 1 == progress->next)
            progress_line(progress, k + 1);
    }
    return bad;
}

static long page_size(void)
{
    long page = sysconf(_SC_PAGESIZE);

    if (page == -1)
        die("sysconf");
    return page;
}

static void write_label(char *buf, size_t len, unsigned long long size)
{
    char amount[32];

    size_text(amount, sizeof(amount), size);
    snprintf(buf, len, "after writing %s:", amount);
}

/* The read line keeps the original label for the original order. */
static const char *read_label(enum order order)
{
    switch (order) {
    case REVERSE: return "after reading, reverse:";
    case RANDOM: return "after reading, random:";
    case FORWARD: break;
    }
    return "after reading it back:";
}

/* A step ends: -l's lines for the whole step, and -v's stall line (the
 * PSI totals since the last step become the next one's baseline). */
static void end_step(double seconds, struct stall *stall)
{
    latency_lines(seconds);
    stall_line(stall);
}

enum what { WRITE, READ };

/* One step of the lesson: every page touched once, written or read back in
 * opt's order, timed, then its line; -i's lines on the way.  Returns how
 * many pages came back wrong (none, for the write), the first in
 * *first_bad. */
static size_t run_step(enum what what, const char *label, const struct options *opt,
                   unsigned char *mem, size_t npages, size_t page, struct stall *stall,
                   size_t *first_bad)
{
    struct clock t;
    struct progress progress;
    size_t bad = 0;
    double seconds;

    latency_reset();
    t = clock_start();
    progress = progress_start(what == WRITE ? "writing" : "reading", what == WRITE ? "write" : "read",
                              opt->step, npages, page, t);
    if (what == WRITE)
        write_pages(mem, npages, page, &progress);
    else
        bad = read_pages(mem, npages, page, opt->order, &progress, first_bad);
    seconds = clock_read(t);
    report(label, what == WRITE ? "write" : "read", (unsigned long long)npages * page, 1, seconds);
    end_step(seconds, stall);
    pause_here();
    return bad;
}

int main(int argc, char *argv[])
{
    struct options opt;
    long page;
    size_t size, npages, bad, first_bad = 0;
    unsigned char *mem;
    char label[64];
    struct clock t;
    struct stall stall = { 0 };
    double seconds;

    opt = parse_args(argc, argv);
    latency.on = opt.latency;
    /* The live view is the text's alone; paused, each line is a place the
     * run stopped at, and they all stay. */
    latency.heat = opt.latency && opt.step != 0;
    live.on = output.format == TEXT && live_wanted(opt.pause ? 0 : opt.live, opt.step);
    pausing.on = opt.pause;
    pausing.tty = isatty(STDIN_FILENO);
    pausing.stall = &stall;
    records_open(opt.map, opt.order);
    page = page_size();
    npages = (size_t)((opt.size + (unsigned long long)page - 1) / (unsigned long long)page);
    size = npages * (size_t)page;
    write_label(label, sizeof(label), size);

    if (opt.verbose) {
        print_environment(page, opt.order);
        stall = stall_source();
    }
    warn_if_box_will_kill(size);

    t = clock_start();
    mem = map_anonymous(size);
    seconds = clock_read(t);
    if (opt.map)
        map_start(mem, npages, (size_t)page);
    report("start:", "start", 0, 0, seconds);
    pause_here();

    run_step(WRITE, label, &opt, mem, npages, (size_t)page, &stall, &first_bad);
    bad = run_step(READ, read_label(opt.order), &opt, mem, npages, (size_t)page, &stall, &first_bad);

    if (bad != 0) {
        fprintf(stderr, "%s: %zu of %zu pages came back wrong, the first at page %zu "
                "(expected 0x%02x, read 0x%02x)\n", progname, bad, npages, first_bad,
                page_byte(first_bad), mem[first_bad * (size_t)page]);
        exit(EXIT_FAILURE);
    }
    if (munmap(mem, size) == -1)
        die("munmap");
    records_close();
    return EXIT_SUCCESS;
}
