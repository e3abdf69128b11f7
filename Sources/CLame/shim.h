#ifndef CLAME_SHIM_H
#define CLAME_SHIM_H
#include <lame/lame.h>
#endif
