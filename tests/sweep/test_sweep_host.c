/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hosted interrupt-placement sweep (docs/sweep.md). The kernel is the
 * instrumented one (limen_kernel_bbcount): lm_hosted_irq_at_block places the
 * handler before the n-th kernel basic block run unmasked in thread context
 * after the actor arms it, so n walks over every point of the call where
 * Cortex-M could take an interrupt that the hosted port's unmask delivery
 * never reaches (argument checks before the lock, the stack fill of a start,
 * the gaps between the masked steps of a delete, a flush or a flags set).
 *
 * The runs are made in a child process (fork), one after the other; a run
 * that corrupts the kernel, trips a sanitizer or hangs (alarm) is a
 * violation of its own, a new child takes the next run and the sweep goes
 * on. Usage:
 *
 *     test_sweep_host [--full] [--json FILE] [--only SCENARIO]
 *
 * Without --full: the scenarios marked for ctest, every block of the first
 * DENSE and the last DENSE blocks of each call and every STRIDE-th block in
 * between; a pair on the expected-failure list stops at its first violation. --full: every scenario, every block of each call up to
 * FULL_DENSE blocks (that is every call but lm_thread_start, whose stack fill
 * is then walked every FULL_STRIDE-th block), and the last DENSE blocks.
 */
#define _GNU_SOURCE 1 /* fileno, ftruncate, MAP_ANONYMOUS in C11 mode */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"
#include "limen/port.h"
#include "sweep.h"

#define DENSE 100u
#define STRIDE 997u
/* --full: every block of the first FULL_DENSE (every call of the scenarios
 * but lm_thread_start, whose watermark fill is ~2 blocks per stack byte),
 * then every FULL_STRIDE-th, and the last DENSE before the end. */
#define FULL_DENSE 4000u
#define FULL_STRIDE 13u
#define MAX_OFFSET 400000u
#define RUN_SECONDS 20u

static struct sw_result *shared; /* written by the child */
static FILE *errlog;             /* the children's stderr */

static void irq_fn(void *arg)
{
    (void)arg;
    sw_irq();
}

void sw_arm(uint32_t offset)
{
    LMT_EQ(lm_hosted_irq_at_block(offset, irq_fn, NULL), 0);
}

static bool verbose; /* --one: say where the interrupt landed */

void sw_irq_note(void)
{
    if (verbose) {
        fprintf(stderr, "# interrupt in thread %s at kernel block %llu\n",
                lm_thread_name(lm_thread_self()), (unsigned long long)lm_hosted_block_count());
    }
}

_Noreturn void sw_fatal_exit(void)
{
    _exit(0); /* the violation is in the shared result */
}

/* The first line of a sanitizer's report in the children's stderr. */
static void crash_reason(char *buf, size_t n)
{
    char line[512];
    buf[0] = '\0';
    fflush(errlog);
    rewind(errlog);
    while (fgets(line, sizeof line, errlog) != NULL) {
        if (strstr(line, "ERROR: AddressSanitizer") != NULL ||
            strstr(line, "runtime error:") != NULL || strstr(line, "FAIL ") != NULL) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(buf, n, "%s", line);
            return;
        }
    }
}

/* The runs are served by a child process that runs one request after the
 * other (a fork per run costs more than the run under ASan); a run that
 * crashes, trips a sanitizer, ends in lm_fatal or hangs takes the child
 * with it, and the next run starts a new one. */
struct request {
    uint32_t sc, act, off;
};

static pid_t child = -1;
static int to_child = -1, from_child = -1;

_Noreturn static void serve(int in, int out)
{
    struct request q;
    (void)dup2(fileno(errlog), 2);
    while (read(in, &q, sizeof q) == (ssize_t)sizeof q) {
        alarm(RUN_SECONDS);
        sw_run_one(q.sc, q.act, q.off, shared);
        alarm(0);
        char done = 1;
        if (write(out, &done, 1) != 1) {
            break;
        }
    }
    _exit(0);
}

