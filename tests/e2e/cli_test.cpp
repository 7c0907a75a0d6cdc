// The CLI as a user runs it: exit codes, the ISA reference, and kernels that cheat or
// misbehave, each reported failing with the right reason.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string out;  // stdout and stderr
};

Result tl(const std::string& args) {
  Result r;
  FILE* p = popen((std::string(TLMCRAFT_EXE) + " " + args + " 2>&1").c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

fs::path tmp_dir() {
  const fs::path d = fs::temp_directory_path() / ("tlmcraft_e2e_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

std::string write(const std::string& name, const std::string& text) {
  const fs::path p = tmp_dir() / name;
  std::ofstream(p) << text;
  return p.string();
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// SiLU over n = 1024 (task silu, config C2): 4 blocks of 4 rows; x (MXFP8, SCALE 1024) at
// HBM 0, y (BF16) at 4096. `blocks` blocks are processed; `compute` false skips the
// arithmetic; `store_input` stores x instead of y.
std::string silu_c2(int blocks, bool compute = true, bool store_input = false) {
  std::string k =
      "S_ADDI_INT gp1, gp0, 1024\nC_SET_SCALE_REG gp1\nS_ADDI_INT gp2, gp0, 4096\nC_SET_ADDR_REG a1, gp0, gp2\n"
      "S_LD_FP f1, gp0, 1\nS_ADDI_INT gp7, gp0, 0\nC_LOOP_START gp8, " + std::to_string(blocks) + "\n"
      "  H_PREFETCH_V gp0, gp7, a0, 0, 0\n  S_ADDI_INT gp3, gp0, 0\n  S_ADDI_INT gp5, gp0, 256\n";
  if (compute)
    k += "  C_LOOP_START gp6, 4\n    V_SUB_VF gp5, gp3, f0, 0, 1\n    V_EXP_V gp5, gp5, 0\n    V_ADD_VF gp5, gp5, f1, 0\n"
         "    V_RECI_V gp5, gp5, 0\n    V_MUL_VV gp5, gp5, gp3, 0\n    S_ADDI_INT gp3, gp3, 64\n"
         "    S_ADDI_INT gp5, gp5, 64\n  C_LOOP_END gp6\n";
  k += std::string("  S_ADDI_INT gp5, gp0, ") + (store_input ? "0" : "256") +
       "\n  H_STORE_V gp5, gp7, a1, 0, 2\n  S_ADDI_INT gp7, gp7, 256\nC_LOOP_END gp8\n";
  return k;
}

nlohmann::json evaluate(const std::string& kernel_text, const std::string& extra = "") {
  const std::string path = write("k.asm", kernel_text);
  const Result r = tl("run --platform plena --task silu --config C2 " + path + " --json " + extra);
  EXPECT_EQ(r.code, nlohmann::json::parse(r.out)["status"] == "pass" ? 0 : 1) << r.out;
  return nlohmann::json::parse(r.out);
}

TEST(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(tl("").code, 2);
  EXPECT_EQ(tl("frobnicate").code, 2);
  const Result r = tl("run --platform plena --set timing.mode=fast x.asm");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("timing.mode must be 'serial' or 'pipelined', got 'fast'"), std::string::npos) << r.out;
  EXPECT_EQ(tl("run --platform nosuch x.asm").code, 2);
  EXPECT_EQ(tl("run --help").code, 0);
}

TEST(Cli, IsaDocIsTheCommittedReference) {
  const Result r = tl("isa doc plena");
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(r.out, read(std::string(TLMCRAFT_SOURCE_DIR) + "/docs/isa/plena.md"));
  const Result aie = tl("isa doc aie_ml");
  ASSERT_EQ(aie.code, 0);
  EXPECT_EQ(aie.out, read(std::string(TLMCRAFT_SOURCE_DIR) + "/docs/isa/aie-ml.md"));
}

TEST(Cli, AssemblyErrorsAreReportedWithPositionAndExitOne) {
  const std::string path = write("bad.asm", "S_ADDI_INT gp1, gp0, 5\nV_ADD_VV gp1, f2, gp3, 0\nFOO gp1\n");
  const Result r = tl("asm " + path);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find(path + ":2:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(path + ":3:1: error"), std::string::npos) << r.out;
}

TEST(Cli, CorrectKernelPasses) {
  const auto j = evaluate(silu_c2(4));
  EXPECT_EQ(j["status"], "pass") << j.dump();
  EXPECT_EQ(j["trials"].size(), 3u);
}

TEST(Cli, KernelWritingZerosFails) {
  const auto j = evaluate(silu_c2(4, /*compute=*/false));
  EXPECT_EQ(j["status"], "fail");
  EXPECT_EQ(j["trials"][0]["check"]["unwritten"], 0);
  EXPECT_LT(j["trials"][0]["check"]["match_rate"].get<double>(), 0.5) << j["reason"];
}

TEST(Cli, KernelWritingHalfTheOutputFails) {
  const auto j = evaluate(silu_c2(2));
  EXPECT_EQ(j["status"], "fail");
  EXPECT_EQ(j["trials"][0]["check"]["unwritten"], 512) << j["reason"];
  EXPECT_NE(j["reason"].get<std::string>().find("never written: 512"), std::string::npos) << j["reason"];
}

TEST(Cli, KernelCopyingItsInputFails) {
  const auto j = evaluate(silu_c2(4, true, /*store_input=*/true));
  EXPECT_EQ(j["status"], "fail");
  EXPECT_LT(j["trials"][0]["check"]["match_rate"].get<double>(), 0.9) << j["reason"];
}

TEST(Cli, KernelAddressingOutsideItsBuffersFails) {
  // gp7 = 100000 << 12 elements: far beyond the 256 MiB HBM.
  std::string k = silu_c2(4);
  k.replace(k.find("S_ADDI_INT gp7, gp0, 0"), 22, "S_LUI_INT gp7, 100000");
  const auto j = evaluate(k);
  EXPECT_EQ(j["status"], "runtime_error");
  EXPECT_NE(j["reason"].get<std::string>().find("is outside HBM"), std::string::npos) << j["reason"];
}

TEST(Cli, KernelThatNeverHaltsHitsTheLimit) {
  const auto j = evaluate("C_LOOP_START gp1, 4000000\n  C_LOOP_START gp2, 4000000\n    S_ADDI_INT gp3, gp3, 1\n"
                          "  C_LOOP_END gp2\nC_LOOP_END gp1\n",
                          "--max-instructions 100000");
  EXPECT_EQ(j["status"], "limit");
  EXPECT_NE(j["reason"].get<std::string>().find(
                "exceeded max instructions limit (100000) at PC 2 (line 3: S_ADDI_INT gp3, gp3, 1), in the loop at PC 1 "
                "(line 2: C_LOOP_START gp2, 4000000)"),
            std::string::npos)
      << j["reason"];
}

}  // namespace

// ------------------------------------------------------------------ ISA tools (registry)
namespace {

TEST(CliIsaTools, ListIsasNamesEveryRegisteredIsa) {
  const Result r = tl("list isas --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const auto& e : j) names.push_back(e["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"aie_ml", "plena", "riscv"}));
  EXPECT_EQ(j[0]["kernel_extensions"], nlohmann::json({".aie"}));
}

// `isa check` names each op an overlay adds and the datapath area it adds
// (platforms/aie_ml/aie_area.h): each split product's second step adds 16 bf16 MACs
// (16 x (1640 + 4184) um2 [H14]) and its temp a 512-bit pipeline register with a bypass
// multiplexer (512 x (4.522 + 1.862) um2): 96452.6 um2 = 0.09645 mm2 per core; every one of
// the default array's 4 x 4 compute tiles gets it: 1.543 mm2 (what a run's area adds).
TEST(CliIsaTools, AieMlCheckGivesTheAreaOfAddedOps) {
  const std::string src = TLMCRAFT_SOURCE_DIR;
  const Result r = tl("isa check aie_ml --isa-ext " + src + "/examples/isa_ext/aie_ml/split_products.yaml");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out,
            "aie_ml: 121 operations, 6 slots, 15 latency classes, 19 register classes; added: VMULS.E.BF16 "
            "(compose, 0.09645 mm2 per core, 1.543 mm2 on 16 tiles), VMULC.E.BF16 (compose, 0.09645 mm2 per core, "
            "1.543 mm2 on 16 tiles): ok\n");
}

// The same for PLENA overlays (platforms/plena/plena_area.h; derivations in
// tests/platforms/plena_area_test.cpp): V_SILU's expression is exp + add + reciprocal +
// multiply, all new, per lane (6000 + 1360 + 4640 + 1640 um2) x 64 lanes = 872960 um2;
// V_SILU_V's steps add a second adder per lane (64 x 1360) and four 16-bit temps
// (4 x 64 x 16 x (4.522 + 1.862)): 113188.864 um2.
TEST(CliIsaTools, PlenaCheckGivesTheAreaOfAddedInstructions) {
  const std::string dir = std::string(TLMCRAFT_SOURCE_DIR) + "/examples/isa_ext/plena/";
  const Result r = tl("isa check plena --isa-ext " + dir + "silu_semantics.yaml --isa-ext " + dir + "silu_composed.yaml");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out,
            "plena: 57 instructions (1 fused), 6 fields, 3 register classes; added: V_SILU (semantics, 0.873 mm2), "
            "V_SILU_V (compose, 0.1132 mm2): ok\n");
}

// Each shipped description passes its own validator; aie_ml.yaml (its own schema) used to
// get ~50 errors from the generic one.
TEST(CliIsaTools, ShippedDescriptionsPassTheirOwnValidator) {
  const std::string src = TLMCRAFT_SOURCE_DIR;
  const Result aie = tl("isa check " + src + "/isa/aie_ml/aie_ml.yaml");
  EXPECT_EQ(aie.code, 0) << aie.out;
  EXPECT_EQ(aie.out, "aie_ml: 119 operations, 6 slots, 15 latency classes, 19 register classes: ok\n");
  const Result plena = tl("isa check plena --json");
  ASSERT_EQ(plena.code, 0) << plena.out;
  const nlohmann::json j = nlohmann::json::parse(plena.out);
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["summary"], "55 instructions, 6 fields, 3 register classes");
  const Result rv = tl("isa check riscv");
  EXPECT_EQ(rv.code, 2);  // nothing to check: a usage error
  EXPECT_EQ(rv.out, "riscv: RISC-V has no YAML description to check: its decoder is compiled in (isa/riscv/decode.cpp)\n");
}

