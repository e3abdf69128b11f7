#include "EchoFloor.h"
int echo_floor_placeholder(void) { return 0; }
