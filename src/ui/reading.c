/* A recording still being read behind the screen: gputui shows the
 * configuration it opens on as soon as that is read (main.c reads up to
 * it), and reads the rest a slice at a time between frames and keys. A
 * key that needs a configuration not read yet waits for it (the loop
 * keeps it, and the status line says "reading"); the screen never
 * blocks. */
#include "ui_priv.h"

/* At most this long a wake-up: keys and frames come between slices. */
#define SLICE_S 0.004

static bool loading(const gt_rec_reader *rd)
{
    return rd && gt_rec_reader_progress(rd) < 1;
}

bool ui_reading(const ui *u)
{
    return loading(u->src->reader) || loading(u->src->cmp_reader);
}

/* The status line says a key waits for the rest of the recording. */
static bool waits(ui *u)
{
    ui_set_msg(u, false, "reading the recording: %.0f%%; the key waits for it",
               100 * gt_rec_reader_progress(u->src->reader));
    return true;
}

bool ui_unread(ui *u, const gt_experiment *e, const int64_t *vals)
{
    return gt_recording_unread(u->rp.rec, e, vals) && waits(u);
}

bool ui_unread_all(ui *u)
{
    return u->rp.rec && u->rp.rec->loading && waits(u);
}

/* One reader's slice; what it stopped on, once, in the status line. */
static bool step(ui *u, gt_rec_reader *rd, const gt_recording *r, const char *which)
{
    size_t before;
    char warn[700];

    if (!loading(rd))
        return false;
    before = r->lines;
    if (gt_rec_reader_step(rd, SLICE_S) < 0)
        ui_set_msg(u, true, "%s%s; the configurations before it are shown", which,
                   gt_rec_reader_error(rd)->msg);
    else if (!loading(rd) && gt_recording_warning(r, warn, sizeof warn)[0])
        ui_set_msg(u, true, "%s%s", which, warn);
    return r->lines != before || !loading(rd);
}

bool ui_read_tick(ui *u)
{
    bool a = step(u, u->src->reader, u->rp.rec, u->cmp.rec ? "A: " : "");
    bool b = step(u, u->src->cmp_reader, u->cmp.rec, "B: ");

    if (b && !u->cmp.have)
        ui_cmp_take(u);     /* B's configuration may be in now */
    return a || b;
}
