/* Recordings: write, read back, compressed or not, never overwriting, a
 * full disk; find a configuration; replay a recording through the engine
 * and the replay back-end. Every way a file can be wrong is
 * test_record_input.c's. */
#define _DEFAULT_SOURCE      /* mkstemps */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "testutil.h"

#include "gputui/engine/engine.h"
#include "experiments/transfer/transfer.h"
#include "gputui/record/record.h"
#include "gputui/record/replay.h"
#include "gputui/measure/run.h"
#include "gputui/experiments/registry.h"

static char path[64];

/* A fresh temporary file name ending in suffix ("" or ".gz"). */
static void temp_path(const char *suffix)
{
    snprintf(path, sizeof path, "/tmp/gputui-test-XXXXXX%s", suffix);
    close(mkstemps(path, (int)strlen(suffix)));
}

static void props(gt_devprops *p)
{
    gt_devprops_init(p);
    p->ordinal = 0;
    snprintf(p->name, sizeof p->name, "Test GPU");
    gt_dp_set(p, GT_DP_L2, 60ll << 20);
    gt_dp_set(p, GT_DP_PCIE_GEN_MAX, 5);
    gt_dp_set(p, GT_DP_PCIE_WIDTH_MAX, 16);
    gt_devprops_derive(p);
}

/* Two configurations: h2d 64M (3 samples) and bidir 4M (2 x 2 samples). */
static void write_sample_file_as(const char *suffix)
{
    gt_recorder *r;
    gt_devprops p;
    gt_err err;
    gt_setup_info info = {0};
    int64_t v[GT_MAX_PARAMS];

    props(&p);
    gt_err_clear(&err);
    temp_path(suffix);
    assert_int_equal(gt_recorder_open(&r, path, true, &p, &err), 0);
    gt_experiment_defaults(&gt_exp_transfer, v);
    gt_setup_info_time(&info, 0.025, "source: cudaMallocHost 64 MiB");
    snprintf(info.note, sizeof info.note, "every word");
    gt_recorder_config(r, &gt_exp_transfer, v, 1, &info, "NVML PCIe throughput",
                       "pid 4242 nvbandwidth: moving 54.1 GB/s on the link");
    for (int i = 0; i < 3; i++) {
        gt_sample s = {1, 0, GT_V_FULL, 1e-3 * (i + 1), 64ull << 20, i == 1};
        gt_recorder_sample(r, &s);
    }
    v[GT_TR_DIR] = GT_DIR_BIDIR;
    v[GT_TR_SIZE] = 4 << 20;
    gt_recorder_config(r, &gt_exp_transfer, v, 2, NULL, NULL, NULL);
    for (int i = 0; i < 4; i++) {
        gt_sample s = {2, (uint8_t)(i % 2), i == 3 ? GT_V_FAILED : GT_V_SAMPLED, 2e-3, 4 << 20};
        gt_recorder_sample(r, &s);
    }
    gt_recorder_error(r, 2, "cudaErrorIllegalAddress");
    assert_int_equal(gt_recorder_close(r, &err), 0);
}

static void write_sample_file(void)
{
    write_sample_file_as("");
}

