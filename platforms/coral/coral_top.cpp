#include "platforms/coral/coral_top.h"

#include "platforms/coral/coral_trace.h"
#include "platforms/run_control.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

namespace tlmcraft::coral {
namespace rv = tlmcraft::isa::riscv;
using sc_core::sc_time;

namespace {

sc_time period(const CoralConfig& c) { return sc_time(c.clock_ns, sc_core::SC_NS); }

models::ScratchpadConfig memory(const CoralConfig& c, const char* name, uint64_t bytes, uint64_t read_latency,
                                uint64_t write_latency) {
  models::ScratchpadConfig s;
  s.name = name;
  s.size_bytes = bytes;
  s.word_bytes = 16;  // 128-bit rows / AXI beats
  s.banks = 1;
  s.read_latency = read_latency;
  s.write_latency = write_latency;
  s.clock_period = period(c);
  return s;
}

models::RouterConfig router_config(const CoralConfig& c) {
  models::RouterConfig r;
  r.name = "router";
  r.clock_period = period(c);
  r.map = {{"itcm", kItcmBase, c.itcm_bytes, 0},
           {"dtcm", kDtcmBase, c.dtcm_bytes, 1},
           {"csr", kCsrBase, kCsrBytes, 2},
           {"ext", c.ext_base, c.ext_bytes, 3}};
  return r;
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

uint32_t get32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

void put32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }

// Each added instruction's words in the program's code and their executions (`execs`
// per ITCM word): the uses `codesign explore` counts from the suite's own runs. Every added
// instruction is listed, zero when the program has none (the report says it bought nothing).
std::map<std::string, AddedInstructionUse> added_instruction_uses(const isa::Program& prog,
                                                                  const rv::CustomExtensions& ext,
                                                                  const std::vector<uint64_t>& execs) {
  std::map<std::string, AddedInstructionUse> uses;
  for (const auto& added : ext.instructions()) uses[added.mnemonic];
  for (const auto& s : prog.segments) {
    if (!s.executable) continue;
    for (size_t off = 0; off + 4 <= s.bytes.size(); off += 4) {
      const int index = ext.find(get32(s.bytes.data() + off));
      if (index < 0) continue;
      AddedInstructionUse& use = uses[ext.instructions()[size_t(index)].mnemonic];
      ++use.static_count;
      const size_t word = size_t(s.address - kItcmBase + off) / 4;
      if (word < execs.size()) use.executions += execs[word];
    }
  }
  return uses;
}

struct Traffic {
  uint64_t reads = 0, writes = 0, bytes_read = 0, bytes_written = 0;
  nlohmann::json json() const {
    return {{"reads", reads}, {"writes", writes}, {"bytes_read", bytes_read}, {"bytes_written", bytes_written}};
  }
};

}  // namespace

// ---- CSR block ---------------------------------------------------------------------

CsrBlock::CsrBlock(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
  socket.register_b_transport(this, &CsrBlock::b_transport);
  socket.register_transport_dbg(this, &CsrBlock::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &CsrBlock::get_direct_mem_ptr);
}

bool CsrBlock::get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  if (trans.is_write()) return false;  // read-only
  dmi.set_dmi_ptr(regs_.data());
  dmi.set_start_address(0);
  dmi.set_end_address(regs_.size() - 1);
  dmi.allow_read();
  dmi.set_read_latency(sc_time(1, sc_core::SC_NS));
  trans.set_dmi_allowed(true);
  return true;
}

void CsrBlock::set_pc_start(uint32_t pc) { put32(regs_.data() + 4, pc); }

