/* storage_test.c - the local, memory and fault-injecting backends behave alike. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "storage/storage.h"
#include "support.h"

static void exercise(hudi_fs *fs, const char *root) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf p = HUDI_BUF_INIT, q = HUDI_BUF_INIT, data = HUDI_BUF_INIT;
    hudi_buf_printf(&p, "%s/a/b", root);
    cr_assert_eq(hudi_fs_mkdirs(fs, p.data, &err), 0, "%s", err.message);
    hudi_buf_puts(&p, "/f.bin");
    cr_assert_eq(hudi_fs_write_all(fs, p.data, HUDI_CREATE_EXCLUSIVE, "hello world", 11, &err), 0,
                 "%s", err.message);
    cr_assert_eq(hudi_fs_write_all(fs, p.data, HUDI_CREATE_EXCLUSIVE, "x", 1, &err), HUDI_EEXISTS);
    hudi_file *f = NULL;
    cr_assert_eq(hudi_fs_open(fs, p.data, &f, &err), 0);
    cr_assert_eq(f->size_bytes, 11);
    char got[6] = {0};
    cr_assert_eq(hudi_file_read_at(f, 6, got, 5, &err), 0);
    cr_assert_str_eq(got, "world");
    cr_assert_eq(hudi_file_read_at(f, 8, got, 5, &err), HUDI_ECORRUPT);
    /* overwrite while open: the reader keeps seeing a consistent file */
    cr_assert_eq(hudi_fs_write_all(fs, p.data, HUDI_CREATE_OVERWRITE, "HELLO", 5, &err), 0);
    hudi_file_close(f);
    cr_assert_eq(hudi_fs_read_all(fs, p.data, &data, &err), 0);
    cr_assert_str_eq(data.data, "HELLO");

    /* an aborted writer leaves nothing behind */
    hudi_buf_printf(&q, "%s/a/b/g.bin", root);
    hudi_writer *w = NULL;
    cr_assert_eq(hudi_fs_create(fs, q.data, HUDI_CREATE_OVERWRITE, &w, &err), 0);
    hudi_writer_write(w, "zz", 2, &err);
    hudi_writer_abort(w);
    cr_assert_not(hudi_fs_exists(fs, q.data));

    hudi_buf_clear(&q);
    hudi_buf_printf(&q, "%s/a/b", root);
    hudi_dir_listing l;
    cr_assert_eq(hudi_fs_list(fs, q.data, &l, &err), 0, "%s", err.message);
    cr_assert_eq(l.count, 1);
    cr_assert_str_eq(l.entries[0].name, "f.bin");
    cr_assert_eq(l.entries[0].size_bytes, 5);
    hudi_dir_listing_dispose(&l);

    hudi_buf_clear(&q);
    hudi_buf_printf(&q, "%s/a/renamed", root);
    cr_assert_eq(hudi_fs_rename(fs, p.data, q.data, &err), 0);
    cr_assert_not(hudi_fs_exists(fs, p.data));
    cr_assert_eq(hudi_fs_remove(fs, q.data, &err), 0);
    cr_assert_eq(hudi_fs_open(fs, q.data, &f, &err), HUDI_ENOTFOUND);
    cr_assert_null(f);
    hudi_buf_dispose(&p);
    hudi_buf_dispose(&q);
    hudi_buf_dispose(&data);
}

Test(storage, local_backend) {
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    exercise(fs, test_tmpdir());
    hudi_fs_free(fs);
}

Test(storage, memory_backend) {
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_memory_new(&fs, NULL), 0);
    exercise(fs, "/mem");
    hudi_fs_free(fs);
}

Test(storage, faulty_fails_every_call_once) {
    /* Run the same workload failing call 1, 2, ...: each run ends in a clean error and no
     * run publishes a partial file. */
    for (int64_t n = 1; n < 40; n++) {
        hudi_fs *mem = NULL, *fs = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        hudi_fs_memory_new(&mem, NULL);
        hudi_fs_faulty_new(&fs, mem, (hudi_fault_plan){n, -1, true}, NULL);
        int rc = hudi_fs_mkdirs(fs, "/t", &err);
        if (rc == 0) rc = hudi_fs_write_all(fs, "/t/x", HUDI_CREATE_EXCLUSIVE, "abcdef", 6, &err);
        if (rc == 0) rc = hudi_fs_rename(fs, "/t/x", "/t/y", &err);
        if (hudi_fs_faulty_tripped(fs)) {
            cr_assert_lt(rc, 0);
            cr_assert_eq(err.code, HUDI_EIO);
            cr_assert(strstr(err.message, "injected fault") != NULL);
            hudi_buf b = HUDI_BUF_INIT;
            if (hudi_fs_read_all(mem, "/t/x", &b, NULL) == 0) cr_assert_str_eq(b.data, "abcdef");
            hudi_buf_dispose(&b);
        } else {
            cr_assert_eq(rc, 0);
        }
        hudi_fs_free(fs);
        hudi_fs_free(mem);
    }
}

Test(storage, faulty_short_write) {
    hudi_fs *mem = NULL, *fs = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    hudi_fs_memory_new(&mem, NULL);
    hudi_fs_faulty_new(&fs, mem, (hudi_fault_plan){0, 4, false}, NULL);
    cr_assert_eq(hudi_fs_write_all(fs, "/f", HUDI_CREATE_OVERWRITE, "abcdefgh", 8, &err), HUDI_EIO);
    cr_assert_not(hudi_fs_exists(mem, "/f"));
    hudi_fs_free(fs);
    hudi_fs_free(mem);
}

/* Process-bound locks: the file appears already locked; a second lock on it is refused while
 * held and granted once released (a process's death releases it the same way); the lock
 * follows the file, not the name. */
