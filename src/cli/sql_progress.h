/* sql_progress.h - the progress line of `hudic sql`: while a statement runs longer than a
 * second and stderr is a terminal, a thread redraws one line on stderr ten times a second from
 * hudi_session_progress (a bar over the base files of a scan or the file groups of a write,
 * the rows and the time taken), and erases it before the statement's output or its end. */
#ifndef HUDIC_SQL_PROGRESS_H
#define HUDIC_SQL_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>

#include "hudi/hudi_sql.h"

typedef struct sql_progress {
    hudi_session *session;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool running; /* the thread exists */
    bool stop;    /* asks it to erase its line and end */
} sql_progress;

/* Starts watching the statement about to run in `s`; does nothing unless stderr is a
 * terminal. */
void sql_progress_start(sql_progress *p, hudi_session *s);
/* Erases the line and ends the thread; safe to call twice and when never started. */
void sql_progress_stop(sql_progress *p);

#endif
