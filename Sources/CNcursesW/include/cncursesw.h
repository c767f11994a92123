// ncursesw (the wide-character curses the editor draws with), loaded with dlopen when the editor
// first draws (Sources/COptionalLibrary): the one-shot verbs (`read`, `write`, …) start without
// it, and its bindings (libncursesw and libtinfo are built with BIND_NOW) and those it would add
// to every other library's look-ups.
//
// The functions keep ncurses' names: each one the editor calls is defined in cncursesw.c and
// calls ncurses' function of that name, found when ncurses is loaded. Expression macros and C
// globals become functions here, and the wide-character API needs NCURSES_WIDECHAR before
// curses.h.
#ifndef CNCURSESW_H
#define CNCURSESW_H

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

/// Loads ncursesw (libncursesw.so.6, with libtinfo.so.6), once per process. Returns NULL when it
/// is usable, else why not, naming the Debian package to install; the functions of ncurses may
/// only be called after NULL (``cnc_newterm_on_stdio`` and ``cnc_newterm_on_paths`` load it).
const char *cnc_load(void);

/// ncurses' `stdscr` (the current screen's whole window), or NULL before a screen is started or
/// when ncurses cannot be loaded.
WINDOW *cnc_stdscr(void);

/// Starts curses on the process's standard output and input as a terminal of type `term`;
/// returns NULL (instead of exiting, as initscr does) when the type is unknown or ncurses cannot
/// be loaded (``cnc_load`` says why).
SCREEN *cnc_newterm_on_stdio(const char *term);

/// Starts curses on a terminal that is not the process's own (headless tests: /dev/null);
/// NULL as ``cnc_newterm_on_stdio``, or when a path cannot be opened.
SCREEN *cnc_newterm_on_paths(const char *term, const char *out, const char *in);

#endif
