/* instant_test.c - instant file names (layouts 1 and 2), ordering and instant time generation. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "table/table.h"

static hudi_instant parse_ok(const char *name, int layout) {
    hudi_instant in;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_instant_parse(&in, name, layout, &err), 0, "%s", name);
    cr_assert_str_eq(in.file, name);
    return in;
}

static void check(const char *name, int layout, const char *time, hudi_action action,
                  hudi_state state, const char *completion) {
    hudi_instant in = parse_ok(name, layout);
    cr_assert_str_eq(in.time, time, "%s", name);
    cr_assert_eq(in.action, action, "%s", name);
    cr_assert_eq(in.state, state, "%s", name);
    cr_assert_str_eq(in.completion, completion, "%s", name);
    /* formatting gives the same name back */
    hudi_instant f;
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_instant_make(&f, time, action, state, completion, layout, &err), 0, "%s",
                 err.message);
    cr_assert_str_eq(f.file, name);
}

Test(instant, layout1_names) {
    check("20240418172802262.commit.requested", 1, "20240418172802262", HUDI_ACTION_COMMIT,
          HUDI_STATE_REQUESTED, "");
    check("20240418172802262.inflight", 1, "20240418172802262", HUDI_ACTION_COMMIT,
          HUDI_STATE_INFLIGHT, "");
    check("20240418172802262.commit", 1, "20240418172802262", HUDI_ACTION_COMMIT,
          HUDI_STATE_COMPLETED, "");
    check("20250331030645735.deltacommit.inflight", 1, "20250331030645735", HUDI_ACTION_DELTACOMMIT,
          HUDI_STATE_INFLIGHT, "");
    check("20240707001303088.replacecommit.requested", 1, "20240707001303088",
          HUDI_ACTION_REPLACECOMMIT, HUDI_STATE_REQUESTED, "");
    check("20250126040936578.rollback.inflight", 1, "20250126040936578", HUDI_ACTION_ROLLBACK,
          HUDI_STATE_INFLIGHT, "");
    check("20250126040936578.rollback", 1, "20250126040936578", HUDI_ACTION_ROLLBACK,
          HUDI_STATE_COMPLETED, "");
    check("20240101000000000.compaction.requested", 1, "20240101000000000", HUDI_ACTION_COMPACTION,
          HUDI_STATE_REQUESTED, "");
    check("20240101000000000.clean", 1, "20240101000000000", HUDI_ACTION_CLEAN,
          HUDI_STATE_COMPLETED, "");
    check("20240101000000000.savepoint.inflight", 1, "20240101000000000", HUDI_ACTION_SAVEPOINT,
          HUDI_STATE_INFLIGHT, "");
    check("00000000000000.deltacommit", 1, "00000000000000", HUDI_ACTION_DELTACOMMIT,
          HUDI_STATE_COMPLETED, ""); /* 14 digits (old/MDT init instants) */
    /* the spelled-out commit inflight is understood, and kept as the name on disk */
    hudi_instant in = parse_ok("20240101000000000.commit.inflight", 1);
    cr_assert_eq(in.state, HUDI_STATE_INFLIGHT);
    cr_assert_eq(in.action, HUDI_ACTION_COMMIT);
}

Test(instant, layout2_names) {
    check("20250713011315930_20250713011316231.commit", 2, "20250713011315930", HUDI_ACTION_COMMIT,
          HUDI_STATE_COMPLETED, "20250713011316231");
    check("20250713011316909.commit.requested", 2, "20250713011316909", HUDI_ACTION_COMMIT,
          HUDI_STATE_REQUESTED, "");
    check("20250713011316909.inflight", 2, "20250713011316909", HUDI_ACTION_COMMIT,
          HUDI_STATE_INFLIGHT, "");
    check("20260307135709297.clustering.requested", 2, "20260307135709297", HUDI_ACTION_CLUSTERING,
          HUDI_STATE_REQUESTED, "");
    check("20260307135709297_20260307135709818.replacecommit", 2, "20260307135709297",
          HUDI_ACTION_REPLACECOMMIT, HUDI_STATE_COMPLETED, "20260307135709818");
    check("20260307162504409_20260307162508702.indexing", 2, "20260307162504409",
          HUDI_ACTION_INDEXING, HUDI_STATE_COMPLETED, "20260307162508702");
}

Test(instant, not_instants) {
    const char *names[] = {"hoodie.properties",
                           ".temp",
                           "archived",
                           "timeline",
                           "",
                           "20240101000000000",
                           "20240101000000000.",
                           ".20240101000000000.commit",
                           "20240101000000000.commit.crc",
                           "20240101000000000.foo",
                           "20240101000000000.commit.requested.x",
                           "2024010100000000a.commit",
                           "20240101000000000_.commit",
                           "20240101000000000_1.commit.requested",
                           "123456789012345678901234567890123.commit",
                           "abc.commit",
                           "20240101000000000.requested",
                           ".hoodie_partition_metadata"};
    hudi_instant in;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        cr_assert_eq(hudi_instant_parse(&in, names[i], 2, NULL), HUDI_ENOTFOUND, "%s", names[i]);
    /* layout 1 has no completion times in names */
    cr_assert_eq(hudi_instant_parse(&in, "1_2.commit", 1, NULL), HUDI_ENOTFOUND);
    hudi_error err = HUDI_ERROR_INIT;
    /* layout 2 without a known completion time: the plain completed name */
    cr_assert_eq(
        hudi_instant_make(&in, "123", HUDI_ACTION_COMMIT, HUDI_STATE_COMPLETED, NULL, 2, &err), 0);
    cr_assert_str_eq(in.file, "123.commit");
    check("20250713011315930.commit", 2, "20250713011315930", HUDI_ACTION_COMMIT,
          HUDI_STATE_COMPLETED, "");
    cr_assert_eq(
        hudi_instant_make(&in, "12x", HUDI_ACTION_COMMIT, HUDI_STATE_COMPLETED, NULL, 1, &err),
        HUDI_EINVAL);
}

