// The Coral fidelity campaign's probe program generator (bench/coral_fidelity): determinism,
// counts per kind, unique names, and static checks of the kernel contract that need no
// toolchain (global main, code and data sizes, integer-only vector instructions). The
// oracle check itself (assemble, link, run on coral-rtl) is
// bench/coral_fidelity/check_probes.sh.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bench/coral_fidelity/probe_programs.h"

namespace tlmcraft::bench {
namespace {

// Instruction words in the program's .text (pseudo-instructions `li`, `la` and `call`
// counted as two) and bytes in .data/.bss.
struct Sizes {
  int insns = 0;
  int data_bytes = 0;
};

Sizes sizes_of(const std::string& src) {
  Sizes s;
  std::istringstream in(src);
  std::string line;
  bool text = false;
  while (std::getline(in, line)) {
    if (line.rfind("  .text", 0) == 0) text = true;
    if (line.rfind("  .data", 0) == 0 || line.rfind("  .bss", 0) == 0) text = false;
    if (line.size() < 3 || line.rfind("  ", 0) != 0 || line[2] == '#') continue;
    std::istringstream words(line);
    std::string op;
    words >> op;
    if (op[0] == '.') {
      std::string rest;
      std::getline(words, rest);
      if (op == ".zero") s.data_bytes += std::stoi(rest);
      const int commas = int(std::count(rest.begin(), rest.end(), ',')) + 1;
      if (op == ".word") s.data_bytes += 4 * commas;
      if (op == ".half") s.data_bytes += 2 * commas;
      if (op == ".byte") s.data_bytes += commas;
      continue;
    }
    if (text) s.insns += (op == "li" || op == "la" || op == "call") ? 2 : 1;
  }
  return s;
}

TEST(CoralProbePrograms, DefaultCampaignHasAtLeast500UniquelyNamedPrograms) {
  const auto programs = generate_probe_programs();
  EXPECT_GE(programs.size(), 500u);
  std::set<std::string> names;
  for (const auto& p : programs) {
    EXPECT_TRUE(names.insert(p.name).second) << "duplicate name " << p.name;
    EXPECT_EQ(p.name.rfind(p.kind + "/", 0), 0u) << p.name;
  }
}

TEST(CoralProbePrograms, EveryKindHasAtLeast42Programs) {
  const auto programs = generate_probe_programs();
  std::map<std::string, int> per_kind;
  for (const auto& p : programs) ++per_kind[p.kind];
  ASSERT_EQ(probe_kinds().size(), 16u);  // the 12 of issue 11, widening_acc, vec_pipeline, vd_field, fetch_lanes (issue 25)
  EXPECT_EQ(per_kind.size(), probe_kinds().size());
  for (const auto& k : probe_kinds()) EXPECT_GE(per_kind[k], 42) << k;
}

TEST(CoralProbePrograms, GenerationIsDeterministic) {
  const auto a = generate_probe_programs(7, 20);
  const auto b = generate_probe_programs(7, 20);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].kind, b[i].kind);
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].source, b[i].source) << a[i].name;
  }
}

uint64_t fnv1a(const std::vector<ProbeProgram>& programs) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const auto& p : programs)
    for (const std::string* f : {&p.kind, &p.name, &p.source})
      for (unsigned char c : *f + '\n') h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// The default campaign, pinned: the generator uses no floating point and no library
// randomness, so every compiler and host must produce these bytes (g++ 12 and clang++ 16
// agree). A deliberate generator change updates the value (the failure prints the new one)
// and re-runs bench/coral_fidelity/check_probes.sh.
TEST(CoralProbePrograms, DefaultCampaignBytesArePinned) {
  const uint64_t h = fnv1a(generate_probe_programs());
  EXPECT_EQ(h, 0x1ff1717c4b590bd7ull) << "new value: 0x" << std::hex << h;
}

TEST(CoralProbePrograms, SeedChangesThePrograms) {
  const auto a = generate_probe_programs(1, 10);
  const auto b = generate_probe_programs(2, 10);
  ASSERT_EQ(a.size(), b.size());
  int same = 0;
  for (size_t i = 0; i < a.size(); ++i) same += a[i].source == b[i].source;
  EXPECT_LT(same, int(a.size()) / 10);
}

TEST(CoralProbePrograms, RaisingPerKindOnlyAppends) {
  const auto small = generate_probe_programs(3, 4);
  const auto large = generate_probe_programs(3, 9);
  ASSERT_EQ(small.size(), 4 * probe_kinds().size());
  for (size_t k = 0; k < probe_kinds().size(); ++k)
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(small[k * 4 + i].name, large[k * 9 + i].name);
      EXPECT_EQ(small[k * 4 + i].source, large[k * 9 + i].source);
    }
  EXPECT_TRUE(generate_probe_programs(1, 0).empty());
}

TEST(CoralProbePrograms, ProgramsFollowTheKernelContract) {
  for (const auto& p : generate_probe_programs()) {
    const std::string& s = p.source;
    EXPECT_NE(s.find("\n  .globl main\n"), std::string::npos) << p.name;
    EXPECT_NE(s.find("\nmain:\n"), std::string::npos) << p.name;
    EXPECT_NE(s.find("\n  ret\n  .size main, .-main\n"), std::string::npos) << p.name;
    const Sizes z = sizes_of(s);
    EXPECT_GT(z.insns, 3) << p.name;
    EXPECT_LE(z.insns, 1000) << p.name;  // ITCM is 8 KB (2048 words) with crt0
    EXPECT_LE(z.data_bytes, 16384) << p.name;
    // rv32imf_zve32x: integer vectors with 8- to 32-bit elements only.
    for (const char* w : {" e64,", "e64.v", "ei64.v", " mf8,"})
      EXPECT_EQ(s.find(w), std::string::npos) << p.name << ": " << w;
    EXPECT_EQ(s.find("\n  vf"), std::string::npos) << p.name;
    EXPECT_EQ(s.find("mpause"), std::string::npos) << p.name;  // crt0 halts after main
  }
}

}  // namespace
}  // namespace tlmcraft::bench
