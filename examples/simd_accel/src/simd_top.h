// simd_accel as SystemC/TLM-2.0 modules: the core (scalar control unit and vector unit,
// one SC_THREAD), the scratchpad, DRAM, and the DMA engine that reaches both through a
// router. Memories, router and DMA engine are tlmcraft's reusable models (models/).
#pragma once
#include <memory>

#include <systemc>

#include "core.h"
#include "models/dma_engine.h"
#include "models/dram.h"
#include "models/router.h"
#include "models/scratchpad.h"
#include "simd_config.h"

namespace simd_accel {

// Where the DMA engine sees the two memories (router addresses).
constexpr uint64_t kDramBase = 0;
constexpr uint64_t kSpadBase = 1ull << 40;

class SimdTop : public sc_core::sc_module {
 public:
  SimdTop(sc_core::sc_module_name name, const SimdConfig& cfg);

  tlmcraft::models::Dram dram;
  tlmcraft::models::Scratchpad spad;
  tlmcraft::models::Router router;
  tlmcraft::models::DmaEngine dma;
  Core core;
};

}  // namespace simd_accel