/* The file at path holds what write_sample_file_as wrote. */
static void check_sample_file(void)
{
    gt_recording rec;
    gt_err err;

    gt_err_clear(&err);
    assert_int_equal(gt_recording_load(&rec, path, &err), 0);
    assert_int_equal(rec.major, 1);
    assert_string_equal(rec.version, GT_VERSION);
    assert_string_equal(rec.props.name, "Test GPU");
    assert_int_equal(gt_dp_get(&rec.props, GT_DP_L2), 60ll << 20);
    assert_false(gt_dp_ok(&rec.props, GT_DP_SMS));          /* N/A stays N/A */
    assert_int_equal(rec.ncfg, 2);
    assert_int_equal(rec.dropped, 0);
    assert_int_equal(rec.cfg[0].n, 3);
    assert_int_equal(rec.cfg[0].vals[GT_TR_SIZE], 64ll << 20);
    assert_int_equal(rec.cfg[0].info->ntimes, 1);
    assert_near(rec.cfg[0].info->times[0].sec, 0.025, 1e-12);
    assert_string_equal(rec.cfg[0].info->note, "every word");
    assert_near(rec.cfg[0].s[2].sec, 3e-3, 1e-15);
    /* A disturbed sample (the GPU was shared) stays marked. */
    assert_int_equal(rec.cfg[0].s[0].disturbed, 0);
    assert_int_equal(rec.cfg[0].s[1].disturbed, 1);
    assert_int_equal(rec.cfg[1].vals[GT_TR_DIR], GT_DIR_BIDIR);
    assert_int_equal(rec.cfg[1].n, 4);
    assert_int_equal(rec.cfg[1].s[1].series, 1);
    assert_int_equal(rec.cfg[1].s[0].verify, GT_V_SAMPLED);
    assert_int_equal(rec.cfg[1].s[3].verify, GT_V_FAILED);
    assert_string_equal(rec.cfg[1].error, "cudaErrorIllegalAddress");
    assert_string_equal(rec.cut_note, "");
    gt_recording_free(&rec);
}

static void round_trip(void **state)
{
    char head[2048] = "", *t0;
    FILE *f;

    (void)state;
    write_sample_file();
    check_sample_file();
    /* The header's wall clock at t = 0 lines up recordings taken at once. */
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(head, sizeof head, f));
    fclose(f);
    t0 = strstr(head, "\"t0_unix_ns\":");
    assert_non_null(t0);
    assert_true(fabs(strtod(t0 + 13, NULL) * 1e-9 - (double)time(NULL)) < 5.0);
    /* The first configuration keeps the counters and who else was there;
     * the second, given none, keeps no such members. */
    {
        char text[8192] = "";
        f = fopen(path, "r");
        assert_non_null(f);
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
        assert_non_null(strstr(text, "\"counters\":\"NVML PCIe throughput\""));
        assert_non_null(strstr(text, "\"others\":\"pid 4242 nvbandwidth: moving 54.1 GB/s"));
        assert_null(strstr(strstr(text, "\"gen\":2"), "\"counters\""));
    }
    unlink(path);
}

static size_t file_bytes(const char *p, unsigned char *buf, size_t max)
{
    FILE *f = fopen(p, "rb");
    size_t n = f ? fread(buf, 1, max, f) : 0;
    if (f)
        fclose(f);
    return n;
}

static void put_bytes(const char *p, const unsigned char *buf, size_t n)
{
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n, f), n);
    fclose(f);
}

/* A name ending in .gz is written through zlib and reads back the same. */
static void gzip_round_trip(void **state)
{
    unsigned char head[2];
    (void)state;
    write_sample_file_as(".gz");
    assert_int_equal(file_bytes(path, head, 2), 2);
    assert_int_equal(head[0], 0x1f);        /* the gzip magic */
    assert_int_equal(head[1], 0x8b);
    check_sample_file();
    unlink(path);
}

/* A plain recording named .gz reads: the content decides, not the name. */
static void plain_file_named_gz(void **state)
{
    static unsigned char buf[8192];
    size_t n;
    char plain[64];
    (void)state;
    write_sample_file();
    n = file_bytes(path, buf, sizeof buf);
    snprintf(plain, sizeof plain, "%s", path);
    temp_path(".gz");
    put_bytes(path, buf, n);
    check_sample_file();
    unlink(path);
    unlink(plain);
}

/* Many samples through zlib, then the file cut in half: the complete lines
 * before the cut load and the note names the file and the line. */
