// SPDX-License-Identifier: MIT
/*
 * tiocsti TEXT: push TEXT and a newline into the terminal on standard
 * input, as if typed there (TIOCSTI), and say on stdout whether the kernel
 * took it.  tests/31-asker.t runs it as a student's program under root's
 * flows: taken, the line would run in root's shell once the flow ends.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

int main(int argc, char *argv[])
{
    if (argc != 2) {
        fprintf(stderr, "usage: tiocsti TEXT\n");
        return 2;
    }
    for (const char *p = argv[1]; ; p++) {
        char c = *p ? *p : '\n';
        if (ioctl(0, TIOCSTI, &c) == -1) {
            printf("tiocsti: %s\n", strerror(errno));
            return 1;
        }
        if (!*p)
            break;
    }
    printf("tiocsti: pushed\n");
    return 0;
}