// A Coral (riscv) overlay: `isa check FILE` validates it, `isa header` writes the C
// wrappers, a bad one names file:line:col.
TEST(CliIsaTools, RiscvOverlayCheckAndHeader) {
  const std::string mac = std::string(TLMCRAFT_SOURCE_DIR) + "/examples/isa_ext/coral/mac.yaml";
  const Result ok = tl("isa check " + mac);
  EXPECT_EQ(ok.code, 0) << ok.out;
  // cmac's datapath: a 32-bit multiplier and adder and its temp's register (isa-extensions.md).
  EXPECT_EQ(ok.out, "riscv: 1 custom instructions, 0.003836 mm2 added: ok\n");
  const Result h = tl("isa header riscv --isa-ext " + mac);
  EXPECT_EQ(h.code, 0) << h.out;
  EXPECT_NE(h.out.find("static inline __attribute__((always_inline)) int32_t cmac(int32_t rs1, int32_t rs2, int32_t rs3)"),
            std::string::npos)
      << h.out;
  const std::string bad = write("bad_ext.yaml",
                                "isa: riscv\ninstructions:\n  - mnemonic: q\n"
                                "    encoding: {opcode: custom-0, format: r4, funct3: 0, funct7: 2}\n");
  const Result e = tl("isa check " + bad);
  EXPECT_EQ(e.code, 2);
  EXPECT_EQ(e.out, bad + ":4:65: format r4 has funct2 (bits 26:25), not funct7 (bits 31:27 hold rs3)\n" + bad +
                       ":3:5: missing `operands:`\n");
  const Result eh = tl("isa header riscv --isa-ext " + bad);
  EXPECT_EQ(eh.code, 2) << eh.out;
}

