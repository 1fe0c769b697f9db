/* Drawing primitives every widget uses: the colour (or, without colour,
 * the attribute) of a role, a string in exactly w columns, a formatted
 * one, and word wrap. They change nothing but the terminal and call
 * nothing else in src/ui/. */
#include <stdarg.h>
#include <string.h>

#include "ui_priv.h"

attr_t ui_role(const ui *u, int c)
{
    if (u->color)
        return COLOR_PAIR(c) | (c == C_ERR || c == C_TITLE ? A_BOLD : 0);
    switch (c) {
    case C_HEAD: return A_REVERSE;
    case C_BW: case C_LAT: case C_ERR: case C_TITLE: return A_BOLD;
    case C_GHOST: return A_DIM;
    default: return A_NORMAL;
    }
}

/* Writes s at (y, x) in exactly w columns: cut or padded with spaces.
 * Counts columns, not bytes, so UTF-8 glyphs (one column each) fit. */
void ui_put(int y, int x, int w, attr_t a, const char *s)
{
    char buf[1024];
    size_t o = 0;
    int cols = 0;

    if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
        return;
    if (x + w > COLS)
        w = COLS - x;
    while (*s && cols < w && o + 8 < sizeof buf) {
        int len = 1;
        unsigned char c = (unsigned char)*s;
        if (c >= 0xF0) len = 4;
        else if (c >= 0xE0) len = 3;
        else if (c >= 0xC0) len = 2;
        for (int i = 0; i < len && s[i]; i++)
            buf[o++] = s[i];
        s += len;
        cols++;
    }
    while (cols < w && o + 1 < sizeof buf) {
        buf[o++] = ' ';
        cols++;
    }
    buf[o] = '\0';
    attron(a);
    mvaddstr(y, x, buf);
    attroff(a);
}

void ui_putf(int y, int x, int w, attr_t a, const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ui_put(y, x, w, a, buf);
}

/* Word-wraps text into at most maxl lines of width w at (y, x). */
int ui_wrap(int y, int x, int w, int maxl, attr_t a, const char *text)
{
    int lines = 0;
    const char *s = text;

    while (*s && lines < maxl && w > 8) {
        int len = (int)strlen(s), cut = len;
        if (len > w) {
            cut = w;
            while (cut > 0 && s[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = w;
        }
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", cut, s);
        ui_put(y + lines, x, w, a, buf);
        lines++;
        s += cut;
        while (*s == ' ')
            s++;
    }
    return lines;
}