Test(instant, ordering) {
    const char *sorted[] = {
        "20240101000000000.commit.requested",
        "20240101000000000.inflight",
        "20240101000000000.commit",
        "20240101000000001.compaction.requested",
        "20240101000000001.compaction.inflight",
        "20240101000000001.commit",
        "20240101000000002.clean.requested",
        "20240101000000002.clean",
        "20240101000000002.deltacommit.requested",
    };
    size_t n = sizeof(sorted) / sizeof(sorted[0]);
    for (size_t i = 0; i < n; i++) {
        hudi_instant a = parse_ok(sorted[i], 1);
        cr_assert_eq(hudi_instant_cmp(&a, &a), 0);
        for (size_t j = i + 1; j < n; j++) {
            hudi_instant b = parse_ok(sorted[j], 1);
            cr_assert_lt(hudi_instant_cmp(&a, &b), 0, "%s < %s", sorted[i], sorted[j]);
            cr_assert_gt(hudi_instant_cmp(&b, &a), 0, "%s > %s", sorted[j], sorted[i]);
        }
    }
    cr_assert_lt(hudi_instant_time_cmp("20240101000000", "20240101000000000"), 0);
    cr_assert_eq(hudi_instant_time_cmp("1", "1"), 0);
}

static int64_t fake_now(void *payload) { return *(int64_t *)payload; }

Test(instant, time_generation_utc) {
    int64_t now = 1713479258493LL; /* 2024-04-18T22:27:38.493Z */
    hudi_clock clock = {fake_now, &now};
    char t[HUDI_INSTANT_TIME_MAX];
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_instant_time_new(t, &clock, true, NULL, &err), 0);
    cr_assert_str_eq(t, "20240418222738493");
    cr_assert_eq(hudi_instant_time_new(t, &clock, true, "20240418222738000", &err), 0);
    cr_assert_str_eq(t, "20240418222738493");
    /* the clock is not ahead of the last instant: last + 1 ms */
    cr_assert_eq(hudi_instant_time_new(t, &clock, true, "20240418222738493", &err), 0);
    cr_assert_str_eq(t, "20240418222738494");
    cr_assert_eq(hudi_instant_time_new(t, &clock, true, "20241231235959999", &err), 0);
    cr_assert_str_eq(t, "20250101000000000");
    cr_assert_eq(hudi_instant_time_new(t, &clock, true, "20280229235959999", &err), 0);
    cr_assert_str_eq(t, "20280301000000000");
    cr_assert_eq(hudi_instant_time_new(t, &clock, true, "20990101000000", &err), 0);
    cr_assert_str_eq(t, "20990101000000001"); /* 14 digits: second precision */
    cr_assert_eq(hudi_instant_time_new(t, &clock, true, "20990101000000000001", &err), 0);
    cr_assert_str_eq(t, "20990101000000001");
    cr_assert_gt(strcmp(t, "20990101000000000001"), 0);
    cr_assert_eq(hudi_instant_time_new(t, &clock, true, "2099x", &err), HUDI_EINVAL);
    cr_assert_eq(hudi_instant_time_new(t, &clock, true, "20991301000000000", &err), HUDI_EINVAL);
}

Test(instant, time_generation_local_zone) {
    setenv("TZ", "America/Chicago", 1);
    tzset();
    int64_t now = 1713479258493LL; /* 17:27:38.493 CDT */
    hudi_clock clock = {fake_now, &now};
    char t[HUDI_INSTANT_TIME_MAX];
    hudi_error err = HUDI_ERROR_INIT;
    cr_assert_eq(hudi_instant_time_new(t, &clock, false, NULL, &err), 0);
    cr_assert_str_eq(t, "20240418172738493");
    cr_assert_eq(hudi_instant_time_new(t, &clock, true, NULL, &err), 0);
    cr_assert_str_eq(t, "20240418222738493");
    setenv("TZ", "UTC", 1);
    tzset();
    /* the system clock gives 17 digits */
    cr_assert_eq(hudi_instant_time_new(t, NULL, false, NULL, &err), 0);
    cr_assert_eq(strlen(t), 17);
    cr_assert(hudi_instant_time_valid(t, 17));
}

Test(instant, names_of_actions_and_states) {
    hudi_action a;
    for (int i = 0; i < HUDI_ACTION_COUNT_; i++) {
        const char *name = hudi_action_name((hudi_action)i);
        cr_assert_eq(hudi_action_parse(&a, name, strlen(name)), 0);
        cr_assert_eq(a, (hudi_action)i);
    }
    cr_assert_eq(hudi_action_parse(&a, "inflight", 8), HUDI_ENOTFOUND);
    cr_assert_str_eq(hudi_state_name(HUDI_STATE_INFLIGHT), "INFLIGHT");
}
