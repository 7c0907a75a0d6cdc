#include "baselines.h"

#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>

#include "layout.h"

namespace simd_accel {

namespace {

namespace tk = tlmcraft::tasks;

uint64_t spad_bytes(const nlohmann::json& cfg) { return cfg.at("spad_bytes").get<uint64_t>(); }

void require_fit(uint64_t need, const nlohmann::json& cfg, const std::string& task) {
  if (need > spad_bytes(cfg))
    throw std::invalid_argument("simd_accel baseline for " + task + ": needs " + std::to_string(need) +
                                " scratchpad bytes, the config has " + std::to_string(spad_bytes(cfg)));
}

// "DMA_LD s2, s1, s3" with s1 = DRAM address, s2 = scratchpad address, s3 = bytes.
void dma(std::ostringstream& o, const char* op, uint64_t dram, uint64_t spad, uint64_t bytes) {
  o << "S_LI s1, " << dram << "\nS_LI s2, " << spad << "\nS_LI s3, " << bytes << "\n" << op << " s2, s1, s3\n";
}

// y = max(x, 0): the whole vector into the scratchpad, 16 lanes per iteration in place,
// back to DRAM.
std::string relu(const tk::Instance& inst, const nlohmann::json& cfg) {
  const SimdLayout layout(inst.task(), inst.params());
  const auto& x = layout.placement("x");
  const auto& y = layout.placement("y");
  if (x.elements % 32 != 0) throw std::invalid_argument("simd_accel baseline for relu: n must be a multiple of 32");
  require_fit(x.bytes, cfg, "relu");
  std::ostringstream o;
  o << "; relu, n = " << x.elements << ": load x, ReLU 16 lanes at a time in place, store y\n";
  dma(o, "DMA_LD", x.address, 0, x.bytes);
  o << "S_LI s4, 0\nLOOP s10, " << x.elements / 16 << "\n"
    << "V_LD v1, s4\nV_RELU v1, v1\nV_ST v1, s4\nS_ADDI s4, s4, 32\nLOOP_END s10\n";
  dma(o, "DMA_ST", y.address, 0, y.bytes);
  return o.str();
}

// C = A B with four accumulators per row: C[m, j..j+63] over k, A[m, k] broadcast.
std::string gemm(const tk::Instance& inst, const nlohmann::json& cfg) {
  const SimdLayout layout(inst.task(), inst.params());
  const auto& a = layout.placement("A");
  const auto& b = layout.placement("B");
  const auto& c = layout.placement("C");
  const int64_t M = inst.params().at("M"), K = inst.params().at("K"), N = inst.params().at("N");
  if (N % 64 != 0) throw std::invalid_argument("simd_accel baseline for gemm: N must be a multiple of 64");
  const uint64_t b_spad = a.bytes, c_spad = a.bytes + b.bytes;
  require_fit(c_spad + c.bytes, cfg, "gemm");
  std::ostringstream o;
  o << "; gemm, M = " << M << ", K = " << K << ", N = " << N << ": A, B into the scratchpad; per row of C,\n"
    << "; 64 columns at a time in v2..v5 (A[m, k] broadcast in v1, B rows in v6, v7); C back to DRAM\n";
  dma(o, "DMA_LD", a.address, 0, a.bytes);
  dma(o, "DMA_LD", b.address, b_spad, b.bytes);
  o << "S_LI s4, 0\nS_LI s5, " << c_spad << "\n"
    << "LOOP s10, " << M << "\n"
    << "S_LI s6, " << b_spad << "\n"
    << "LOOP s11, " << N / 64 << "\n"
    << "V_ADD v2, v0, v0\nV_ADD v3, v0, v0\nV_ADD v4, v0, v0\nV_ADD v5, v0, v0\n"
    << "S_ADDI s7, s4, 0\nS_ADDI s8, s6, 0\n"
    << "LOOP s12, " << K << "\n"
    << "V_LD v6, s8\nV_LD v7, s8, 32\nV_BCAST v1, s7\n"
    << "V_FMA v2, v1, v6\nV_FMA v3, v1, v7\n"
    << "V_LD v6, s8, 64\nV_LD v7, s8, 96\n"
    << "V_FMA v4, v1, v6\nV_FMA v5, v1, v7\n"
    << "S_ADDI s7, s7, 2\nS_ADDI s8, s8, " << 2 * N << "\n"
    << "LOOP_END s12\n"
    << "V_ST v2, s5\nV_ST v3, s5, 32\nV_ST v4, s5, 64\nV_ST v5, s5, 96\n"
    << "S_ADDI s5, s5, 128\nS_ADDI s6, s6, 128\n"
    << "LOOP_END s11\n"
    << "S_ADDI s4, s4, " << 2 * K << "\n"
    << "LOOP_END s10\n";
  dma(o, "DMA_ST", c.address, c_spad, c.bytes);
  return o.str();
}

using Generator = std::function<std::string(const tk::Instance&, const nlohmann::json&)>;

const std::map<std::string, Generator>& generators() {
  static const std::map<std::string, Generator> g = {{"relu", relu}, {"gemm", gemm}};
  return g;
}

}  // namespace

bool has_baseline(const std::string& task) { return generators().count(task) > 0; }

std::string baseline_kernel(const tk::Instance& instance, const nlohmann::json& platform_config) {
  const auto it = generators().find(instance.task().name);
  if (it == generators().end())
    throw std::invalid_argument("simd_accel has no baseline generator for task '" + instance.task().name + "'");
  return it->second(instance, platform_config);
}

}  // namespace simd_accel
