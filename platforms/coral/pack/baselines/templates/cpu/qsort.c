/* qsort: y = x sorted ascending (signed). Quicksort in place on y: median-of-three pivot,
   Hoare partition, recursion on the smaller part (stack depth O(log n)), insertion sort
   below 12 elements. */
#include "scalar.c"

static void insertion_sort(int32_t* v, int n) {
  SCALAR_LOOP
  for (int i = 1; i < n; ++i) {
    int32_t key = v[i];
    int j = i - 1;
    SCALAR_LOOP
    while (j >= 0 && v[j] > key) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = key;
  }
}

static void swap(int32_t* a, int32_t* b) {
  int32_t t = *a;
  *a = *b;
  *b = t;
}

static void quicksort(int32_t* v, int n) {
  SCALAR_LOOP
  while (n > 12) {
    int mid = n / 2;
    if (v[mid] < v[0]) swap(&v[mid], &v[0]);
    if (v[n - 1] < v[0]) swap(&v[n - 1], &v[0]);
    if (v[n - 1] < v[mid]) swap(&v[n - 1], &v[mid]);
    const int32_t pivot = v[mid];
    int i = -1, j = n;
    SCALAR_LOOP
    for (;;) {
      SCALAR_LOOP
      do ++i; while (v[i] < pivot);
      SCALAR_LOOP
      do --j; while (v[j] > pivot);
      if (i >= j) break;
      swap(&v[i], &v[j]);
    }
    /* [0, j] <= pivot <= [j + 1, n) */
    const int left = j + 1, right = n - left;
    if (left < right) {
      quicksort(v, left);
      v += left;
      n = right;
    } else {
      quicksort(v + left, right);
      n = left;
    }
  }
  insertion_sort(v, n);
}

int main(void) {
  const int32_t* x = (const int32_t*)X_ADDR;
  int32_t* y = (int32_t*)Y_ADDR;
  SCALAR_LOOP
  for (int i = 0; i < DIM_N; ++i) y[i] = x[i];
  quicksort(y, DIM_N);
  return 0;
}
