/* instant.c - instants: timeline file names (docs/formats/timeline.md §2; layout 2 in
 * §3), ordering (§5) and new instant times (§1).
 *
 * File names: layout 1 keeps every file in .hoodie/ as <t>.<action> (completed),
 * <t>.<action>.requested, <t>.<action>.inflight, with the historical <t>.inflight for commit.
 * Layout 2 keeps them in .hoodie/timeline/ and names completed instants
 * <t>_<completion>.<action>; pending names are as in layout 1 (verified on the v8/v9 tables).
 * A layout-2 completed name without "_<completion>" is accepted too (completion unknown).
 * Invariant: an instant's `file` is exactly the name on storage, so deleting it never
 * depends on re-deriving the name. */
#include <stdio.h>
#include <time.h>

#include "table/table.h"

static const char *const ACTION_NAMES[HUDI_ACTION_COUNT_] = {
    [HUDI_ACTION_COMMIT] = "commit",
    [HUDI_ACTION_DELTACOMMIT] = "deltacommit",
    [HUDI_ACTION_REPLACECOMMIT] = "replacecommit",
    [HUDI_ACTION_COMPACTION] = "compaction",
    [HUDI_ACTION_LOGCOMPACTION] = "logcompaction",
    [HUDI_ACTION_CLUSTERING] = "clustering",
    [HUDI_ACTION_CLEAN] = "clean",
    [HUDI_ACTION_ROLLBACK] = "rollback",
    [HUDI_ACTION_SAVEPOINT] = "savepoint",
    [HUDI_ACTION_RESTORE] = "restore",
    [HUDI_ACTION_INDEXING] = "indexing",
    [HUDI_ACTION_SCHEMACOMMIT] = "schemacommit",
};

const char *hudi_action_name(hudi_action a) {
    return (unsigned)a < HUDI_ACTION_COUNT_ ? ACTION_NAMES[a] : "unknown";
}

int hudi_action_parse(hudi_action *out, const char *name, size_t len) {
    for (int i = 0; i < HUDI_ACTION_COUNT_; i++) {
        if (strlen(ACTION_NAMES[i]) == len && memcmp(ACTION_NAMES[i], name, len) == 0) {
            *out = (hudi_action)i;
            return 0;
        }
    }
    return HUDI_ENOTFOUND;
}

const char *hudi_state_name(hudi_state s) {
    switch (s) {
    case HUDI_STATE_REQUESTED: return "REQUESTED";
    case HUDI_STATE_INFLIGHT: return "INFLIGHT";
    case HUDI_STATE_COMPLETED: return "COMPLETED";
    }
    return "UNKNOWN";
}

