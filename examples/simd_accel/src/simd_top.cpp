#include "simd_top.h"

namespace simd_accel {

namespace {

namespace m = tlmcraft::models;

sc_core::sc_time period(const SimdConfig& c) { return sc_core::sc_time(double(c.clock_ns), sc_core::SC_NS); }

m::DramConfig dram_config(const SimdConfig& c) {
  m::DramConfig d;
  d.name = "dram";
  d.capacity_bytes = c.dram.size_bytes;
  d.channels = 1;
  d.banks_per_channel = c.dram.banks;
  d.row_bytes = c.dram.row_bytes;
  d.granule_bytes = 64;
  d.interleave_bytes = 64;
  d.tRCD = c.dram.tRCD;
  d.tCL = c.dram.tCL;
  d.tRP = c.dram.tRP;
  d.burst_cycles = c.dram.burst_cycles;
  d.queue_depth = 0;  // unbounded: the DMA engine is the only initiator
  d.clock_period = period(c);
  return d;
}

// 16 banks of 4-byte words: a 64-byte DMA access occupies every bank for one cycle.
m::ScratchpadConfig spad_config(const SimdConfig& c) {
  m::ScratchpadConfig s;
  s.name = "spad";
  s.size_bytes = c.spad_bytes;
  s.word_bytes = 4;
  s.banks = 16;
  s.ports_per_bank = 1;
  s.read_latency = 1;
  s.write_latency = 1;
  s.clock_period = period(c);
  return s;
}

m::RouterConfig router_config(const SimdConfig& c) {
  m::RouterConfig r;
  r.name = "router";
  r.map = {{"dram", kDramBase, c.dram.size_bytes, 0}, {"spad", kSpadBase, c.spad_bytes, 1}};
  r.clock_period = period(c);
  return r;
}

m::DmaConfig dma_config(const SimdConfig& c) {
  m::DmaConfig d;
  d.name = "dma";
  d.queue_depth = c.dma_queue_depth;
  d.granule_bytes = 64;
  d.clock_period = period(c);
  return d;
}

}  // namespace

SimdTop::SimdTop(sc_core::sc_module_name name, const SimdConfig& cfg)
    : sc_module(name),
      dram("dram", dram_config(cfg)),
      spad("spad", spad_config(cfg)),
      router("router", router_config(cfg)),
      dma("dma", dma_config(cfg)),
      core("core", cfg, dma, spad, dram) {
  dma.socket.bind(router.target_socket);
  router.initiator(0).bind(dram.socket);
  router.initiator(1).bind(spad.socket);
  dma.set_completion_notifications(false);  // the core computes transfer timing from submit()
}

}  // namespace simd_accel
