/* sql_progress.c - the progress line of `hudic sql` (sql_progress.h). */
#include "sql_progress.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define FIRST_DRAW_MS                                                                              \
    1000 /* statements quicker than this show nothing ($HUDIC_PROGRESS_AFTER_MS) */
#define REDRAW_MS 100

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int stderr_columns(void) {
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
    return 80;
}

/* 1234567 -> "1,234,567" */
static void grouped(char *out, size_t cap, int64_t v) {
    char digits[32];
    int n = snprintf(digits, sizeof(digits), "%lld", (long long)(v < 0 ? 0 : v));
    size_t k = 0;
    for (int i = 0; i < n && k + 2 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0) out[k++] = ',';
        out[k++] = digits[i];
    }
    out[k] = '\0';
}

/* "scanning [=======>     ]  45%  4/9 files  1,234,567 rows  3.2 s", cut to the terminal. */
static void draw(const hudi_statement_progress *pr, int64_t elapsed_ms) {
    char line[512], rows[32], tail[128];
    int cols = stderr_columns();
    if (cols > (int)sizeof(line) - 1) cols = (int)sizeof(line) - 1;
    grouped(rows, sizeof(rows), pr->rows);
    bool scan = pr->phase == HUDI_PROGRESS_SCAN;
    const char *unit = scan ? "files" : "file groups";
    size_t n = (size_t)snprintf(line, sizeof(line), "%s ", scan ? "scanning" : "writing");
    if (pr->total > 0) {
        int64_t done = pr->done < pr->total ? pr->done : pr->total;
        int pct = (int)(done * 100 / pr->total);
        int width = 20;
        int fill = (int)(done * width / pr->total);
        line[n++] = '[';
        for (int i = 0; i < width; i++) line[n++] = i < fill ? '=' : i == fill ? '>' : ' ';
        line[n++] = ']';
        snprintf(tail, sizeof(tail), " %3d%%  %lld/%lld %s  %s rows  %.1f s", pct, (long long)done,
                 (long long)pr->total, unit, rows, (double)elapsed_ms / 1000.0);
    } else {
        snprintf(tail, sizeof(tail), "%s rows  %.1f s", rows, (double)elapsed_ms / 1000.0);
    }
    snprintf(line + n, sizeof(line) - n, "%s", tail);
    if ((int)strlen(line) > cols - 1) line[cols - 1] = '\0';
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
}

/* The delay before the line appears: $HUDIC_PROGRESS_AFTER_MS (0 or more), else a second. */
static int64_t first_draw_ms(void) {
    const char *e = getenv("HUDIC_PROGRESS_AFTER_MS");
    char *end = NULL;
    long long v = e && *e ? strtoll(e, &end, 10) : -1;
    return v >= 0 && end && *end == '\0' && v <= 3600000 ? v : FIRST_DRAW_MS;
}

static void *watch(void *arg) {
    sql_progress *p = arg;
    int64_t start = now_ms(), first = first_draw_ms();
    bool drawn = false;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        int64_t elapsed = now_ms() - start;
        int64_t wait = elapsed < first ? first - elapsed : REDRAW_MS;
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += wait / 1000;
        until.tv_nsec += (long)(wait % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->cv, &p->mu, &until);
        if (p->stop || now_ms() - start < first) continue;
        hudi_statement_progress pr;
        hudi_session_progress(p->session, &pr);
        if (pr.phase == HUDI_PROGRESS_NONE) continue;
        draw(&pr, now_ms() - start);
        drawn = true;
    }
    if (drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

void sql_progress_start(sql_progress *p, hudi_session *s) {
    memset(p, 0, sizeof(*p));
    if (!isatty(STDERR_FILENO)) return;
    p->session = s;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&p->cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&p->mu, NULL);
    /* Ctrl-C must reach the main thread, which cancels the statement */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    p->running = pthread_create(&p->thread, NULL, watch, p) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!p->running) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
    }
}

void sql_progress_stop(sql_progress *p) {
    if (!p->running) return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    p->running = false;
}
