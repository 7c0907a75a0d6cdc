// AIE-ML platform configuration: loaded from YAML (platforms/aie_ml/configs/*.yaml),
// overridable entry by entry with KEY=VALUE (dotted paths), validated with clear errors.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/aie_ml/read_stages.h"
#include "models/dram.h"

namespace tlmcraft::aie_ml {

// One kind of tile's memory, locks and DMA channels.
struct TileKindConfig {
  uint32_t memory_bytes = 0;
  uint32_t banks = 1;
  uint32_t locks = 16;
  uint32_t mm2s_channels = 2;
  uint32_t s2mm_channels = 2;
  uint32_t dma_dims = 3;
  uint32_t bank_bytes() const { return banks ? memory_bytes / banks : memory_bytes; }
};

struct AieConfig {
  std::string name = "default";  // config file stem
  double clock_ns = 1.0;
  uint32_t columns = 4, rows = 4;
  TileKindConfig compute{65536, 8, 16, 2, 2, 3};
  TileKindConfig mem_tile{524288, 16, 64, 6, 6, 4};
  TileKindConfig shim{0, 1, 16, 2, 2, 3};
  uint32_t program_memory_bytes = 16384;
  uint32_t bundle_bytes = 16;
  // Cycles after issue at which a multiply-accumulate reads its accumulator input: 2 (the
  // default), stage 3 of AMD's AIE2 itineraries (Xilinx/llvm-aie AIE2Schedule.td); 0 reads
  // it at issue like every operand.
  uint32_t acc_read_cycles = 2;
  // compute.pipeline: `exposed` (default): no register interlocks, registers read and
  // written at their pipeline stages (exposed_pipeline.h), as the hardware does.
  // `interlocked`: a bundle waits until the registers it reads are written, so kernels
  // compute in program order (the report counts the reads the interlock held).
  bool exposed_pipeline = true;
  // compute.branch_delay_nops: NOP bundles after every branch op (J, JL, JZ, JNZ, JNZD,
  // RET), taken or not: the five delay slots of the hardware (Hello XDNA: branch latency
  // 6) for a kernel written without them, had a compiler found nothing to fill them with.
  // 0 (default): a branch costs its bundle only. The upper bound of the deviation.
  uint32_t branch_delay_nops = 0;
  // shim.read_ahead_bytes: 0 (default): a shim MM2S segment issues all its DDR reads when it
  // starts, so a second channel's reads queue behind the first's. R > 0: segments of at most
  // R bytes, each issuing the reads of the next R bytes of its BD, so the reads of the two
  // channels reach DDR interleaved in time, as on AM020's one shared 128-bit AXI read port.
  uint32_t shim_read_ahead_bytes = 0;
  uint32_t stream_bytes_per_cycle = 4;
  uint32_t hop_cycles = 1;
  uint32_t bd_setup_cycles = 4;
  uint32_t lock_wake_cycles = 1;
  // Between the phases of a kernel file: a fixed reconfiguration cost, then every column
  // loads its tiles' programs and its BDs/locks as 32-bit configuration words, one word per
  // cycle per column (docs/platforms/aie-ml.md, "Phases"; both assumptions).
  uint32_t phase_switch_cycles = 1000;
  uint32_t bd_config_words = 8;
  models::DramConfig ddr;
  uint64_t quantum_cycles = 10000;

  nlohmann::json raw;  // the effective YAML as JSON (after overrides), for reports

  uint32_t max_bundles() const { return program_memory_bytes / bundle_bytes; }
};

// Whether a platform configuration as JSON (AieConfig::raw, a Platform's config()) selects
// the exposed pipeline: its compute.pipeline, or AieConfig's default where it has none.
bool exposed_pipeline_in(const nlohmann::json& config);

// The operand read stages of a configuration (compute.acc_read_cycles), for the timing and
// for isa::aie_ml::insert_waits; _in: of one as JSON (AieConfig::raw, a Platform's
// config()), AieConfig's default where it has none.
isa::aie_ml::ReadStages read_stages(const AieConfig& config);
isa::aie_ml::ReadStages read_stages_in(const nlohmann::json& config);

// Path of a named config ("default") or a file path as given.
std::string aie_config_path(const std::string& name_or_path);

// Loads and validates; `overrides` are "dotted.key=value" strings. Throws
// tlmcraft::InputError naming the file, line and cause (or the override) on bad input.
AieConfig load_aie_config(const std::string& name_or_path, const std::vector<std::string>& overrides = {});

}  // namespace tlmcraft::aie_ml
