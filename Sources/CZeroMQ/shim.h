#ifndef CZEROMQ_SHIM_H
#define CZEROMQ_SHIM_H

// The libzmq C API (stable part only), for the ZeroMQ Swift wrapper. No other target imports this module.
#include <zmq.h>
// malloc_trim: memory libzmq freed (a closed connection's queue) given back to the system (ZeroMQ.releaseFreeMemory).
#include <malloc.h>

#endif
