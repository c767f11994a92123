// The slice of libcurl's easy interface the etcd backend uses, loaded with dlopen on first use.
//
// A program that links libcurl loads it and the libraries it needs (about 30 on Debian) at every
// start: 10.6 ms of a 23 ms start here, measured with a Foundation "hello" program. Loaded on
// first use, only programs that talk to etcd pay it. curl_easy_setopt and curl_easy_getinfo are
// variadic, so each argument type gets a typed wrapper.
#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>

/// The signature of CURLOPT_WRITEFUNCTION.
typedef size_t (*ccurl_write_function)(char *data, size_t size, size_t count, void *context);
/// The signature of CURLOPT_XFERINFOFUNCTION (non-zero aborts the transfer).
typedef int (*ccurl_progress_function)(void *context, curl_off_t downloadTotal, curl_off_t downloaded,
                                       curl_off_t uploadTotal, curl_off_t uploaded);

/// Loads libcurl (libcurl.so.4) and runs curl_global_init, once per process. Returns NULL when
/// libcurl is usable, else why not; the other functions may only be called after NULL.
const char *ccurl_load(void);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
void ccurl_easy_reset(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line);
void ccurl_slist_free_all(struct curl_slist *list);

CURLcode ccurl_set_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_set_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_set_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_set_headers(CURL *handle, struct curl_slist *headers);
CURLcode ccurl_set_post_body(CURL *handle, const char *bytes, long length);
CURLcode ccurl_set_write_function(CURL *handle, ccurl_write_function function, void *context);
CURLcode ccurl_set_progress_function(CURL *handle, ccurl_progress_function function, void *context);
long ccurl_response_code(CURL *handle);
/// Whether the transfer's TLS handshake finished (CURLINFO_APPCONNECT_TIME_T > 0).
int ccurl_tls_established(CURL *handle);

#endif
