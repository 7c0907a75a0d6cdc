// The difftest harness (see difftest.h).
#include "tests/isa/riscv/difftest/difftest.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "isa/riscv/hart.h"
#include "tests/isa/riscv/difftest/elf32.h"

namespace tlmcraft::isa::riscv::difftest {

namespace {

const char* const kXNames[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                 "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                 "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

uint32_t word_at(const std::vector<uint8_t>& b, uint32_t offset) {
  uint32_t w = 0;
  if (offset + 4 <= b.size()) std::memcpy(&w, b.data() + offset, 4);
  return w;
}

std::string vreg_hex(const std::vector<uint8_t>& b, unsigned r) {
  // Most significant byte first, as a 128-bit number.
  std::string s = "0x";
  char buf[4];
  for (int i = 15; i >= 0; --i) {
    const uint32_t at = kDumpV + r * 16 + unsigned(i);
    std::snprintf(buf, sizeof buf, "%02x", at < b.size() ? b[at] : 0);
    s += buf;
  }
  return s;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs a shell command, returns its exit status (-1 if it could not run).
int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

}  // namespace

std::vector<std::string> compare_outputs(const std::vector<uint8_t>& iss, const std::vector<uint8_t>& qemu) {
  std::vector<std::string> diffs;
  if (iss.size() != qemu.size())
    diffs.push_back("output size: iss " + std::to_string(iss.size()) + " bytes, qemu " + std::to_string(qemu.size()) + " bytes");
  auto word = [&](const std::string& name, uint32_t offset) {
    const uint32_t a = word_at(iss, offset), b = word_at(qemu, offset);
    if (a != b) diffs.push_back(name + ": iss " + hex32(a) + ", qemu " + hex32(b));
  };
  for (uint32_t off = 0; off < kBufBytes; off += 4) word("buf+" + std::to_string(off), off);
  for (unsigned r = 1; r < 32; ++r) word(std::string("x") + std::to_string(r) + " (" + kXNames[r] + ")", kDumpX + 4 * (r - 1));
  for (unsigned r = 0; r < 32; ++r) word("f" + std::to_string(r), kDumpF + 4 * r);
  for (unsigned i = 0; i < 5; ++i) word(dump_csr_name(i), kDumpCsr + 4 * i);
  for (unsigned r = 0; r < 32; ++r) {
    const std::string a = vreg_hex(iss, r), b = vreg_hex(qemu, r);
    if (a != b) diffs.push_back("v" + std::to_string(r) + ": iss " + a + ", qemu " + b);
  }
  return diffs;
}

std::string format_state(const std::vector<uint8_t>& b) {
  std::ostringstream s;
  for (unsigned r = 1; r < 32; ++r)
    s << "x" << r << "/" << kXNames[r] << "=" << hex32(word_at(b, kDumpX + 4 * (r - 1))) << (r % 4 == 3 ? "\n" : "  ");
  s << "\n";
  for (unsigned r = 0; r < 32; ++r) s << "f" << r << "=" << hex32(word_at(b, kDumpF + 4 * r)) << (r % 4 == 3 ? "\n" : "  ");
  for (unsigned i = 0; i < 5; ++i) s << dump_csr_name(i) << "=" << hex32(word_at(b, kDumpCsr + 4 * i)) << "  ";
  s << "\n";
  for (unsigned r = 0; r < 32; ++r) s << "v" << r << "=" << vreg_hex(b, r) << (r % 2 == 1 ? "\n" : "  ");
  return s.str();
}

DiffTester::DiffTester(Toolchain toolchain) : tc_(std::move(toolchain)) {
  char templ[] = "/tmp/tlm_difftest_XXXXXX";
  if (char* d = mkdtemp(templ)) dir_ = d;
}

DiffTester::~DiffTester() {
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

bool DiffTester::tools_available(std::string* why) const {
  for (const std::string& tool : {tc_.as, tc_.ld, tc_.qemu}) {
    if (shell("command -v " + tool + " > /dev/null 2>&1") != 0) {
      if (why) *why = tool + " not found on PATH";
      return false;
    }
  }
  if (dir_.empty()) {
    if (why) *why = "cannot create a temporary directory";
    return false;
  }
  return true;
}

std::string DiffTester::build(const std::string& source, std::string& error) {
  const std::string stem = dir_ + "/p" + std::to_string(counter_++);
  {
    std::ofstream out(stem + ".S");
    out << source;
  }
  const std::string cmd = tc_.as + " -march=" + tc_.march + " -mabi=ilp32 " + stem + ".S -o " + stem + ".o 2> " +
                          stem + ".err && " + tc_.ld + " -m elf32lriscv " + stem + ".o -o " + stem + ".elf 2>> " +
                          stem + ".err";
  if (shell(cmd) != 0) {
    error = "assembling failed:\n" + read_file(stem + ".err");
    discard(stem + ".elf");
    return "";
  }
  return stem + ".elf";
}

RunOutput DiffTester::run_qemu(const std::string& elf) const {
  RunOutput out;
  const std::string err = elf + ".qemu.err";
  const std::string cmd = tc_.qemu + " -cpu " + tc_.qemu_cpu + " " + elf + " 2> " + err;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) {
    out.error = "cannot run " + tc_.qemu;
    return out;
  }
  uint8_t buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.bytes.insert(out.bytes.end(), buf, buf + n);
  const int status = pclose(pipe);
  if (status != 0) {
    out.error = "qemu exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                (WIFSIGNALED(status) ? " (signal " + std::to_string(WTERMSIG(status)) + ")" : "") + ": " + read_file(err);
    return out;
  }
  if (out.bytes.size() != kOutputBytes) {
    out.error = "qemu wrote " + std::to_string(out.bytes.size()) + " bytes, expected " + std::to_string(kOutputBytes);
    return out;
  }
  out.ok = true;
  return out;
}

RunOutput DiffTester::run_iss(const std::string& elf) const {
  RunOutput out;
  ElfImage image;
  try {
    image = read_elf32(elf);
  } catch (const std::exception& e) {
    out.error = e.what();
    return out;
  }
  std::vector<std::vector<uint8_t>> memory;
  Hart hart;
  for (size_t i = 0; i < image.segments.size(); ++i) {
    const ElfSegment& s = image.segments[i];
    memory.emplace_back((s.mem_size + 3) & ~3u, 0);
    std::memcpy(memory.back().data(), s.bytes.data(), s.bytes.size());
    hart.add_region({"segment" + std::to_string(i), s.vaddr, uint32_t(memory.back().size()), memory.back().data(),
                     s.writable, s.executable});
  }
  hart.pc = image.entry;
  try {
    hart.run(10'000'000);
    out.error = "the ISS ran 10,000,000 instructions without reaching the write ecall";
  } catch (const Trap& t) {
    if (t.cause != TrapCause::EnvironmentCall || hart.x[17] != 64) {
      uint32_t raw = 0;
      try {
        raw = hart.decoded(hart.pc).raw;
      } catch (const Trap&) {
      }
      out.error = std::string("ISS trap: ") + to_string(t.cause) + ": " + t.detail + " at pc " + hex32(hart.pc) + " (" +
                  Hart::disassemble(raw, hart.pc) + ")";
      return out;
    }
    out.instructions = hart.minstret;
    out.bytes.resize(hart.x[12]);
    try {
      hart.read_bytes(hart.x[11], out.bytes.data(), hart.x[12], TrapCause::LoadAccessFault);
    } catch (const Trap& bad) {
      out.error = "write syscall with a bad buffer: " + bad.detail;
      return out;
    }
    out.ok = true;
  }
  return out;
}

void DiffTester::discard(const std::string& elf) {
  if (elf.size() < 4) return;
  const std::string stem = elf.substr(0, elf.size() - 4);  // strip ".elf"
  for (const char* ext : {".S", ".o", ".elf", ".err", ".elf.qemu.err"}) std::remove((stem + ext).c_str());
}

bool DiffTester::prefix_matches(const GeneratedProgram& program, size_t units, std::vector<std::string>* diffs,
                                std::string* iss_state, std::string* qemu_state, std::string* error) {
  std::string build_error;
  const std::string elf = build(program.source(units), build_error);
  if (elf.empty()) {
    *error = build_error;
    return false;
  }
  const RunOutput ref = run_qemu(elf);
  const RunOutput iss = run_iss(elf);
  discard(elf);
  if (!ref.ok) {
    *error = ref.error;
    return false;
  }
  if (!iss.ok) {
    if (diffs) *diffs = {iss.error};
    if (qemu_state) *qemu_state = format_state(ref.bytes);
    return false;
  }
  std::vector<std::string> d = compare_outputs(iss.bytes, ref.bytes);
  if (diffs) *diffs = d;
  if (iss_state) *iss_state = format_state(iss.bytes);
  if (qemu_state) *qemu_state = format_state(ref.bytes);
  return d.empty();
}

CaseResult DiffTester::run_case(const GeneratedProgram& program) {
  CaseResult result;
  std::string error;
  const std::string elf = build(program.source(), error);
  if (elf.empty()) {
    result.harness_error = true;
    result.report = "seed " + std::to_string(program.seed) + ": " + error + "\n" + program.source();
    return result;
  }
  const RunOutput ref = run_qemu(elf);
  if (!ref.ok) {
    discard(elf);
    result.harness_error = true;
    result.report = "seed " + std::to_string(program.seed) + ": " + ref.error + "\n" + program.source();
    return result;
  }
  const RunOutput iss = run_iss(elf);
  discard(elf);
  result.instructions = iss.instructions;
  std::vector<std::string> diffs;
  if (iss.ok) diffs = compare_outputs(iss.bytes, ref.bytes);
  else diffs = {iss.error};
  if (diffs.empty()) {
    result.passed = true;
    return result;
  }

  // Find the first unit after which the states differ: prefix `lo` matches, `hi` does not.
  std::ostringstream report;
  report << "MISMATCH seed " << program.seed << "\n";
  size_t lo = 0, hi = program.units.size();
  std::vector<std::string> first_diffs = diffs;
  std::string iss_state, qemu_state, bisect_error;
  if (!prefix_matches(program, 0, &first_diffs, &iss_state, &qemu_state, &bisect_error)) {
    report << (bisect_error.empty() ? "the prologue already diverges\n" : "bisection failed: " + bisect_error + "\n");
    hi = 0;
  } else {
    while (hi - lo > 1) {
      const size_t mid = (lo + hi) / 2;
      std::string e;
      if (prefix_matches(program, mid, nullptr, nullptr, nullptr, &e)) lo = mid;
      else if (e.empty()) hi = mid;
      else break;  // qemu or the assembler failed on a prefix: keep the range found so far
    }
    prefix_matches(program, hi, &first_diffs, &iss_state, &qemu_state, &bisect_error);
    report << "first diverging unit " << (hi - 1) << ":\n" << program.units[hi - 1] << "\n";
  }
  report << "differences after it:\n";
  for (const std::string& d : first_diffs) report << "  " << d << "\n";
  report << "ISS state:\n" << iss_state << "qemu state:\n" << qemu_state;
  report << "program (all units):\n" << program.source();
  result.report = report.str();
  return result;
}

}  // namespace tlmcraft::isa::riscv::difftest
