/* Following a recording while it is written (follow.h): a writer's lines
 * as they are flushed, plain and gzip; the end; garbage, a cut line and a
 * restarted writer on a pipe; a writer that restarts the file; and the
 * engine playing the configuration that grows, while lines are added
 * (under TSan, the lock between the two threads). */
#define _DEFAULT_SOURCE      /* mkstemps */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "testutil.h"

#include "gputui/engine/engine.h"
#include "experiments/transfer/transfer.h"
#include "gputui/record/follow.h"
#include "gputui/record/record.h"
#include "gputui/record/replay.h"
#include "gputui/experiments/registry.h"

static char path[64], partial[80];

static void temp_path(const char *suffix)
{
    snprintf(path, sizeof path, "/tmp/gputui-follow-XXXXXX%s", suffix);
    close(mkstemps(path, (int)strlen(suffix)));
    unlink(path);
    snprintf(partial, sizeof partial, "%s.partial", path);
}

static void props(gt_devprops *p)
{
    gt_devprops_init(p);
    snprintf(p->name, sizeof p->name, "Test GPU");
    gt_devprops_derive(p);
}

static gt_recorder *writer(bool force)
{
    gt_recorder *w;
    gt_devprops p;
    gt_err err = {0};

    props(&p);
    assert_int_equal(gt_recorder_open(&w, path, force, &p, &err), 0);
    return w;
}

static void config(gt_recorder *w, uint32_t gen, int64_t size)
{
    int64_t v[GT_MAX_PARAMS];

    gt_experiment_defaults(&gt_exp_transfer, v);
    v[GT_TR_SIZE] = size;
    gt_recorder_config(w, &gt_exp_transfer, v, gen, NULL, NULL, NULL);
}

static void sample(gt_recorder *w, uint32_t gen)
{
    gt_sample s = {gen, 0, GT_V_FULL, 1e-3, 64ull << 20};
    gt_recorder_sample(w, &s);
}

static bool has_msg(gt_follow *f, const char *part)
{
    char msg[700];
    bool err;

    return gt_follow_take_msg(f, msg, sizeof msg, &err) && strstr(msg, part);
}

static void follow_a_writer(void **state)
{
    static const char *const sfx[] = {"", ".gz"};
    (void)state;
    for (int k = 0; k < 2; k++) {
        gt_recording rec;
        gt_follow *f;
        gt_recorder *w;
        gt_err err = {0};
        char status[300];
        temp_path(sfx[k]);
        /* Before the writer: the follower waits, and says for what. */
        assert_int_equal(gt_follow_open(&f, path, &rec, &err), 0);
        assert_false(gt_follow_poll(f));
        assert_non_null(strstr(gt_follow_status(f, gt_now(), status, sizeof status),
                               "waiting for"));
        w = writer(false);
        config(w, 1, 64 << 20);
        sample(w, 1);               /* a configuration's first sample is flushed at once */
        assert_true(gt_follow_poll(f));
        assert_int_equal(rec.ncfg, 1);
        assert_int_equal(rec.cfg[0].n, 1);
        assert_non_null(strstr(gt_follow_status(f, gt_now(), status, sizeof status),
                               "following: last sample under 1 s ago"));
        for (int i = 0; i < 3; i++)
            sample(w, 1);
        gt_recorder_tick(w);        /* too soon: not flushed yet */
        usleep(600 * 1000);
        gt_recorder_tick(w);
        gt_follow_poll(f);
        assert_int_equal(rec.cfg[0].n, 4);
        config(w, 2, 4 << 20);
        sample(w, 2);
        gt_follow_poll(f);
        assert_int_equal(rec.ncfg, 2);
        assert_int_equal(rec.cfg[1].gen, 2);
        assert_false(gt_follow_stopped(f));
        assert_int_equal(gt_recorder_close(w, &err), 0);     /* the end line, the rename */
        gt_follow_poll(f);
        assert_true(rec.ended);
        assert_true(gt_follow_stopped(f));
        assert_non_null(strstr(gt_follow_status(f, gt_now(), status, sizeof status),
                               "the recording ended"));
        gt_follow_close(f);
        gt_recording_free(&rec);
        unlink(path);
    }
}

/* The whole text of a recording a writer made: a header, configuration
 * 1 of 64 MiB with two samples. */
static char *one_recording(size_t *len)
{
    gt_recorder *w;
    gt_err err = {0};
    FILE *in;
    char *text = calloc(1, 1 << 16);

    temp_path("");
    w = writer(false);
    config(w, 1, 64 << 20);
    sample(w, 1);
    sample(w, 1);
    gt_recorder_tick(w);
    assert_int_equal(gt_recorder_close(w, &err), 0);
    in = fopen(path, "r");
    *len = fread(text, 1, (1 << 16) - 1, in);
    fclose(in);
    unlink(path);
    text[*len] = '\0';
    /* without its "end" line: the writer is still at work */
    *strstr(text, "{\"type\":\"end\"") = '\0';
    *len = strlen(text);
    return text;
}

