/*
 * supervise.c — a rank that dies says which, and when (plain MPI).
 *
 * When a rank is killed (SIGKILL from the OOM killer or a user, a crash),
 * the launcher tears the job down before any other rank can notice: under
 * `mpirun -q` Open MPI ended with status 137 and no message at all, or
 * with its shared-memory transport's "Read -1, expected ..., errno = 3".
 * So every rank watches itself.  Before MPI_Init the process the launcher
 * started forks: the child runs the rank (MPI, the schedule) and the
 * parent only waits for it.  When the child dies of a signal the parent
 * prints one line,
 *
 *     steady-run: P2 (rank 2): died (signal 9, Killed) at period 37 of 530, 1.24 s into the run
 *
 * and dies of the same signal, so that the launcher sees what it would
 * have seen.  The child publishes its node and its progress in a page
 * both share (written at every watch_tick: a few stores).  A parent that
 * receives a signal passes it on to the child; when it is one that ends
 * the job (the launcher's SIGTERM after another rank died, or MPI_Abort),
 * the child's death is the expected consequence and nothing is printed;
 * nor for SIGPIPE (the reader of our output went away).
 * Open MPI's single-copy transport is turned off unless asked for (see
 * supervise_start).
 * The child dies with its parent (PR_SET_PDEATHSIG): a launcher that
 * SIGKILLs the process it started leaves no rank behind.
 *
 * SMPI ranks are threads of one simulation: nothing to do there (the
 * functions are empty).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"

#ifndef SMPI_H

/* What the child publishes; the parent reads it once the child is dead. */
typedef struct {
    int rank; /* -1 until MPI_Comm_rank */
    char node[STEADY_NAME_MAX + 1];
    const char *stage; /* a string literal: the same address in both */
    double done, total;
    double start; /* CLOCK_MONOTONIC seconds when the run started, 0 before */
} shared_t;

/* The page: set before the fork, then only the child writes it. */
static shared_t *shared;
/* The parent: its child, and whether a signal that ends the job came. */
static pid_t child;
static volatile sig_atomic_t ending;

static double monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pass_on(int sig)
{
    if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT)
        ending = 1;
    kill(child, sig);
}

/* The parent: waits, reports a death by signal, ends as the child did. */
static void __attribute__((noreturn)) watch_child(void)
{
    static const int passed[] = {SIGTERM, SIGINT,  SIGHUP,  SIGQUIT,
                                 SIGUSR1, SIGUSR2, SIGCONT, SIGALRM};
    struct sigaction sa = {.sa_handler = pass_on};
    sigemptyset(&sa.sa_mask);
    for (size_t k = 0; k < sizeof passed / sizeof *passed; k++)
        sigaction(passed[k], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    int st;
    while (waitpid(child, &st, 0) < 0)
        if (errno != EINTR)
            _exit(RUN_FAIL);
    if (WIFEXITED(st))
        _exit(WEXITSTATUS(st));
    int sig = WTERMSIG(st);
    /* SIGPIPE: whoever read our output stopped (`steady-run --help | head`,
     * or a launcher gone); a shell says nothing of it, nor do we */
    if (!ending && sig != SIGPIPE) {
        const shared_t *s = shared;
        char who[STEADY_NAME_MAX + 32], when[128];
        /* before MPI_Comm_rank, the launcher's variables say which */
        const char *env = getenv("OMPI_COMM_WORLD_RANK");
        env = env ? env : getenv("PMI_RANK");
        if (s->node[0])
            snprintf(who, sizeof who, "%s (rank %d)", s->node, s->rank);
        else if (s->rank >= 0 || env)
            snprintf(who, sizeof who, "rank %d", s->rank >= 0 ? s->rank : atoi(env));
        else
            snprintf(who, sizeof who, "pid %ld", (long)child);
        if (s->start == 0)
            snprintf(when, sizeof when, "before the run started");
        else if (s->stage)
            snprintf(when, sizeof when, "at %s %.0f of %.0f, %.3g s into the run", s->stage,
                     s->done, s->total, monotonic() - s->start);
        else
            snprintf(when, sizeof when, "%.3g s into the run", monotonic() - s->start);
        fprintf(stderr, "steady-run: %s: died (signal %d, %s) %s\n", who, sig, strsignal(sig),
                when);
        fflush(stderr);
    }
    /* the same end as the child's, for the launcher (no core: the child's
     * is the one that matters) */
    signal(sig, SIG_DFL);
    prctl(PR_SET_DUMPABLE, 0);
    raise(sig);
    _exit(128 + sig);
}

void supervise_start(void)
{
    /* Open MPI's shared-memory transport reads a peer's memory directly
     * (CMA): when the peer dies in the middle, the survivors print "Read
     * -1, expected N, errno = 3" before the launcher ends them, a second
     * and cryptic line.  Without it, messages are copied through shared
     * memory; OMPI_MCA_btl_vader_single_copy_mechanism=cma keeps it. */
    setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 0);
    shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        shared = NULL;
        return; /* unsupervised: the run itself is unaffected */
    }
    *shared = (shared_t){.rank = -1};
    pid_t parent = getpid();
    fflush(NULL);
    child = fork();
    if (child < 0) {
        munmap(shared, sizeof *shared);
        shared = NULL;
        return;
    }
    if (child > 0)
        watch_child();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) /* the parent died before the line above */
        _exit(RUN_FAIL);
}

void supervise_rank(int rank)
{
    if (shared)
        shared->rank = rank;
}

void supervise_run(const char *node)
{
    if (!shared)
        return;
    snprintf(shared->node, sizeof shared->node, "%s", node);
    shared->start = monotonic();
}

void supervise_progress(const char *stage, double done, double total)
{
    if (!shared)
        return;
    shared->stage = stage;
    shared->done = done;
    shared->total = total;
}

#else

void supervise_start(void)
{
}

void supervise_rank(int rank)
{
    (void)rank;
}

void supervise_run(const char *node)
{
    (void)node;
}

void supervise_progress(const char *stage, double done, double total)
{
    (void)stage;
    (void)done;
    (void)total;
}

#endif
