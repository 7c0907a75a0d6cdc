// The differential-testing harness itself, and a fixed-seed batch of random programs
// (scalar and vector) whose state must match qemu-riscv32 exactly.
#include <gtest/gtest.h>

#include <cstdlib>

#include <cstring>
#include <fstream>
#include <stdexcept>

#include "tests/isa/riscv/difftest/difftest.h"
#include "tests/isa/riscv/difftest/elf32.h"
#include "tests/unique_temp_dir.h"

namespace tlmcraft::isa::riscv::difftest {
namespace {

TEST(RiscvDifftestHarness, GeneratorIsDeterministicPerSeed) {
  GeneratorOptions options;
  options.units = 40;
  const GeneratedProgram a = generate_program(7, options), b = generate_program(7, options),
                         c = generate_program(8, options);
  EXPECT_EQ(a.source(), b.source());
  EXPECT_NE(a.source(), c.source());
  EXPECT_EQ(a.units.size(), 40u);
  EXPECT_EQ(a.data.size(), kBufBytes / 4);
  // A prefix keeps the prologue and the epilogue.
  const std::string prefix = a.source(0);
  EXPECT_NE(prefix.find("la s11, buf"), std::string::npos);
  EXPECT_NE(prefix.find("li a7, 64"), std::string::npos);
  EXPECT_EQ(prefix.find("# unit 0"), std::string::npos);
}

TEST(RiscvDifftestHarness, CompareNamesEveryDifferingField) {
  std::vector<uint8_t> a(kOutputBytes), b(kOutputBytes);
  b[kDumpX + 4 * 9] = 1;     // x10 = a0
  b[kDumpF + 4 * 3 + 3] = 0x80;  // f3 sign bit
  b[kDumpCsr + 4] = 4;       // vl
  b[kDumpV + 16 * 2] = 0xff; // v2 byte 0
  b[8] = 2;                  // buf word 2
  const std::vector<std::string> d = compare_outputs(a, b);
  ASSERT_EQ(d.size(), 5u);
  EXPECT_EQ(d[0], "buf+8: iss 0x00000000, qemu 0x00000002");
  EXPECT_EQ(d[1], "x10 (a0): iss 0x00000000, qemu 0x00000001");
  EXPECT_EQ(d[2], "f3: iss 0x00000000, qemu 0x80000000");
  EXPECT_EQ(d[3], "vl: iss 0x00000000, qemu 0x00000004");
  EXPECT_EQ(d[4], "v2: iss 0x00000000000000000000000000000000, qemu 0x000000000000000000000000000000ff");
  EXPECT_TRUE(compare_outputs(a, a).empty());
}

TEST(RiscvDifftestHarness, BothSidesRunAHandWrittenProgram) {
  DiffTester tester;
  std::string why;
  if (!tester.tools_available(&why)) {
    if (std::getenv("CI")) FAIL() << why << " (required under CI: make test installs qemu-user)";
    GTEST_SKIP() << why;
  }
  GeneratedProgram p = generate_program(1, GeneratorOptions{0, true});
  p.units = {"li a0, 42", "li t0, 7\nmul a1, a0, t0", "sw a1, 16(s11)"};  // a1 = 42 * 7 = 294
  std::string error;
  const std::string elf = tester.build(p.source(), error);
  ASSERT_FALSE(elf.empty()) << error;
  const RunOutput qemu = tester.run_qemu(elf), iss = tester.run_iss(elf);
  ASSERT_TRUE(qemu.ok) << qemu.error;
  ASSERT_TRUE(iss.ok) << iss.error;
  uint32_t a0 = 0, a1 = 0, stored = 0;
  std::memcpy(&a0, iss.bytes.data() + kDumpX + 4 * 9, 4);
  std::memcpy(&a1, iss.bytes.data() + kDumpX + 4 * 10, 4);
  std::memcpy(&stored, iss.bytes.data() + 16, 4);
  EXPECT_EQ(a0, 42u);
  EXPECT_EQ(a1, 294u);
  EXPECT_EQ(stored, 294u);
  EXPECT_TRUE(compare_outputs(iss.bytes, qemu.bytes).empty());
  EXPECT_GT(iss.instructions, 100u);  // prologue + body + dump
}

TEST(RiscvDifftestHarness, AssemblerErrorsAreReported) {
  DiffTester tester;
  std::string why;
  if (!tester.tools_available(&why)) {
    if (std::getenv("CI")) FAIL() << why << " (required under CI: make test installs qemu-user)";
    GTEST_SKIP() << why;
  }
  std::string error;
  EXPECT_EQ(tester.build("  .text\n  bogus a0, a1\n", error), "");
  EXPECT_NE(error.find("bogus"), std::string::npos) << error;
}

TEST(RiscvDifftestHarness, ElfReaderRejectsBadFiles) {
  auto error_of = [](const std::string& path) {
    try {
      read_elf32(path);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("/nonexistent/p.elf"), "/nonexistent/p.elf: cannot open");
  const ::tlmcraft::test::UniqueTempDir scratch("elf32-errors");
  const std::string& dir = scratch.path();
  const std::string text = dir + "/not_elf.bin";
  std::ofstream(text) << "this is not an ELF file, just some text of enough length to read";
  EXPECT_EQ(error_of(text), text + ": not an ELF file");
  // A 64-bit ELF header (EI_CLASS = 2).
  std::string header(64, '\0');
  header[0] = 0x7f, header[1] = 'E', header[2] = 'L', header[3] = 'F', header[4] = 2, header[5] = 1;
  const std::string elf64 = dir + "/elf64.bin";
  std::ofstream(elf64, std::ios::binary) << header;
  EXPECT_EQ(error_of(elf64), elf64 + ": not a 32-bit little-endian ELF file");
  // 32-bit, but x86 (e_machine 3).
  header[4] = 1;
  header[18] = 3;
  const std::string x86 = dir + "/x86.bin";
  std::ofstream(x86, std::ios::binary) << header;
  EXPECT_EQ(error_of(x86), x86 + ": not a RISC-V ELF file");
  // RISC-V (243) with a program header table beyond the end of the file.
  header[18] = char(243);
  header[28] = char(0xf0);  // e_phoff = 240
  header[44] = 1;           // e_phnum = 1
  const std::string truncated = dir + "/truncated.bin";
  std::ofstream(truncated, std::ios::binary) << header;
  EXPECT_EQ(error_of(truncated), truncated + ": truncated ELF file");
}

// The fixed-seed batch: 200 random programs of 100 units (about 45% vector units) must match qemu.
TEST(RiscvDifftest, FixedSeedBatchMatchesQemu) {
  DiffTester tester;
  std::string why;
  if (!tester.tools_available(&why)) {
    if (std::getenv("CI")) FAIL() << why << " (required under CI: make test installs qemu-user)";
    GTEST_SKIP() << why;
  }
  GeneratorOptions options;
  options.units = 100;
  unsigned failures = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const CaseResult r = tester.run_case(generate_program(seed, options));
    if (!r.passed) {
      ++failures;
      ADD_FAILURE() << r.report;
      if (failures >= 3) break;  // keep the log readable
    }
  }
  EXPECT_EQ(failures, 0u);
}

}  // namespace
}  // namespace tlmcraft::isa::riscv::difftest