static void follow_a_pipe(void **state)
{
    gt_recording rec;
    gt_follow *f;
    gt_err err = {0};
    size_t len;
    char *text = one_recording(&len), *cut = strstr(text, "{\"type\":\"sample\"");
    int fds[2], saved = dup(STDIN_FILENO);
    char status[400];
    (void)state;

    assert_int_equal(pipe(fds), 0);
    dup2(fds[0], STDIN_FILENO);
    close(fds[0]);
    assert_int_equal(gt_follow_open(&f, "-", &rec, &err), 0);
    dup2(saved, STDIN_FILENO);
    close(saved);
    assert_true(write(fds[1], text, len) == (ssize_t)len);
    gt_follow_poll(f);
    assert_int_equal(rec.ncfg, 1);
    assert_int_equal(rec.cfg[0].n, 2);
    /* Garbage on the pipe: said, skipped, and following goes on. */
    assert_true(write(fds[1], "\x01garbage\n", 9) == 9);
    gt_follow_poll(f);
    assert_true(has_msg(f, "; skipped"));
    assert_false(gt_follow_stopped(f));
    /* A writer cut off in the middle of a sample, restarted: its header
     * comes glued to the cut line; its gen 1 becomes a new one. */
    assert_true(write(fds[1], cut, 20) == 20);
    assert_true(write(fds[1], text, len) == (ssize_t)len);
    gt_follow_poll(f);
    assert_int_equal(rec.ncfg, 2);
    assert_true(rec.cfg[1].gen > rec.cfg[0].gen);
    assert_int_equal(rec.cfg[1].n, 2);
    assert_true(has_msg(f, "restarted"));
    /* The stream closes in the middle of a line, without the end line. */
    assert_true(write(fds[1], cut, 30) == 30);
    close(fds[1]);
    gt_follow_poll(f);
    assert_true(has_msg(f, "cut in the middle of a line"));
    assert_true(gt_follow_stopped(f));
    assert_non_null(strstr(gt_follow_status(f, gt_now(), status, sizeof status),
                           "the stream closed before the recording's end"));
    assert_int_equal(rec.ncfg, 2);      /* what arrived stays */
    gt_follow_close(f);
    gt_recording_free(&rec);
    free(text);
}

static void not_a_recording(void **state)
{
    gt_recording rec;
    gt_follow *f;
    gt_err err = {0};
    FILE *o;
    char status[400];
    (void)state;

    temp_path("");
    o = fopen(path, "w");
    fputs("hello\n", o);
    fclose(o);
    assert_int_equal(gt_follow_open(&f, path, &rec, &err), 0);
    gt_follow_poll(f);
    assert_true(gt_follow_stopped(f));
    assert_non_null(strstr(gt_follow_status(f, gt_now(), status, sizeof status),
                           "not a gputui recording"));
    gt_follow_close(f);
    gt_recording_free(&rec);
    unlink(path);
    /* A folder that does not exist is refused at once. */
    assert_int_equal(gt_follow_open(&f, "/nonexistent-gputui/class.gtr", &rec, &err), -1);
    assert_non_null(strstr(err.msg, "does not exist"));
}

/* A writer killed, and started again with --force: a new FILE.partial. */
static void writer_restarts_the_file(void **state)
{
    gt_recording rec;
    gt_follow *f;
    gt_recorder *w;
    gt_err err = {0};
    (void)state;

    temp_path("");
    pid_t pid = fork();
    if (pid == 0) {     /* killed after its first sample: PATH.partial stays */
        w = writer(false);
        config(w, 1, 64 << 20);
        sample(w, 1);
        _exit(0);
    }
    assert_int_equal(waitpid(pid, NULL, 0), pid);
    assert_int_equal(gt_follow_open(&f, partial, &rec, &err), 0);   /* either name */
    gt_follow_poll(f);
    assert_int_equal(rec.ncfg, 1);
    w = writer(true);
    config(w, 1, 4 << 20);
    sample(w, 1);
    gt_follow_poll(f);
    gt_follow_poll(f);
    assert_int_equal(rec.ncfg, 2);
    assert_int_equal(rec.cfg[1].vals[GT_TR_SIZE], 4 << 20);
    assert_true(rec.cfg[1].gen > rec.cfg[0].gen);
    assert_int_equal(gt_recorder_close(w, &err), 0);
    gt_follow_poll(f);
    assert_true(rec.ended);
    gt_follow_close(f);
    gt_recording_free(&rec);
    unlink(path);
}

/* The engine plays the configuration being written as its samples come,
 * from its own thread, while this one adds lines. */
static void engine_plays_what_arrives(void **state)
{
    gt_recording rec;
    gt_follow *f;
    gt_recorder *w;
    gt_engine *e;
    gt_err err = {0};
    gt_sample buf[64];
    size_t got = 0;
    (void)state;

    temp_path("");
    w = writer(false);
    config(w, 1, 64 << 20);
    sample(w, 1);
    assert_int_equal(gt_follow_open(&f, path, &rec, &err), 0);
    gt_follow_poll(f);
    assert_int_equal(gt_engine_start(&e, gt_replay_backend(&rec), 0, &err), 0);
    gt_engine_configure(e, rec.cfg[0].exp, rec.cfg[0].vals);
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < 20; i++)
            sample(w, 1);
        usleep(30 * 1000);
        if (round % 10 == 9) {
            usleep(500 * 1000);
            gt_recorder_tick(w);
        }
        gt_follow_poll(f);
        size_t n;
        while ((n = gt_engine_drain(e, buf, 64)) > 0)
            got += n;
    }
    for (int i = 0; i < 100 && got < rec.cfg[0].n; i++) {
        size_t n;
        usleep(10 * 1000);
        while ((n = gt_engine_drain(e, buf, 64)) > 0)
            got += n;
    }
    /* each sample once, as it arrived: no pass played again yet */
    assert_true(rec.cfg[0].n >= 700);
    assert_int_equal(got, rec.cfg[0].n);
    gt_engine_stop(e);
    assert_int_equal(gt_recorder_close(w, &err), 0);
    gt_follow_close(f);
    gt_recording_free(&rec);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(follow_a_writer), cmocka_unit_test(follow_a_pipe),
        cmocka_unit_test(not_a_recording), cmocka_unit_test(writer_restarts_the_file),
        cmocka_unit_test(engine_plays_what_arrives),
    };
    return cmocka_run_group_tests_name("follow", tests, NULL, NULL);
}