// A variant config (`isa_ext:` relative to it) gives `run` the custom
// instruction; the listing of `asm` (overlay from TLMCRAFT_ISA_EXT) shows its mnemonic.
TEST(CliIsaTools, RiscvVariantConfigRunsAndListsTheCustomInstruction) {
  const std::string mac = std::string(TLMCRAFT_SOURCE_DIR) + "/examples/isa_ext/coral/mac.yaml";
  write("mac.yaml", read(mac));
  // A whole config (a `base:` variant may only change entries its base has, and
  // default.yaml has no isa_ext).
  const std::string variant = write(
      "coral_mac.yaml", read(std::string(TLMCRAFT_SOURCE_DIR) + "/platforms/coral/configs/default.yaml") + "\nisa_ext: mac.yaml\n");
  const std::string kernel = write("mac_kernel.s",
                                   "    .globl main\nmain:\n    li a0, 7\n    li a1, -3\n    li a2, 100\n"
                                   "    cmac a0, a0, a1, a2\n    ret\n");
  const Result run = tl("run --platform coral --platform-config " + variant + " " + kernel + " --json");
  ASSERT_EQ(run.code, 0) << run.out;
  EXPECT_EQ(nlohmann::json::parse(run.out)["actions"]["scalar.mul.int32"], 1);
  const Result list = tl("asm --list " + kernel);  // without the overlay: GNU as rejects the mnemonic
  EXPECT_EQ(list.code, 1) << list.out;
  setenv("TLMCRAFT_ISA_EXT", mac.c_str(), 1);
  const Result with = tl("asm --list " + kernel);
  unsetenv("TLMCRAFT_ISA_EXT");
  EXPECT_EQ(with.code, 0) << with.out;
  EXPECT_NE(with.out.find("cmac a0,a0,a1,a2"), std::string::npos) << with.out;
}

