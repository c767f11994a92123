#include "cncursesw.h"

#include <pthread.h>

#include "optional_library.h"

// The names curses.h defines as expression macros too; Swift calls the functions.
#undef getmaxx
#undef getmaxy
#undef mvwaddwstr
#undef mvwinnwstr
#undef wattrset

// Every ncurses function the editor and its tests call: F(result type, name, parameters,
// arguments) for a function, P(name, parameters, arguments) for one that returns nothing. A
// definition whose parameters differ from curses.h's declaration does not compile.
#define CNCURSESW_FUNCTIONS(F, P) \
  F(int, cbreak, (void), ()) \
  F(int, clearok, (WINDOW *window, bool flag), (window, flag)) \
  F(int, curs_set, (int visibility), (visibility)) \
  P(delscreen, (SCREEN *screen), (screen)) \
  F(int, doupdate, (void), ()) \
  F(int, endwin, (void), ()) \
  F(int, getmaxx, (const WINDOW *window), (window)) \
  F(int, getmaxy, (const WINDOW *window), (window)) \
  F(bool, has_colors, (void), ()) \
  F(int, init_pair, (NCURSES_PAIRS_T pair, NCURSES_COLOR_T foreground, \
      NCURSES_COLOR_T background), \
    (pair, foreground, background)) \
  F(int, keypad, (WINDOW *window, bool flag), (window, flag)) \
  F(int, mvwaddwstr, (WINDOW *window, int y, int x, const wchar_t *text), (window, y, x, text)) \
  F(int, mvwinnwstr, (WINDOW *window, int y, int x, wchar_t *text, int count), \
    (window, y, x, text, count)) \
  F(SCREEN *, newterm, (const char *type, FILE *out, FILE *in), (type, out, in)) \
  F(int, nodelay, (WINDOW *window, bool flag), (window, flag)) \
  F(int, noecho, (void), ()) \
  F(int, nonl, (void), ()) \
  F(int, set_escdelay, (int milliseconds), (milliseconds)) \
  F(SCREEN *, set_term, (SCREEN *screen), (screen)) \
  F(int, start_color, (void), ()) \
  F(int, unget_wch, (const wchar_t character), (character)) \
  F(int, ungetch, (int character), (character)) \
  F(int, use_default_colors, (void), ()) \
  F(int, wattrset, (WINDOW *window, int attributes), (window, attributes)) \
  F(int, wclrtoeol, (WINDOW *window), (window)) \
  F(int, werase, (WINDOW *window), (window)) \
  F(int, wget_wch, (WINDOW *window, wint_t *character), (window, character)) \
  F(int, wmove, (WINDOW *window, int y, int x), (window, y, x)) \
  F(int, wnoutrefresh, (WINDOW *window), (window))

// The functions, then ncurses' variable `stdscr` (dlsym gives its address).
enum {
  CNCURSESW_FUNCTIONS(OPTIONAL_LIBRARY_FUNCTION_INDEX, OPTIONAL_LIBRARY_PROCEDURE_INDEX)
  cncursesw_index_stdscr,
  cncursesw_symbol_count
};
static const char *const names[] = {
    CNCURSESW_FUNCTIONS(OPTIONAL_LIBRARY_FUNCTION_NAME, OPTIONAL_LIBRARY_PROCEDURE_NAME) "stdscr"};

OPTIONAL_LIBRARY_LOADER(cnc_load, "libncursesw.so.6", "libncursesw6", cncursesw_symbol_count)

WINDOW *cnc_stdscr(void) {
  if (cnc_load() != NULL) return NULL;
  return *(WINDOW **)functions[cncursesw_index_stdscr];
}

SCREEN *cnc_newterm_on_stdio(const char *term) {
  if (cnc_load() != NULL) return NULL;
  return newterm(term, stdout, stdin);
}

SCREEN *cnc_newterm_on_paths(const char *term, const char *out, const char *in) {
  if (cnc_load() != NULL) return NULL;
  FILE *outFile = fopen(out, "w");
  FILE *inFile = fopen(in, "r");
  if (outFile == NULL || inFile == NULL) return NULL;
  return newterm(term, outFile, inFile);
}

CNCURSESW_FUNCTIONS(OPTIONAL_LIBRARY_FUNCTION, OPTIONAL_LIBRARY_PROCEDURE)
