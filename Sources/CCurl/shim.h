// The slice of libcurl's easy interface that Swift cannot import on its own: curl_easy_setopt and
// curl_easy_getinfo are variadic, so each argument type gets a typed wrapper here.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>

/// The signature of CURLOPT_WRITEFUNCTION.
typedef size_t (*ccurl_write_function)(char *data, size_t size, size_t count, void *context);
/// The signature of CURLOPT_XFERINFOFUNCTION (non-zero aborts the transfer).
typedef int (*ccurl_progress_function)(void *context, curl_off_t downloadTotal, curl_off_t downloaded,
                                       curl_off_t uploadTotal, curl_off_t uploaded);

static inline CURLcode ccurl_set_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_set_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_set_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}
static inline CURLcode ccurl_set_headers(CURL *handle, struct curl_slist *headers) {
  return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}
static inline CURLcode ccurl_set_post_body(CURL *handle, const char *bytes, long length) {
  curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE, length);
  return curl_easy_setopt(handle, CURLOPT_COPYPOSTFIELDS, bytes);
}
static inline CURLcode ccurl_set_write_function(CURL *handle, ccurl_write_function function, void *context) {
  curl_easy_setopt(handle, CURLOPT_WRITEDATA, context);
  return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
}
static inline CURLcode ccurl_set_progress_function(CURL *handle, ccurl_progress_function function, void *context) {
  curl_easy_setopt(handle, CURLOPT_XFERINFODATA, context);
  curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
  return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}
static inline long ccurl_response_code(CURL *handle) {
  long code = 0;
  curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
  return code;
}

#endif