bool hudi_instant_time_valid(const char *s, size_t len) {
    if (len == 0 || len >= HUDI_INSTANT_TIME_MAX) return false;
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

static size_t digits(const char *s) {
    size_t n = 0;
    while (s[n] >= '0' && s[n] <= '9') n++;
    return n;
}

/* ---- names -------------------------------------------------------------------------------- */

int hudi_instant_parse(hudi_instant *out, const char *name, int layout, hudi_error *err) {
    hudi_instant in;
    memset(&in, 0, sizeof(in));
    size_t name_len = strlen(name);
    if (name_len >= HUDI_INSTANT_FILE_MAX) return HUDI_ENOTFOUND;
    size_t t = digits(name);
    if (!hudi_instant_time_valid(name, t)) return HUDI_ENOTFOUND;
    memcpy(in.time, name, t);
    const char *rest = name + t;
    if (*rest == '_') {
        /* <requested>_<completion>.<action>: layout 2 completed instants only. */
        size_t c = digits(rest + 1);
        if (layout != 2 || !hudi_instant_time_valid(rest + 1, c)) return HUDI_ENOTFOUND;
        memcpy(in.completion, rest + 1, c);
        rest += 1 + c;
    }
    if (*rest != '.') return HUDI_ENOTFOUND;
    rest++;
    const char *dot = strchr(rest, '.');
    size_t alen = dot ? (size_t)(dot - rest) : strlen(rest);
    in.state = HUDI_STATE_COMPLETED;
    if (!dot && strcmp(rest, "inflight") == 0) {
        /* The historical name of an inflight commit. */
        in.action = HUDI_ACTION_COMMIT;
        in.state = HUDI_STATE_INFLIGHT;
    } else {
        if (hudi_action_parse(&in.action, rest, alen) < 0) return HUDI_ENOTFOUND;
        if (dot) {
            if (strcmp(dot + 1, "requested") == 0)
                in.state = HUDI_STATE_REQUESTED;
            else if (strcmp(dot + 1, "inflight") == 0)
                in.state = HUDI_STATE_INFLIGHT;
            else
                return HUDI_ENOTFOUND;
        }
    }
    if (in.completion[0] && in.state != HUDI_STATE_COMPLETED) return HUDI_ENOTFOUND;
    memcpy(in.file, name, name_len + 1);
    *out = in;
    HUDI_UNUSED(err);
    return 0;
}

int hudi_instant_format(hudi_instant *in, int layout, hudi_error *err) {
    const char *action = hudi_action_name(in->action);
    int n;
    if (!hudi_instant_time_valid(in->time, strlen(in->time)) ||
        (unsigned)in->action >= HUDI_ACTION_COUNT_)
        return hudi_error_set(err, HUDI_EINVAL, "invalid instant %s", in->time);
    if (layout != 1 && layout != 2)
        return hudi_error_set(err, HUDI_EINVAL, "timeline layout %d is not 1 or 2", layout);
    switch (in->state) {
    case HUDI_STATE_REQUESTED:
        n = snprintf(in->file, sizeof(in->file), "%s.%s.requested", in->time, action);
        break;
    case HUDI_STATE_INFLIGHT:
        n = in->action == HUDI_ACTION_COMMIT
                ? snprintf(in->file, sizeof(in->file), "%s.inflight", in->time)
                : snprintf(in->file, sizeof(in->file), "%s.%s.inflight", in->time, action);
        break;
    case HUDI_STATE_COMPLETED:
        if (layout == 2 && in->completion[0]) {
            if (!hudi_instant_time_valid(in->completion, strlen(in->completion)))
                return hudi_error_set(err, HUDI_EINVAL, "instant %s: invalid completion time",
                                      in->time);
            n = snprintf(in->file, sizeof(in->file), "%s_%s.%s", in->time, in->completion, action);
        } else {
            /* Layout 2 readers also accept a completed name without completion time. */
            n = snprintf(in->file, sizeof(in->file), "%s.%s", in->time, action);
        }
        break;
    default: return hudi_error_set(err, HUDI_EINVAL, "instant %s: invalid state", in->time);
    }
    if (n < 0 || (size_t)n >= sizeof(in->file))
        return hudi_error_set(err, HUDI_EINVAL, "instant %s: file name too long", in->time);
    return 0;
}

int hudi_instant_make(hudi_instant *out, const char *time, hudi_action action, hudi_state state,
                      const char *completion, int layout, hudi_error *err) {
    memset(out, 0, sizeof(*out));
    size_t tl = strlen(time), cl = completion ? strlen(completion) : 0;
    if (!hudi_instant_time_valid(time, tl))
        return hudi_error_set(err, HUDI_EINVAL, "invalid instant time '%s'", time);
    if (cl && !hudi_instant_time_valid(completion, cl))
        return hudi_error_set(err, HUDI_EINVAL, "invalid completion time '%s'", completion);
    memcpy(out->time, time, tl);
    if (cl && state == HUDI_STATE_COMPLETED && layout == 2) memcpy(out->completion, completion, cl);
    out->action = action;
    out->state = state;
    return hudi_instant_format(out, layout, err);
}

/* ---- ordering ------------------------------------------------------------------------------- */

int hudi_instant_time_cmp(const char *a, const char *b) {
    int c = strcmp(a, b);
    return (c > 0) - (c < 0);
}

/* Pending table services sort with the action they complete as (Hudi's COMPARABLE_ACTIONS). */
static hudi_action comparable_action(hudi_action a) {
    switch (a) {
    case HUDI_ACTION_COMPACTION: return HUDI_ACTION_COMMIT;
    case HUDI_ACTION_LOGCOMPACTION: return HUDI_ACTION_DELTACOMMIT;
    case HUDI_ACTION_CLUSTERING: return HUDI_ACTION_REPLACECOMMIT;
    default: return a;
    }
}

int hudi_instant_cmp(const hudi_instant *a, const hudi_instant *b) {
    int c = hudi_instant_time_cmp(a->time, b->time);
    if (c) return c;
    c = strcmp(hudi_action_name(comparable_action(a->action)),
               hudi_action_name(comparable_action(b->action)));
    if (c) return (c > 0) - (c < 0);
    if (a->state != b->state) return a->state < b->state ? -1 : 1;
    /* compaction.inflight before its commit: same comparable action, so order by raw action
     * only to keep the sort total. */
    return (a->action > b->action) - (a->action < b->action);
}

/* ---- instant time generation ---------------------------------------------------------------- */

int hudi_instant_time_from_ms(char out[HUDI_INSTANT_TIME_MAX], int64_t epoch_ms, bool utc,
                              hudi_error *err) {
    int64_t secs = epoch_ms / 1000, ms = epoch_ms % 1000;
    if (ms < 0) ms += 1000, secs--;
    time_t t = (time_t)secs;
    struct tm tm;
    if (!(utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) || tm.tm_year + 1900 > 9999 ||
        tm.tm_year + 1900 < 0)
        return hudi_error_set(err, HUDI_EINVAL, "time %lld ms cannot be an instant time",
                              (long long)epoch_ms);
    /* Every field is in range here (17 digits); the check keeps gcc's -Wformat-truncation,
     * which cannot see the ranges, satisfied. */
    int n = snprintf(out, HUDI_INSTANT_TIME_MAX, "%04d%02d%02d%02d%02d%02d%03d", tm.tm_year + 1900,
                     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)ms);
    if (n < 0 || n >= HUDI_INSTANT_TIME_MAX)
        return hudi_error_set(err, HUDI_EINVAL, "time %lld ms cannot be an instant time",
                              (long long)epoch_ms);
    return 0;
}

