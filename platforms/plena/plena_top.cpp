#include "platforms/plena/plena_top.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

#include <yaml-cpp/yaml.h>

#include "common/data_dir.h"
#include "isa/isa_spec.h"
#include "platforms/plena/hbm_timing.h"
#include "platforms/plena/hbm_transfer.h"
#include "platforms/plena/plena_trace.h"
#include "platforms/run_control.h"

namespace tlmcraft::plena {
namespace sem = tlmcraft::isa::plena;
using sc_core::sc_time;

namespace {

uint32_t hidden_vram(const PlenaConfig& c) { return isa::plena::kHiddenVramRows * c.vlen; }

sc_time period(const PlenaConfig& c) { return sc_time(c.clock_ns, sc_core::SC_NS); }

models::ScratchpadConfig sram(const PlenaConfig& c, const char* name, uint64_t bytes, uint64_t word, uint32_t banks,
                              uint32_t ports = 1) {
  models::ScratchpadConfig s;
  s.ports_per_bank = ports;
  s.name = name;
  s.size_bytes = bytes;
  s.word_bytes = word;
  s.banks = banks;
  s.clock_period = period(c);
  return s;
}

models::DramConfig hbm_config(const PlenaConfig& c) {
  const std::string preset = data::data_path("models/presets/" + c.hbm_preset + ".yaml");
  if (!std::filesystem::exists(preset))
    throw InputError("memory.hbm.preset '" + c.hbm_preset + "': no such preset (" + preset + ")");
  YAML::Node node = YAML::LoadFile(preset);
  for (const auto& [k, v] : c.hbm_overrides.items()) node[k] = YAML::Load(v.dump());
  node["capacity_bytes"] = c.hbm_size_bytes;
  node["name"] = "hbm";
  node.remove("clock_period_ns");
  node["clock_period_ps"] = static_cast<uint64_t>(c.clock_ns * 1000.0 + 0.5);
  try {
    return models::DramConfig::from_yaml(node, preset);
  } catch (const std::exception& e) {
    throw InputError(std::string("HBM configuration: ") + e.what());
  }
}

models::RouterConfig router_config(const PlenaConfig& c) {
  models::RouterConfig r;
  r.name = "router";
  r.clock_period = period(c);
  r.map = {{"hbm", 0, c.hbm_size_bytes, 0},
           {"msram", kMsramBase, uint64_t(c.msram_elements) * 2, 1},
           {"vram", kVramBase, uint64_t(c.vram_elements) * 2, 2},
           {"fp_mem", kFpMemBase, uint64_t(c.fp_mem_elements) * 2, 3},
           {"int_mem", kIntMemBase, uint64_t(c.int_mem_words) * 4, 4}};
  return r;
}

models::DmaConfig dma(const PlenaConfig& c, const char* name, const DmaConfig& d) {
  models::DmaConfig m;
  m.name = name;
  m.queue_depth = d.queue_depth;
  m.bytes_per_cycle = d.bytes_per_cycle;
  m.clock_period = period(c);
  return m;
}

sem::PlenaParams params(const PlenaConfig& c) {
  sem::PlenaParams p;
  p.mlen = c.mlen;
  p.vlen = c.vlen;
  p.blen = c.blen;
  p.hlen = c.hlen;
  p.v_rows = c.v_prefetch_rows;
  p.loop_depth = c.loop_depth;
  return p;
}

MemId mem_id(sem::Memory m) {
  switch (m) {
    case sem::Memory::MSRAM: return kMsram;
    case sem::Memory::VRAM: return kVram;
    case sem::Memory::FP_MEM: return kFpMem;
    case sem::Memory::INT_MEM: return kIntMem;
  }
  return kVram;
}

// Each instruction the ISA variant adds: its PCs in the program and their executions (every
// added one listed, zero when the kernel never uses it: the report says it bought nothing).
std::map<std::string, AddedInstructionUse> added_instruction_uses(const LoadedProgram& prog,
                                                                  const std::vector<uint64_t>& pc_execs) {
  std::map<std::string, AddedInstructionUse> uses;
  for (const std::string& m : prog.added) uses[m];
  for (size_t pc = 0; pc < prog.mnemonic.size(); ++pc) {
    const auto it = uses.find(prog.mnemonic[pc]);
    if (it == uses.end()) continue;
    ++it->second.static_count;
    it->second.executions += pc_execs[pc];
  }
  return uses;
}

}  // namespace

PlenaTop::PlenaTop(sc_core::sc_module_name name, const PlenaConfig& cfg)
    : sc_module(name),
      // VRAM: one word per row, rows interleaved over the banks; MSRAM: one bank per tile.
      msram("msram", sram(cfg, "msram", uint64_t(cfg.msram_elements) * 2, uint64_t(cfg.mlen) * cfg.mlen * 2, cfg.msram_banks)),
      // Past the architectural VRAM: the hidden rows of composed instructions' temporaries
      // (no address map entry reaches them).
      vram("vram", sram(cfg, "vram", (uint64_t(cfg.vram_elements) + hidden_vram(cfg)) * 2, uint64_t(cfg.vlen) * 2,
                        cfg.vram_banks, cfg.vram_ports)),
      int_mem("int_mem", sram(cfg, "int_mem", uint64_t(cfg.int_mem_words) * 4, 4, 1)),
      fp_mem("fp_mem", sram(cfg, "fp_mem", uint64_t(cfg.fp_mem_elements) * 2, 2, 1)),
      hbm("hbm", hbm_config(cfg)),
      router("router", router_config(cfg)),
      prefetch_dma("prefetch_dma", dma(cfg, "prefetch_dma", cfg.prefetch)),
      store_dma("store_dma", dma(cfg, "store_dma", cfg.store)),
      cfg_(cfg),
      hbm_timing_(hbm_timing_config(cfg)),
      state_(params(cfg)) {
  prefetch_dma.socket.bind(router.target_socket);
  store_dma.socket.bind(router.target_socket);
  // The core times transfers arithmetically (HbmTimer) and never waits for a completion:
  // no per-transfer notification may pile up in the event queue (a prefetch loop grew it
  // without bound).
  prefetch_dma.set_completion_notifications(false);
  store_dma.set_completion_notifications(false);
  router.initiator(0).bind(hbm.socket);
  router.initiator(1).bind(msram.socket);
  router.initiator(2).bind(vram.socket);
  router.initiator(3).bind(fp_mem.socket);
  router.initiator(4).bind(int_mem.socket);
  // The controller reaches the scratchpads directly (their DMI pointers).
  state_.msram = {reinterpret_cast<uint16_t*>(msram.data()), cfg.msram_elements};
  state_.vram = {reinterpret_cast<uint16_t*>(vram.data()), cfg.vram_elements};
  state_.hidden_vram = hidden_vram(cfg);
  state_.fp_mem = {reinterpret_cast<uint16_t*>(fp_mem.data()), cfg.fp_mem_elements};
  state_.int_mem = {reinterpret_cast<uint32_t*>(int_mem.data()), cfg.int_mem_words};
  SC_THREAD(controller_thread);
}

RunResult PlenaTop::run(const LoadedProgram& prog, const RunLimits& limits, traces::TraceRecorder* recorder) {
  prog_ = &prog;
  limits_ = limits;
  rec_ = recorder;
  result_ = RunResult{};
  start_.notify(sc_core::SC_ZERO_TIME);
  sc_core::sc_start();  // returns when the controller is done (the DMA engines schedule no events)
  prog_ = nullptr;
  return result_;
}

void PlenaTop::controller_thread() {
  for (;;) {
    sc_core::wait(start_);
    execute_program();
  }
}

std::string PlenaTop::where(uint32_t pc) const {
  const auto& p = prog_->program;
  std::string s = "PC " + std::to_string(pc);
  if (pc < p.code.size()) {
    const uint32_t line = p.code[pc].line;
    if (line > 0 && line <= p.source_lines.size()) {
      s += " (line " + std::to_string(line) + ": " + source_line_text(p.source_lines, line) + ")";
    } else {
      s += " (" + prog_->mnemonic[pc] + ")";
    }
  }
  return s;
}

void PlenaTop::execute_program() {
  const RunLimiter limiter(limits_);
  QuantumSync sync(cfg_.clock_ns, cfg_.quantum_cycles);
  const uint64_t base = sync.base();  // absolute cycle of the run's cycle 0
  const auto& code = prog_->program.code;
  state_.reset();
  actions_.reset(prog_->actions.catalog.size());

  TimingModel tm(cfg_);
  HbmTimer hbm_timer(cfg_, hbm_timing_);
  std::vector<uint64_t> iteration_start(isa::plena::kLoopStackCapacity, 0);  // `executed` when each open loop's iteration began
  std::vector<Range> ranges;
  std::vector<uint64_t> pc_cycles(code.size(), 0), pc_execs(code.size(), 0);
  uint64_t executed = 0;

  std::unique_ptr<PlenaTrace> trace = rec_ ? std::make_unique<PlenaTrace>(*rec_) : nullptr;
  if (trace) trace->watch(hbm_timer);

  RunResult& res = result_;
  res.stop = StopReason::Halted;
  auto stop = [&](StopReason why, const std::string& msg) {
    res.stop = why;
    res.message = msg;
  };
  // In an open loop, the limit names the loop too (the endless one is usually the culprit).
  auto limit_where = [&](uint32_t pc) {
    std::string w = where(pc);
    if (state_.loop_count > 0) w += ", in the loop at " + where(state_.loops[state_.loop_count - 1].body_pc - 1);
    return w;
  };

  for (;;) {
    const uint32_t pc = state_.pc;
    if (pc >= code.size()) break;  // fell off the end: the program is complete
    if (limiter.instructions_reached(executed)) {
      limiter.stop(res, StopReason::InstructionLimit, limit_where(pc));
      break;
    }
    if (loop_limit_exceeded(executed, iteration_start)) break;
    const StaticInfo& si = prog_->info[pc];
    const uint32_t loops_before = state_.loop_count;
    if (!prog_->expression[pc].empty())
      sem::execute_expression(prog_->expression[pc], prog_->mnemonic[pc].c_str(), state_, step_);
    else if (prog_->fused[pc].empty()) sem::execute(code[pc], state_, step_);
    else sem::execute_composed(prog_->fused[pc], prog_->mnemonic[pc].c_str(), state_, step_);
    if (!step_.ok()) {
      stop(StopReason::Fault, where(pc) + ": " + step_.fault);
      break;
    }
    actions_.add(prog_->actions.per_pc, pc);
    count_sram_traffic(prog_->actions, step_, actions_);

    ranges.clear();
    for (uint8_t i = 0; i < step_.n_reads; ++i)
      ranges.push_back({mem_id(step_.reads[i].mem), step_.reads[i].first, step_.reads[i].end(), false});
    for (uint8_t i = 0; i < step_.n_writes; ++i)
      ranges.push_back({mem_id(step_.writes[i].mem), step_.writes[i].first, step_.writes[i].end(), true});

    const uint64_t frontier_before = tm.frontier();
    uint64_t issue, done, ready = 0;
    if (step_.has_transfer) {
      BuiltTransfer bt = build_transfer(step_.transfer, cfg_);
      if (!bt.error.empty()) {
        stop(StopReason::Fault, where(pc) + ": " + bt.error);
        break;
      }
      ranges.insert(ranges.end(), bt.hbm_ranges.begin(), bt.hbm_ranges.end());
      issue = tm.earliest_issue(si, ranges);
      bt.descriptor.label = prog_->mnemonic[pc] + " at PC " + std::to_string(pc);
      // The DMA engine moves (and converts) the data; the HBM timer gives the cycles.
      models::DmaEngine& engine = si.unit == kStore ? store_dma : prefetch_dma;
      const models::DmaCompletion c = engine.submit(bt.descriptor, base + issue);
      if (!c.ok) {
        stop(StopReason::Fault, where(pc) + ": " + c.error);
        break;
      }
      const HbmTiming ht = hbm_timer.transfer(step_.transfer, issue);
      ready = issue;
      issue = std::max(issue, ht.accept);  // a full queue holds the controller
      done = ht.done;
    } else {
      issue = tm.earliest_issue(si, ranges);
      done = issue + si.latency;
      if (!tm.serial() && cfg_.sram_bank_conflicts) book_vram_banks(issue, done, base);
    }
    const uint64_t stall = tm.commit(si, ranges, issue, done);

    ++executed;
    ++pc_execs[pc];
    // A loop entered or looped back starts a new iteration (limits.loop_iteration_instructions).
    if (state_.loop_count > loops_before) iteration_start[state_.loop_count - 1] = executed;
    else if (prog_->loop[pc] == uint8_t(isa::LoopRole::End) && state_.loop_count == loops_before && state_.loop_count > 0)
      iteration_start[state_.loop_count - 1] = executed;
    pc_cycles[pc] += tm.frontier() - frontier_before;  // cycles this instruction added to the critical frontier
    if (trace)
      trace->instruction({si.unit, pc, code[pc].line, &prog_->mnemonic[pc], issue, done, std::min(stall, issue),
                          step_.has_transfer, ready},
                         ranges);

    if (step_.halt) break;
    if (limiter.cycles_exceeded(tm.frontier())) {
      limiter.stop(res, StopReason::CycleLimit, limit_where(pc));
      break;
    }
    // Wall clock and SystemC quantum, checked rarely: counts never depend on either.
    if (limiter.wall_exceeded(executed)) {
      limiter.stop(res, StopReason::WallTimeout, limit_where(pc));
      break;
    }
    // Bank bookings before the in-order issue point can no longer matter (in both modes:
    // DMA transfers book VRAM and MSRAM banks too, and a prefetch loop grew them unbounded).
    if ((executed & 0xFFF) == 0) {
      vram.prune(base + issue);
      msram.prune(base + issue);
    }
    sync.at(issue);
  }

  res.cycles = tm.frontier();
  res.instructions = executed;
  for (size_t pc = 0; pc < code.size(); ++pc)
    if (pc_execs[pc]) res.instructions_by_class[std::string(1, prog_->cls[pc])] += pc_execs[pc];
  for (int u = 0; u < kNumUnits; ++u) {
    const auto& pu = tm.unit(Unit(u));
    res.units.push_back({unit_name(Unit(u)), pu.operations(), pu.active_cycles(), tm.stall_cycles(Unit(u))});
  }
  res.macs_by_format["bf16"] = state_.matrix_macs;  // the matrix unit computes in bf16 only
  // HBM side of the transfers: the bytes the DMA engines read from / wrote to HBM (MX formats
  // move fewer bytes than the bf16 they become on chip).
  actions_.add(prog_->actions.hbm_read, prefetch_dma.stats().value("bytes_in", uint64_t(0)));
  actions_.add(prog_->actions.hbm_write, store_dma.stats().value("bytes_out", uint64_t(0)));
  res.actions = actions_.by_name(prog_->actions.catalog);
  LineProfile lines;
  for (size_t pc = 0; pc < code.size(); ++pc)
    if (pc_execs[pc]) lines.add(code[pc].line, pc_execs[pc], pc_cycles[pc]);
  res.lines = lines.sorted();
  res.added_instructions = added_instruction_uses(*prog_, pc_execs);
  res.memory = {{"hbm", hbm_timer.stats()},          {"msram", msram.stats()},         {"vram", vram.stats()},
                {"router", router.stats()},    {"dma_prefetch", prefetch_dma.stats()}, {"dma_store", store_dma.stats()}};
  // After the stats (draining changes them): when HBM finishes the last transfer, which
  // the serial count (the reference's) does not wait for (docs/platforms/plena.md).
  res.last_transfer_cycle = hbm_timer.last_transfer_cycle();
  if (trace) trace->finish(res.cycles);
  // Let simulated time reach the end of the run (DMA completions are notified there).
  sync.finish(res.cycles);
  res.host_seconds = limiter.host_seconds();
}

// The reference's MAX_LOOP_INSTRUCTIONS: an iteration of an open loop may run at most the
// limit's instructions (counting the next one). The outermost loop's iteration began first,
// so it is the one to check. Stops the run with the reference's message.
bool PlenaTop::loop_limit_exceeded(uint64_t executed, const std::vector<uint64_t>& iteration_start) {
  const uint64_t limit = cfg_.loop_iteration_limit;
  if (limit == 0 || state_.loop_count == 0 || executed + 1 - iteration_start[0] <= limit) return false;
  result_.stop = StopReason::InstructionLimit;
  result_.message = "Loop at " + where(state_.loops[0].body_pc - 1) + " exceeded max instructions limit (" +
                    std::to_string(limit) + ") in one iteration (limits.loop_iteration_instructions)";
  return true;
}

// Pipelined mode: an instruction reads its VRAM rows in its issue cycle and writes them in
// its last execution cycle; each VRAM bank serves one access per cycle, so a bank already
// booked (by a DMA access or another instruction) delays the issue.
void PlenaTop::book_vram_banks(uint64_t& issue, uint64_t& done, uint64_t base) {
  const uint64_t latency = done - issue;
  for (uint8_t i = 0; i < step_.n_reads; ++i) {
    const auto& r = step_.reads[i];
    if (r.mem != sem::Memory::VRAM) continue;
    bool repeated = false;  // reading one row twice is one access
    for (uint8_t k = 0; k < i; ++k)
      repeated |= step_.reads[k].mem == r.mem && step_.reads[k].first == r.first && step_.reads[k].count == r.count;
    if (repeated) continue;
    for (uint32_t row = 0; row < r.rows; ++row) {
      const uint64_t addr = (uint64_t(r.first) + uint64_t(row) * r.stride) * 2;
      const uint64_t granted = vram.reserve(addr, std::max<uint64_t>(uint64_t(r.count) * 2, 1), base + issue, false) - base;
      issue = std::max(issue, granted);
    }
  }
  done = issue + latency;
  for (uint8_t i = 0; i < step_.n_writes; ++i) {
    const auto& w = step_.writes[i];
    if (w.mem != sem::Memory::VRAM) continue;
    for (uint32_t row = 0; row < w.rows; ++row) {
      const uint64_t addr = (uint64_t(w.first) + uint64_t(row) * w.stride) * 2;
      const uint64_t granted = vram.reserve(addr, std::max<uint64_t>(uint64_t(w.count) * 2, 1), base + done - 1, true) - base;
      done = std::max(done, granted + 1);
    }
  }
}

}  // namespace tlmcraft::plena
