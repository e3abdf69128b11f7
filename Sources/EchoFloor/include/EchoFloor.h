#pragma once
int echo_floor_placeholder(void);