TEST(CliIsaTools, CheckNamesTheLineOfABadFusedStep) {
  std::string y = read(std::string(TLMCRAFT_SOURCE_DIR) + "/isa/plena/plena.yaml");
  const int line = int(std::count(y.begin(), y.end(), '\n')) + 2;
  y += "\n  - mnemonic: V_NEG_V\n    opcode: 0x38\n    class: V\n    unit: vector\n    latency_class: vector_add\n"
       "    operands:\n      - {name: rd, kind: gp, field: rd}\n      - {name: rs1, kind: gp, field: rs1}\n"
       "    doc: \"-x\"\n    operation: \"-x\"\n    fused: [\"V_SUB_VF rd, rs1, f9, 0, 1\"]\n";
  const std::string path = write("neg.yaml", y);
  const Result r = tl("isa check " + path + " --json");
  EXPECT_EQ(r.code, 2);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["errors"].size(), 1u) << r.out;
  const std::string e = j["errors"][0];
  // The step's own line and column: `fused: ["` puts the step text at column 14.
  EXPECT_EQ(e.rfind(path + ":" + std::to_string(line + 10) + ":14: instruction V_NEG_V: V_NEG_V step 1", 0), 0u) << e;
  EXPECT_NE(e.find("'f9'"), std::string::npos) << e;
}

TEST(CliIsaTools, AsmPicksTheIsaByExtensionForAllThree) {
  const std::string k = std::string(TLMCRAFT_SOURCE_DIR) + "/platforms/";
  const nlohmann::json plena = nlohmann::json::parse(tl("asm --json " + k + "plena/kernels/silu_c1.asm").out);
  EXPECT_EQ(plena["isa"], "plena");
  EXPECT_EQ(plena["instructions"], 19);
  EXPECT_EQ(plena["by_class"]["V"], 5);
  const nlohmann::json aie = nlohmann::json::parse(tl("asm --json " + k + "aie_ml/kernels/gemm_multitile_4_C5.aie").out);
  EXPECT_EQ(aie["isa"], "aie_ml");
  // 60 instructions per tile, 68 since the example kernels carry the exposed pipeline's
  // waits (issue 25: 8 NOP bundles per tile).
  EXPECT_EQ(aie["instructions"], 272);
  EXPECT_EQ(aie["by_unit"]["tile 3,0"], 68);
  const nlohmann::json rv = nlohmann::json::parse(tl("asm --json --list " + k + "coral/kernels/relu_c1.s").out);
  EXPECT_EQ(rv["isa"], "riscv");
  EXPECT_EQ(rv["ok"], true);
  EXPECT_EQ(rv["by_class"]["vmax.vx"], 1);
  EXPECT_EQ(rv["listing"].size(), rv["instructions"].get<size_t>());
}

TEST(CliIsaTools, AsmWritesExplicitWaitsForTheExposedPipeline) {
  // The load lands 7 cycles after issue: 6 NOP bundles before the store that reads r1.
  const std::string in = write("w.aie", ".tile 0 0\n  LDA r1, [p0]\n  ST r1, [p0]\n  DONE\n");
  const std::string out = (tmp_dir() / "w_waits.aie").string();
  const Result r = tl("asm --waits " + out + " " + in);
  EXPECT_EQ(r.code, 0) << r.out;
  std::string nops;
  for (int i = 0; i < 6; ++i) nops += "  NOP    ; wait (exposed pipeline)\n";
  EXPECT_EQ(read(out), ".tile 0 0\n  LDA r1, [p0]\n" + nops + "  ST r1, [p0]\n  DONE\n");
  const Result plena = tl("asm --waits " + out + " " + std::string(TLMCRAFT_SOURCE_DIR) + "/platforms/plena/kernels/silu_c1.asm");
  EXPECT_EQ(plena.code, 2);
  EXPECT_NE(plena.out.find("asm --waits: ISA 'plena' has register interlocks (no waits to add)"), std::string::npos)
      << plena.out;
}

