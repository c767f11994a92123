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

#define INDEX(name) cncursesw_index_##name,
#define FUNCTION_INDEX(type, name, parameters, arguments) INDEX(name)
#define PROCEDURE_INDEX(name, parameters, arguments) INDEX(name)
// The functions, then ncurses' variable `stdscr` (dlsym gives its address).
enum {
  CNCURSESW_FUNCTIONS(FUNCTION_INDEX, PROCEDURE_INDEX) cncursesw_index_stdscr,
  cncursesw_symbol_count
};

#define NAME(name) #name,
#define FUNCTION_NAME(type, name, parameters, arguments) NAME(name)
#define PROCEDURE_NAME(name, parameters, arguments) NAME(name)
static const char *const names[] = {CNCURSESW_FUNCTIONS(FUNCTION_NAME, PROCEDURE_NAME) "stdscr"};

static void *symbols[cncursesw_symbol_count];
static char failure[512];
static const char *loading_failure;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
  loading_failure = optional_library_load("libncursesw.so.6", "libncursesw6", names, symbols,
                                          cncursesw_symbol_count, failure, sizeof failure);
}

const char *cnc_load(void) {
  pthread_once(&once, load);
  return loading_failure;
}

WINDOW *cnc_stdscr(void) {
  if (cnc_load() != NULL) return NULL;
  return *(WINDOW **)symbols[cncursesw_index_stdscr];
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

// Hidden: the program exports its own symbols (Swift's static runtime links with
// -export-dynamic), and ncurses' calls of its own functions are to bind to ncurses.
#define FUNCTION(type, name, parameters, arguments)                            \
  __attribute__((visibility("hidden"))) type name parameters {                 \
    pthread_once(&once, load);                                                  \
    return ((type(*) parameters)symbols[cncursesw_index_##name]) arguments;     \
  }
#define PROCEDURE(name, parameters, arguments)                                 \
  __attribute__((visibility("hidden"))) void name parameters {                 \
    pthread_once(&once, load);                                                  \
    ((void(*) parameters)symbols[cncursesw_index_##name]) arguments;            \
  }
CNCURSESW_FUNCTIONS(FUNCTION, PROCEDURE)
