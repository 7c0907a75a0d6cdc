/* towers: the recursive towers of Hanoi on three explicit peg stacks. Disc d (0 = the
   largest) carries the label x[d]; all discs start on peg 0 and move to peg 2.
   y[0 .. DISCS-1] = the labels on peg 2 from bottom to top, y[DISCS] = the number of
   moves, y[DISCS + 1] = sum over moves k (from 1) of k * (3 * from + to) (mod 2^32). */
#include "scalar.c"

typedef struct {
  int32_t discs[DIM_DISCS]; /* bottom to top */
  int32_t height;
} peg;

static peg pegs[3];
static uint32_t moves;
static uint32_t checksum;

static void move_disc(int from, int to) {
  const int32_t label = pegs[from].discs[--pegs[from].height];
  pegs[to].discs[pegs[to].height++] = label;
  ++moves;
  checksum += moves * (uint32_t)(3 * from + to);
}

static void hanoi(int n, int from, int to, int via) {
  if (n == 0) return;
  hanoi(n - 1, from, via, to);
  move_disc(from, to);
  hanoi(n - 1, via, to, from);
}

int main(void) {
  const int32_t* x = (const int32_t*)X_ADDR;
  int32_t* y = (int32_t*)Y_ADDR;
  pegs[0].height = 0;
  pegs[1].height = 0;
  pegs[2].height = 0;
  moves = checksum = 0;
  SCALAR_LOOP
  for (int d = 0; d < DIM_DISCS; ++d) pegs[0].discs[pegs[0].height++] = x[d];
  hanoi(DIM_DISCS, 0, 2, 1);
  SCALAR_LOOP
  for (int d = 0; d < DIM_DISCS; ++d) y[d] = pegs[2].height == DIM_DISCS ? pegs[2].discs[d] : 0;
  y[DIM_DISCS] = (int32_t)moves;
  y[DIM_DISCS + 1] = (int32_t)checksum;
  return 0;
}
