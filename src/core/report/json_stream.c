/* A JSON document written a piece at a time (json_stream.h). */
#define _POSIX_C_SOURCE 200809L
#include "gputui/report/json_stream.h"

#include <stdlib.h>
#include <string.h>

/* The indentation of an element of a top object's array: two levels. */
static int indent(const gt_json_stream *s)
{
    return 2 * (int)(s->flags & JSON_MAX_INDENT);
}

/* Writes up to the "[" of "key": [] from s->at on. */
static int open_array(gt_json_stream *s, const char *key)
{
    char pat[96];
    const char *hit;

    snprintf(pat, sizeof pat, "\"%s\": []", key);
    if (!(hit = strstr(s->at, pat)))
        return -1;
    fwrite(s->at, 1, (size_t)(hit - s->at) + strlen(pat) - 1, s->f);
    s->at = hit + strlen(pat);
    s->n = 0;
    return 0;
}

int gt_json_stream_begin(gt_json_stream *s, FILE *f, json_t *head, size_t flags, const char *key)
{
    memset(s, 0, sizeof *s);
    s->f = f;
    s->flags = flags;
    if (!(s->text = json_dumps(head, flags)))
        return -1;
    s->at = s->text;
    if (open_array(s, key)) {
        free(s->text);
        s->text = NULL;
        return -1;
    }
    return 0;
}

int gt_json_stream_add(gt_json_stream *s, json_t *elem)
{
    char *text = json_dumps(elem, s->flags);
    int in = indent(s);

    if (!text)
        return -1;
    fprintf(s->f, "%s\n%*s", s->n ? "," : "", in, "");
    for (const char *c = text; *c; c++) {
        fputc(*c, s->f);
        if (*c == '\n')
            fprintf(s->f, "%*s", in, "");
    }
    free(text);
    s->n++;
    return 0;
}

int gt_json_stream_next(gt_json_stream *s, const char *key)
{
    int rc = 0;

    if (s->n)
        fprintf(s->f, "\n%*s]", indent(s) / 2, "");
    else
        fputc(']', s->f);
    if (key)
        return open_array(s, key);
    fputs(s->at, s->f);
    fputc('\n', s->f);
    rc = ferror(s->f) ? -1 : 0;
    free(s->text);
    s->text = NULL;
    return rc;
}
