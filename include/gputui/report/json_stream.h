/* json_stream.h - a JSON document written a piece at a time, byte for byte
 * as jansson would write it whole: the head is the document with each
 * array to stream present and empty ("KEY": []), keys of the top object
 * in the order they are streamed; their elements come one at a time, so
 * a report of any length holds one element, not the whole tree. */
#ifndef GPUTUI_JSON_STREAM_H
#define GPUTUI_JSON_STREAM_H

#include <jansson.h>
#include <stdio.h>

typedef struct gt_json_stream {
    FILE *f;
    size_t flags;           /* jansson's dump flags, JSON_INDENT(n) among them */
    char *text;             /* the head as jansson writes it */
    const char *at;         /* what of it is still to be written */
    int n;                  /* elements of the array open now */
} gt_json_stream;

/* Writes head up to its first array key's "[" (key: "runs"): 0, or -1
 * (out of memory, or no such key). Takes no reference to head. */
int gt_json_stream_begin(gt_json_stream *s, FILE *f, json_t *head, size_t flags,
                         const char *key);
/* One element of the array open now (a top object's key's: two levels
 * deep); -1 out of memory. */
int gt_json_stream_add(gt_json_stream *s, json_t *elem);
/* Closes the array open now and writes on to the next one's "[" (key),
 * or with key NULL to the end of the document and a newline. 0, or -1
 * (no such key, or a write error at the end); the last frees s. */
int gt_json_stream_next(gt_json_stream *s, const char *key);

#endif
