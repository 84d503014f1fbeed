/* SPDX-License-Identifier: MIT
 *
 * A program whose main thread ends and whose other thread runs on, built
 * by tests/30-whole.t: the thread-group leader calls pthread_exit, which
 * leaves it a zombie (state Z) in /proc while the group lives, and the
 * second thread waits in pause() until it is killed.  Prints "ready" once
 * both threads are there, so that the test knows what to look for.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void *waiter(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return NULL;
}

int main(void)
{
    pthread_t t;
    int err = pthread_create(&t, NULL, waiter, NULL);

    if (err != 0) {
        fprintf(stderr, "leader_exit: pthread_create: %s\n", strerror(err));
        return 1;
    }
    if (printf("ready\n") < 0 || fflush(stdout) == EOF) {
        perror("leader_exit: stdout");
        return 1;
    }
    pthread_exit(NULL);
}