static void start_child(void)
{
    int down[2], up[2];
    LMT_CHECK(pipe(down) == 0 && pipe(up) == 0);
    fflush(stdout);
    fflush(stderr);
    child = fork();
    LMT_CHECK(child >= 0);
    if (child == 0) {
        close(down[1]);
        close(up[0]);
        serve(down[0], up[1]);
    }
    close(down[0]);
    close(up[1]);
    to_child = down[1];
    from_child = up[0];
}

static void stop_child(void)
{
    if (child < 0) {
        return;
    }
    close(to_child);
    close(from_child);
    int status = 0;
    (void)waitpid(child, &status, 0);
    child = -1;
}

static void run_forked(unsigned sc, unsigned act, uint32_t off, struct sw_result *r)
{
    if (child < 0) {
        start_child();
    }
    if (ftruncate(fileno(errlog), 0) != 0) {
        lmt_fail(__FILE__, __LINE__, "ftruncate");
    }
    rewind(errlog); /* the offset is shared with the child's stderr */
    memset(shared, 0, sizeof *shared);
    struct request q = {sc, act, off};
    char done = 0;
    LMT_CHECK(write(to_child, &q, sizeof q) == (ssize_t)sizeof q);
    if (read(from_child, &done, 1) == 1) {
        *r = *shared;
        return;
    }
    /* The child ended inside the run. */
    close(to_child);
    close(from_child);
    int status = 0;
    LMT_EQ(waitpid(child, &status, 0), child);
    child = -1;
    *r = *shared;
    if (r->violation) {
        return; /* lm_fatal: the hook recorded it and ended the child */
    }
    char why[300];
    crash_reason(why, sizeof why);
    r->violation = true;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
        snprintf(r->what, sizeof r->what, "hang: no end in %u s", RUN_SECONDS);
    } else {
        snprintf(r->what, sizeof r->what, "crash (%s %d): %.150s",
                 WIFSIGNALED(status) ? "signal" : "exit",
                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), why);
    }
}

struct row {
    unsigned runs, in_call, violations;
    uint32_t ret_off; /* first offset seen landing after the call returned (0: none) */
    uint32_t first_off, last_in_call;
    char first[SW_MSG];
};

/* Count one run of the tail into the row. */
static void note(struct row *row, const struct sw_result *r, uint32_t off, bool in)
{
    if (in && !r->fired_in_call && (row->ret_off == 0u || off < row->ret_off)) {
        row->ret_off = off;
    }
    if (in) {
        row->in_call += r->fired_in_call ? 1u : 0u;
        row->last_in_call = off > row->last_in_call ? off : row->last_in_call;
    }
    if (r->violation && row->violations++ == 0u) {
        row->first_off = off;
        snprintf(row->first, sizeof row->first, "%s", r->what);
    }
}

/* Sweep one (scenario, action): offsets from 1 until the interrupt lands
 * after the call (late) or never. */
