/* Multi-head attention: a key/value head per query head (attention.c). */
#define HEADS DIM_HEADS
#define KV_HEADS DIM_HEADS
#define HEAD_D (DIM_H / HEADS)
#define KEYS DIM_S
#include "attention.c"
