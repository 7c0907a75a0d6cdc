// The Coral toolchain's caches as `codesign explore` relies on them (docs/codesign.md,
// "Coral", "Where the time goes"): one build per source whatever the file is called, and
// for C kernels with composed instructions two stages, clang's assembly (shared by every
// variant whose instructions the kernel does not name) and the peephole's output linked
// once. Each test proves a stage was reused by breaking PATH after the first builds: a
// tool run would then fail to start.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "isa/riscv/custom_ext.h"
#include "platforms/coral/toolchain.h"

namespace tlmcraft::coral {
namespace {

// x << 2 + y: clang emits `slli` then `add` (the array-index idiom). The pointer cast
// draws clang's default-on incompatible-pointer-types warning at line 5.
const char* kKernel =
    "#include <stdint.h>\n"
    "int main(void) {\n"
    "  volatile uint32_t* p = (volatile uint32_t*)0x20000000u;\n"
    "  uint32_t x = p[0], y = p[1];\n"
    "  volatile uint32_t* q = (volatile int16_t*)0x20000010u;\n"
    "  p[2] = (x << 2) + y;\n"
    "  *q = 0;\n"
    "  return 0;\n"
    "}\n";

// An overlay with one composed R instruction `mnemonic` of `steps` in custom-3 funct7 `f7`.
std::shared_ptr<const isa::riscv::CustomExtensions> overlay(const std::string& mnemonic, const std::string& steps,
                                                            int f7) {
  auto ext = std::make_shared<isa::riscv::CustomExtensions>();
  isa::riscv::parse_custom_overlay(
      "isa: riscv\ninstructions:\n  - mnemonic: " + mnemonic +
          "\n    encoding: {opcode: custom-3, format: r, funct3: 4, funct7: " + std::to_string(f7) +
          "}\n    operands:\n"
          "      - {name: rd, field: rd, role: write, value: x}\n"
          "      - {name: rs1, field: rs1, role: read, value: x}\n"
          "      - {name: rs2, field: rs2, role: read, value: x}\n"
          "    compose: {temps: [t0], steps: [" +
          steps + "]}\n    timing: {unit: alu, latency: 1, ii: 1}\n",
      "overlay.yaml", *ext);
  return ext;
}

struct Build {
  bool ok = false;
  isa::Program prog;
  std::vector<isa::Diagnostic> diags;
};

Build build(const std::string& file, std::shared_ptr<const isa::riscv::CustomExtensions> custom) {
  ToolchainOptions o;
  o.disk_cache = false;  // the memory caches alone: nothing left behind, nothing reused from other runs
  o.custom = std::move(custom);
  Build b;
  b.ok = build_kernel(kKernel, file, b.prog, b.diags, o);
  return b;
}

// PATH without the tools for the scope's duration.
struct NoTools {
  std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
  NoTools() { ::setenv("PATH", "/nonexistent-tlmcraft-test", 1); }
  ~NoTools() { ::setenv("PATH", saved.c_str(), 1); }
};

const isa::Diagnostic* warning(const Build& b) {
  for (const auto& d : b.diags)
    if (d.severity == isa::Severity::Warning) return &d;
  return nullptr;
}

TEST(CoralBuildStages, OneBuildServesEveryFileNameAndDiagnosticsNameTheCaller) {
  const Build first = build("dir_a/C1.c", nullptr);
  ASSERT_TRUE(first.ok);
  ASSERT_NE(warning(first), nullptr);
  EXPECT_EQ(warning(first)->file, "dir_a/C1.c");
  EXPECT_EQ(warning(first)->line, 5u);
  NoTools no_tools;
  const Build second = build("dir_b/C1.c", nullptr);  // another variant's copy of the same kernel
  ASSERT_TRUE(second.ok);
  EXPECT_EQ(second.prog.segments[0].bytes, first.prog.segments[0].bytes);
  ASSERT_NE(warning(second), nullptr);
  EXPECT_EQ(warning(second)->file, "dir_b/C1.c");
  EXPECT_EQ(warning(second)->line, 5u);
}

TEST(CoralBuildStages, AVariantThatLeavesTheKernelUnchangedCompilesNothing) {
  // The kernel names none of these instructions: clang compiles the same text for all of
  // them. cdx (srai 31; and) matches nothing in it, cdy (xor; or) neither, cdi (slli 2; add)
  // matches once.
  const auto cdx = overlay("cdx", "\"srai t0, rs1, 31\", \"and rd, t0, rs2\"", 1);
  const auto cdy = overlay("cdy", "\"xor t0, rs1, rs2\", \"or rd, t0, rs2\"", 2);
  const auto cdi = overlay("cdi", "\"slli t0, rs1, 2\", \"add rd, rs2, t0\"", 3);
  const auto cdj = overlay("cdj", "\"slli t0, rs1, 2\", \"add rd, t0, rs2\"", 4);
  const Build x = build("C1.c", cdx);  // clang, the peephole (nothing placed), assembler, linker
  ASSERT_TRUE(x.ok);
  const Build i = build("C1.c", cdi);  // clang's assembly reused; the peephole places cdi: linked
  ASSERT_TRUE(i.ok);
  EXPECT_NE(i.prog.segments[0].bytes, x.prog.segments[0].bytes);
  NoTools no_tools;
  const Build y = build("C1.c", cdy);  // both stages reused: no tool runs
  ASSERT_TRUE(y.ok);
  EXPECT_EQ(y.prog.segments[0].bytes, x.prog.segments[0].bytes);
  // cdj places another word than cdi (its own funct7): a new peephole output must be
  // assembled, which needs the tools.
  const Build j = build("C1.c", cdj);
  EXPECT_FALSE(j.ok);
}

}  // namespace
}  // namespace tlmcraft::coral
