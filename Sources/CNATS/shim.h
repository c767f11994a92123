// libnats, the official NATS C client (Debian: libnats-dev), for the NATS cloud backend.
#include <nats/nats.h>
