#include "tasks/cpu/cpu_programs.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>

namespace tlmcraft::tasks::cpu {
namespace {

using Words = std::vector<uint32_t>;

Words words(const TensorSet& in, const std::string& name) {
  const Tensor& t = find(in, name);
  Words w(t.data.size());
  for (size_t i = 0; i < w.size(); ++i) w[i] = uint32_t(int32_t(int64_t(t.data[i])));
  return w;
}

// A CPU program's tensors are the same on every platform that runs it (no per-platform lists).
std::vector<const TensorSpec*> outputs_of(const TaskSpec& task) {
  std::vector<const TensorSpec*> v;
  for (const auto& t : task.tensors)
    if (t.role == Role::Output) v.push_back(&t);
  return v;
}
std::vector<const TensorSpec*> inputs_of(const TaskSpec& task) {
  std::vector<const TensorSpec*> v;
  for (const auto& t : task.tensors)
    if (t.role != Role::Output) v.push_back(&t);
  return v;
}

Tensor output(const TaskSpec& task, const Params& params, const Words& w) {
  const auto outs = outputs_of(task);
  Tensor t(outs.at(0)->name, task.shape_of(*outs.at(0), params));
  if (t.data.size() != w.size())
    throw std::logic_error("cpu reference of " + task.name + " produced " + std::to_string(w.size()) + " values for " +
                           std::to_string(t.data.size()));
  for (size_t i = 0; i < w.size(); ++i) t.data[i] = double(int32_t(w[i]));
  return t;
}

int32_t median3(int32_t a, int32_t b, int32_t c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }

Words sorted_signed(Words v) {
  std::sort(v.begin(), v.end(), [](uint32_t a, uint32_t b) { return int32_t(a) < int32_t(b); });
  return v;
}

// Towers of Hanoi: the labels end on peg 2 in their original order; moves = 2^d - 1;
// the checksum follows the recursive move order.
Words towers(const Words& labels) {
  const int d = int(labels.size());
  uint32_t moves = 0, checksum = 0;
  std::function<void(int, int, int, int)> hanoi = [&](int n, int from, int to, int via) {
    if (n == 0) return;
    hanoi(n - 1, from, via, to);
    ++moves;
    checksum += moves * uint32_t(3 * from + to);
    hanoi(n - 1, via, to, from);
  };
  hanoi(d, 0, 2, 1);
  Words y(labels);
  y.push_back(moves);
  y.push_back(checksum);
  return y;
}

using Program = std::function<Words(const TensorSet&, const Params&)>;

const std::map<std::string, Program>& programs() {
  static const std::map<std::string, Program> p{
      {"multiply",
       [](const TensorSet& in, const Params&) {
         const Words a = words(in, "a"), b = words(in, "b");
         Words y(a.size());
         for (size_t i = 0; i < y.size(); ++i) y[i] = a[i] * b[i];
         return y;
       }},
      {"vvadd",
       [](const TensorSet& in, const Params&) {
         const Words a = words(in, "a"), b = words(in, "b");
         Words y(a.size());
         for (size_t i = 0; i < y.size(); ++i) y[i] = a[i] + b[i];
         return y;
       }},
      {"copy", [](const TensorSet& in, const Params&) { return words(in, "x"); }},
      {"median",
       [](const TensorSet& in, const Params&) {
         const Words x = words(in, "x");
         Words y(x);
         for (size_t i = 1; i + 1 < x.size(); ++i) y[i] = uint32_t(median3(int32_t(x[i - 1]), int32_t(x[i]), int32_t(x[i + 1])));
         return y;
       }},
      {"dotprod",
       [](const TensorSet& in, const Params&) {
         const Words a = words(in, "a"), b = words(in, "b");
         uint32_t s = 0;
         for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
         return Words{s};
       }},
      {"qsort", [](const TensorSet& in, const Params&) { return sorted_signed(words(in, "x")); }},
      {"rsort", [](const TensorSet& in, const Params&) { return sorted_signed(words(in, "x")); }},
      {"towers", [](const TensorSet& in, const Params&) { return towers(words(in, "x")); }},
      {"dhrystone",
       [](const TensorSet& in, const Params& params) {
         const Words x = words(in, "x");
         std::vector<int32_t> seeds(x.begin(), x.end());
         const std::vector<int32_t> r = dhrystone_like(seeds, int(params.at("runs")));
         return Words(r.begin(), r.end());
       }},
  };
  return p;
}

}  // namespace

const std::vector<std::string>& program_names() {
  static const std::vector<std::string> names{"multiply", "vvadd", "copy",   "median",    "dotprod",
                                              "qsort",    "rsort", "towers", "dhrystone", "pmp"};
  return names;
}

bool is_cpu_program(const std::string& name) {
  const auto& n = program_names();
  return std::find(n.begin(), n.end(), name) != n.end();
}

TensorSet reference(const TaskSpec& task, const Params& params, const TensorSet& inputs) {
  const auto it = programs().find(task.name);
  if (it == programs().end()) throw std::invalid_argument("CPU program '" + task.name + "' has no reference");
  for (const TensorSpec* t : inputs_of(task)) {
    const Tensor& got = find(inputs, t->name);
    if (got.shape != task.shape_of(*t, params))
      throw std::invalid_argument("reference of " + task.name + ": input '" + t->name + "' has shape " +
                                  shape_text(got.shape) + ", the spec says " + shape_text(task.shape_of(*t, params)));
  }
  return {output(task, params, it->second(inputs, params))};
}

// ------------------------------------------------------------ the Dhrystone-like workload
// Mirrors templates/cpu/dhrystone.c statement by statement (same types, same order).
namespace {

constexpr int kStrLen = 32;
enum Ident { kIdent1, kIdent2, kIdent3, kIdent4, kIdent5 };

struct Record {
  int32_t kind = 0;
  Ident enum_comp = kIdent1;
  int32_t int_comp = 0;
  char str_comp[kStrLen] = {};
};

struct Dhry {
  int32_t arr1[50] = {};
  int32_t arr2[50][50] = {};
  Record rec_a, rec_b;
  int32_t int_glob = 0, bool_glob = 0;
  char ch1 = 'A', ch2 = 'B';