static int field(const char *s, int n) {
    int v = 0;
    for (int i = 0; i < n; i++) v = v * 10 + (s[i] - '0');
    return v;
}

/* `last` (padded or cut to 17 digits) plus one millisecond, as wall-clock arithmetic. */
static int next_after(char out[HUDI_INSTANT_TIME_MAX], const char *last, hudi_error *err) {
    char t[18];
    size_t n = strlen(last);
    memset(t, '0', 17);
    memcpy(t, last, HUDI_MIN(n, (size_t)17));
    t[17] = 0;
    struct tm tm;
    memset(&tm, 0, sizeof(tm));
    tm.tm_year = field(t, 4) - 1900;
    tm.tm_mon = field(t + 4, 2) - 1;
    tm.tm_mday = field(t + 6, 2);
    tm.tm_hour = field(t + 8, 2);
    tm.tm_min = field(t + 10, 2);
    tm.tm_sec = field(t + 12, 2);
    int ms = field(t + 14, 3);
    if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
        tm.tm_min > 59 || tm.tm_sec > 60)
        return hudi_error_set(err, HUDI_EINVAL, "'%s' is not a valid instant time", last);
    /* timegm treats the fields as UTC, which is plain calendar arithmetic on the wall clock:
     * no DST jumps, whatever zone the instant was written in. */
    int64_t epoch_ms = (int64_t)timegm(&tm) * 1000 + ms + 1;
    return hudi_instant_time_from_ms(out, epoch_ms, true, err);
}

int hudi_instant_time_new(char out[HUDI_INSTANT_TIME_MAX], const hudi_clock *clock, bool utc,
                          const char *last, hudi_error *err) {
    int rc = hudi_instant_time_from_ms(out, hudi_clock_now_ms(clock), utc, err);
    if (rc < 0 || !last || !*last) return rc;
    if (!hudi_instant_time_valid(last, strlen(last)))
        return hudi_error_set(err, HUDI_EINVAL, "'%s' is not a valid instant time", last);
    if (strcmp(out, last) > 0) return 0;
    return next_after(out, last, err);
}
