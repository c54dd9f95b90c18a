/*
 * compare_smpi.c — `steady compare --measure smpi`: every row of the
 * comparison run under SimGrid SMPI (docs/comparison.md, "Measured under
 * SMPI").
 *
 * Every row is one SMPI run of the executor (docs/running.md) on the
 * user's own SimGrid file when the platform was read from one, else on its
 * export to a temporary SimGrid XML, with a hostfile of the platform's
 * ranks (processors and routers, not switches), under the chosen SMPI
 * configuration.  smpirun is a
 * launcher script, so each run is a child process, spawned without a shell
 * in a process group of its own (smpirun and the simulator it starts), so
 * that it can be stopped as a whole; its report is its standard output
 * (JSON), its standard error goes to a file whose first telling line is
 * quoted when the run fails.  A run that fails or does not verify every
 * operation stops the comparison: a blank in the table would read as "not
 * measured".  A run that outlasts the row timeout is stopped and its row
 * reported as timed out; the others still run.
 *
 * The temporary directory is removed on every way out: at the end, after an
 * error, and on SIGINT, SIGTERM or SIGHUP, whose handler stops the running
 * smpirun's process group, removes the files and raises the signal again.
 */
#define _POSIX_C_SOURCE 200809L
#include "compare_smpi.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "steady/schedule.h"

extern char **environ;

/* tuned: SimGrid's network held to the one-port model (docs/running.md;
 * tests/e2e/smpi_export.sh explains each flag).  steady-run-smpi sets
 * smpi/test and smpi/send-is-detached-thresh itself, whatever the
 * configuration. */
static const char *const tuned_cfg[] = {
    "--cfg=smpi/simulate-computation:no", "--cfg=smpi/bw-factor:0:1",
    "--cfg=smpi/lat-factor:0:1",          "--cfg=network/TCP-gamma:0",
    "--cfg=network/crosstraffic:0",       "--cfg=smpi/wtime:0"};
/* Not part of the configuration: keeps SimGrid's informational lines out of
 * the run's standard error. */
static const char *const quiet_log = "--log=root.thres:warning";

/* The MPI library's own collective: SMPI's default selection (no
 * smpi/bcast-style flag), then a few of SMPI's selectable algorithms
 * (--cfg=smpi/bcast:NAME ...) per operation.  Left out: bcast
 * ompi_split_bintree, which never completes a broadcast here (SimGrid 3.x).
 * Reduces and allreduces run with a commutative MPI_Op (steady-run
 * --commutative): with the non-commutative one SMPI's reduce ompi_chain and
 * allreduce lr and ompi_ring_segmented combine out of rank order and the
 * results do not verify (SimGrid 3.x). */
static const char *const mpi_algos[3][6] = {
    {"default", "binomial_tree", "scatter_rdb_allgather", "ompi_pipeline", "NTSL", NULL},
    {"default", "binomial", "ompi_chain", "ompi_in_order_binary", NULL},
    {"default", "redbcast", "rdb", "ompi_ring_segmented", NULL}};
static const char *const mpi_cfg_key[3] = {"bcast", "reduce", "allreduce"};

void smpi_measure_init(smpi_measure_t *s)
{
    memset(s, 0, sizeof *s);
    s->ops = SMPI_DEFAULT_OPS;
    s->row_timeout = SMPI_DEFAULT_ROW_TIMEOUT;
    s->cfg_name = "tuned";
    s->cfg = tuned_cfg;
    s->ncfg = (int)(sizeof tuned_cfg / sizeof *tuned_cfg);
}

static void free_cfg(smpi_measure_t *s)
{
    free(s->cfg_copy);
    free(s->cfg_words);
    s->cfg_copy = NULL;
    s->cfg_words = NULL;
}

void smpi_measure_free(smpi_measure_t *s)
{
    free_cfg(s);
    free(s->rows_copy);
    free(s->rows);
    s->rows_copy = NULL;
    s->rows = NULL;
    s->nrows = 0;
}

