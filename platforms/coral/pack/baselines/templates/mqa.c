/* Multi-query attention: one key/value head for every query head (attention.c). */
#define HEADS DIM_HEADS
#define KV_HEADS 1
#define HEAD_D (DIM_H / HEADS)
#define KEYS DIM_S
#include "attention.c"