  static void str_copy(char* d, const char* s) { std::strcpy(d, s); }
  static int32_t str_compare(const char* a, const char* b) {
    while (*a != 0 && *a == *b) ++a, ++b;
    return int32_t(static_cast<unsigned char>(*a)) - int32_t(static_cast<unsigned char>(*b));
  }
  static void record_copy(Record* d, const Record* s) {
    d->kind = s->kind;
    d->enum_comp = s->enum_comp;
    d->int_comp = s->int_comp;
    str_copy(d->str_comp, s->str_comp);
  }
  static void run_name(char* s, uint32_t v) {
    std::string digits = std::to_string(v);
    str_copy(s, ("DHRYSTONE RUN " + digits).c_str());
  }
  static Ident next_ident(Ident e, int32_t v) {
    switch (e) {
      case kIdent1: return v > 100 ? kIdent3 : kIdent2;
      case kIdent2: return kIdent3;
      case kIdent3: return (v & 1) ? kIdent5 : kIdent4;
      case kIdent4: return kIdent1;
      default: return kIdent2;
    }
  }
  static int32_t compare_chars(char a, char b) { return a == b ? 0 : (a < b ? 1 : 2); }
  void update_arrays(int32_t loc, int32_t val) {
    arr1[loc] = val;
    arr1[loc + 1] = arr1[loc];
    arr1[loc + 10] = loc;
    for (int32_t i = loc - 1; i <= loc + 1; ++i) arr2[loc][i] = loc;
    arr2[loc][loc] += 1;
    arr2[loc + 10][loc] = arr1[loc];
    int_glob = int_glob % 1000 + 5;
  }
  void update_record(Record* p, int32_t v) {
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
};

}  // namespace

std::vector<int32_t> dhrystone_like(const std::vector<int32_t>& s, int runs) {
  if (s.size() != 8) throw std::invalid_argument("dhrystone: 8 seeds expected");
  auto d = std::make_unique<Dhry>();
  char str1[kStrLen], str2[kStrLen];
  uint32_t hash = 0;
  d->int_glob = s[0];
  d->rec_a.kind = 0;
  d->rec_a.enum_comp = kIdent3;
  d->rec_a.int_comp = s[1];
  Dhry::str_copy(d->rec_a.str_comp, "DHRYSTONE PROGRAM, SOME STRING");
  Dhry::str_copy(str1, "DHRYSTONE PROGRAM, 1'ST STRING");
  for (int32_t r = 1; r <= runs; ++r) {
    Dhry::run_name(str2, uint32_t(r + s[2]));
    int32_t i1 = 2 + (r & 7);
    int32_t i2 = 3 + (s[3] & 15);
    int32_t i3 = i2 * i1 + s[4] % 97 + 1;
    d->bool_glob = Dhry::str_compare(str1, str2) > 0 ? 1 : (r & 1);
    while (i1 < i2) {
      i3 = 5 * i1 + i2;
      ++i1;
    }
    d->update_arrays(1 + (i1 + r) % 39, i3);
    d->update_record(&d->rec_a, i3 + r);
    for (char c = 'A'; c <= d->ch2; ++c)
      if (Dhry::compare_chars(c, 'C') == 0) d->ch2 = char('A' + r % 3);
    if (d->ch2 < 'C') d->ch2 = char(d->ch2 + 1);
    d->ch1 = char('A' + (r + s[5]) % 26);
    i2 = i2 * i1;
    i1 = i2 / i3;
    i2 = i2 % (s[6] % 13 + 1);
    Dhry::str_copy(d->rec_a.str_comp, str2);
    hash = hash * 31u + uint32_t(str2[14] + d->ch1) + uint32_t(d->rec_b.int_comp) + uint32_t(i2);
    d->int_glob += (i1 ^ r) + s[7] % 7;
  }
  int32_t sum1 = 0, sum2 = 0;
  for (int i = 0; i < 50; ++i) {
    sum1 += d->arr1[i];
    for (int j = 0; j < 50; ++j) sum2 += d->arr2[i][j];
  }
  uint32_t str_hash = 0;
  for (const char* p = d->rec_a.str_comp; *p != 0; ++p) str_hash = str_hash * 131u + static_cast<unsigned char>(*p);
  return {d->int_glob, d->bool_glob, d->ch1 * 256 + d->ch2, sum1, sum2, d->rec_a.int_comp,
          int32_t(d->rec_b.enum_comp) * 16 + int32_t(d->rec_a.enum_comp), int32_t(hash ^ str_hash)};
}

}  // namespace tlmcraft::tasks::cpu