static void gzip_cut_off(void **state)
{
    static unsigned char buf[1 << 20];
    gt_recorder *r;
    gt_recording rec;
    gt_devprops p;
    gt_err err;
    int64_t v[GT_MAX_PARAMS];
    size_t n;
    (void)state;
    props(&p);
    gt_err_clear(&err);
    temp_path(".gz");
    assert_int_equal(gt_recorder_open(&r, path, true, &p, &err), 0);
    gt_experiment_defaults(&gt_exp_transfer, v);
    gt_recorder_config(r, &gt_exp_transfer, v, 1, NULL, NULL, NULL);
    for (int i = 0; i < 5000; i++) {
        gt_sample s = {1, 0, GT_V_FULL, 1e-3 + 1e-9 * i * i, 64ull << 20};
        gt_recorder_sample(r, &s);
    }
    assert_int_equal(gt_recorder_close(r, &err), 0);
    n = file_bytes(path, buf, sizeof buf);
    assert_true(n > 1000 && n < sizeof buf);
    put_bytes(path, buf, n / 2);
    assert_int_equal(gt_recording_load(&rec, path, &err), 0);
    assert_true(rec.cfg[0].n > 100 && rec.cfg[0].n < 5000);
    assert_non_null(strstr(rec.cut_note, path));
    assert_non_null(strstr(rec.cut_note, "the compressed data ends early"));
    gt_recording_free(&rec);
    /* Corrupt data in the middle of the whole file: an error naming the
     * file and a line. */
    for (size_t i = n / 3; i < n / 3 + 64; i++)
        buf[i] ^= 0x5a;
    put_bytes(path, buf, n);
    gt_err_clear(&err);
    assert_int_equal(gt_recording_load(&rec, path, &err), -1);
    print_message("%s\n", err.msg);
    assert_null(strstr(err.msg, ":1: "));   /* the line is near the damage, not the start */
    assert_non_null(strstr(err.msg, "corrupt compressed data"));
    assert_int_equal(strncmp(err.msg, path, strlen(path)), 0);
    assert_int_equal(err.msg[strlen(path)], ':');
    assert_int_equal(rec.ncfg, 0);
    unlink(path);
}

/* A recording that cannot be opened for writing says which and why. */
static void gzip_unwritable(void **state)
{
    gt_recorder *r;
    gt_devprops p;
    gt_err err;
    (void)state;
    props(&p);
    gt_err_clear(&err);
    assert_int_equal(gt_recorder_open(&r, "/nonexistent-dir/x.gtr.gz", true, &p, &err), -1);
    assert_null(r);
    assert_non_null(strstr(err.msg, "--record /nonexistent-dir/x.gtr.gz: "));
}

static bool exists(const char *p)
{
    struct stat st;
    return lstat(p, &st) == 0;
}

/* --record never destroys a file: an existing one is refused without
 * force; the recording is written as PATH.partial and becomes PATH only
 * when it closes cleanly; a crash's PATH.partial is readable and stops
 * the next recording of that name; a symbolic link is never followed. */
