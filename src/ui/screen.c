/* Drawing primitives every widget uses: the colour (or, without colour,
 * the attribute) of a role, a string in exactly w columns, a formatted
 * one, and word wrap. They change nothing but the terminal and call
 * nothing else in src/ui/. */
#include <stdarg.h>
#include <string.h>

#include "ui_priv.h"

attr_t ui_role(const ui *u, int c)
{
    if (u->opt.color)
        return COLOR_PAIR(c) | (c == C_ERR || c == C_TITLE ? A_BOLD : 0);
    switch (c) {
    case C_HEAD: return A_REVERSE;
    case C_BW: case C_LAT: case C_ERR: case C_TITLE: return A_BOLD;
    case C_GHOST: return A_DIM;
    default: return A_NORMAL;
    }
}

static bool utf8_mark = true;

void ui_screen_init(bool utf8)
{
    utf8_mark = utf8;
}

/* Bytes of the UTF-8 sequence that starts with c. */
static int glyph_len(unsigned char c)
{
    return c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
}

/* s in exactly w columns into out: padded with spaces, or cut with the
 * mark ("…", or ">" without UTF-8) in its last column when what is cut
 * is more than spaces. A C0 control byte or DEL (text from a recording or
 * a lesson) becomes its caret form, two columns, as curses shows ESC: a
 * newline or a carriage return would otherwise move the cursor and blank
 * the rest of the line. */
void ui_fit(char *out, size_t len, const char *s, int w)
{
    size_t o = 0;
    int cols = 0;

    if (!len)
        return;
    while (*s && cols < w && o + 8 < len) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f) {
            out[o++] = '^';
            if (++cols < w) {
                out[o++] = (char)(c ^ 0x40);
                cols++;
            }
            s++;
            continue;
        }
        int n = glyph_len(c), i;
        for (i = 0; i < n && s[i]; i++)     /* a sequence cut short ends at the NUL */
            out[o++] = s[i];
        s += i;
        cols++;
    }
    while (*s == ' ')
        s++;
    if (*s && w >= 2 && o > 0) {
        /* cut: the last glyph gives way to the mark */
        do
            o--;
        while (o > 0 && ((unsigned char)out[o] & 0xC0) == 0x80);
        if (utf8_mark && o + 4 < len) {
            memcpy(out + o, "\u2026", 3);
            o += 3;
        } else {
            out[o++] = '>';
        }
    }
    while (cols < w && o + 1 < len) {
        out[o++] = ' ';
        cols++;
    }
    out[o] = '\0';
}

/* Writes s at (y, x) in exactly w columns (ui_fit): counts columns, not
 * bytes, so UTF-8 glyphs (one column each) fit. */
void ui_put(int y, int x, int w, attr_t a, const char *s)
{
    char buf[1024];

    if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
        return;
    if (x + w > COLS)
        w = COLS - x;
    ui_fit(buf, sizeof buf, s, w);
    attron(a);
    mvaddstr(y, x, buf);
    attroff(a);
}

void ui_putf(int y, int x, int w, attr_t a, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ui_put(y, x, w, a, buf);
}

/* Where the line of text that starts at s ends within w columns: after
 * the last word that fits, or at w when one word is longer. */
static int line_end(const char *s, int w)
{
    int len = (int)strlen(s), cut;

    if (len <= w)
        return len;
    cut = w;
    while (cut > 0 && s[cut] != ' ')
        cut--;
    return cut ? cut : w;
}

const char *ui_wrap_step(const char *s, int w, int *len)
{
    *len = line_end(s, w);
    s += *len;
    while (*s == ' ')
        s++;
    return s;
}

int ui_wrap_lines(int w, const char *text)
{
    int lines = 0;
    const char *s = text;

    while (*s && w > 8) {
        s += line_end(s, w);
        while (*s == ' ')
            s++;
        lines++;
    }
    return lines;
}

/* Word-wraps text into at most maxl lines of width w at (y, x); the last
 * line ends with the mark when text is left over, and so does a word
 * longer than the line. */
int ui_wrap(int y, int x, int w, int maxl, attr_t a, const char *text)
{
    int lines = 0;
    const char *s = text;

    while (*s && lines < maxl && w > 8) {
        int cut = line_end(s, w);
        char buf[1024];
        const char *next = s + cut;
        while (*next == ' ')
            next++;
        if ((lines + 1 == maxl && *next) || (cut == w && s[cut] && s[cut] != ' '))
            snprintf(buf, sizeof buf, "%s", s);     /* ui_put cuts it with the mark */
        else
            snprintf(buf, sizeof buf, "%.*s", cut, s);
        ui_put(y + lines, x, w, a, buf);
        lines++;
        s = next;
    }
    return lines;
}
