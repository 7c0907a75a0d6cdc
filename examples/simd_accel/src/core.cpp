#include "core.h"

#include <algorithm>
#include <array>

#include "simd_top.h"

namespace simd_accel {

using tlmcraft::StopReason;

Core::Core(sc_core::sc_module_name name, const SimdConfig& cfg, tlmcraft::models::DmaEngine& dma,
           tlmcraft::models::Scratchpad& spad, tlmcraft::models::Dram& dram)
    : sc_module(name), cfg_(cfg), dma_(dma), spad_(spad), dram_(dram) {
  SC_THREAD(thread);
}

void Core::prepare(const LoadedProgram* program, const tlmcraft::RunLimits& limits,
                   tlmcraft::traces::TraceRecorder* recorder) {
  program_ = program;
  limits_ = limits;
  recorder_ = recorder;
  unit_tracks_.clear();
  if (recorder_) {
    for (const auto& u : program_->spec->units()) unit_tracks_.push_back(recorder_->track(kPlatformName, u.name));
    dma_track_ = recorder_->track(kPlatformName, "dma.transfers");
  }
  result_ = {};
  stopped_ = false;
  dma_busy_ = 0;
}

void Core::thread() {
  if (!program_) return;
  limiter_.emplace(limits_);
  try {
    execute();
  } catch (const std::exception& e) {
    stop(StopReason::Fault, e.what());
  }
  result_.host_seconds = limiter_->host_seconds();
  if (recorder_) recorder_->extend_to(result_.cycles);
  wait(sc_core::sc_time(double(cfg_.clock_ns) * double(result_.cycles), sc_core::SC_NS));
}

void Core::stop(StopReason why, const std::string& message) {
  if (stopped_) return;
  stopped_ = true;
  result_.stop = why;
  result_.message = message;
}

void Core::stop_at_limit(StopReason why, const std::string& where) {
  if (stopped_) return;
  stopped_ = true;
  limiter_->stop(result_, why, where);
}

void Core::trace_instruction(const InstructionInfo& info, uint32_t pc, uint64_t issue) {
  const uint32_t line = program_->program.code[pc].line;
  recorder_->slice(unit_tracks_[info.unit], issue, issue + info.latency, info.spec->mnemonic,
                   {{"pc", pc}, {"line", line}});
}

std::string Core::where(uint32_t pc) const {
  const auto& p = program_->program;
  const uint32_t line = p.code[pc].line;
  std::string text = line >= 1 && line <= p.source_lines.size() ? p.source_lines[line - 1] : "";
  text.erase(0, std::min(text.find_first_not_of(" \t"), text.size()));
  return "PC " + std::to_string(pc) + " (line " + std::to_string(line) + ": " + text + ")";
}

// Every step runs in order; each scratchpad access may be delayed by a DMA interlock.
StepsOutcome Core::run_steps(const InstructionInfo& info, State& state, const TimingModel& timing, uint64_t slot) {
  StepsOutcome out;
  out.interlock = slot;
  for (const Step& s : info.steps) {
    Effect e = s.exec(*s.spec, s.instruction, state);
    if (!e.fault.empty()) {
      out.effect = std::move(e);
      return out;
    }
    out.interlock = std::max(out.interlock, timing.spad_ready(e, slot));
    out.spad_write = out.spad_write || e.kind == Effect::Kind::SpadWrite;
    if (e.kind != Effect::Kind::None) out.effect = e;
  }
  return out;
}

// Submits a transfer at `issue`; returns the cycle the engine accepted it (later when its
// queue was full), or fills `fault`.
uint64_t Core::start_dma(const Effect& e, uint64_t issue, TimingModel& timing, std::string& fault) {
  if (e.bytes == 0) return issue;
  using tlmcraft::models::DmaSegment;
  tlmcraft::models::DmaDescriptor d;
  const DmaSegment dram = DmaSegment::linear(kDramBase + e.dram_addr, e.bytes);
  const DmaSegment spad = DmaSegment::linear(kSpadBase + e.spad_addr, e.bytes);
  const bool load = e.kind == Effect::Kind::DmaLoad;
  d.src = {load ? dram : spad};
  d.dst = {load ? spad : dram};
  d.label = load ? "DMA_LD" : "DMA_ST";
  spad_.prune(issue > 1 ? issue - 1 : 0);
  const tlmcraft::models::DmaCompletion c = dma_.submit(d, issue);
  if (!c.ok) {
    fault = c.error;
    return issue;
  }
  timing.dma_started(e, c.accept_cycle, c.done_cycle);
  if (recorder_) recorder_->slice(dma_track_, c.start_cycle, c.done_cycle, d.label, {{"bytes", e.bytes}});
  dma_busy_ += c.done_cycle - c.start_cycle;
  return c.accept_cycle;
}

void Core::execute() {
  const auto& spec = *program_->spec;
  const auto& code = program_->program.code;
  State state;
  state.spad = spad_.data();
  state.spad_bytes = spad_.size();
  TimingModel timing(spec, cfg_);
  std::vector<tlmcraft::UnitStats> units;
  for (const auto& u : spec.units()) units.push_back({u.name});
  // Per source line and per class letter, indexed directly: the loop runs once per instruction.
  std::vector<tlmcraft::LineStats> lines(program_->program.source_lines.size() + 1);
  std::array<uint64_t, 256> by_class{};
  std::vector<uint32_t> loop_body;  // body start PC of every open loop
  uint64_t slot = 0, executed = 0, prev_issue = 0;
  uint32_t pc = 0, prev_line = 0;
  while (pc < code.size()) {
    if (limiter_->instructions_reached(executed)) {
      stop_at_limit(StopReason::InstructionLimit, where(pc));
      break;
    }
    if (limiter_->wall_exceeded(executed)) {
      stop_at_limit(StopReason::WallTimeout, where(pc));
      break;
    }
    const InstructionInfo& info = program_->info[pc];
    uint64_t issue = timing.registers_ready(info.accesses, slot, info.latency);
    const StepsOutcome steps = run_steps(info, state, timing, issue);
    const Effect& e = steps.effect;
    if (!e.fault.empty()) {
      stop(StopReason::Fault, where(pc) + ": " + e.fault);
      break;
    }
    issue = steps.interlock;
    if (e.kind == Effect::Kind::DmaWait) issue = std::max(issue, timing.dma_idle());
    if (e.kind == Effect::Kind::DmaLoad || e.kind == Effect::Kind::DmaStore) {
      std::string fault;
      issue = start_dma(e, issue, timing, fault);
      if (!fault.empty()) {
        stop(StopReason::Fault, where(pc) + ": " + fault);
        break;
      }
    }
    if (limiter_->cycles_exceeded(issue)) {
      stop_at_limit(StopReason::CycleLimit, where(pc));
      break;
    }
    if (recorder_) trace_instruction(info, pc, issue);
    if (steps.spad_write) timing.vector_store(issue + info.latency);
    timing.write_back(info.accesses, issue, info.latency);

    tlmcraft::UnitStats& u = units[info.unit];
    ++u.instructions;
    ++u.busy_cycles;
    u.stall_cycles += issue - slot;
    ++by_class[uint8_t(info.spec->cls)];
    if (executed > 0) lines[prev_line].cycles += issue - prev_issue;
    const uint32_t line = code[pc].line < lines.size() ? code[pc].line : 0;
    lines[line].line = line;
    ++lines[line].executions;
    prev_line = line;
    prev_issue = issue;
    slot = issue + 1;
    ++executed;

    if (e.kind == Effect::Kind::LoopStart) loop_body.push_back(pc + 1);
    if (e.kind == Effect::Kind::LoopEnd && e.loop_again) {
      pc = loop_body.back();
    } else {
      if (e.kind == Effect::Kind::LoopEnd) loop_body.pop_back();
      ++pc;
    }
  }
  const uint64_t cycles = std::max(slot, timing.drained());
  if (executed > 0) lines[prev_line].cycles += cycles - prev_issue;
  result_.cycles = cycles;
  if (limiter_->cycles_exceeded(cycles))  // the last transfers may end past the limit
    stop_at_limit(StopReason::CycleLimit, "the end of the program (cycle " + std::to_string(cycles) + ")");
  result_.instructions = executed;
  for (auto& u : units)
    if (u.name == "dma") u.busy_cycles = dma_busy_;
  result_.units = std::move(units);
  for (const auto& s : lines)
    if (s.executions > 0) result_.lines.push_back(s);
  for (size_t c = 0; c < by_class.size(); ++c)
    if (by_class[c] > 0) result_.instructions_by_class[std::string(1, char(c))] = by_class[c];
  std::stable_sort(result_.lines.begin(), result_.lines.end(),
                   [](const tlmcraft::LineStats& a, const tlmcraft::LineStats& b) { return a.cycles > b.cycles; });
  result_.memory = {{"dram", dram_.stats()}, {"spad", spad_.stats()}, {"dma", dma_.stats()}};
}

}  // namespace simd_accel
