#include "ccurl.h"

#include <pthread.h>
#include <string.h>

#include "optional_library.h"

// The functions used, in the order of their names below.
static struct {
  CURLcode (*global_init)(long flags);
  CURL *(*easy_init)(void);
  void (*easy_cleanup)(CURL *handle);
  void (*easy_reset)(CURL *handle);
  CURLcode (*easy_perform)(CURL *handle);
  const char *(*easy_strerror)(CURLcode code);
  CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
  CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
  struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
  void (*slist_free_all)(struct curl_slist *list);
} curl;

static const char *const names[] = {
    "curl_global_init",  "curl_easy_init",    "curl_easy_cleanup", "curl_easy_reset",
    "curl_easy_perform", "curl_easy_strerror", "curl_easy_setopt", "curl_easy_getinfo",
    "curl_slist_append", "curl_slist_free_all",
};
_Static_assert(sizeof curl == sizeof names, "a name for each function of libcurl");

static char failure[512];
static const char *loading_failure;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
  void *functions[sizeof names / sizeof *names];
  loading_failure = optional_library_load("libcurl.so.4", "libcurl4", names, functions,
                                          sizeof names / sizeof *names, failure, sizeof failure);
  if (loading_failure != NULL) return;
  memcpy(&curl, functions, sizeof curl);
  curl.global_init(CURL_GLOBAL_DEFAULT);
}

const char *ccurl_load(void) {
  pthread_once(&once, load);
  return loading_failure;
}

CURL *ccurl_easy_init(void) { return curl.easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
void ccurl_easy_reset(CURL *handle) { curl.easy_reset(handle); }
CURLcode ccurl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line) {
  return curl.slist_append(list, line);
}
void ccurl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode ccurl_set_long(CURL *handle, CURLoption option, long value) {
  return curl.easy_setopt(handle, option, value);
}
CURLcode ccurl_set_string(CURL *handle, CURLoption option, const char *value) {
  return curl.easy_setopt(handle, option, value);
}
CURLcode ccurl_set_pointer(CURL *handle, CURLoption option, void *value) {
  return curl.easy_setopt(handle, option, value);
}
CURLcode ccurl_set_headers(CURL *handle, struct curl_slist *headers) {
  return curl.easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}
CURLcode ccurl_set_post_body(CURL *handle, const char *bytes, long length) {
  curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE, length);
  return curl.easy_setopt(handle, CURLOPT_COPYPOSTFIELDS, bytes);
}
CURLcode ccurl_set_write_function(CURL *handle, ccurl_write_function function, void *context) {
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, context);
  return curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
}
CURLcode ccurl_set_progress_function(CURL *handle, ccurl_progress_function function, void *context) {
  curl.easy_setopt(handle, CURLOPT_XFERINFODATA, context);
  curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
  return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}
long ccurl_response_code(CURL *handle) {
  long code = 0;
  curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
  return code;
}
int ccurl_tls_established(CURL *handle) {
  curl_off_t microseconds = 0;
  curl.easy_getinfo(handle, CURLINFO_APPCONNECT_TIME_T, &microseconds);
  return microseconds > 0;
}
