// Coral NPU platform configuration: loaded from YAML (platforms/coral/configs/*.yaml),
// overridable entry by entry with dotted KEY=VALUE strings, validated with errors that
// name the file, line and key. Every timing number of the model lives here.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/riscv/custom_ext.h"

namespace tlmcraft::coral {

constexpr uint32_t kItcmBase = 0x00000000;
constexpr uint32_t kDtcmBase = 0x00010000;
constexpr uint32_t kCsrBase = 0x00030000;   // RESET_CONTROL, PC_START (+4), STATUS (+8)
constexpr uint32_t kCsrBytes = 16;

struct ScalarTiming {
  uint32_t dispatch_width = 2;
  uint32_t fetch_line_bytes = 16, fetch_interval = 2, fetch_buffer = 8;
  uint32_t alu_latency = 1;
  uint32_t csr_latency = 2;
  uint32_t taken_same_line = 1, mispredict = 4, mispredict_taken = 4;
  uint32_t csr_after_redirect = 1;  // a CSR access as the first instruction of a redirected fetch: extra cycles
  uint32_t mul_latency = 2, mul_queue = 2;
  uint32_t div_base = 2;
  uint32_t retirement_buffer = 8;  // in-order window of dispatched, unfinished instructions
  // The LSU: one slot serving scalar and vector memory operations in program order.
  uint32_t lsu_queue = 4;          // operations dispatched and waiting for the slot
  uint32_t load_tail = 3;          // per register: last block's data -> register written
  uint32_t store_tail = 1;         // per register: after the last block is written
  uint32_t axi_write_response = 1; // per external store register: the B handshake
  uint32_t lsu_operand_read = 1;   // address/store data read without forwarding: extra cycles
  uint32_t fpu_queue = 2, fpu_dispatch_interval = 2;
  uint32_t fp_add = 2, fp_mul = 2, fp_fma = 2, fp_div = 16, fp_sqrt = 19, fp_cvt = 2, fp_cmp = 2;
};

struct VectorTiming {  // defaults = configs/default.yaml (rvv_backend_define.svh, coral-rtl probes)
  uint32_t command_queue = 16, commands_per_cycle = 2, uop_queue = 16, rob = 8;
  uint32_t dispatch_per_cycle = 3;  // micro-ops leaving the queue per cycle (NUM_DP_UOP)
  uint32_t retire_per_cycle = 4;    // micro-ops leaving the reorder buffer per cycle (NUM_RT_UOP)
  uint32_t alu_units = 2, mul_units = 2, permute_units = 1, div_units = 1;
  uint32_t alu = 2, fixed_point = 2, mul = 3, div = 3, reduction = 3, permute = 3, mask = 1;
  uint32_t to_scalar = 3;           // a vector result moved to an x register
  uint32_t writeback = 2;           // a retired result reaches the retirement buffer
  uint32_t reduction_interval = 1;  // cycles a reduction micro-op holds the permute unit
  uint32_t slide_interval = 2;      // ... a slide/gather micro-op after the first
  uint32_t div_bits_per_cycle = 3;  // dividend bits the divider iterates per cycle
  uint32_t div_interval = 2;        // divide micro-ops start at least this far apart ...
  uint32_t div_overlap = 1;         // ... and this long before the previous result
  uint32_t lsu_start = 2;           // a vector memory command reaches the LSU slot
  uint32_t lsu_op_cycles = 1;       // slot cycles per vector memory operation
  uint32_t store_data_cycles = 1;   // slot cycles per register a vector store reads
  uint32_t idle_register_cycles = 2; // slot cycles per register without elements (see micro_ops)
  uint32_t index_register_cycles = 1; // slot cycles per index register beyond the data registers
  uint32_t load_writeback = 2;      // a register the LSU hands over reaches the retirement buffer
  uint32_t memory_interval = 2;     // vector memory instructions dispatch this far apart
};


struct AxiTiming {
  uint32_t read_latency = 24, write_latency = 12, bytes_per_cycle = 16;
};

struct DmaSettings {
  bool enabled = false;
  uint32_t base = 0x00040000;
  uint32_t queue_depth = 4, bytes_per_cycle = 16;
};

struct CoralConfig {
  std::string name = "default";
  double clock_ns = 1.0;
  uint32_t itcm_bytes = 8192, dtcm_bytes = 32768;
  uint32_t ext_base = 0x20000000, ext_bytes = 4u << 20;
  AxiTiming axi;
  ScalarTiming scalar;
  VectorTiming vector;
  DmaSettings dma;
  uint64_t quantum_cycles = 100000;
  // ISA overlays (`isa: riscv`, docs/isa-extensions.md): the config's optional `isa_ext`
  // (a path or a list) and then TLMCRAFT_ISA_EXT (':'-separated), loaded into `custom`
  // (null when there are none: the shipped ISA, every figure unchanged).
  std::vector<std::string> isa_ext;
  std::shared_ptr<const isa::riscv::CustomExtensions> custom;
  nlohmann::json raw;  // the effective YAML as JSON (after overrides)
};

// The entry wiring of a variant's overlays: loads `overlay_files` (in order) into
// cfg.isa_ext and cfg.custom, replacing what was there. Throws InputError listing every
// problem as file:line:col: reason.
void set_isa_extensions(CoralConfig& cfg, const std::vector<std::string>& overlay_files);

// Path of a named config ("default") or a file path as given.
std::string coral_config_path(const std::string& name_or_path);

// Loads and validates; `overrides` are "dotted.key=value" strings whose key must exist.
// Throws tlmcraft::InputError naming the file, line and cause (or the override).
CoralConfig load_coral_config(const std::string& name_or_path = "default",
                              const std::vector<std::string>& overrides = {});

}  // namespace tlmcraft::coral