static void sweep_pair(unsigned sc, unsigned act, bool full, bool xfail, struct row *row)
{
    struct sw_result r;
    memset(row, 0, sizeof *row);
    uint32_t prev = 0; /* last offset that landed in the call */
    for (uint32_t n = 1; n <= MAX_OFFSET;) {
        run_forked(sc, act, n, &r);
        row->runs++;
        if (r.violation) {
            if (row->violations++ == 0u) {
                row->first_off = n;
                snprintf(row->first, sizeof row->first, "%s", r.what);
            }
            if (xfail && !full) {
                return; /* known: the subset stops at its first violation */
            }
        }
        if (!r.fired || r.late) {
            /* Past the end. After a stride, find the end by bisection and
             * sweep the last DENSE blocks before it one by one. */
            uint32_t lo = prev, hi = n;
            while (hi - lo > 1u) {
                uint32_t mid = lo + (hi - lo) / 2u;
                run_forked(sc, act, mid, &r);
                row->runs++;
                bool in = r.fired && !r.late;
                note(row, &r, mid, in);
                if (in) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            uint32_t from = prev + 1u;
            if (lo > DENSE && lo - DENSE > from) {
                from = lo - DENSE;
            }
            for (uint32_t m = from; m < lo; m++) {
                run_forked(sc, act, m, &r);
                row->runs++;
                note(row, &r, m, r.fired && !r.late);
            }
            return;
        }
        if (r.fired_in_call) {
            row->in_call++;
        } else if (row->ret_off == 0u) {
            row->ret_off = n;
        }
        row->last_in_call = n;
        prev = n;
        n += full ? (n < FULL_DENSE ? 1u : FULL_STRIDE) : (n < DENSE ? 1u : STRIDE);
    }
}

/* ---- lm_hosted_irq_at_block itself ---- */

static lm_sem_t st_sem;
static uint64_t st_armed_at, st_seen_at;
static bool st_in_isr;

static void st_handler(void *arg)
{
    (void)arg;
    st_seen_at = lm_hosted_block_count();
    st_in_isr = lm_port_in_isr();
    lmt_log("irq");
    LMT_ST(lm_sem_give(&st_sem), LM_OK); /* H is more urgent: it runs next */
}

static void st_high(void *arg)
{
    (void)arg;
    LMT_ST(lm_sem_take(&st_sem, LM_WAIT_FOREVER), LM_OK);
    lmt_log("H");
}

static uint64_t st_n;

static void st_low(void *arg)
{
    (void)arg;
    st_armed_at = lm_hosted_block_count();
    LMT_EQ(lm_hosted_irq_at_block(st_n, st_handler, NULL), 0);
    LMT_EQ(lm_hosted_irq_at_block(st_n, st_handler, NULL), -1); /* one at a time */
    LMT_CHECK(lm_hosted_irq_at_block_pending());
    uint32_t c = 0;
    for (int i = 0; i < 8; i++) {
        (void)lm_sem_count(&st_sem, &c); /* kernel blocks, unmasked */
    }
    LMT_CHECK(!lm_hosted_irq_at_block_pending());
    lmt_log("L");
}

/* The handler runs just before the n-th counted block after arming, in
 * interrupt context, and the switch it pends happens before the interrupted
 * thread goes on (H before L). */
static void self_test(void)
{
    for (st_n = 1; st_n <= 6; st_n++) {
        lmt_begin();
        memset(&st_sem, 0, sizeof st_sem);
        LMT_ST(lm_sem_create(&st_sem, 0, 1), LM_OK);
        lmt_spawn("H", 1, st_high, NULL);
        lmt_spawn("L", 5, st_low, NULL);
        lmt_run();
        lmt_expect("irq H L");
        LMT_EQ(st_seen_at, st_armed_at + st_n);
        LMT_CHECK(st_in_isr);
    }
    printf("# lm_hosted_irq_at_block: the handler ran before the n-th block, n = 1..6\n");
}

int main(int argc, char **argv)
{
    bool full = false;
    const char *json = NULL;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--full") == 0) {
            full = true;
        } else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc) {
            json = argv[++i];
        } else if (strcmp(argv[i], "--one") == 0 && i + 3 < argc) {
            /* One run in this process, for a debugger: --one SCENARIO ACTION OFFSET */
            verbose = true;
            static struct sw_result r;
            for (unsigned sc = 0; sc < sw_nscenarios; sc++) {
                for (unsigned a = 0; a < sw_scenarios[sc].nactions; a++) {
                    if (strcmp(sw_scenarios[sc].name, argv[i + 1]) == 0 &&
                        strcmp(sw_scenarios[sc].actions[a].name, argv[i + 2]) == 0) {
                        sw_run_one(sc, a, (uint32_t)strtoul(argv[i + 3], NULL, 0), &r);
                        printf("fired %d in_call %d late %d violation %d: %s\n", r.fired,
                               r.fired_in_call, r.late, r.violation, r.what);
                        return r.violation ? 1 : 0;
                    }
                }
            }
            return 2;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--full] [--json FILE] [--only SCENARIO] [--one SCENARIO ACTION OFFSET]\n", argv[0]);
            return 2;
        }
    }
    self_test();
    shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    LMT_CHECK(shared != MAP_FAILED);
    errlog = tmpfile();
    LMT_CHECK(errlog != NULL);
    FILE *js = json != NULL ? fopen(json, "w") : NULL;
    if (js != NULL) {
        fprintf(js, "{\"sweep\": \"host\", \"unit\": \"kernel basic block\", \"full\": %s, "
                    "\"rows\": [\n", full ? "true" : "false");
    }
    printf("%-28s %-24s %-14s %6s %7s %6s %5s  %s\n", "scenario", "call", "action", "runs",
           "in-call", "ret@", "viol", "first violation (offset: what)");
    unsigned total_runs = 0, total_viol = 0, unexpected = 0, xfail = 0, xpass = 0;
    bool first_row = true;
    for (unsigned sc = 0; sc < sw_nscenarios; sc++) {
        const struct sw_scenario *s = &sw_scenarios[sc];
        if ((only != NULL && strcmp(only, s->name) != 0) || (only == NULL && !full && !s->in_ctest)) {
            continue;
        }
        for (unsigned a = 0; a < s->nactions; a++) {
            struct row row;
            const char *xf = sw_expected_failure(s->name, s->actions[a].name);
            sweep_pair(sc, a, full, xf != NULL, &row);
            const char *verdict = "ok";
            if (row.violations != 0u) {
                verdict = xf != NULL ? "XFAIL" : "FAIL";
                if (xf != NULL) {
                    xfail++;
                } else {
                    unexpected++;
                }
            } else if (xf != NULL) {
                verdict = "XPASS";
                xpass++;
            }
            total_runs += row.runs;
            total_viol += row.violations;
            printf("%-28s %-24s %-14s %6u %7u %6u %5u  %s", s->name, s->call,
                   s->actions[a].name, row.runs, row.in_call, (unsigned)row.ret_off,
                   row.violations, verdict);
            if (row.violations != 0u) {
                printf(" @%u: %s", (unsigned)row.first_off, row.first);
            }
            if (xf != NULL) {
                printf(" [expected: %s]", xf);
            }
            printf("\n");
            fflush(stdout);
            if (js != NULL) {
                fprintf(js, "%s  {\"scenario\": \"%s\", \"call\": \"%s\", \"action\": \"%s\", "
                            "\"runs\": %u, \"offsets_in_call\": %u, \"offset_of_return\": %u, "
                            "\"last_offset_in_call\": %u, "
                            "\"violations\": %u, \"verdict\": \"%s\", \"first_offset\": %u, "
                            "\"first\": \"",
                        first_row ? "" : ",\n", s->name, s->call, s->actions[a].name, row.runs,
                        row.in_call, (unsigned)row.ret_off, (unsigned)row.last_in_call,
                        row.violations, verdict, (unsigned)row.first_off);
                for (const char *c = row.first; *c != '\0'; c++) {
                    if (*c == '"' || *c == '\\') {
                        fputc('\\', js);
                    }
                    fputc(*c >= ' ' ? *c : ' ', js);
                }
                fprintf(js, "\"}");
                first_row = false;
            }
        }
    }
    stop_child();
    printf("# host sweep: %u runs, %u violating runs; pairs: %u unexpected FAIL, %u XFAIL "
           "(known defects, tests/sweep/expected.c), %u XPASS\n",
           total_runs, total_viol, unexpected, xfail, xpass);
    if (js != NULL) {
        fprintf(js, "\n], \"runs\": %u, \"violating_runs\": %u, \"unexpected\": %u, "
                    "\"xfail\": %u, \"xpass\": %u}\n",
                total_runs, total_viol, unexpected, xfail, xpass);
        fclose(js);
    }
    return unexpected == 0u ? 0 : 1;
}
