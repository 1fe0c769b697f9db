/* out.h - where text leaves gputui.
 *
 * Text that came from outside (a recording, a lesson, a stream, a fleet's
 * cards, the command line) may hold control characters, and a terminal
 * obeys them: an OSC sequence sets its title or writes the clipboard, a
 * CSI clears the screen. So every byte gputui writes to standard output,
 * standard error or a report file goes through a stream of this module,
 * which lets none of them through raw:
 *
 *   C0 (0x00-0x1f) but the newline (and the tab, in text), DEL (0x7f),
 *   C1 (U+0080-U+009F) and any byte that is not part of UTF-8
 *
 * are written as \xHH in text (the batch text, CSV, HTML, Prometheus,
 * messages on standard error) and as \u00HH in JSON (valid inside a
 * string, where jansson has put every string; jansson itself escapes C0
 * but lets DEL and C1 through). HH is the code point of a C0, DEL or C1
 * character, and the byte itself where the bytes are not UTF-8. The rule
 * is applied here, once, not field by field: tests/layers.py fails on an
 * object of core/, ui/ or main.c that names stdout or stderr itself.
 * The TUI draws through ncurses, which shows such characters in caret
 * form (^[); gpu/'s child processes talk to their parent over pipes. */
#ifndef GPUTUI_OUT_H
#define GPUTUI_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum gt_out_kind {
    GT_OUT_TEXT,        /* \xHH; the newline and the tab pass */
    GT_OUT_JSON,        /* \u00HH; the newline passes (jansson's indentation) */
} gt_out_kind;

/* The string s escaped by the rule into dst (cap bytes, NUL-terminated,
 * cut short at a whole escape): dst. */
char *gt_out_escape(gt_out_kind kind, const char *s, char *dst, size_t cap);

/* A stream whose bytes reach descriptor fd escaped by the rule (the
 * descriptor stays open), or NULL with errno. A multibyte character
 * split between two writes is judged whole. Close it with gt_out_close:
 * 0, or -1 with errno when a write failed (EPIPE, ENOSPC, EFBIG). */
FILE *gt_out_open(int fd, gt_out_kind kind);
int gt_out_close(FILE *f);

/* Standard output and standard error through the rule. Standard output
 * takes the kind of the report gputui prints (gt_out_set_kind, before its
 * first use; text until then); it is line-buffered on a terminal, and
 * standard error is not buffered. Both are flushed at exit. */
void gt_out_set_kind(gt_out_kind kind);
FILE *gt_stdout(void);
FILE *gt_stderr(void);
/* Flushes both: 0, or -1 when standard output could not be written
 * (a closed pipe, a full disk). */
int gt_out_flush(void);

/* One CSV cell of text: between double quotes (always with quoted; else
 * only where the cell holds a comma, a quote or a line break), quotes
 * doubled; a cell that begins with =, +, -, @, a tab or a carriage return
 * starts with a single quote, so that no spreadsheet runs it as a
 * formula. */
void gt_csv_cell(FILE *f, const char *s, bool quoted);

#endif
