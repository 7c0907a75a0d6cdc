/* Grouped-query attention: HEADS / KV_HEADS query heads per key/value head (attention.c). */
#define HEADS DIM_HEADS
#define KV_HEADS DIM_KV_HEADS
#define HEAD_D (DIM_H / HEADS)
#define KEYS DIM_S
#include "attention.c"
