// The slice of ncursesw that Swift cannot import on its own: the wide-character API needs
// NCURSES_WIDECHAR before curses.h, and expression macros and C globals become functions here.
#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <wchar.h>

/// wcwidth(3): the Glibc overlay does not export it.
int wcwidth(wchar_t c);

static inline attr_t cnc_a_normal(void) { return A_NORMAL; }
static inline attr_t cnc_a_bold(void) { return A_BOLD; }
static inline attr_t cnc_a_reverse(void) { return A_REVERSE; }
static inline attr_t cnc_a_dim(void) { return A_DIM; }
static inline attr_t cnc_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cnc_color_pair(short pair) { return COLOR_PAIR(pair); }

static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }

/// Starts curses on a terminal that is not the process's own (headless tests: /dev/null).
static inline SCREEN *cnc_newterm_on_paths(const char *term, const char *out, const char *in) {
  FILE *outFile = fopen(out, "w");
  FILE *inFile = fopen(in, "r");
  if (outFile == NULL || inFile == NULL) return NULL;
  return newterm(term, outFile, inFile);
}

#endif