int smpi_measure_parse_cfg(smpi_measure_t *s, const char *arg)
{
    free_cfg(s);
    s->cfg_name = arg;
    s->cfg = tuned_cfg;
    s->ncfg = (int)(sizeof tuned_cfg / sizeof *tuned_cfg);
    if (strcmp(arg, "tuned") == 0)
        return EXIT_OK;
    s->ncfg = 0;
    if (strcmp(arg, "default") == 0)
        return EXIT_OK;
    s->cfg_name = "user";
    s->cfg_copy = strdup(arg);
    s->cfg_words = malloc((strlen(arg) / 2 + 1) * sizeof *s->cfg_words);
    if (!s->cfg_copy || !s->cfg_words) {
        fprintf(stderr, "steady compare: out of memory\n");
        return EXIT_FAIL;
    }
    s->cfg = s->cfg_words;
    const char *bad = arg;
    char *save = NULL;
    for (char *w = strtok_r(s->cfg_copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
        const char *colon = strchr(w, ':');
        if (strncmp(w, "--cfg=", 6) != 0 || !colon || colon == w + 6) {
            bad = w;
            break;
        }
        s->cfg_words[s->ncfg++] = w;
        bad = NULL;
    }
    if (bad)
        return usage_error("compare",
                           "--smpi-cfg takes tuned, default or --cfg=NAME:VALUE flags (%s)", bad);
    return EXIT_OK;
}

/* Whether `name` is a row of a comparison of op under SMPI. */
static bool is_row(const char *name, steady_collop_t op)
{
    if (strcmp(name, "lp-schedule") == 0)
        return op != STEADY_COLL_ALLREDUCE;
    if (strncmp(name, "mpi:", 4) == 0) {
        for (const char *const *a = mpi_algos[op]; *a; a++)
            if (strcmp(name + 4, *a) == 0)
                return true;
        return false;
    }
    int a = steady_algo_from_name(name);
    return a >= 0 && steady_algo_supports((steady_algo_t)a, op);
}

int smpi_measure_parse_rows(smpi_measure_t *s, const char *arg, steady_collop_t op)
{
    free(s->rows_copy);
    free(s->rows);
    s->nrows = 0;
    s->rows_copy = strdup(arg);
    s->rows = malloc((strlen(arg) / 2 + 1) * sizeof *s->rows);
    if (!s->rows_copy || !s->rows) {
        fprintf(stderr, "steady compare: out of memory\n");
        return EXIT_FAIL;
    }
    char *save = NULL;
    for (char *w = strtok_r(s->rows_copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (!is_row(w, op)) {
            char names[512] = "";
            size_t n = 0;
            for (int a = 0; a < STEADY_ALGO_COUNT && n < sizeof names; a++)
                if (steady_algo_supports((steady_algo_t)a, op))
                    n += (size_t)snprintf(names + n, sizeof names - n, "%s, ",
                                          steady_algo_name((steady_algo_t)a));
            for (const char *const *a = mpi_algos[op]; *a && n < sizeof names; a++)
                n += (size_t)snprintf(names + n, sizeof names - n, "mpi:%s, ", *a);
            if (n >= 2 && n < sizeof names)
                names[n - 2] = '\0';
            return usage_error("compare", "--rows: no row %s for --op %s (the rows: %s%s)", w,
                               steady_collop_name(op),
                               op != STEADY_COLL_ALLREDUCE ? "lp-schedule, " : "", names);
        }
        if (!smpi_measure_wants(s, w)) /* once each */
            s->rows[s->nrows++] = w;
    }
    if (s->nrows == 0)
        return usage_error("compare", "--rows takes row names separated by commas (%s)", arg);
    return EXIT_OK;
}

bool smpi_measure_wants(const smpi_measure_t *s, const char *row)
{
    if (!s->rows)
        return true;
    for (int i = 0; i < s->nrows; i++)
        if (strcmp(s->rows[i], row) == 0)
            return true;
    return false;
}

typedef struct {
    char dir[PATH_MAX - 32]; /* the temporary directory, "" before it exists */
    char xml[PATH_MAX], hosts[PATH_MAX], plat[PATH_MAX], sched[PATH_MAX], out[PATH_MAX],
        err[PATH_MAX];
    const char *platform;   /* what smpirun runs on: xml, or the user's own SimGrid file */
    char run[PATH_MAX];     /* steady-run-smpi, next to this program */
    char smpirun[PATH_MAX]; /* from PATH */
    char np[16], ops[24], bytes[32];
    const smpi_measure_t *s;
    steady_progress_line_t *line; /* the command's progress line */
    char stage[128];              /* what it shows */
    int rows, done;               /* runs to make, made */
} measure_t;

static int measure_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int measure_error(const char *fmt, ...)
{
    char what[STEADY_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    message("steady compare: --measure smpi: %s", what);
    return EXIT_FAIL;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the guard: the temporary files and the child on every way out ------
 *
 * While a measurement runs, SIGINT, SIGTERM and SIGHUP (unless ignored, as
 * in a background job of a non-interactive shell) are caught by on_signal,
 * and SIGCHLD is blocked so that the wait for a run can sleep until it
 * arrives (sigtimedwait).  The child's pid and the directory are written with
 * the stop signals blocked, so the handler never sees them half done. */

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
enum { NSTOP = sizeof stop_signals / sizeof *stop_signals };

static struct {
    const measure_t *m;          /* the files to remove; NULL outside a measurement */
    volatile sig_atomic_t child; /* the running smpirun (its process group), 0: none */
    sigset_t stop;               /* stop_signals */
    sigset_t mask;               /* the signal mask before the measurement */
    bool caught[NSTOP];
    struct sigaction old[NSTOP];
} guard;

static void remove_files(const measure_t *m)
{
    if (!m->dir[0])
        return;
    const char *paths[] = {m->xml, m->hosts, m->plat, m->sched, m->out, m->err};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
        if (paths[i][0])
            unlink(paths[i]);
    rmdir(m->dir);
}

/* Stops the process group of smpirun `pid` and reaps it: SIGTERM to the
 * group (smpirun's own trap tidies up and stops the simulator), at most a
 * second for smpirun to exit, then SIGKILL to whatever is left of the group
 * (the group cannot be reused before smpirun is reaped).  Only
 * async-signal-safe calls: on_signal uses it. */
static void stop_child(pid_t pid)
{
    kill(-pid, SIGTERM);
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 100; i++) {
        siginfo_t si;
        si.si_pid = 0;
        if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid == pid)
            break;
        nanosleep(&tick, NULL);
    }
    kill(-pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

static void on_signal(int sig)
{
    if (guard.child > 0)
        stop_child((pid_t)guard.child);
    if (guard.m)
        remove_files(guard.m);
    /* die of the same signal: it is blocked while this handler runs, and
     * delivered, with its default action, when it returns */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

static void guard_start(const measure_t *m)
{
    sigemptyset(&guard.stop);
    for (int i = 0; i < NSTOP; i++)
        sigaddset(&guard.stop, stop_signals[i]);
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &guard.mask);
    guard.m = m;
    guard.child = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_mask = guard.stop;
    for (int i = 0; i < NSTOP; i++) {
        guard.caught[i] = false;
        if (sigaction(stop_signals[i], NULL, &guard.old[i]) == 0 &&
            guard.old[i].sa_handler != SIG_IGN)
            guard.caught[i] = sigaction(stop_signals[i], &sa, NULL) == 0;
    }
}

static void guard_stop(void)
{
    for (int i = 0; i < NSTOP; i++)
        if (guard.caught[i])
            sigaction(stop_signals[i], &guard.old[i], NULL);
    guard.m = NULL;
    sigprocmask(SIG_SETMASK, &guard.mask, NULL); /* a pending SIGCHLD is discarded */
}

static void guard_block(sigset_t *old)
{
    sigprocmask(SIG_BLOCK, &guard.stop, old);
}

static void guard_unblock(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}

/* ---- one run ------------------------------------------------------------ */

/* Finds the two programs: steady-run-smpi in the directory of this very
 * executable (the build puts them side by side), smpirun in PATH. */
static int measure_locate(measure_t *m)
{
    ssize_t n = readlink("/proc/self/exe", m->run, sizeof m->run - 32);
    if (n <= 0)
        return measure_error("cannot find this program (/proc/self/exe: %s)", strerror(errno));
    m->run[n] = '\0';
    char *slash = strrchr(m->run, '/');
    strcpy(slash ? slash + 1 : m->run, "steady-run-smpi");
    if (access(m->run, X_OK) != 0)
        return measure_error("steady-run-smpi not found next to steady (%s; 'make' builds it)",
                             m->run);
    const char *path = getenv("PATH");
    for (const char *d = path; d && *d;) {
        size_t len = strcspn(d, ":");
        if (len > 0 && len + sizeof "/smpirun" < sizeof m->smpirun) {
            snprintf(m->smpirun, sizeof m->smpirun, "%.*s/smpirun", (int)len, d);
            if (access(m->smpirun, X_OK) == 0)
                return EXIT_OK;
        }
        d += len + (d[len] == ':');
    }
    return measure_error("smpirun not found in PATH (install SimGrid: scripts/bootstrap)");
}

/* The first line of the run's standard error that says something: the
 * executor's own message if there is one, else the first line that is not a
 * SimGrid warning, else the first line. */
static void first_error_line(const char *path, char *buf, size_t n)
{
    snprintf(buf, n, "(nothing on standard error)");
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    int rank = 0; /* 3: steady-run's line, 2: not a warning, 1: any */
    while (rank < 3 && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0])
            continue;
        int r = strncmp(line, "steady-run", 10) == 0 ? 3 : !strstr(line, "WARNING") ? 2 : 1;
        if (r > rank) {
            rank = r;
            snprintf(buf, n, "%.300s", line);
        }
    }
    fclose(f);
}

/* Redraws the progress line: the row, its number, its time so far. */
static void measure_progress(measure_t *m, const char *label, double start)
{
    snprintf(m->stage, sizeof m->stage, "measuring %s (row %d/%d, %.0f s)", label, m->done + 1,
             m->rows, now() - start);
    steady_progress_line_report(m->line, m->stage, -1, 0);
}

/* Waits for smpirun `pid`, redrawing the progress line; stops it once the
 * row's time is up.  1: it ended (*st its status), 0: timed out, -1: error. */
static int measure_wait(measure_t *m, pid_t pid, const char *label, int *st)
{
    double start = now(), limit = m->s->row_timeout;
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    for (;;) {
        guard_block(&old);
        pid_t r = waitpid(pid, st, WNOHANG);
        int e = errno;
        if (r != 0)
            guard.child = 0;
        guard_unblock(&old);
        if (r == pid)
            return 1;
        if (r < 0 && e != EINTR) {
            measure_error("%s: waitpid: %s", label, strerror(e));
            return -1;
        }
        double nap = 0.25; /* the progress line's clock */
        if (limit > 0) {
            double left = start + limit - now();
            if (left <= 0) {
                guard_block(&old);
                stop_child(pid);
                guard.child = 0;
                guard_unblock(&old);
                return 0;
            }
            nap = left < nap ? left : nap;
        }
        measure_progress(m, label, start);
        struct timespec ts = {(time_t)nap, (long)((nap - floor(nap)) * 1e9)};
        sigtimedwait(&chld, NULL, &ts); /* SIGCHLD, the nap's end, or another signal */
    }
}

/* Runs smpirun [configuration] ... steady-run-smpi --json --ops K ARGS
 * PLATFORM (cfg: one more --cfg, or NULL) and stores the achieved
 * throughput, or sets *timed_out.  label names the row. */
static int measure_run(measure_t *m, const char *label, const char *cfg, const char *const *args,
                       const char *plat, double *achieved, bool *timed_out)
{
    const smpi_measure_t *s = m->s;
    const char **argv = malloc((size_t)(s->ncfg + 40) * sizeof *argv);
    if (!argv)
        return measure_error("out of memory");
    int n = 0;
    argv[n++] = m->smpirun;
    argv[n++] = "-no-privatize";
    for (int i = 0; i < s->ncfg; i++)
        argv[n++] = s->cfg[i];
    if (cfg)
        argv[n++] = cfg;
    const char *fixed[] = {quiet_log, "-platform", m->platform, "-hostfile", m->hosts, "-np",
                           m->np,     m->run,      "--json",    "--ops",     m->ops};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        argv[n++] = fixed[i];
    for (; *args; args++)
        argv[n++] = *args;
    argv[n++] = plat;
    argv[n] = NULL;

    measure_progress(m, label, now());
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, m->out, O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, m->err, O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setsigmask(&attr, &guard.mask);
    sigset_t old;
    pid_t pid;
    guard_block(&old);
    int rc = posix_spawn(&pid, m->smpirun, &fa, &attr, (char *const *)argv, environ);
    if (rc == 0)
        guard.child = pid;
    guard_unblock(&old);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    free(argv);
    if (rc != 0)
        return measure_error("%s: cannot start %s (%s)", label, m->smpirun, strerror(rc));
    int st = 0, ended = measure_wait(m, pid, label, &st);
    m->done++;
    *timed_out = ended == 0;
    if (ended <= 0)
        return ended == 0 ? EXIT_OK : EXIT_FAIL;

    char why[96] = "", line[304];
    json_error_t jerr;
    json_t *j = json_load_file(m->out, JSON_DISABLE_EOF_CHECK, &jerr);
    json_int_t verified = -1, bad = 0;
    double tp = NAN;
    if (j) {
        verified = json_integer_value(json_object_get(j, "verified"));
        bad = json_integer_value(json_object_get(j, "lost")) +
              json_integer_value(json_object_get(j, "duplicated")) +
              json_integer_value(json_object_get(j, "corrupt"));
        tp = json_number_value(json_object_get(j, "achieved"));
        json_decref(j);
    }
    if (WIFSIGNALED(st))
        snprintf(why, sizeof why, "smpirun killed by signal %d", WTERMSIG(st));
    else if (WEXITSTATUS(st) != 0 && !j)
        snprintf(why, sizeof why, "smpirun exited with status %d", WEXITSTATUS(st));
    else if (!j)
        snprintf(why, sizeof why, "no JSON report");
    else if (verified != s->ops || bad != 0)
        snprintf(why, sizeof why, "verified %lld of %ld operations", (long long)verified, s->ops);
    else if (WEXITSTATUS(st) != 0)
        snprintf(why, sizeof why, "smpirun exited with status %d", WEXITSTATUS(st));
    else if (!(tp > 0))
        snprintf(why, sizeof why, "no achieved throughput in the report");
    if (why[0]) {
        first_error_line(m->err, line, sizeof line);
        return measure_error("%s: %s: %s", label, why, line);
    }
    *achieved = tp;
    return EXIT_OK;
}

/* ---- the files ---------------------------------------------------------- */

/* Creates the temporary directory and writes into it the hostfile, the
 * platform's native copy (what steady-run reads: the ranks in the same
 * order) and, unless SMPI runs on the user's own SimGrid file, the
 * exported platform. */
static int measure_files(measure_t *m, const steady_platform_t *p, double msg_size,
                         const char *simgrid_file, steady_error_t *err)
{
    const char *tmp = getenv("TMPDIR");
    char dir[sizeof m->dir];
    snprintf(dir, sizeof dir, "%s/steady-compare-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    sigset_t old;
    guard_block(&old);
    bool made = mkdtemp(dir) != NULL;
    int e = errno;
    if (made) {
        snprintf(m->dir, sizeof m->dir, "%s", dir);
        snprintf(m->xml, sizeof m->xml, "%s/platform.xml", dir);
        snprintf(m->hosts, sizeof m->hosts, "%s/platform.hosts", dir);
        snprintf(m->plat, sizeof m->plat, "%s/platform.plat", dir);
        snprintf(m->sched, sizeof m->sched, "%s/lp.sched", dir);
        snprintf(m->out, sizeof m->out, "%s/run.json", dir);
        snprintf(m->err, sizeof m->err, "%s/run.stderr", dir);
    }
    guard_unblock(&old);
    if (!made)
        return measure_error("%s: cannot create (%s)", dir, strerror(e));
    steady_write_options_t wo = {.msg_size = msg_size};
    const char *paths[3] = {m->xml, m->hosts, m->plat};
    m->platform = simgrid_file ? simgrid_file : m->xml;
    for (int k = simgrid_file ? 1 : 0; k < 3; k++) {
        FILE *f = fopen(paths[k], "w");
        if (!f)
            return measure_error("%s: cannot create (%s)", paths[k], strerror(errno));
        steady_err_t rc = k == 1   ? steady_platform_write_hostfile(p, f, err)
                          : k == 0 ? steady_platform_write(p, f, STEADY_FORMAT_SIMGRID, &wo, err)
                                   : steady_platform_write(p, f, STEADY_FORMAT_NATIVE, NULL, err);
        if (fclose(f) != 0 && !rc)
            return measure_error("%s: cannot write (%s)", paths[k], strerror(errno));
        if (rc)
            return report(err);
    }
    return EXIT_OK;
}

/* Plans the LP's periodic schedule for the comparison's problem (as `steady
 * plan --series K [--segments M]` does) on p (the compared platform, or its
 * calibration: root names the same rank) into m->sched; *planned is its
 * throughput per operation. */
static int measure_plan(measure_t *m, smpi_measure_t *s, const steady_comparison_t *c,
                        const steady_platform_t *p, const char *root_name,
                        const steady_solve_options_t *sopts, double *planned, steady_error_t *err)
{
    int nv = steady_platform_node_count(p), nothers = 0,
        root = steady_platform_find_node(p, root_name);
    int *others = malloc((size_t)nv * sizeof *others);
    if (!others)
        return measure_error("out of memory");
    for (int v = 0; v < nv; v++)
        if (v != root && steady_platform_node(p, v)->kind == STEADY_PROCESSOR)
            others[nothers++] = v;
    steady_problem_t prob = {.msg_size = c->msg_size};
    if (c->op == STEADY_COLL_BROADCAST) {
        prob.op = STEADY_OP_BROADCAST;
        prob.source = root;
        prob.targets = others;
        prob.ntargets = nothers;
    } else {
        prob.op = STEADY_OP_REDUCE;
        prob.target = root;
        prob.task_cost = c->task_cost;
    }
    steady_solution_t *sol = NULL;
    steady_schedule_t *sc = NULL;
    steady_plan_options_t po = {.period = STEADY_PERIOD_AUTO,
                                .series = s->ops,
                                .segments = s->segments,
                                .threads = sopts->threads,
                                .progress = steady_progress_line_report,
                                .progress_ctx = m->line};
    int status = steady_lp_solve(p, &prob, sopts, &sol, err)
                     ? report(err)
                     : problem_need_exact("compare", sopts, sol, "lp-schedule row");
    if (status == EXIT_OK && steady_schedule_plan(sol, sopts, &po, &sc, err))
        status = report(err);
    if (status == EXIT_OK) {
        FILE *f = fopen(m->sched, "w");
        if (!f) {
            status = measure_error("%s: cannot create (%s)", m->sched, strerror(errno));
        } else {
            steady_err_t rc = steady_schedule_write(sc, p, f, err);
            if (fclose(f) != 0 && !rc)
                status = measure_error("%s: cannot write (%s)", m->sched, strerror(errno));
            else if (rc)
                status = report(err);
        }
        *planned = steady_schedule_per_operation(sc, sc->throughput);
        s->lp_segments = sc->segments;
        s->lp_segment_size = sc->msg_size;
        steady_error_t e = {0};
        if (sc->abstract || steady_schedule_message_bytes(sc, p, &s->lp_message_bytes[0],
                                                          &s->lp_message_bytes[1], &e))
            s->lp_message_bytes[0] = s->lp_message_bytes[1] = 0;
    }
    steady_schedule_destroy(sc);
    steady_solution_destroy(sol);
    free(others);
    return status;
}

/* ---- the rows ----------------------------------------------------------- */

/* Appends an extra row (lp-schedule, mpi:NAME) to c. */
static void add_extra(steady_comparison_t *c, smpi_measure_t *s, const char *name, double model,
                      double measured, bool timed_out)
{
    int k = c->nextra++;
    snprintf(c->extra[k].name, sizeof c->extra[k].name, "%s", name);
    c->extra[k].model = model;
    c->extra[k].measured = measured;
    s->extra_timed_out[k] = timed_out;
    s->timed_out += timed_out;
}

static int measure_rows(measure_t *m, smpi_measure_t *s, steady_comparison_t *c,
                        const steady_platform_t *p, const steady_solve_options_t *sopts)
{
    steady_error_t err = {0};
    int status = measure_files(m, p, c->msg_size, s->simgrid_file, &err);
    if (status != EXIT_OK)
        return status;
    const char *op = steady_collop_name(c->op), *root = steady_platform_node(p, c->root)->name;
    char optimum[32], task[32], chunks[16];
    snprintf(optimum, sizeof optimum, "%.17g", c->optimum);
    snprintf(task, sizeof task, "%.17g", c->task_cost);
    bool tasks = c->op != STEADY_COLL_BROADCAST, out;
    double got;
    if (c->op != STEADY_COLL_ALLREDUCE && smpi_measure_wants(s, "lp-schedule")) {
        /* exactly what a direct run of the schedule file gets: the message
         * size is the schedule's (a segment's), given only on an abstract
         * platform, which has none (and no segments) */
        double planned = NAN;
        const steady_platform_t *lp = s->cal ? s->cal : p;
        if ((status = measure_plan(m, s, c, lp, root, sopts, &planned, &err)) != EXIT_OK)
            return status;
        const char *whole[] = {m->sched, NULL},
                   *abstract[] = {"--msg-bytes", m->bytes, m->sched, NULL};
        got = NAN;
        if ((status = measure_run(m, "lp-schedule", NULL,
                                  steady_platform_is_abstract(p) ? abstract : whole,
                                  s->calibrated ? s->calibrated : m->plat, &got, &out)) != EXIT_OK)
            return status;
        add_extra(c, s, "lp-schedule", planned, got, out);
    }
    for (int i = 0; i < c->nalgos; i++) {
        const char *name = steady_algo_name(c->algos[i].algo);
        c->measured[i] = NAN;
        if (!smpi_measure_wants(s, name))
            continue;
        snprintf(chunks, sizeof chunks, "%d", c->algos[i].chunks);
        const char *args[] = {"--algo",
                              name,
                              "--msg-bytes",
                              m->bytes,
                              "--op",
                              op,
                              "--chunks",
                              chunks,
                              "--root",
                              root,
                              "--optimum",
                              optimum,
                              tasks ? "--task-cost" : NULL,
                              task,
                              NULL};
        if ((status = measure_run(m, name, NULL, args, m->plat, &c->measured[i], &out)) != EXIT_OK)
            return status;
        s->algo_timed_out[i] = out;
        s->timed_out += out;
    }
    for (const char *const *a = mpi_algos[c->op]; *a && c->nextra < STEADY_COMPARE_EXTRA_MAX; a++) {
        char cfg[96], label[48];
        snprintf(cfg, sizeof cfg, "--cfg=smpi/%s:%s", mpi_cfg_key[c->op], *a);
        snprintf(label, sizeof label, "mpi:%s", *a);
        if (!smpi_measure_wants(s, label))
            continue;
        const char *args[] = {"--algo",
                              "mpi",
                              "--msg-bytes",
                              m->bytes,
                              "--op",
                              op,
                              "--root",
                              root,
                              "--optimum",
                              optimum,
                              tasks ? "--commutative" : NULL,
                              NULL};
        got = NAN;
        if ((status = measure_run(m, label, strcmp(*a, "default") == 0 ? NULL : cfg, args, m->plat,
                                  &got, &out)) != EXIT_OK)
            return status;
        add_extra(c, s, label, NAN, got, out);
    }
    return EXIT_OK;
}

int smpi_measure(smpi_measure_t *s, steady_comparison_t *c, const steady_platform_t *p,
                 problem_args_t *pa)
{
    measure_t m = {.s = s, .line = &pa->progress};
    m.rows = c->op != STEADY_COLL_ALLREDUCE && smpi_measure_wants(s, "lp-schedule");
    for (int i = 0; i < c->nalgos; i++)
        m.rows += smpi_measure_wants(s, steady_algo_name(c->algos[i].algo));
    for (const char *const *a = mpi_algos[c->op]; *a; a++) {
        char label[48];
        snprintf(label, sizeof label, "mpi:%s", *a);
        m.rows += smpi_measure_wants(s, label);
    }
    int status = measure_locate(&m);
    if (status != EXIT_OK)
        return status;
    snprintf(m.np, sizeof m.np, "%d", steady_platform_rank_count(p));
    snprintf(m.ops, sizeof m.ops, "%ld", s->ops);
    snprintf(m.bytes, sizeof m.bytes, "%.0f", c->msg_size);
    guard_start(&m);
    status = measure_rows(&m, s, c, p, &pa->sopts);
    remove_files(&m);
    guard_stop();
    steady_progress_line_clear(m.line); /* it points to m.stage */
    return status;
}