static void exercise_locks(hudi_fs *fs, const char *root) {
    hudi_error err = HUDI_ERROR_INIT;
    hudi_buf p = HUDI_BUF_INIT;
    hudi_fs_lock *a = NULL, *b = NULL;
    hudi_buf_printf(&p, "%s/locks", root);
    cr_assert_eq(hudi_fs_mkdirs(fs, p.data, &err), 0, "%s", err.message);
    hudi_buf_puts(&p, "/lock");
    cr_assert_eq(hudi_fs_lock_file(fs, p.data, &b, &err), HUDI_ENOTFOUND);
    cr_assert_eq(hudi_fs_create_locked(fs, p.data, "owner", 5, &a, &err), 0, "%s", err.message);
    cr_assert_not_null(a);
    cr_assert_eq(hudi_fs_create_locked(fs, p.data, "other", 5, &b, &err), HUDI_EEXISTS);
    cr_assert_null(b);
    hudi_buf got = HUDI_BUF_INIT;
    cr_assert_eq(hudi_fs_read_all(fs, p.data, &got, &err), 0);
    cr_assert_str_eq(got.data, "owner");
    cr_assert_eq(hudi_fs_lock_file(fs, p.data, &b, &err), HUDI_ECONFLICT);
    cr_assert_null(b);
    hudi_fs_lock_release(a);
    cr_assert_eq(hudi_fs_lock_file(fs, p.data, &b, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_fs_lock_file(fs, p.data, &a, &err), HUDI_ECONFLICT);
    /* removed and created again: a new file, not locked by the old holder */
    cr_assert_eq(hudi_fs_remove(fs, p.data, &err), 0);
    cr_assert_eq(hudi_fs_create_locked(fs, p.data, "third", 5, &a, &err), 0, "%s", err.message);
    hudi_fs_lock_release(b);
    cr_assert_eq(hudi_fs_lock_file(fs, p.data, &b, &err), HUDI_ECONFLICT);
    hudi_fs_lock_release(a);
    /* touch: the modification time moves to now */
    hudi_stat st;
    cr_assert_eq(hudi_fs_stat(fs, p.data, &st, &err), 0);
    int64_t before = st.mtime_ms;
    hudi_os_sleep_ms(20);
    cr_assert_eq(hudi_fs_touch(fs, p.data, &err), 0, "%s", err.message);
    cr_assert_eq(hudi_fs_stat(fs, p.data, &st, &err), 0);
    cr_assert_gt(st.mtime_ms, before);
    cr_assert_leq(st.mtime_ms, hudi_os_now_ms());
    cr_assert_geq(st.mtime_ms, hudi_os_now_ms() - 5000);
    hudi_buf_dispose(&got);
    hudi_buf_dispose(&p);
}

Test(storage, local_locks) {
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    exercise_locks(fs, test_tmpdir());
    hudi_fs_free(fs);
}

Test(storage, memory_locks) {
    hudi_fs *fs = NULL;
    cr_assert_eq(hudi_fs_memory_new(&fs, NULL), 0);
    exercise_locks(fs, "/mem");
    hudi_fs_free(fs);
}

Test(storage, local_lock_dies_with_process) {
    hudi_fs *fs = NULL;
    hudi_error err = HUDI_ERROR_INIT;
    char path[1100];
    cr_assert_eq(hudi_fs_local_new(&fs, NULL), 0);
    snprintf(path, sizeof(path), "%s/lock", test_tmpdir());
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) { /* child: take the lock, report, wait to be killed */
        hudi_fs_lock *l = NULL;
        char ok = hudi_fs_create_locked(fs, path, "x", 1, &l, NULL) == 0 ? 'y' : 'n';
        if (write(fds[1], &ok, 1) != 1) _exit(1);
        for (;;) pause();
    }
    char ok = 0;
    cr_assert_eq(read(fds[0], &ok, 1), 1);
    cr_assert_eq(ok, 'y');
    hudi_fs_lock *l = NULL;
    cr_assert_eq(hudi_fs_lock_file(fs, path, &l, &err), HUDI_ECONFLICT);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    cr_assert_eq(hudi_fs_lock_file(fs, path, &l, &err), 0, "%s", err.message);
    hudi_fs_lock_release(l);
    close(fds[0]);
    close(fds[1]);
    hudi_fs_free(fs);
}

Test(storage, faulty_lock_calls) {
    /* create_locked, lock_file and touch are calls the faulty backend counts and fails. */
    for (int64_t n = 1; n <= 3; n++) {
        hudi_fs *mem = NULL, *fs = NULL;
        hudi_error err = HUDI_ERROR_INIT;
        hudi_fs_lock *l = NULL;
        hudi_fs_memory_new(&mem, NULL);
        hudi_fs_faulty_new(&fs, mem, (hudi_fault_plan){n, -1, false}, NULL);
        int r1 = hudi_fs_create_locked(fs, "/l", "x", 1, &l, &err);
        hudi_fs_lock_release(l);
        l = NULL;
        int r2 = hudi_fs_lock_file(fs, "/l", &l, &err);
        hudi_fs_lock_release(l);
        int r3 = hudi_fs_touch(fs, "/l", &err);
        cr_assert_eq(r1, n == 1 ? HUDI_EIO : 0);
        cr_assert_eq(r2, n == 2 ? HUDI_EIO : n == 1 ? HUDI_ENOTFOUND : 0);
        cr_assert_eq(r3, n == 3 ? HUDI_EIO : n == 1 ? HUDI_ENOTFOUND : 0);
        cr_assert_eq(hudi_fs_exists(mem, "/l"), n != 1);
        hudi_fs_free(fs);
        hudi_fs_free(mem);
    }
}