static void never_overwrite(void **state)
{
    gt_recorder *r;
    gt_recording rec;
    gt_devprops p;
    gt_err err = {0};
    int64_t v[GT_MAX_PARAMS];
    char partial[80], target[80];
    (void)state;
    props(&p);
    gt_experiment_defaults(&gt_exp_transfer, v);
    temp_path(".gtr");                     /* exists: an earlier class's recording */
    snprintf(partial, sizeof partial, "%s.partial", path);
    assert_int_equal(gt_recorder_open(&r, path, false, &p, &err), -1);
    assert_int_equal(err.code, GT_EXIT_USAGE);
    assert_non_null(strstr(err.msg, "the file exists; give --force to replace it"));
    assert_false(exists(partial));
    unlink(path);
    /* Written as .partial; the name appears on a clean close. */
    gt_err_clear(&err);
    assert_int_equal(gt_recorder_open(&r, path, false, &p, &err), 0);
    assert_true(exists(partial));
    assert_false(exists(path));
    {
        char m[900];
        assert_false(gt_recorder_failed(r, m, sizeof m));
    }
    gt_recorder_config(r, &gt_exp_transfer, v, 1, NULL, NULL, NULL);
    for (int i = 0; i < 10; i++) {
        gt_sample s = {1, 0, GT_V_FULL, 1e-3, 64ull << 20};
        gt_recorder_sample(r, &s);
    }
    /* A crash now (the process gone, nothing closed): the configuration
     * line is flushed, so the .partial file reads. */
    assert_int_equal(gt_recording_load(&rec, partial, &err), 0);
    assert_int_equal(rec.ncfg, 1);
    gt_recording_free(&rec);
    /* ... and a second recording of the same name is refused. */
    {
        gt_recorder *r2;
        gt_err e2 = {0};
        assert_int_equal(gt_recorder_open(&r2, path, false, &p, &e2), -1);
        assert_non_null(strstr(e2.msg, "a recording cut off by a crash"));
    }
    assert_int_equal(gt_recorder_close(r, &err), 0);
    assert_true(exists(path));
    assert_false(exists(partial));
    assert_int_equal(gt_recording_load(&rec, path, &err), 0);
    assert_int_equal(rec.cfg[0].n, 10);
    gt_recording_free(&rec);
    /* With force a new recording replaces the file; one that recorded no
     * configuration leaves it as it was, and no .partial behind. */
    assert_int_equal(gt_recorder_open(&r, path, true, &p, &err), 0);
    assert_int_equal(gt_recorder_close(r, &err), 0);
    assert_false(exists(partial));
    assert_int_equal(gt_recording_load(&rec, path, &err), 0);
    assert_int_equal(rec.cfg[0].n, 10);
    gt_recording_free(&rec);
    assert_int_equal(gt_recorder_open(&r, path, true, &p, &err), 0);
    gt_recorder_config(r, &gt_exp_transfer, v, 1, NULL, NULL, NULL);
    assert_int_equal(gt_recorder_close(r, &err), 0);
    assert_int_equal(gt_recording_load(&rec, path, &err), 0);
    assert_int_equal(rec.cfg[0].n, 0);
    gt_recording_free(&rec);
    unlink(path);
    /* A symbolic link at PATH.partial is not followed. */
    snprintf(target, sizeof target, "%s.target", path);
    assert_int_equal(symlink(target, partial), 0);
    gt_err_clear(&err);
    assert_int_equal(gt_recorder_open(&r, path, false, &p, &err), -1);
    assert_false(exists(target));
    unlink(partial);
}

/* A full disk (a file size limit here): close fails naming the reason,
 * PATH never appears, the lines written stay in PATH.partial. */
static void disk_full(void **state)
{
    gt_recorder *r;
    gt_devprops p;
    gt_err err = {0};
    int64_t v[GT_MAX_PARAMS];
    struct rlimit old, lim = {64 << 10, 0};
    char partial[80];
    (void)state;
    props(&p);
    gt_experiment_defaults(&gt_exp_transfer, v);
    temp_path(".gtr");
    unlink(path);
    snprintf(partial, sizeof partial, "%s.partial", path);
    signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &old);
    lim.rlim_max = old.rlim_max;
    assert_int_equal(gt_recorder_open(&r, path, false, &p, &err), 0);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    gt_recorder_config(r, &gt_exp_transfer, v, 1, NULL, NULL, NULL);
    for (int i = 0; i < 5000; i++) {
        gt_sample s = {1, 0, GT_V_FULL, 1e-3, 64ull << 20};
        gt_recorder_sample(r, &s);
    }
    {
        char m[900];
        assert_true(gt_recorder_failed(r, m, sizeof m));    /* the TUI's status line */
        assert_non_null(strstr(m, "a write failed (File too large)"));
    }
    assert_int_equal(gt_recorder_close(r, &err), -1);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, SIG_DFL);
    print_message("%s\n", err.msg);
    assert_non_null(strstr(err.msg, "could not write the recording (File too large)"));
    assert_non_null(strstr(err.msg, partial));
    assert_false(exists(path));
    assert_true(exists(partial));
    unlink(partial);
}