TEST(CliIsaTools, AsmWaitsAreTimedByThePlatformConfigsAccumulatorReadStage) {
  // Two VMACs on cm0 (6 cycles). The default config reads the accumulator 2 cycles after
  // issue (compute.acc_read_cycles: 2): the second may issue 6 - 2 = 4 cycles after the
  // first, 3 NOPs; read at issue (=0) it waits the whole 6, 5 NOPs.
  const std::string in =
      write("mac.aie", ".tile 0 0\n  VMAC.I8 cm0, cm0, w0, x1\n  VMAC.I8 cm0, cm0, w2, x3\n  DONE\n");
  const std::string out = (tmp_dir() / "mac_waits.aie").string();
  auto with_nops = [](int n) {
    std::string nops;
    for (int i = 0; i < n; ++i) nops += "  NOP    ; wait (exposed pipeline)\n";
    return ".tile 0 0\n  VMAC.I8 cm0, cm0, w0, x1\n" + nops + "  VMAC.I8 cm0, cm0, w2, x3\n  DONE\n";
  };
  EXPECT_EQ(tl("asm --waits " + out + " " + in).code, 0);
  EXPECT_EQ(read(out), with_nops(3));
  EXPECT_EQ(tl("asm --waits " + out + " --set compute.acc_read_cycles=0 " + in).code, 0);
  EXPECT_EQ(read(out), with_nops(5));
  const Result bad = tl("asm --waits " + out + " --set compute.acc_read_cycles=17 " + in);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("tlmcraft asm: error: --set 'compute.acc_read_cycles=17': 'compute.acc_read_cycles' = 17 is "
                         "out of range [0, 16]"),
            std::string::npos)
      << bad.out;
}

TEST(CliIsaTools, AsmRefusesAnExtensionNoIsaReadsAndAnUnknownIsa) {
  const std::string path = write("k.xyz", "nop\n");
  const Result r = tl("asm " + path);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(path + ": no ISA reads '.xyz' kernels; pass --isa NAME (known: aie_ml, plena, riscv)"),
            std::string::npos)
      << r.out;
  const Result u = tl("asm --isa mips " + path);
  EXPECT_EQ(u.code, 2);
  EXPECT_NE(u.out.find("unknown ISA 'mips' (known: aie_ml, plena, riscv)"), std::string::npos) << u.out;
}

}  // namespace

namespace {

// A fused instruction from an ISA directory: asm, isa doc and isa check read it, no rebuild.
TEST(CliIsaTools, IsaDirAddsAFusedInstructionToAsmAndDoc) {
  std::string y = read(std::string(TLMCRAFT_SOURCE_DIR) + "/isa/plena/plena.yaml");
  y += "\n  - mnemonic: V_NEG_V\n    opcode: 0x38\n    class: V\n    unit: vector\n    latency_class: vector_add\n"
       "    operands:\n      - {name: rd, kind: gp, field: rd}\n      - {name: rs1, kind: gp, field: rs1}\n"
       "    doc: \"Negate every lane.\"\n    operation: \"VRAM[gp[rd]] = -VRAM[gp[rs1]]\"\n"
       "    fused: [\"V_SUB_VF rd, rs1, f0, 0, 1\"]\n";
  const fs::path dir = tmp_dir() / "isa_neg";
  fs::create_directories(dir / "plena");
  std::ofstream(dir / "plena" / "plena.yaml") << y;
  const std::string kernel = write("neg.asm", "S_ADDI_INT gp1, gp0, 64\nV_NEG_V gp1, gp0\n");
  const Result stock = tl("asm " + kernel);
  EXPECT_EQ(stock.code, 1) << stock.out;
  const Result a = tl("asm --isa-dir " + dir.string() + " --list " + kernel);
  ASSERT_EQ(a.code, 0) << a.out;
  EXPECT_NE(a.out.find("V_NEG_V gp1, gp0"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find(": ok, 2 instructions, S 1, V 1"), std::string::npos) << a.out;
  const Result d = tl("isa doc plena --isa-dir " + dir.string());
  ASSERT_EQ(d.code, 0);
  EXPECT_NE(d.out.find("- Fused: runs, in order, `V_SUB_VF rd, rs1, f0, 0, 1`"), std::string::npos);
  const Result c = tl("isa check plena --isa-dir " + dir.string());
  // One step, no temporary: it chains the vector unit's adder and adds nothing.
  EXPECT_EQ(c.out,
            "plena: 56 instructions (1 fused), 6 fields, 3 register classes; added: V_NEG_V (compose, 0 mm2): ok\n");
}

}  // namespace
