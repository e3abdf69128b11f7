#ifndef COGG_SHIM_H
#define COGG_SHIM_H
#include <ogg/ogg.h>
#endif
