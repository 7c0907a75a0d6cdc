/* Scaled dot-product attention: one head (attention.c). */
#define HEADS 1
#define KV_HEADS 1
#define HEAD_D (DIM_H / HEADS)
#define KEYS DIM_S
#include "attention.c"
