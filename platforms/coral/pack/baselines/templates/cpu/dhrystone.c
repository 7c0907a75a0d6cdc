/* dhrystone: a Dhrystone-like workload of our own (integer arithmetic, string copy and
   compare, record copies through pointers, an enumeration state machine, array updates),
   seeded by x[0..7], run DIM_RUNS times. Its 8 checksums go to y (tasks/cpu/cpu_programs.h
   has the same workload in C++). */
#include "scalar.c"

#define STR_LEN 32

typedef enum { IDENT_1, IDENT_2, IDENT_3, IDENT_4, IDENT_5 } ident;

typedef struct {
  int32_t kind;
  ident enum_comp;
  int32_t int_comp;
  char str_comp[STR_LEN];
} record;

static int32_t arr1[50];
static int32_t arr2[50][50];
static record rec_a, rec_b;
static int32_t int_glob;
static int32_t bool_glob;
static char ch1_glob, ch2_glob;

static void str_copy(char* d, const char* s) {
  SCALAR_LOOP
  while ((*d++ = *s++) != 0) {
  }
}

static int32_t str_compare(const char* a, const char* b) {
  SCALAR_LOOP
  while (*a != 0 && *a == *b) {
    ++a;
    ++b;
  }
  return (int32_t)(unsigned char)*a - (int32_t)(unsigned char)*b;
}

static void record_copy(record* d, const record* s) {
  d->kind = s->kind;
  d->enum_comp = s->enum_comp;
  d->int_comp = s->int_comp;
  str_copy(d->str_comp, s->str_comp);
}

/* s = "DHRYSTONE RUN " followed by the decimal digits of v */
static void run_name(char* s, uint32_t v) {
  char digits[12];
  int n = 0;
  str_copy(s, "DHRYSTONE RUN ");
  s += 14;
  SCALAR_LOOP
  do {
    digits[n++] = (char)('0' + v % 10u);
    v /= 10u;
  } while (v != 0);
  SCALAR_LOOP
  while (n > 0) *s++ = digits[--n];
  *s = 0;
}

static ident next_ident(ident e, int32_t v) {
  switch (e) {
    case IDENT_1: return v > 100 ? IDENT_3 : IDENT_2;
    case IDENT_2: return IDENT_3;
    case IDENT_3: return (v & 1) ? IDENT_5 : IDENT_4;
    case IDENT_4: return IDENT_1;
    default: return IDENT_2;
  }
}

static int32_t compare_chars(char a, char b) { return a == b ? 0 : (a < b ? 1 : 2); }

static void update_arrays(int32_t loc, int32_t val) { /* loc in [1, 39] */
  arr1[loc] = val;
  arr1[loc + 1] = arr1[loc];
  arr1[loc + 10] = loc;
  SCALAR_LOOP
  for (int32_t i = loc - 1; i <= loc + 1; ++i) arr2[loc][i] = loc;
  arr2[loc][loc] += 1;
  arr2[loc + 10][loc] = arr1[loc];
  int_glob = int_glob % 1000 + 5;
}

static void update_record(record* p, int32_t v) {
  record_copy(&rec_b, p);
  p->int_comp = v;
  rec_b.int_comp = p->int_comp + 3;
  if (rec_b.kind == 0) {
    rec_b.enum_comp = next_ident(p->enum_comp, v);
    p->enum_comp = rec_b.enum_comp;
    rec_b.int_comp = rec_b.int_comp * 2 - v;
    p->kind = v & 1;
  } else {
    rec_b.kind = 0;
    record_copy(p, &rec_b);
  }
}

int main(void) {
  const int32_t* s = (const int32_t*)X_ADDR;
  int32_t* y = (int32_t*)Y_ADDR;
  char str1[STR_LEN], str2[STR_LEN];
  uint32_t hash = 0;

  SCALAR_LOOP
  for (int i = 0; i < 50; ++i) {
    arr1[i] = 0;
    SCALAR_LOOP
    for (int j = 0; j < 50; ++j) arr2[i][j] = 0;
  }
  int_glob = s[0];
  bool_glob = 0;
  ch1_glob = 'A';
  ch2_glob = 'B';
  rec_a.kind = 0;
  rec_a.enum_comp = IDENT_3;
  rec_a.int_comp = s[1];
  str_copy(rec_a.str_comp, "DHRYSTONE PROGRAM, SOME STRING");
  str_copy(str1, "DHRYSTONE PROGRAM, 1'ST STRING");

  SCALAR_LOOP
  for (int32_t r = 1; r <= DIM_RUNS; ++r) {
    run_name(str2, (uint32_t)(r + s[2]));
    int32_t i1 = 2 + (r & 7);
    int32_t i2 = 3 + (s[3] & 15);
    int32_t i3 = i2 * i1 + s[4] % 97 + 1;
    bool_glob = str_compare(str1, str2) > 0 ? 1 : (r & 1);
    SCALAR_LOOP
    while (i1 < i2) {
      i3 = 5 * i1 + i2;
      ++i1;
    }
    update_arrays(1 + (i1 + r) % 39, i3);
    update_record(&rec_a, i3 + r);
    SCALAR_LOOP
    for (char c = 'A'; c <= ch2_glob; ++c)
      if (compare_chars(c, 'C') == 0) ch2_glob = (char)('A' + r % 3);
    if (ch2_glob < 'C') ch2_glob = (char)(ch2_glob + 1);
    ch1_glob = (char)('A' + (r + s[5]) % 26);
    i2 = i2 * i1;
    i1 = i2 / i3;
    i2 = i2 % (s[6] % 13 + 1);
    str_copy(rec_a.str_comp, str2);
    hash = hash * 31u + (uint32_t)(str2[14] + ch1_glob) + (uint32_t)rec_b.int_comp + (uint32_t)i2;
    int_glob += (i1 ^ r) + s[7] % 7;
  }

  int32_t sum1 = 0, sum2 = 0;
  SCALAR_LOOP
  for (int i = 0; i < 50; ++i) {
    sum1 += arr1[i];
    SCALAR_LOOP
    for (int j = 0; j < 50; ++j) sum2 += arr2[i][j];
  }
  uint32_t str_hash = 0;
  SCALAR_LOOP
  for (const char* p = rec_a.str_comp; *p != 0; ++p) str_hash = str_hash * 131u + (unsigned char)*p;
  y[0] = int_glob;
  y[1] = bool_glob;
  y[2] = ch1_glob * 256 + ch2_glob;
  y[3] = sum1;
  y[4] = sum2;
  y[5] = rec_a.int_comp;
  y[6] = (int32_t)rec_b.enum_comp * 16 + (int32_t)rec_a.enum_comp;
  y[7] = (int32_t)(hash ^ str_hash);
  return 0;
}
