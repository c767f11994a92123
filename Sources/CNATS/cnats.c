#include "cnats.h"

#include <pthread.h>

#include "optional_library.h"

// Every libnats function the backend and its tests call: F(result type, name, parameters,
// arguments) for a function, P(name, parameters, arguments) for one that returns nothing. A
// definition whose parameters differ from nats.h's declaration does not compile.
#define CNATS_FUNCTIONS(F, P) \
  P(jsAccountInfo_Destroy, (jsAccountInfo *ai), (ai)) \
  P(jsCtx_Destroy, (jsCtx *js), (js)) \
  P(jsMsgMetaData_Destroy, (jsMsgMetaData *meta), (meta)) \
  F(natsStatus, jsOptions_Init, (jsOptions *opts), (opts)) \
  P(jsPubAck_Destroy, (jsPubAck *pubAck), (pubAck)) \
  F(natsStatus, jsPubOptions_Init, (jsPubOptions *opts), (opts)) \
  F(natsStatus, jsStreamConfig_Init, (jsStreamConfig *cfg), (cfg)) \
  P(jsStreamInfo_Destroy, (jsStreamInfo *si), (si)) \
  F(natsStatus, jsSubOptions_Init, (jsSubOptions *opts), (opts)) \
  F(natsStatus, js_AddStream, (jsStreamInfo **si, jsCtx *js, jsStreamConfig *cfg, \
      jsOptions *opts, jsErrCode *errCode), \
    (si, js, cfg, opts, errCode)) \
  F(natsStatus, js_CreateKeyValue, (kvStore **new_kv, jsCtx *js, kvConfig *cfg), \
    (new_kv, js, cfg)) \
  F(natsStatus, js_GetAccountInfo, (jsAccountInfo **ai, jsCtx *js, jsOptions *opts, \
      jsErrCode *errCode), \
    (ai, js, opts, errCode)) \
  F(natsStatus, js_GetLastMsg, (natsMsg **msg, jsCtx *js, const char *stream, \
      const char *subject, jsOptions *opts, jsErrCode *errCode), \
    (msg, js, stream, subject, opts, errCode)) \
  F(natsStatus, js_GetStreamInfo, (jsStreamInfo **si, jsCtx *js, const char *stream, \
      jsOptions *opts, jsErrCode *errCode), \
    (si, js, stream, opts, errCode)) \
  F(natsStatus, js_KeyValue, (kvStore **new_kv, jsCtx *js, const char *bucket), \
    (new_kv, js, bucket)) \
  F(natsStatus, js_PublishMsg, (jsPubAck **pubAck, jsCtx *js, natsMsg *msg, jsPubOptions *opts, \
      jsErrCode *errCode), \
    (pubAck, js, msg, opts, errCode)) \
  F(natsStatus, js_Subscribe, (natsSubscription **sub, jsCtx *js, const char *subject, \
      natsMsgHandler cb, void* cbClosure, jsOptions *opts, jsSubOptions *subOpts, \
      jsErrCode *errCode), \
    (sub, js, subject, cb, cbClosure, opts, subOpts, errCode)) \
  F(natsStatus, js_SubscribeSync, (natsSubscription **sub, jsCtx *js, const char *subject, \
      jsOptions *opts, jsSubOptions *subOpts, jsErrCode *errCode), \
    (sub, js, subject, opts, subOpts, errCode)) \
  F(natsStatus, kvConfig_Init, (kvConfig *cfg), (cfg)) \
  P(kvStore_Destroy, (kvStore *kv), (kv)) \
  F(natsStatus, kvStore_Put, (uint64_t *rev, kvStore *kv, const char *key, const void *data, \
      int len), \
    (rev, kv, key, data, len)) \
  F(natsStatus, kvStore_PutString, (uint64_t *rev, kvStore *kv, const char *key, const char *data), \
    (rev, kv, key, data)) \
  F(natsStatus, kvStore_Update, (uint64_t *rev, kvStore *kv, const char *key, const void *data, \
      int len, uint64_t last), \
    (rev, kv, key, data, len, last)) \
  F(natsStatus, natsConnection_Connect, (natsConnection **nc, natsOptions *options), \
    (nc, options)) \
  P(natsConnection_Destroy, (natsConnection *nc), (nc)) \
  F(natsStatus, natsConnection_FlushTimeout, (natsConnection *nc, int64_t timeout), (nc, timeout)) \
  F(natsStatus, natsConnection_GetConnectedUrl, (natsConnection *nc, char *buffer, \
      size_t bufferSize), \
    (nc, buffer, bufferSize)) \
  F(natsStatus, natsConnection_GetLastError, (natsConnection *nc, const char **lastError), \
    (nc, lastError)) \
  F(bool, natsConnection_IsClosed, (natsConnection *nc), (nc)) \
  F(natsStatus, natsConnection_JetStream, (jsCtx **js, natsConnection *nc, jsOptions *opts), \
    (js, nc, opts)) \
  F(natsStatus, natsConnection_RequestString, (natsMsg **replyMsg, natsConnection *nc, \
      const char *subj, const char *str, int64_t timeout), \
    (replyMsg, nc, subj, str, timeout)) \
  F(natsConnStatus, natsConnection_Status, (natsConnection *nc), (nc)) \
  F(natsStatus, natsConnection_SubscribeSync, (natsSubscription **sub, natsConnection *nc, \
      const char *subject), \
    (sub, nc, subject)) \
  F(natsStatus, natsMsgHeader_Get, (natsMsg *msg, const char *key, const char **value), \
    (msg, key, value)) \
  F(natsStatus, natsMsgHeader_Set, (natsMsg *msg, const char *key, const char *value), \
    (msg, key, value)) \
  F(natsStatus, natsMsg_Create, (natsMsg **newMsg, const char *subj, const char *reply, \
      const char *data, int dataLen), \
    (newMsg, subj, reply, data, dataLen)) \
  P(natsMsg_Destroy, (natsMsg *msg), (msg)) \
  F(const char *, natsMsg_GetData, (const natsMsg *msg), (msg)) \
  F(int, natsMsg_GetDataLength, (const natsMsg *msg), (msg)) \
  F(natsStatus, natsMsg_GetMetaData, (jsMsgMetaData **new_meta, natsMsg *msg), (new_meta, msg)) \
  F(const char *, natsMsg_GetSubject, (const natsMsg *msg), (msg)) \
  F(natsStatus, natsOptions_Create, (natsOptions **newOpts), (newOpts)) \
  P(natsOptions_Destroy, (natsOptions *opts), (opts)) \
  F(natsStatus, natsOptions_LoadCATrustedCertificates, (natsOptions *opts, const char *fileName), \
    (opts, fileName)) \
  F(natsStatus, natsOptions_LoadCertificatesChain, (natsOptions *opts, const char *certsFileName, \
      const char *keyFileName), \
    (opts, certsFileName, keyFileName)) \
  F(natsStatus, natsOptions_SetClosedCB, (natsOptions *opts, natsConnectionHandler closedCb, \
      void *closure), \
    (opts, closedCb, closure)) \
  F(natsStatus, natsOptions_SetDisconnectedCB, (natsOptions *opts, \
      natsConnectionHandler disconnectedCb, void *closure), \
    (opts, disconnectedCb, closure)) \
  F(natsStatus, natsOptions_SetExpectedHostname, (natsOptions *opts, const char *hostname), \
    (opts, hostname)) \
  F(natsStatus, natsOptions_SetMaxPingsOut, (natsOptions *opts, int maxPingsOut), \
    (opts, maxPingsOut)) \
  F(natsStatus, natsOptions_SetMaxReconnect, (natsOptions *opts, int maxReconnect), \
    (opts, maxReconnect)) \
  F(natsStatus, natsOptions_SetNKeyFromSeed, (natsOptions *opts, const char *pubKey, \
      const char *seedFile), \
    (opts, pubKey, seedFile)) \
  F(natsStatus, natsOptions_SetName, (natsOptions *opts, const char *name), (opts, name)) \
  F(natsStatus, natsOptions_SetPingInterval, (natsOptions *opts, int64_t interval), \
    (opts, interval)) \
  F(natsStatus, natsOptions_SetReconnectWait, (natsOptions *opts, int64_t reconnectWait), \
    (opts, reconnectWait)) \
  F(natsStatus, natsOptions_SetReconnectedCB, (natsOptions *opts, \
      natsConnectionHandler reconnectedCb, void *closure), \
    (opts, reconnectedCb, closure)) \
  F(natsStatus, natsOptions_SetRetryOnFailedConnect, (natsOptions *opts, bool retry, \
      natsConnectionHandler connectedCb, void* closure), \
    (opts, retry, connectedCb, closure)) \
  F(natsStatus, natsOptions_SetSecure, (natsOptions *opts, bool secure), (opts, secure)) \
  F(natsStatus, natsOptions_SetServers, (natsOptions *opts, const char** servers, \
      int serversCount), \
    (opts, servers, serversCount)) \
  F(natsStatus, natsOptions_SetTimeout, (natsOptions *opts, int64_t timeout), (opts, timeout)) \
  F(natsStatus, natsOptions_SetURL, (natsOptions *opts, const char *url), (opts, url)) \
  F(natsStatus, natsOptions_SetUserCredentialsFromFiles, (natsOptions *opts, \
      const char *userOrChainedFile, const char *seedFile), \
    (opts, userOrChainedFile, seedFile)) \
  F(natsStatus, natsOptions_SetUserInfo, (natsOptions *opts, const char *user, \
      const char *password), \
    (opts, user, password)) \
  F(const char *, natsStatus_GetText, (natsStatus s), (s)) \
  P(natsSubscription_Destroy, (natsSubscription *sub), (sub)) \
  F(natsStatus, natsSubscription_NextMsg, (natsMsg **nextMsg, natsSubscription *sub, \
      int64_t timeout), \
    (nextMsg, sub, timeout)) \
  F(natsStatus, natsSubscription_Unsubscribe, (natsSubscription *sub), (sub)) \
  F(const char *, nats_GetLastError, (natsStatus *status), (status)) \
  F(uint32_t, nats_GetVersionNumber, (void), ()) \
  F(natsStatus, nats_Open, (int64_t lockSpinCount), (lockSpinCount))

enum {
  CNATS_FUNCTIONS(OPTIONAL_LIBRARY_FUNCTION_INDEX, OPTIONAL_LIBRARY_PROCEDURE_INDEX)
  cnats_function_count
};
static const char *const names[] = {
    CNATS_FUNCTIONS(OPTIONAL_LIBRARY_FUNCTION_NAME, OPTIONAL_LIBRARY_PROCEDURE_NAME)};

OPTIONAL_LIBRARY_LOADER(cnats_load, "libnats.so.3.4", "libnats3.4", cnats_function_count)

CNATS_FUNCTIONS(OPTIONAL_LIBRARY_FUNCTION, OPTIONAL_LIBRARY_PROCEDURE)
