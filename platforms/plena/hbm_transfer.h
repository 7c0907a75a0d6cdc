// Turns a PLENA HBM transfer (from the semantics) into a DMA descriptor: the HBM and
// SRAM segments in the router's address map, and the MXFP8 <-> BF16 conversion as the
// DMA's transform hook. Also the HBM byte ranges the transfer touches (for hazards).
#pragma once
#include <string>
#include <vector>

#include "isa/plena/semantics.h"
#include "models/dma_engine.h"
#include "platforms/plena/plena_config.h"
#include "platforms/plena/timing_model.h"

namespace tlmcraft::plena {

// Router address map (bytes): HBM at 0; the on-chip SRAMs far above any HBM address.
constexpr uint64_t kMsramBase = 1ull << 48;
constexpr uint64_t kVramBase = 2ull << 48;
constexpr uint64_t kFpMemBase = 3ull << 48;
constexpr uint64_t kIntMemBase = 4ull << 48;

struct BuiltTransfer {
  models::DmaDescriptor descriptor;
  std::vector<Range> hbm_ranges;  // HBM byte ranges (data and scales)
  std::string error;              // non-empty: the transfer is invalid (becomes a fault)
};

BuiltTransfer build_transfer(const isa::plena::HbmTransfer& t, const PlenaConfig& cfg);

}  // namespace tlmcraft::plena