static void find_and_match(void **state)
{
    gt_recording rec;
    gt_err err;
    int64_t v[GT_MAX_PARAMS];
    char have[200];
    (void)state;
    write_sample_file();
    assert_int_equal(gt_recording_load(&rec, path, &err), 0);
    gt_experiment_defaults(&gt_exp_transfer, v);
    assert_int_equal(gt_recording_find(&rec, &gt_exp_transfer, v), 0);
    v[GT_TR_WC] = 1;        /* does not apply to host=pinned: still the same configuration */
    assert_int_equal(gt_recording_find(&rec, &gt_exp_transfer, v), 0);
    v[GT_TR_SIZE] = 4 << 20;
    assert_int_equal(gt_recording_find(&rec, &gt_exp_transfer, v), -1);
    /* Not recorded: a replay stands on the experiment's first configuration;
     * an experiment the recording lacks has no place at all. */
    assert_int_equal(gt_recording_place(&rec, &gt_exp_transfer, v), 0);
    assert_int_equal(gt_recording_place(&rec, gt_experiment_find("zerocopy"), v), -1);
    /* Changing the size to 4M moves to the recorded configuration with 4M. */
    assert_int_equal(gt_recording_match(&rec, &gt_exp_transfer, v, GT_TR_SIZE, have, sizeof have), 1);
    v[GT_TR_SIZE] = 32 << 20;
    assert_int_equal(gt_recording_match(&rec, &gt_exp_transfer, v, GT_TR_SIZE, have, sizeof have), -1);
    assert_string_equal(have, "4M, 64M");
    gt_recording_free(&rec);
    unlink(path);
}

/* A configuration recorded twice: a file stands on its first visit, one
 * holding an inspection too; a followed recording on the writer's
 * newest. */
static void find_twice_measured(void **state)
{
    static const char text[] =
        "{\"type\":\"header\",\"format\":[1,5],\"device\":{}}\n"
        "{\"type\":\"config\",\"gen\":1,\"experiment\":\"transfer\",\"values\":{}}\n"
        "{\"type\":\"config\",\"gen\":2,\"experiment\":\"transfer\",\"values\":{\"size\":\"4M\"}}\n"
        "{\"type\":\"config\",\"gen\":3,\"experiment\":\"transfer\",\"values\":{}}\n";
    gt_recording rec;
    int64_t v[GT_MAX_PARAMS];
    char card[] = "{}";
    gt_err err = {0};
    (void)state;
    assert_int_equal(gt_recording_parse(&rec, "twice", text, sizeof text - 1, &err), 0);
    gt_experiment_defaults(&gt_exp_transfer, v);
    assert_int_equal(gt_recording_find(&rec, &gt_exp_transfer, v), 0);
    /* One that holds an inspection too (the bundled ones do): still the
     * first, the one at the head of the file, read before the rest. */
    rec.inspection = card;
    assert_int_equal(gt_recording_find(&rec, &gt_exp_transfer, v), 0);
    assert_int_equal(gt_recording_place(&rec, &gt_exp_transfer, v), 0);
    v[GT_TR_SIZE] = 4 << 20;
    assert_int_equal(gt_recording_find(&rec, &gt_exp_transfer, v), 1);
    v[GT_TR_SIZE] = 8 << 20;
    assert_int_equal(gt_recording_find(&rec, &gt_exp_transfer, v), -1);
    /* A followed recording: the writer's newest visit. */
    rec.inspection = NULL;
    rec.followed = true;
    gt_experiment_defaults(&gt_exp_transfer, v);
    assert_int_equal(gt_recording_find(&rec, &gt_exp_transfer, v), 2);
    gt_recording_free(&rec);
}

/* The replay back-end through the engine: the recorded samples come out
 * in order, and when they have played they play again (a second pass,
 * marked as such), with the engine still running; a run counts each once. */