void CsrBlock::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const uint64_t addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  if (addr + len > regs_.size()) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (trans.is_write()) {  // the registers are read-only to the running kernel
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  std::memcpy(trans.get_data_ptr(), regs_.data() + addr, len);
  delay += sc_time(1, sc_core::SC_NS);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int CsrBlock::transport_dbg(tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  const unsigned len = trans.get_data_length();
  if (addr >= regs_.size()) return 0;
  const unsigned n = std::min<unsigned>(len, static_cast<unsigned>(regs_.size() - addr));
  if (trans.is_read()) std::memcpy(trans.get_data_ptr(), regs_.data() + addr, n);
  return n;
}

// ---- the platform top ------------------------------------------------------------------

CoralTop::CoralTop(sc_core::sc_module_name name, const CoralConfig& cfg)
    : sc_module(name),
      core_socket("core_socket"),
      itcm("itcm", memory(cfg, "itcm", cfg.itcm_bytes, 1, 1)),
      dtcm("dtcm", memory(cfg, "dtcm", cfg.dtcm_bytes, 1, 1)),
      ext("ext", memory(cfg, "ext", cfg.ext_bytes, cfg.axi.read_latency, cfg.axi.write_latency)),
      csr("csr"),
      router("router", router_config(cfg)),
      cfg_(cfg) {
  core_socket.bind(router.target_socket);
  router.initiator(0).bind(itcm.socket);
  router.initiator(1).bind(dtcm.socket);
  router.initiator(2).bind(csr.socket);
  router.initiator(3).bind(ext.socket);
  if (cfg.dma.enabled) {
    models::DmaConfig d;
    d.name = "dma";
    d.queue_depth = cfg.dma.queue_depth;
    d.bytes_per_cycle = cfg.dma.bytes_per_cycle;
    d.granule_bytes = 16;
    d.clock_period = period(cfg);
    dma = std::make_unique<models::DmaEngine>("dma", d);
    dma->socket.bind(router.target_socket);
  }
  SC_THREAD(core_thread);
}

RunResult CoralTop::run(const isa::Program& program, const RunLimits& limits, traces::TraceRecorder* recorder) {
  prog_ = &program;
  limits_ = limits;
  rec_ = recorder;
  result_ = RunResult{};
  start_.notify(sc_core::SC_ZERO_TIME);
  sc_core::sc_start();  // returns when the core thread and every DMA completion are done
  prog_ = nullptr;
  return result_;
}

void CoralTop::core_thread() {
  for (;;) {
    sc_core::wait(start_);
    execute();
  }
}

uint64_t CoralTop::read_mcycle() { return timing_ ? timing_->csr_dispatch_cycle() : 0; }

uint32_t CoralTop::line_of(uint32_t pc) const {
  const uint32_t idx = (pc - kItcmBase) / 4;
  if (pc - kItcmBase < cfg_.itcm_bytes && idx < prog_->code.size()) return prog_->code[idx].line;
  const auto& t = prog_->line_of_address;
  auto it = std::upper_bound(t.begin(), t.end(), uint64_t(pc), [](uint64_t a, const auto& e) { return a < e.first; });
  return it == t.begin() ? 0 : std::prev(it)->second;
}

std::string CoralTop::where(uint32_t pc) const {
  std::string dis;
  if (pc - kItcmBase + 4 <= cfg_.itcm_bytes && (pc & 3) == 0) dis = rv::disassemble(get32(itcm.data() + (pc - kItcmBase)), pc, cfg_.custom.get());
  std::string s = "PC " + hex32(pc);
  const uint32_t line = line_of(pc);
  if (line > 0 && line <= prog_->source_lines.size()) {
    const std::string text = source_line_text(prog_->source_lines, line);
    s += " (line " + std::to_string(line) + ": " + text + ")";
    // C kernels (or macros): show the machine instruction too.
    const std::string mnemonic = dis.substr(0, dis.find(' '));
    if (!dis.empty() && text.compare(0, mnemonic.size(), mnemonic) != 0) s += " [" + dis + "]";
  } else if (!dis.empty()) {
    s += " (" + dis + ")";
  }
  return s;
}

// A DMI pointer covering [addr, addr+size) (the platform wires every memory with DMI).
uint8_t* CoralTop::dmi_pointer(uint32_t addr, uint32_t size, bool write) {
  tlm::tlm_generic_payload trans;
  tlm::tlm_dmi dmi;
  trans.set_address(addr);
  trans.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  if (!core_socket->get_direct_mem_ptr(trans, dmi) || dmi.get_start_address() > addr ||
      dmi.get_end_address() < uint64_t(addr) + size - 1)
    throw std::logic_error("coral: no DMI access to " + hex32(addr) + " (" + std::to_string(size) + " bytes)");
  return dmi.get_dmi_ptr() + (addr - dmi.get_start_address());
}

// A store into the DMA register block: writing 1 to CTRL starts a transfer at `cycle`.
void CoralTop::dma_store(uint32_t offset, uint64_t cycle) {
  if (offset != kDmaCtrl || !(get32(dma_regs_.data() + kDmaCtrl) & 1)) return;
  put32(dma_regs_.data() + kDmaCtrl, 0);
  models::DmaDescriptor desc;
  const uint32_t src = get32(dma_regs_.data() + kDmaSrc), dst = get32(dma_regs_.data() + kDmaDst),
                 len = get32(dma_regs_.data() + kDmaLen);
  desc.src = {models::DmaSegment::linear(src, len)};
  desc.dst = {models::DmaSegment::linear(dst, len)};
  desc.label = "dma " + hex32(src) + " -> " + hex32(dst) + " (" + std::to_string(len) + " bytes)";
  const models::DmaCompletion c = dma->submit(desc, cycle);
  ++dma_submitted_;
  put32(dma_regs_.data() + kDmaStatus, dma_submitted_);
  if (!c.ok) put32(dma_regs_.data() + kDmaError, 1);
  dma_done_ = std::max(dma_done_, c.done_cycle);
}

void CoralTop::execute() {
  const RunLimiter limiter(limits_);
  QuantumSync sync(cfg_.clock_ns, cfg_.quantum_cycles);
  const uint64_t base = sync.base();  // absolute cycle of the run's cycle 0
  RunResult& res = result_;
  res.stop = StopReason::Halted;

  rv::Hart hart;
  hart.hooks = this;
  hart.custom = cfg_.custom.get();
  // Host pointers come from the memories' DMI grants, through the router.
  hart.add_region({"itcm", kItcmBase, cfg_.itcm_bytes, dmi_pointer(kItcmBase, cfg_.itcm_bytes, true), false, true});
  hart.add_region({"dtcm", kDtcmBase, cfg_.dtcm_bytes, dmi_pointer(kDtcmBase, cfg_.dtcm_bytes, true), true, false});
  hart.add_region({"csr", kCsrBase, kCsrBytes, dmi_pointer(kCsrBase, kCsrBytes, false), false, false});
  hart.add_region({"ext", cfg_.ext_base, cfg_.ext_bytes, dmi_pointer(cfg_.ext_base, cfg_.ext_bytes, true), true, false});
  const bool dma_on = dma != nullptr;
  if (dma_on) {
    dma_regs_.fill(0);
    hart.add_region({"dma", cfg_.dma.base, kDmaRegBytes, dma_regs_.data(), true, false});
  }
  const uint8_t* itcm_mem = hart.regions()[0].data;
  hart.pc = static_cast<uint32_t>(prog_->entry);
  csr.set_pc_start(hart.pc);

  CoreTiming tm(cfg_);
  timing_ = &tm;
  TimingEvents events;
  if (rec_) tm.set_event_sink(&events);

  const uint32_t words = cfg_.itcm_bytes / 4;
  struct PcStats {
    uint64_t execs = 0, cycles = 0;
  };
  std::vector<PcStats> per_pc(words);
  Traffic traffic[3];  // itcm/csr, dtcm, ext
  isa::ActionCounter actions;
  actions.reset(actions_.catalog().size());
  uint64_t executed = 0, prev_t = 0, last_t = 0;

  // Energy actions of custom instructions (isa/actions.h), per (instruction, SEW, vl).
  std::map<std::tuple<uint32_t, unsigned, unsigned>, isa::NamedActions> custom_action_lists;
  std::map<std::string, uint64_t> custom_actions;
  auto count_custom = [&](const rv::StepInfo& info) {
    const rv::CustomInsn& in = hart.custom->instructions()[info.insn->aux];
    const unsigned sew = in.is_vector() ? info.sew_bytes : 4, vl = in.is_vector() ? info.vl : 1;
    auto key = std::make_tuple(info.insn->aux, sew, vl);
    auto it = custom_action_lists.find(key);
    if (it == custom_action_lists.end()) it = custom_action_lists.emplace(key, rv::custom_actions(in, sew, vl)).first;
    for (const auto& a : it->second) custom_actions[a.name] += a.count;
  };

  std::vector<int32_t> trace_name(words, -1);
  std::unique_ptr<CoralTrace> trace = rec_ ? std::make_unique<CoralTrace>(*rec_, cfg_.scalar.dispatch_width) : nullptr;
  auto stop = [&](StopReason why, const std::string& msg) {
    res.stop = why;
    res.message = msg;
  };

  for (;;) {
    const uint32_t pc = hart.pc;
    if (limiter.instructions_reached(executed)) {
      limiter.stop(res, StopReason::InstructionLimit, where(pc));
      break;
    }
    // The divider's latency depends on its operands, which the step may overwrite: read
    // them first (div/divu/rem/remu: OP with funct7 = 1 and funct3 >= 4).
    uint32_t a = 0, b = 0;
    if (pc - kItcmBase + 4 <= cfg_.itcm_bytes) {
      const uint32_t raw = get32(itcm_mem + (pc - kItcmBase));
      if ((raw & 0xFE00407Fu) == 0x02004033u) {
        a = hart.x[(raw >> 15) & 31];
        b = hart.x[(raw >> 20) & 31];
      }
    }
    tm.fetch(pc);
    try {
      hart.step();
    } catch (const rv::Trap& tr) {
      std::string cause = tr.detail.empty() ? rv::to_string(tr.cause) : tr.detail;
      if (tr.cause == rv::TrapCause::Breakpoint || tr.cause == rv::TrapCause::EnvironmentCall)
        cause = std::string(rv::to_string(tr.cause)) + " (" + (tr.detail.empty() ? "trap" : tr.detail) + ")";
      stop(StopReason::Fault, "Fault at " + where(pc) + ": " + cause);
      break;
    }
    const rv::StepInfo& info = hart.info;
    const rv::OpClass cls = info.insn->cls;
    uint64_t earliest = 0;
    bool dma_write = false;
    if (info.mem_bytes) {
      const uint32_t addr = info.mem_addr;
      const bool write = cls == rv::OpClass::Store || cls == rv::OpClass::FpStore || cls == rv::OpClass::VecStore;
      Traffic& tr = addr - cfg_.ext_base < cfg_.ext_bytes ? traffic[2] : addr - kDtcmBase < cfg_.dtcm_bytes ? traffic[1] : traffic[0];
      if (write) {
        ++tr.writes;
        tr.bytes_written += info.mem_bytes;
      } else {
        ++tr.reads;
        tr.bytes_read += info.mem_bytes;
      }
      if (dma_on && addr - cfg_.dma.base < kDmaRegBytes) {
        if (!write && addr - cfg_.dma.base == kDmaStatus) earliest = dma_done_ > base ? dma_done_ - base : 0;
        dma_write = write;
      }
    }
    const uint64_t t = tm.account(info, hart.pc, a, b, earliest);
    if (hart.custom && rv::is_custom(*info.insn)) count_custom(info);  // actions from the overlay's data
    else actions_.count(info, actions);
    if (dma_write) dma_store(info.mem_addr - cfg_.dma.base, base + t);
    ++executed;
    const uint32_t idx = (pc - kItcmBase) >> 2;  // always inside ITCM: the only executable memory
    per_pc[idx].execs++;
    per_pc[idx].cycles += t - prev_t;  // issue-to-issue cycles attributed to this instruction
    prev_t = t;
    last_t = t;
    if (rec_) {
      if (idx < words && trace_name[idx] < 0)
        trace_name[idx] = static_cast<int32_t>(rec_->intern(rv::disassemble(info.insn->raw, pc, cfg_.custom.get())).id);
      const traces::TraceName name{idx < words ? static_cast<uint32_t>(trace_name[idx]) : rec_->intern("?").id};
      trace->instruction(t, tm.last_slot(), name, pc, line_of(pc), info, events);
      events.clear();
    }
    if (hart.halted) break;
    if (limiter.cycles_exceeded(t)) {
      limiter.stop(res, StopReason::CycleLimit, where(pc));
      break;
    }
    if (limiter.wall_exceeded(executed)) {
      limiter.stop(res, StopReason::WallTimeout, where(pc));
      break;
    }
    sync.at(t);  // once per quantum: the DMA engine's events (counts never depend on it)
  }

  res.cycles = std::max(tm.completion(), last_t + 1);
  if (dma_on && dma_done_ > base) res.cycles = std::max(res.cycles, dma_done_ - base);
  res.instructions = executed;
  // Classes are static per address: count them from the per-address execution counts.
  for (uint32_t i = 0; i < words; ++i) {
    if (!per_pc[i].execs) continue;
    const uint32_t pc = kItcmBase + 4 * i;
    rv::OpClass cls = rv::OpClass::Alu;
    try {
      cls = hart.decoded(pc).cls;
    } catch (const rv::Trap&) {
    }
    res.instructions_by_class[rv::to_string(cls)] += per_pc[i].execs;
  }
  for (int u = 0; u < kNumUnits; ++u) {
    const auto& c = tm.units()[u];
    res.units.push_back({unit_name(Unit(u)), c.instructions, c.busy, c.stall});
  }
  // Vector MACs by element width (the ppa table prices each; docs/energy-area.md).
  static const char* kMacFormats[3] = {"int8", "int16", "int32"};
  for (int w = 0; w < 3; ++w) res.macs_by_format[kMacFormats[w]] = tm.vector_macs_by_width()[w];
  actions_.count_memory(traffic[1].bytes_read, traffic[1].bytes_written, traffic[2].bytes_read,
                        traffic[2].bytes_written, actions);
  res.actions = actions.by_name(actions_.catalog());
  for (const auto& [name, count] : custom_actions) res.actions[name] += count;
  // The instruction after the last one gets the cycles to the end of the run.
  LineProfile lines;
  for (uint32_t i = 0; i < words; ++i)
    if (per_pc[i].execs) lines.add(i < prog_->code.size() ? prog_->code[i].line : 0, per_pc[i].execs, per_pc[i].cycles);
  res.lines = lines.sorted();
  if (record_executions_ || cfg_.custom) {
    std::vector<uint64_t> execs(words, 0);
    for (uint32_t i = 0; i < words; ++i) execs[i] = per_pc[i].execs;
    if (cfg_.custom) res.added_instructions = added_instruction_uses(*prog_, *cfg_.custom, execs);
    if (record_executions_) executions_ = std::move(execs);
  }
  res.memory = {{"itcm", traffic[0].json()}, {"dtcm", traffic[1].json()}, {"ext", traffic[2].json()},
                {"router", router.stats()}};
  res.memory["ext"]["axi"] = {{"read_latency", cfg_.axi.read_latency}, {"write_latency", cfg_.axi.write_latency},
                              {"bytes_per_cycle", cfg_.axi.bytes_per_cycle}};
  if (dma_on) res.memory["dma"] = dma->stats();
  timing_ = nullptr;
  if (trace) trace->finish(res.cycles);
  sync.finish(res.cycles);
  res.host_seconds = limiter.host_seconds();
}

}  // namespace tlmcraft::coral