static void replay_through_engine(void **state)
{
    gt_recording rec;
    gt_engine *e;
    gt_err err;
    gt_status st;
    gt_run r;
    gt_devprops p;
    gt_sample buf[16], seen[16];
    size_t nseen = 0;
    (void)state;
    write_sample_file();
    assert_int_equal(gt_recording_load(&rec, path, &err), 0);
    gt_replay_set_speed(100);
    assert_near(gt_replay_speed(), GT_REPLAY_MAX_SPEED, 0);
    assert_int_equal(gt_engine_start(&e, gt_replay_backend(&rec), 0, &err), 0);
    gt_engine_props(e, &p);
    assert_string_equal(p.name, "Test GPU");
    gt_run_init(&r, &gt_exp_transfer, rec.cfg[1].vals,
                gt_engine_configure(e, &gt_exp_transfer, rec.cfg[1].vals));
    for (int i = 0; i < 400 && nseen < 12; i++) {
        struct pollfd pfd = {gt_engine_fd(e), POLLIN, 0};
        size_t n;
        poll(&pfd, 1, 5);
        while ((n = gt_engine_drain(e, buf, 16)) > 0)
            for (size_t k = 0; k < n; k++) {
                gt_run_add(&r, &buf[k]);
                if (nseen < 16)
                    seen[nseen++] = buf[k];
            }
    }
    gt_engine_status(e, &st);
    assert_int_equal(st.state, GT_ST_RUNNING);
    assert_int_equal(st.warmup_total, 0);
    assert_true(nseen >= 12);                       /* three passes of four */
    for (size_t k = 0; k < nseen; k++) {
        assert_int_equal(seen[k].series, rec.cfg[1].s[k % 4].series);
        assert_int_equal(seen[k].verify, rec.cfg[1].s[k % 4].verify);
        assert_int_equal(seen[k].again, k >= 4);    /* the passes after the first */
    }
    /* The run's figures are of the four recorded samples, each once. */
    assert_int_equal(r.s[0].full + r.s[0].sampled + r.s[0].failed, 2);
    assert_int_equal(r.s[0].sampled, 2);
    assert_int_equal(r.s[1].failed, 1);
    /* A configuration that was not recorded is an error that says so. */
    int64_t v[GT_MAX_PARAMS];
    gt_experiment_defaults(&gt_exp_transfer, v);
    v[GT_TR_SIZE] = 128 << 20;
    gt_engine_configure(e, &gt_exp_transfer, v);
    for (int i = 0; i < 400; i++) {
        gt_engine_drain(e, buf, 16);
        gt_engine_status(e, &st);
        if (st.state == GT_ST_ERROR)
            break;
        poll(NULL, 0, 5);
    }
    assert_int_equal(st.state, GT_ST_ERROR);
    assert_non_null(strstr(st.msg, "the recording has no configuration"));
    gt_engine_stop(e);
    gt_run_free(&r);
    gt_recording_free(&rec);
    gt_replay_set_speed(1);
    unlink(path);
}

/* A reader of the growing file (a class following the teacher's session)
 * sees each sample within a second: the recorder flushes whole lines at
 * least every half second when ticked, plain or compressed. */
static void a_reader_sees_samples_within_a_second(void **state)
{
    static const char *const sfx[] = {"", ".gz"};
    (void)state;
    for (int k = 0; k < 2; k++) {
        gt_recorder *r;
        gt_recording rec;
        gt_devprops p;
        gt_err err = {0};
        int64_t v[GT_MAX_PARAMS];
        char partial[80];
        struct timespec half = {0, 600 * 1000 * 1000};
        props(&p);
        gt_experiment_defaults(&gt_exp_transfer, v);
        temp_path(sfx[k]);
        unlink(path);
        snprintf(partial, sizeof partial, "%s.partial", path);
        assert_int_equal(gt_recorder_open(&r, path, false, &p, &err), 0);
        gt_recorder_config(r, &gt_exp_transfer, v, 1, NULL, NULL, NULL);
        nanosleep(&half, NULL);
        for (int i = 0; i < 3; i++) {
            gt_sample s = {1, 0, GT_V_FULL, 1e-3, 64ull << 20};
            gt_recorder_sample(r, &s);
            nanosleep(&half, NULL);
            gt_recorder_tick(r);
            /* ... and the file, read as it is, holds it whole */
            assert_int_equal(gt_recording_load(&rec, partial, &err), 0);
            assert_int_equal(rec.ncfg, 1);
            assert_int_equal(rec.cfg[0].n, (size_t)i + 1);
            gt_recording_free(&rec);
        }
        assert_int_equal(gt_recorder_close(r, &err), 0);
        unlink(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip), cmocka_unit_test(gzip_round_trip),
        cmocka_unit_test(plain_file_named_gz), cmocka_unit_test(gzip_cut_off),
        cmocka_unit_test(gzip_unwritable), cmocka_unit_test(find_and_match),
        cmocka_unit_test(find_twice_measured),
        cmocka_unit_test(replay_through_engine), cmocka_unit_test(never_overwrite),
        cmocka_unit_test(disk_full), cmocka_unit_test(a_reader_sees_samples_within_a_second),
    };
    return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
