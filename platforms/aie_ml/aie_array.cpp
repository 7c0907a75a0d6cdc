#include "platforms/aie_ml/aie_array.h"

#include "platforms/aie_ml/aie_actions.h"
#include "platforms/aie_ml/exposed_pipeline.h"
#include "isa/aie_ml/extension_ops.h"
#include "isa/aie_ml/op_codes.h"

#include <algorithm>
#include <deque>
#include <chrono>
#include <cstring>
#include <map>


namespace tlmcraft::aie_ml {

namespace aie = isa::aie_ml;

namespace {
// Adds `program`'s ops added by data (ops of the ISA with an `extension`) to `uses`: each op
// once to its static count and, with `runs` (executions per bundle), its bundle's runs.
void count_added_ops(const aie::AieProgram& program, const std::vector<std::pair<uint64_t, uint64_t>>* runs,
                     std::map<std::string, AddedInstructionUse>& uses) {
  const aie::AieIsa& isa = aie::AieIsa::get();
  for (size_t pc = 0; pc < program.bundles.size(); ++pc)
    for (const aie::SlotOp& op : program.bundles[pc].ops) {
      const aie::OpSpec& spec = isa.ops.at(op.op);
      if (spec.extension < 0) continue;
      AddedInstructionUse& use = uses[spec.mnemonic];
      if (runs) use.executions += (*runs)[pc].first;
      else ++use.static_count;
    }
}
}  // namespace

// ---- per-actor run state ------------------------------------------------------------

struct AieArray::CoreRun {
  uint32_t column = 0, row = 0;
  const aie::AieProgram* program = nullptr;
  aie::CoreState state;
  std::vector<uint64_t> unit_ready;  // storage unit -> cycle its pending result is readable
  std::vector<uint32_t> unit_writer;  // storage unit -> kernel line of its last writer
  // compute.pipeline: exposed: results in flight, and the pipeline's cycle (bundles issued).
  std::unique_ptr<ExposedPipeline> pipeline;
  uint64_t pipe_cycle = 0;
  // compute.pipeline: interlocked: reads the interlock held (on the hardware they would
  // read the old value), and the first few of them.
  uint64_t held_reads = 0;
  std::vector<std::string> held_notes;
  bool done = false, blocked = false;
  uint64_t block_start = 0, attempt_start = 0, halt_cycle = 0;
  uint64_t bundles = 0, issue_cycles = 0, stall_register = 0, stall_bank = 0, stall_lock = 0;
  std::array<uint64_t, aie::kSlotCount> slot_ops{};
  std::array<uint64_t, aie::kSlotCount> slot_busy{};  // cycles each slot was held (an op's `ii`)
  std::array<uint64_t, aie::kSlotCount> slot_free{};  // first cycle each slot can issue again
  uint64_t stall_slot = 0;                            // waits for a slot an op of ii > 1 still holds
  uint64_t stall_branch_delay = 0;  // compute.branch_delay_nops cycles after branch ops
  std::array<uint64_t, aie::kMacFormatCount> macs{};  // by aie::MacFormat, from the ISA's `macs`
  std::vector<std::pair<uint64_t, uint64_t>> per_pc;  // executions, cycles
  isa::ActionLists actions;  // per bundle: its energy actions (aie_actions.h)
  std::string name;
  std::array<int, aie::kSlotCount> slot_track{};
  int stall_track = -1;
  LockBank* waiting_bank = nullptr;
  uint32_t waiting_lock = 0;
  int32_t waiting_value = 0;
  // Per-bundle scratch of the CorePort, kept to reuse its capacity.
  std::vector<uint32_t> banks;
  std::vector<std::pair<LockBank*, uint32_t>> touched_locks, released, acquired;
};

struct AieArray::Channel {
  TileRef tile;
  ChannelRef ch;
  enum class State { Idle, WaitLock, Setup, Ready, Busy, Done } state = State::Idle;
  int bd = -1;
  BdWalker walker;                // address generator of the current BD
  std::vector<int64_t> seg;       // word offsets of the current segment
  std::deque<uint64_t> ahead;     // shim MM2S, shim.read_ahead_bytes: DDR arrival of the next words
  std::vector<int> dests;        // MM2S: destination channel indices
  int src = -1;                  // S2MM: source channel index
  uint32_t latency = 0;          // S2MM: stream latency from its source (hops x hop_cycles)
  uint64_t ready_since = 0, block_start = 0;
  uint64_t bds_done = 0, busy = 0, lock_wait = 0, stream_wait = 0, bytes = 0;
  int track = -1;
  std::string name;
};

// The core's view of memory and locks for one bundle: maps core addresses to tiles,
// records the banks touched (for conflict stalls) and the lock a refused acquire waited on.
class AieArray::CorePort : public aie::DataMemoryPort, public aie::LockPort {
 public:
  CorePort(AieArray& a, CoreRun& c)
      : banks(c.banks), touched_locks(c.touched_locks), released(c.released), acquired(c.acquired), a_(a), c_(c) {
    banks.clear();
    touched_locks.clear();
    released.clear();
    acquired.clear();
  }

  bool read(uint32_t addr, void* dst, uint32_t n) override {
    uint8_t* p = map(addr, n);
    if (!p) return false;
    std::memcpy(dst, p, n);
    return true;
  }
  bool write(uint32_t addr, const void* src, uint32_t n) override {
    uint8_t* p = map(addr, n);
    if (!p) return false;
    std::memcpy(p, src, n);
    return true;
  }
  bool try_acquire(const aie::LockRequest& req) override {
    uint32_t id;
    LockBank* bank = lock_bank(req.id, id);
    if (!bank) {
      bad_lock = true;
      bad_lock_id = req.id;
      return false;
    }
    if (bank->try_acquire(id, req.value, req.kind == aie::LockRequest::Kind::AcquireEQ)) {
      touched_locks.push_back({bank, id});
      acquired.push_back({bank, id});
      return true;
    }
    refused_bank = bank;
    refused_id = id;
    refused_value = req.value;
    return false;
  }
  void release(const aie::LockRequest& req) override {
    uint32_t id;
    LockBank* bank = lock_bank(req.id, id);
    if (!bank) {
      bad_lock = true;
      bad_lock_id = req.id;
      return;
    }
    if (!bank->release(id, req.value)) {
      overflow = true;
      overflow_id = req.id;
      return;
    }
    touched_locks.push_back({bank, id});
    released.push_back({bank, id});
  }

  std::vector<uint32_t>& banks;  // tile_index * 64 + bank, one per access
  std::vector<std::pair<LockBank*, uint32_t>>& touched_locks;
  std::vector<std::pair<LockBank*, uint32_t>>& released;
  std::vector<std::pair<LockBank*, uint32_t>>& acquired;
  LockBank* refused_bank = nullptr;
  uint32_t refused_id = 0;
  int32_t refused_value = 0;
  bool bad_lock = false, overflow = false;
  uint32_t bad_lock_id = 0, overflow_id = 0;

 private:
  // The AIE-ML core address map (as mlir-aie's AIE2 target model): four windows of the
  // data-memory size from 4 x window: south, west, north neighbour, then the own tile.
  // Lock ids follow the same order in groups of the per-tile lock count.
  int neighbour(uint32_t window) const {
    int col = static_cast<int>(c_.column), row = static_cast<int>(c_.row);
    switch (window) {
      case 0: --row; break;  // south
      case 1: --col; break;  // west
      case 2: ++row; break;  // north
      case 3: break;         // own
      default: return -1;
    }
    if (col < 0 || row < 0 || col >= static_cast<int>(a_.cfg_.columns) || row >= static_cast<int>(a_.cfg_.rows)) return -1;
    return col * static_cast<int>(a_.cfg_.rows) + row;
  }
  uint8_t* map(uint32_t addr, uint32_t n) {
    const uint32_t size = a_.cfg_.compute.memory_bytes;
    const uint32_t window_bytes = a_.window_bytes();
    if (addr < 4 * window_bytes) return nullptr;
    const int tile = neighbour(addr / window_bytes - 4);
    const uint32_t off = addr % window_bytes;
    if (tile < 0 || off + static_cast<uint64_t>(n) > size) return nullptr;
    TileMemory& m = a_.compute_[tile].mem;
    banks.push_back(static_cast<uint32_t>(tile) * 64 + m.bank_of(off));
    return m.data() + off;
  }
  LockBank* lock_bank(uint32_t id, uint32_t& local) {
    const uint32_t L = a_.cfg_.compute.locks;
    const int tile = neighbour(id / L);
    if (tile < 0) return nullptr;
    local = id % L;
    return &a_.compute_[tile].locks;
  }

  AieArray& a_;
  CoreRun& c_;
};

// ---- construction -------------------------------------------------------------------

AieArray::AieArray(sc_core::sc_module_name name, const AieConfig& cfg)
    : sc_core::sc_module(name), noc("noc"), cfg_(cfg) {
  ddr_ = std::make_unique<models::Dram>("ddr", cfg_.ddr);
  noc.bind(ddr_->socket);
  compute_.resize(static_cast<size_t>(cfg_.columns) * cfg_.rows);
  for (auto& t : compute_) {
    t.mem = TileMemory(cfg_.compute.memory_bytes, cfg_.compute.banks);
    t.locks = LockBank(cfg_.compute.locks);
  }
  mem_tiles_.resize(cfg_.columns);
  for (auto& t : mem_tiles_) {
    t.mem = TileMemory(cfg_.mem_tile.memory_bytes, cfg_.mem_tile.banks);
    t.locks = LockBank(cfg_.mem_tile.locks);
  }
  shim_locks_.assign(cfg_.columns, LockBank(cfg_.shim.locks));
  SC_HAS_PROCESS(AieArray);
  SC_THREAD(thread);
}

AieArray::~AieArray() = default;

LockBank& AieArray::locks(const TileRef& t) {
  switch (t.kind) {
    case TileKind::Compute: return compute_[t.column * cfg_.rows + t.row].locks;
    case TileKind::Mem: return mem_tiles_[t.column].locks;
    case TileKind::Shim: break;
  }
  return shim_locks_[t.column];
}

void AieArray::load(const AieKernel& kernel) {
  if (kernel.phases.empty()) throw InputError("aie_ml: the kernel has no phase");
  kernel_ = &kernel;
  // The catalog holds every action before the run starts, so the counter never grows.
  action_catalog_ = aie_action_catalog();
  for (const auto& phase : kernel.phases)
    for (const auto& k : phase.cores) bundle_actions(k.program, cfg_.bundle_bytes, action_catalog_);
  dma_bytes_ = action_catalog_.id("dma.bytes");
  ddr_read_ = action_catalog_.id("ddr.read_bytes");
  ddr_write_ = action_catalog_.id("ddr.write_bytes");
  action_counts_.reset(action_catalog_.size());
  // Every op the variant adds, placed or not (the report says when one bought nothing), and
  // its ops in the kernel image: every tile's program in every phase.
  for (const auto& e : aie::AieIsa::get().extensions) result_.added_instructions[e->mnemonic];
  for (const auto& phase : kernel.phases)
    for (const auto& k : phase.cores) count_added_ops(k.program, nullptr, result_.added_instructions);
  install_phase(0);
}

void AieArray::install_phase(size_t which) {
  phase_ = which;
  const AieKernel::Phase& phase = kernel_->phases[which];
  cores_.clear();
  channels_.clear();
  for (auto& t : compute_) t.core = -1;
  for (const auto& k : phase.cores) {
    auto c = std::make_unique<CoreRun>();
    c->column = k.column;
    c->row = k.row;
    c->program = &k.program;
    c->per_pc.assign(k.program.bundles.size(), {0, 0});
    c->actions = bundle_actions(k.program, cfg_.bundle_bytes, action_catalog_);
    c->name = TileRef{TileKind::Compute, k.column, k.row}.name();
    if (cfg_.exposed_pipeline) c->pipeline = std::make_unique<ExposedPipeline>(cfg_.acc_read_cycles);
    compute_[k.column * cfg_.rows + k.row].core = static_cast<int>(cores_.size());
    cores_.push_back(std::move(c));
  }
  const MovementSpec& mv = phase.movement;
  // A new phase reconfigures every lock: unlisted ones start at 0.
  const auto clear = [](LockBank& b) {
    for (uint32_t id = 0; id < b.size(); ++id) {
      b.set(id, 0);
      b.waiters(id).clear();
    }
  };
  for (auto& t : compute_) clear(t.locks);
  for (auto& t : mem_tiles_) clear(t.locks);
  for (auto& b : shim_locks_) clear(b);
  for (const auto& l : mv.locks) locks(l.tile).set(l.id, static_cast<int32_t>(l.value));
  // One channel per (tile, channel) that has BDs or a route end.
  std::map<std::string, int> index;
  auto channel_of = [&](const TileRef& t, const ChannelRef& ch) {
    const std::string key = t.name() + "." + ch.name();
    auto it = index.find(key);
    if (it != index.end()) return it->second;
    auto c = std::make_unique<Channel>();
    c->tile = t;
    c->ch = ch;
    c->name = key;
    index[key] = static_cast<int>(channels_.size());
    channels_.push_back(std::move(c));
    return static_cast<int>(channels_.size() - 1);
  };
  for (size_t i = 0; i < mv.bds.size(); ++i) {
    Channel& c = *channels_[channel_of(mv.bds[i].tile, mv.bds[i].channel)];
    if (c.bd < 0) c.bd = static_cast<int>(i);  // a channel starts at its first listed BD
  }
  for (const auto& r : mv.routes) {
    const int s = channel_of(r.from_tile, r.from), d = channel_of(r.to_tile, r.to);
    channels_[s]->dests.push_back(d);
    channels_[d]->src = s;
    channels_[d]->latency = r.hops() * cfg_.hop_cycles;
  }
  for (auto& c : channels_)
    if (c->bd < 0) c->state = Channel::State::Done;
}


// ---- scheduling ---------------------------------------------------------------------

void AieArray::schedule(int actor, uint64_t time) {
  queue_.push(Event{time, ++seq_, actor});
}

void AieArray::block_on(LockBank& bank, uint32_t id, int actor) {
  auto& w = bank.waiters(id);
  if (std::find(w.begin(), w.end(), actor) == w.end()) w.push_back(actor);
}

void AieArray::wake(LockBank& bank, uint32_t id, uint64_t t) {
  auto& w = bank.waiters(id);
  for (int actor : w) schedule(actor, t + cfg_.lock_wake_cycles);
  w.clear();
}

void AieArray::fault(const std::string& message) { stop(StopReason::Fault, message); }

void AieArray::stop(StopReason why, const std::string& message) {
  if (stop_) return;
  stop_ = true;
  stop_reason_ = why;
  stop_message_ = message;
}

void AieArray::record_lock(const TileRef& t, uint32_t id, uint64_t cycle) {
  if (!rec_) return;
  const int track = rec_->track(t.name(), "lock" + std::to_string(id));
  rec_->counter(track, cycle, locks(t).value(id));
}

void AieArray::note_release(const LockBank* bank, uint32_t id, int track, uint64_t cycle) {
  if (rec_) last_release_[{bank, id}] = {track, cycle};
}

void AieArray::flow_from_release(const LockBank* bank, uint32_t id, int track, uint64_t cycle) {
  if (!rec_) return;
  auto it = last_release_.find({bank, id});
  if (it == last_release_.end()) return;  // the lock's initial value, not a release
  rec_->flow(it->second.first, it->second.second, track, cycle, "lock " + std::to_string(id));
  last_release_.erase(it);  // one arrow per release
}

std::string AieArray::core_where(const CoreRun& c, const aie::Bundle* b) const {
  std::string s = c.name + " pc " + std::to_string(c.state.pc);
  if (b) {
    s += " line " + std::to_string(b->line);
    if (kernel_ && b->line >= 1 && b->line <= kernel_->source_lines.size()) {
      std::string text = kernel_->source_lines[b->line - 1];
      const size_t f = text.find_first_not_of(" \t");
      s += " '" + (f == std::string::npos ? std::string() : text.substr(f)) + "'";
    }
  }
  return s;
}

// "file:line: pipeline hazard: ..." for the kernel's author, then where the core was.
std::string AieArray::pipeline_hazard(const CoreRun& c, const aie::Bundle& b, const std::string& hazard) const {
  const std::string file = kernel_ && !kernel_->source_name.empty() ? kernel_->source_name : "<kernel>";
  return file + ":" + std::to_string(b.line) + ": pipeline hazard: " + hazard + " [" + core_where(c, &b) + "]";
}

// compute.pipeline: interlocked: waits until every register the bundle reads is written
// back (false: the core was rescheduled). With compute.acc_read_cycles > 0 a
// multiply-accumulate reads its accumulator input that many cycles after issue (AMD's AIE2
// itineraries: stage 3), so it may issue earlier by as much. Each op held is counted: on
// the hardware, which has no interlocks, it would read an old value.
bool AieArray::interlock(CoreRun& c, const aie::Bundle& b, int k, uint64_t t) {
  uint64_t ready = t;
  const aie::ReadStages stages = read_stages(cfg_);
  for (const auto& op : b.ops) {
    uint64_t op_ready = t;
    uint16_t waited = 0;
    for (uint16_t u : op.reads) {
      if (u >= c.unit_ready.size()) continue;
      uint64_t r = c.unit_ready[u];
      const uint64_t late = aie::read_offset(op, u, stages);
      r = r > late ? r - late : 0;
      if (r > op_ready) op_ready = r, waited = u;
    }
    if (op_ready > t) {
      ++c.held_reads;
      if (c.held_notes.size() < 8)
        c.held_notes.push_back("line " + std::to_string(b.line) + " (" + aie::AieIsa::get().ops[op.op].mnemonic +
                               ") waits " + std::to_string(op_ready - t) + " cycle(s) for " + aie::unit_name(waited) +
                               " from line " + std::to_string(c.unit_writer[waited]));
    }
    ready = std::max(ready, op_ready);
  }
  if (ready <= t) return true;
  c.stall_register += ready - t;
  if (rec_) rec_->slice(c.stall_track, t, ready, "register");
  schedule(k, ready);
  return false;
}

// compute.branch_delay_nops: the NOP bundles a kernel without delay slots would need
// after a branch op on the hardware (taken or not, they execute), charged as cycles.
uint32_t AieArray::branch_delay(CoreRun& c, const aie::Bundle& b, uint64_t from) {
  if (!cfg_.branch_delay_nops) return 0;
  using aie::Code;
  const bool branch = std::any_of(b.ops.begin(), b.ops.end(), [](const aie::SlotOp& op) {
    const auto code = static_cast<Code>(op.code);
    return code == Code::J || code == Code::JL || code == Code::JZ || code == Code::JNZ || code == Code::JNZD ||
           code == Code::RET;
  });
  if (!branch) return 0;
  c.stall_branch_delay += cfg_.branch_delay_nops;
  if (c.pipeline) c.pipe_cycle += cfg_.branch_delay_nops;  // results land during the NOPs
  if (rec_) rec_->slice(c.stall_track, from, from + cfg_.branch_delay_nops, "branch delay slots");
  return cfg_.branch_delay_nops;
}

void AieArray::step_core(int k, uint64_t t) {
  CoreRun& c = *cores_[k];
  if (c.done) return;
  const auto& bundles = c.program->bundles;
  if (c.state.pc >= bundles.size()) {
    fault(core_where(c, nullptr) + ": the program ran past its last bundle (missing DONE?)");
    return;
  }
  const aie::Bundle& b = bundles[c.state.pc];
  if (c.blocked) {
    c.stall_lock += t - c.block_start;
    if (rec_) rec_->slice(c.stall_track, c.block_start, t, "lock wait");
    c.blocked = false;
  }
  if (!c.pipeline && !interlock(c, b, k, t)) return;
  // Slot occupancy: an op with initiation interval ii holds its slot ii cycles (ii = 1 for
  // every shipped op: a slot is free again the next cycle, so this never waits for them).
  uint64_t slot_ready = t;
  for (const auto& op : b.ops) slot_ready = std::max(slot_ready, c.slot_free[static_cast<int>(op.slot)]);
  if (slot_ready > t) {
    c.stall_slot += slot_ready - t;
    if (rec_) rec_->slice(c.stall_track, t, slot_ready, "slot busy");
    schedule(k, slot_ready);
    return;
  }
  if (limiter_->instructions_reached(bundles_)) {  // a bundle counts as one instruction
    stop(StopReason::InstructionLimit, limit_message(StopReason::InstructionLimit, limiter_->limits(), core_where(c, &b)));
    return;
  }
  if (c.pipeline) {
    const std::string hazard = c.pipeline->before(c.state, b, c.pipe_cycle);
    if (!hazard.empty()) {
      fault(pipeline_hazard(c, b, hazard));
      return;
    }
  }
  const uint32_t pc = c.state.pc;
  CorePort port(*this, c);
  const aie::BundleResult r = aie::execute_bundle(c.state, port, b, &port);
  if (c.pipeline && (r.stalled || r.fault)) c.pipeline->abort(c.state);
  if (c.pipeline && !r.stalled && !r.fault) {
    const std::string hazard = c.pipeline->after(c.state, b, c.pipe_cycle++, r);
    if (!hazard.empty()) {
      fault(pipeline_hazard(c, b, hazard));
      return;
    }
    if (r.halt) c.pipeline->drain(c.state);
  }
  if (port.bad_lock) {
    fault(core_where(c, &b) + ": lock " + std::to_string(port.bad_lock_id) + " does not exist for this tile");
    return;
  }
  if (r.stalled) {
    if (!port.refused_bank) {
      fault(core_where(c, &b) + ": lock request refused without a lock");
      return;
    }
    c.blocked = true;
    c.block_start = t;
    c.waiting_bank = port.refused_bank;
    c.waiting_lock = port.refused_id;
    c.waiting_value = port.refused_value;
    block_on(*port.refused_bank, port.refused_id, k);
    return;
  }
  if (r.fault) {
    fault(core_where(c, &b) + ": " + r.fault_message);
    return;
  }
  if (port.overflow) {
    fault(core_where(c, &b) + ": lock " + std::to_string(port.overflow_id) + " released past 0..63");
    return;
  }
  // Bank conflicts: accesses of one bundle to one bank serialise (one per bank and cycle);
  // a bank a DMA channel uses in a cycle is not available to the core (DMA has priority).
  uint32_t extra = 0;
  if (port.banks.size() > 1) {
    std::sort(port.banks.begin(), port.banks.end());
    uint32_t run = 1;
    for (size_t i = 1; i < port.banks.size(); ++i) {
      run = port.banks[i] == port.banks[i - 1] ? run + 1 : 1;
      extra = std::max(extra, run - 1);
    }
  }
  uint64_t issue = t;
  for (bool busy = true; busy && !port.banks.empty();) {
    busy = false;
    for (uint32_t key : port.banks)
      if (compute_[key / 64].mem.dma_uses(issue, key % 64)) busy = true;
    if (busy) ++issue;
  }
  if (issue > t || extra) {
    c.stall_bank += issue - t + extra;
    if (rec_) rec_->slice(c.stall_track, t, issue + extra, "bank conflict");
  }
  for (auto [bank, id] : port.released) wake(*bank, id, issue);
  if (rec_ && !b.ops.empty()) {
    // Flows: a lock this bundle acquires links from its last release (a DMA transfer that
    // filled the buffer, or another core); a lock it releases links on to its next acquire.
    const int track = c.slot_track[static_cast<int>(b.ops.front().slot)];
    for (auto [bank, id] : port.acquired) flow_from_release(bank, id, track, issue);
    for (auto [bank, id] : port.released) note_release(bank, id, track, issue);
  }
  if (rec_)
    for (auto [bank, id] : port.touched_locks) {
      // Find the tile of the bank to name the track.
      for (size_t i = 0; i < compute_.size(); ++i)
        if (&compute_[i].locks == bank)
          record_lock(TileRef{TileKind::Compute, static_cast<uint32_t>(i / cfg_.rows), static_cast<uint32_t>(i % cfg_.rows)}, id, issue);
    }
  // Scoreboard: each slot's results are readable `latency` cycles after issue; a memory
  // access's pointer post-modify (and 2-D/3-D dimension counters) come from its AGU, whose
  // result takes the `agu` latency (AM027 "Load and Store Unit": one cycle), not the load's.
  const auto& isa = aie::AieIsa::get();
  const uint32_t agu = isa.latency.at("agu");
  for (size_t i = 0; i < b.ops.size(); ++i) {
    const auto& op = b.ops[i];
    uint32_t lat = 1;
    for (const auto& sl : r.latencies)
      if (sl.slot == op.slot) lat = sl.cycles;
    const std::vector<uint16_t> address = post_modify_units(op);
    for (uint16_t u : op.writes) {
      if (u >= c.unit_ready.size()) c.unit_ready.resize(u + 1, 0), c.unit_writer.resize(u + 1, 0);
      const bool from_agu = std::find(address.begin(), address.end(), u) != address.end();
      c.unit_ready[u] = c.pipeline ? 0 : issue + (from_agu ? agu : lat);
      c.unit_writer[u] = b.line;
    }
    c.slot_ops[static_cast<int>(op.slot)]++;
    c.slot_busy[static_cast<int>(op.slot)] += isa.ops[op.op].ii;
    c.slot_free[static_cast<int>(op.slot)] = issue + isa.ops[op.op].ii;
    c.macs[static_cast<int>(isa.ops[op.op].mac_format)] += isa.ops[op.op].macs;
    if (rec_) rec_->slice(c.slot_track[static_cast<int>(op.slot)], issue, issue + std::max<uint32_t>(lat, 1),
                          isa.ops[op.op].mnemonic, {{"pc", pc}, {"line", b.line}});
  }
  const uint64_t next = issue + 1 + extra + branch_delay(c, b, issue + 1 + extra);
  ++bundles_;
  ++c.bundles;
  c.issue_cycles += 1 + extra;
  c.per_pc[pc].first++;
  action_counts_.add(c.actions, pc);
  c.per_pc[pc].second += next - c.attempt_start;
  c.attempt_start = next;
  last_cycle_ = std::max(last_cycle_, next);
  if (r.halt) {
    c.done = true;
    c.halt_cycle = next;
    if (rec_) rec_->instant(c.stall_track, next, "halt");
    return;
  }
  compute_[c.column * cfg_.rows + c.row].mem.prune_before(t);
  schedule(k, next);
}

uint8_t* AieArray::bd_memory(const Channel& c) {
  switch (c.tile.kind) {
    case TileKind::Compute: return compute_[c.tile.column * cfg_.rows + c.tile.row].mem.data();
    case TileKind::Mem: return mem_tiles_[c.tile.column].mem.data();
    case TileKind::Shim: return nullptr;
  }
  return nullptr;
}

void AieArray::step_channel(int x, uint64_t t) {
  Channel& c = *channels_[x];
  const MovementSpec& mv = movement();
  switch (c.state) {
    case Channel::State::Done: return;
    case Channel::State::Idle:
    case Channel::State::WaitLock: {
      if (c.bd < 0) {
        c.state = Channel::State::Done;
        return;
      }
      const BdSpec& bd = mv.bds[c.bd];
      if (bd.acquire.enabled) {
        LockBank& bank = locks(c.tile);
        if (!bank.try_acquire(bd.acquire.id, bd.acquire.value, bd.acquire.equal)) {
          if (c.state != Channel::State::WaitLock) c.block_start = t;
          c.state = Channel::State::WaitLock;
          block_on(bank, bd.acquire.id, static_cast<int>(cores_.size()) + x);
          return;
        }
        record_lock(c.tile, bd.acquire.id, t);
        flow_from_release(&bank, bd.acquire.id, c.track, t);
      }
      if (c.state == Channel::State::WaitLock) {
        c.lock_wait += t - c.block_start;
        if (rec_) rec_->slice(c.track, c.block_start, t, "lock wait");
      }
      c.walker = BdWalker(bd);
      c.ahead.clear();
      c.state = Channel::State::Setup;
      schedule(static_cast<int>(cores_.size()) + x, t + cfg_.bd_setup_cycles);
      return;
    }
    case Channel::State::Setup:
      c.state = Channel::State::Ready;
      c.ready_since = t;
      try_transfer(x, t);
      return;
    case Channel::State::Busy:
      if (c.walker.finished()) {
        complete_bd(x, t);
        return;
      }
      c.state = Channel::State::Ready;
      c.ready_since = t;
      try_transfer(x, t);
      return;
    case Channel::State::Ready: return;  // waits for its stream partner
  }
}

// DDR reads of the given word offsets of a shim BD, issued at t one granule-sized piece at
// a time; the arrival cycle of each word is appended to `arrival`.
void AieArray::issue_ddr_reads(const BdSpec& bd, const BufferSpec& buf, const std::vector<int64_t>& offsets, uint64_t t,
                               std::deque<uint64_t>& arrival) {
  const uint64_t g = ddr_->config().granule_bytes;
  for (size_t i = 0; i < offsets.size();) {
    const uint64_t addr = buf.address + bd.offset + static_cast<uint64_t>(offsets[i]) * 4;
    size_t j = i + 1;
    while (j < offsets.size() && offsets[j] == offsets[j - 1] + 1 && (addr + (j - i) * 4) % g != 0) ++j;
    const uint64_t arrived = ddr_->transfer(addr, (j - i) * 4, t, false);
    arrival.insert(arrival.end(), j - i, arrived);
    i = j;
  }
}

// shim.read_ahead_bytes: a shim MM2S segment whose words were requested one segment ahead
// (or now, for the first segment of a BD), which requests the next read_ahead_bytes of its
// BD in turn. Reads reach DDR in time order across channels, so two channels interleave.
// Returns the cycle the segment's last word leaves.
uint64_t AieArray::read_ahead_segment(Channel& src, const BdSpec& bd, const BufferSpec& buf,
                                      std::vector<uint32_t>& words, uint64_t t) {
  const uint64_t n = src.seg.size();
  const uint32_t per_cycle = cfg_.stream_bytes_per_cycle / 4;
  std::vector<int64_t> missing(src.seg.begin() + static_cast<int64_t>(std::min<uint64_t>(n, src.ahead.size())),
                               src.seg.end());
  issue_ddr_reads(bd, buf, missing, t, src.ahead);
  uint64_t end = t + (n + per_cycle - 1) / per_cycle;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t addr = buf.address + bd.offset + static_cast<uint64_t>(src.seg[i]) * 4;
    ddr_->read_bytes(addr, &words[i], 4);
    end = std::max(end, src.ahead.front() + (n - i + per_cycle - 1) / per_cycle);
    src.ahead.pop_front();
  }
  // The next read_ahead_bytes of this BD (after the words already requested).
  BdWalker peek = src.walker;
  for (size_t k = 0; k < src.ahead.size() && !peek.finished(); ++k) peek.next();
  std::vector<int64_t> next;
  while (src.ahead.size() + next.size() < cfg_.shim_read_ahead_bytes / 4 && !peek.finished())
    next.push_back(peek.next());
  issue_ddr_reads(bd, buf, next, t, src.ahead);
  return end;
}

void AieArray::try_transfer(int x, uint64_t t) {
  const int m = channels_[x]->ch.mm2s ? x : channels_[x]->src;
  if (m < 0) return;
  Channel& src = *channels_[m];
  if (src.state != Channel::State::Ready || src.dests.empty()) return;
  for (int d : src.dests)
    if (channels_[d]->state != Channel::State::Ready) return;
  const MovementSpec& mv = movement();
  // A segment: the words every participant still has in its current BD.
  // Long transfers go in segments of at most 64 Ki words (same timing: the next segment
  // starts the cycle the previous one ends).
  uint64_t n = std::min<uint64_t>(src.walker.total() - src.walker.done(), 1u << 16);
  if (src.tile.kind == TileKind::Shim && cfg_.shim_read_ahead_bytes)
    n = std::min<uint64_t>(n, std::max<uint32_t>(cfg_.shim_read_ahead_bytes / 4, 1));
  for (int d : src.dests) n = std::min<uint64_t>(n, channels_[d]->walker.total() - channels_[d]->walker.done());
  auto gather = [n](Channel& ch) {
    ch.seg.resize(n);
    for (auto& o : ch.seg) o = ch.walker.next();
  };
  gather(src);
  for (int d : src.dests) gather(*channels_[d]);
  const uint32_t words_per_cycle = cfg_.stream_bytes_per_cycle / 4;
  uint64_t duration = (n + words_per_cycle - 1) / words_per_cycle;

  // Read the words at the source (zero for padding).
  const BdSpec& sbd = mv.bds[src.bd];
  const BufferSpec& sbuf = mv.buffers[sbd.buffer];
  std::vector<uint32_t> words(n, 0);
  uint8_t* smem = bd_memory(src);
  auto word_addr = [&](const BdSpec& bd, const BufferSpec& buf, int64_t off) {
    return buf.address + bd.offset + static_cast<uint64_t>(off) * 4;
  };
  auto reserve_banks = [&](const Channel& ch, const BdSpec& bd, const BufferSpec& buf, uint64_t start_cycle) {
    if (ch.tile.kind != TileKind::Compute) return;  // only cores compete with DMA for banks
    TileMemory& mem = compute_[ch.tile.column * cfg_.rows + ch.tile.row].mem;
    // Events run in time order, so no core issues before t again: older bookings can go.
    // (The core prunes them too, but only while it runs: a halted core's tile kept every
    // booking of a looping BD chain, 145 MB/s until the process ran out of memory.)
    mem.prune_before(t);
    uint64_t last_line = UINT64_MAX;
    for (uint64_t i = 0; i < n; ++i) {
      const int64_t off = ch.seg[i];
      if (off < 0) continue;
      const uint64_t a = word_addr(bd, buf, off);
      if (a / 16 == last_line) continue;  // one 128-bit bank word serves four stream words
      last_line = a / 16;
      mem.reserve_dma(start_cycle + i / words_per_cycle, mem.bank_of(static_cast<uint32_t>(a)));
    }
  };
  if (src.tile.kind == TileKind::Shim && cfg_.shim_read_ahead_bytes) {
    duration = read_ahead_segment(src, sbd, sbuf, words, t) - t;
  } else if (src.tile.kind == TileKind::Shim) {
    // DDR reads, issued together at t one granule-sized piece at a time; a stream word
    // leaves no earlier than its piece's data arrived and one stream beat after the word
    // before it.
    const uint64_t g = ddr_->config().granule_bytes;
    uint64_t end = t + duration;
    uint64_t i = 0;
    while (i < n) {
      const uint64_t addr = word_addr(sbd, sbuf, src.seg[i]);
      uint64_t j = i + 1;
      while (j < n && src.seg[j] == src.seg[j - 1] + 1 &&
             (addr + (j - i) * 4) % g != 0)
        ++j;
      ddr_->read_bytes(addr, &words[i], (j - i) * 4);
      const uint64_t arrived = ddr_->transfer(addr, (j - i) * 4, t, false);
      end = std::max(end, arrived + (n - i + words_per_cycle - 1) / words_per_cycle);
      i = j;
    }
    duration = end - t;
  } else {
    for (uint64_t i = 0; i < n; ++i) {
      const int64_t off = src.seg[i];
      if (off >= 0) std::memcpy(&words[i], smem + word_addr(sbd, sbuf, off), 4);
    }
    reserve_banks(src, sbd, sbuf, t);
  }
  src.stream_wait += t - src.ready_since;
  src.busy += duration;
  src.bytes += n * 4;
  src.state = Channel::State::Busy;
  if (rec_) rec_->slice(src.track, t, t + duration, sbd.name, {{"bytes", n * 4}});
  schedule(static_cast<int>(cores_.size()) + m, t + duration);

  for (int d : src.dests) {
    Channel& dst = *channels_[d];
    const BdSpec& dbd = mv.bds[dst.bd];
    const BufferSpec& dbuf = mv.buffers[dbd.buffer];
    uint64_t land = t + duration + dst.latency;
    if (dst.tile.kind == TileKind::Shim) {
      for (uint64_t i = 0; i < n; ++i) {
        const uint64_t addr = word_addr(dbd, dbuf, dst.seg[i]);
        ddr_->write_bytes(addr, &words[i], 4);
      }
      // Each granule-sized piece is written once its last word has arrived.
      const uint64_t g = ddr_->config().granule_bytes;
      uint64_t i = 0;
      while (i < n) {
        const uint64_t addr = word_addr(dbd, dbuf, dst.seg[i]);
        uint64_t j = i + 1;
        while (j < n && dst.seg[j] == dst.seg[j - 1] + 1 &&
               (addr + (j - i) * 4) % g != 0)
          ++j;
        const uint64_t arrive = t + dst.latency + (j + words_per_cycle - 1) / words_per_cycle;
        land = std::max(land, ddr_->transfer(addr, (j - i) * 4, arrive, true));
        i = j;
      }
    } else {
      uint8_t* dmem = bd_memory(dst);
      for (uint64_t i = 0; i < n; ++i)
        std::memcpy(dmem + word_addr(dbd, dbuf, dst.seg[i]), &words[i], 4);
      reserve_banks(dst, dbd, dbuf, t + dst.latency);
    }
    dst.stream_wait += t - dst.ready_since;
    dst.busy += duration;
    dst.bytes += n * 4;
    dst.state = Channel::State::Busy;
    if (rec_) rec_->slice(dst.track, t + dst.latency, t + dst.latency + duration, dbd.name, {{"bytes", n * 4}});
    // A finished BD completes when its last word has landed; otherwise the channel takes
    // the next segment as soon as its stream port is free.
    const bool finished = dst.walker.finished();
    schedule(static_cast<int>(cores_.size()) + d, finished ? land : t + duration);
  }
}

void AieArray::complete_bd(int x, uint64_t t) {
  Channel& c = *channels_[x];
  const BdSpec& bd = movement().bds[c.bd];
  if (bd.release.enabled) {
    LockBank& bank = locks(c.tile);
    if (!bank.release(bd.release.id, bd.release.value)) {
      fault(c.name + " BD '" + bd.name + "' (line " + std::to_string(bd.line) + "): release of lock " +
            std::to_string(bd.release.id) + " leaves 0..63 (value " + std::to_string(bank.value(bd.release.id)) + ")");
      return;
    }
    record_lock(c.tile, bd.release.id, t);
    // The transfer's last slice ends at t: its last cycle is the flow's source.
    note_release(&bank, bd.release.id, c.track, t > 0 ? t - 1 : 0);
    wake(bank, bd.release.id, t);
  }
  ++c.bds_done;
  last_cycle_ = std::max(last_cycle_, t);
  c.bd = bd.next;
  c.state = Channel::State::Idle;
  if (c.bd >= 0 && lock_free_cycle(c.bd)) {
    const std::string endless = endless_transfer();
    if (!endless.empty()) {
      fault(endless);
      return;
    }
  }
  step_channel(x, t);
}

// True when the chain from `bd` comes back to a BD it already passed without any BD on the
// way acquiring a lock: nothing can then stop the channel but its stream partner.
bool AieArray::lock_free_cycle(int bd) const {
  const auto& bds = movement().bds;
  std::vector<bool> seen(bds.size(), false);
  for (int b = bd; b >= 0; b = bds[b].next) {
    if (seen[b]) return true;
    if (bds[b].acquire.enabled) return false;
    seen[b] = true;
  }
  return false;
}

// After every core has halted, channels in lock-free cycles whose stream partners are too
// would move data forever (until the wall-clock limit, booking bank cycles all the while):
// the fault naming the first such BD, or "" when the run can still end.
std::string AieArray::endless_transfer() const {
  for (const auto& c : cores_)
    if (!c->done) return "";
  std::vector<bool> in(channels_.size(), false);
  for (size_t x = 0; x < channels_.size(); ++x)
    in[x] = channels_[x]->state != Channel::State::Done && channels_[x]->bd >= 0 && lock_free_cycle(channels_[x]->bd);
  // A channel keeps moving only while all its partners do.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t x = 0; x < channels_.size(); ++x) {
      if (!in[x]) continue;
      const Channel& c = *channels_[x];
      bool partners = c.ch.mm2s ? !c.dests.empty() : c.src >= 0 && in[c.src];
      if (c.ch.mm2s)
        for (int d : c.dests) partners = partners && in[d];
      if (!partners) in[x] = false, changed = true;
    }
  }
  for (size_t x = 0; x < channels_.size(); ++x) {
    if (!in[x]) continue;
    const BdSpec& bd = movement().bds[channels_[x]->bd];
    return "DMA " + channels_[x]->name + " BD '" + bd.name + "' (line " + std::to_string(bd.line) +
           "): its chain repeats forever (it comes back to a BD it ran, acquiring no lock on the way, and its stream "
           "partners do the same) after every core has halted; end the chain (omit 'next') or guard it with a lock";
  }
  return "";
}

// ---- the run ------------------------------------------------------------------------

RunResult AieArray::run(const RunLimits& limits, traces::TraceRecorder* rec) {
  if (ran_) throw InputError("aie_ml: load() the program again before another run");
  ran_ = true;
  limits_ = limits;
  rec_ = rec;
  sc_core::sc_start();
  return result_;
}

void AieArray::thread() {
  if (!kernel_) return;
  const RunLimiter limiter(limits_);
  limiter_ = &limiter;
  QuantumSync sync(cfg_.clock_ns, cfg_.quantum_cycles);
  const int phase_track = rec_ && kernel_->phases.size() > 1 ? rec_->track("array", "phase") : -1;
  uint64_t start = 0;
  for (size_t i = 0; i < kernel_->phases.size(); ++i) {
    if (i > 0) {
      const uint64_t end = last_cycle_;
      start = end + switch_cycles(kernel_->phases[i]);
      install_phase(i);
      if (phase_track >= 0) rec_->slice(phase_track, end, start, "reconfigure");
      last_cycle_ = start;
    }
    const bool finished = run_phase(start, sync);
    if (phase_track >= 0) rec_->slice(phase_track, start, std::max(last_cycle_, start + 1), kernel_->phases[i].name);
    collect_phase(start, last_cycle_);
    if (!finished) break;
  }
  RunResult& r = result_;
  r.stop = stop_ ? stop_reason_ : StopReason::Halted;
  r.message = stop_message_;
  r.cycles = last_cycle_;
  r.instructions = bundles_;
  r.lines = lines_.sorted();
  r.memory["ddr"] = ddr_->stats();
  action_counts_.add(ddr_read_, r.memory["ddr"].value("bytes_read", uint64_t(0)));
  action_counts_.add(ddr_write_, r.memory["ddr"].value("bytes_written", uint64_t(0)));
  r.actions = action_counts_.by_name(action_catalog_);
  r.host_seconds = limiter.host_seconds();
  limiter_ = nullptr;
  if (rec_) rec_->extend_to(last_cycle_);
}

// The reconfiguration between phases: a fixed cost, then each column writes its tiles'
// programs and its BDs and locks as 32-bit words, one per cycle, the columns in parallel.
uint64_t AieArray::switch_cycles(const AieKernel::Phase& next) const {
  std::vector<uint64_t> words(cfg_.columns, 0);
  for (const auto& c : next.cores) words[c.column] += c.program.bundles.size() * cfg_.bundle_bytes / 4;
  for (const auto& bd : next.movement.bds) words[std::min(bd.tile.column, cfg_.columns - 1)] += cfg_.bd_config_words;
  for (const auto& l : next.movement.locks) words[std::min(l.tile.column, cfg_.columns - 1)] += 1;
  return cfg_.phase_switch_cycles + *std::max_element(words.begin(), words.end());
}

// Runs the installed phase from cycle `start` until its events are spent (true) or the run
// stops (a fault or a limit: false).
bool AieArray::run_phase(uint64_t start, QuantumSync& sync) {
  if (rec_) {
    for (auto& c : cores_) {
      for (int s = 0; s < aie::kSlotCount; ++s)
        c->slot_track[s] = rec_->track(c->name, std::string("core.") + aie::slot_name(static_cast<aie::Slot>(s)));
      c->stall_track = rec_->track(c->name, "core.stall");
    }
    for (auto& ch : channels_) ch->track = rec_->track(ch->tile.name(), "dma." + ch->ch.name());
    for (const auto& l : movement().locks) record_lock(l.tile, l.id, start);
  }
  for (auto& c : cores_) c->attempt_start = start;
  for (size_t k = 0; k < cores_.size(); ++k) schedule(static_cast<int>(k), start);
  for (size_t x = 0; x < channels_.size(); ++x)
    if (channels_[x]->state != Channel::State::Done) schedule(static_cast<int>(cores_.size() + x), start);
  uint64_t events = 0;
  while (!queue_.empty() && !stop_) {
    const Event e = queue_.top();
    queue_.pop();
    if (limiter_->cycles_exceeded(e.time)) {
      stop(StopReason::CycleLimit, limit_message(StopReason::CycleLimit, limits_, "cycle " + std::to_string(e.time)));
      last_cycle_ = limits_.max_cycles;
      break;
    }
    sync.at(e.time);  // keep SystemC time near the model's, once per quantum
    if (e.actor < static_cast<int>(cores_.size())) step_core(e.actor, e.time);
    else step_channel(e.actor - static_cast<int>(cores_.size()), e.time);
    if (limiter_->wall_exceeded(++events))
      stop(StopReason::WallTimeout, limit_message(StopReason::WallTimeout, limits_, "cycle " + std::to_string(e.time)));
  }
  while (!queue_.empty()) queue_.pop();
  if (!stop_) {
    // Every event is spent: cores still running are blocked for good.
    std::string blocked;
    for (const auto& c : cores_)
      if (!c->done) {
        const aie::Bundle* b = c->state.pc < c->program->bundles.size() ? &c->program->bundles[c->state.pc] : nullptr;
        blocked += (blocked.empty() ? "" : "; ") + core_where(*c, b) + ": waits for lock " +
                   std::to_string(c->waiting_lock) + " (value " +
                   std::to_string(c->waiting_bank ? c->waiting_bank->value(c->waiting_lock) : 0) + ", needs " +
                   std::to_string(c->waiting_value) + ")";
      }
    if (!blocked.empty())
      fault("deadlock" + (kernel_->phases.size() > 1 ? " in phase '" + kernel_->phases[phase_].name + "'" : std::string()) +
            ": " + blocked);
  }
  for (const auto& c : cores_) last_cycle_ = std::max(last_cycle_, c->halt_cycle);
  return !stop_;
}

namespace {
// The MAC formats the ISA's multiply ops use (isa/aie_ml/aie_ml.yaml `format`), in enum order.
std::vector<aie::MacFormat> isa_mac_formats() {
  std::array<bool, aie::kMacFormatCount> used{};
  for (const auto& op : aie::AieIsa::get().ops)
    if (op.macs) used[static_cast<int>(op.mac_format)] = true;
  std::vector<aie::MacFormat> out;
  for (int f = 1; f < aie::kMacFormatCount; ++f)
    if (used[f]) out.push_back(static_cast<aie::MacFormat>(f));
  return out;
}
}  // namespace

void AieArray::collect_phase(uint64_t start, uint64_t end) {
  RunResult& r = result_;
  // Units of the same name in several phases (a tile's core, a DMA channel) add up.
  const auto unit = [&](const std::string& name) -> UnitStats& {
    for (auto& u : r.units)
      if (u.name == name) return u;
    r.units.push_back(UnitStats{name});
    return r.units.back();
  };
  nlohmann::json cores = nlohmann::json::object(), dma = nlohmann::json::object();
  const std::vector<aie::MacFormat> formats = isa_mac_formats();
  for (aie::MacFormat f : formats) r.macs_by_format[aie::mac_format_name(f)] += 0;  // every format the ISA has, even if unused
  for (const auto& c : cores_) {
    UnitStats& core = unit(c->name + ".core");
    core.instructions += c->bundles;
    core.busy_cycles += c->issue_cycles;
    core.stall_cycles += c->stall_register + c->stall_bank + c->stall_lock + c->stall_slot + c->stall_branch_delay;
    for (int s = 0; s < aie::kSlotCount; ++s) {
      UnitStats& u = unit(c->name + "." + aie::slot_name(static_cast<aie::Slot>(s)));
      u.instructions += c->slot_ops[s];
      u.busy_cycles += c->slot_busy[s];
      r.instructions_by_class[aie::slot_name(static_cast<aie::Slot>(s))] += c->slot_ops[s];
    }
    count_added_ops(*c->program, &c->per_pc, r.added_instructions);
    for (size_t pc = 0; pc < c->per_pc.size(); ++pc)
      if (c->per_pc[pc].first) lines_.add(c->program->bundles[pc].line, c->per_pc[pc].first, c->per_pc[pc].second);
    nlohmann::json macs = nlohmann::json::object();
    for (aie::MacFormat f : formats) {
      macs[aie::mac_format_name(f)] = c->macs[static_cast<int>(f)];
      r.macs_by_format[aie::mac_format_name(f)] += c->macs[static_cast<int>(f)];
    }
    cores[c->name] = {{"bundles", c->bundles},
                                  {"macs", macs},
                                  {"halted", c->done},
                                  {"halt_cycle", c->halt_cycle},
                                  {"stall_register", c->stall_register},
                                  {"stall_bank", c->stall_bank},
                                  {"stall_lock", c->stall_lock}};
    if (c->stall_slot) cores[c->name]["stall_slot"] = c->stall_slot;  // only ops of ii > 1 cause it
    if (c->stall_branch_delay) cores[c->name]["stall_branch_delay"] = c->stall_branch_delay;  // only with the switch
    // Reads that see another value on the hardware than in program order (exposed pipeline:
    // reads before a result lands; interlocked: reads the interlock held).
    nlohmann::json& pipe = cores[c->name]["pipeline"];
    pipe["mode"] = c->pipeline ? "exposed" : "interlocked";
    pipe[c->pipeline ? "early_reads" : "held_reads"] = c->pipeline ? c->pipeline->early_reads() : c->held_reads;
    pipe["notes"] = c->pipeline ? c->pipeline->early_read_notes() : c->held_notes;
  }
  for (const auto& ch : channels_) {
    UnitStats& u = unit(ch->name);
    u.instructions += ch->bds_done;
    u.busy_cycles += ch->busy;
    u.stall_cycles += ch->lock_wait + ch->stream_wait;
    // Where the channel ended: helps explain outputs that never arrived.
    std::string state;
    switch (ch->state) {
      case Channel::State::Done: state = "done"; break;
      case Channel::State::WaitLock:
        state = "waiting for lock " + std::to_string(movement().bds[ch->bd].acquire.id) + " (BD '" +
                movement().bds[ch->bd].name + "')";
        break;
      case Channel::State::Ready:
        state = "waiting for its stream partner (BD '" + movement().bds[ch->bd].name + "', " +
                std::to_string(ch->walker.done() * 4) + " of " + std::to_string(ch->walker.total() * 4) + " bytes)";
        break;
      default: state = "busy"; break;
    }
    action_counts_.add(dma_bytes_, ch->bytes);  // every phase's transfers (the report keeps the last phase's)
    dma[ch->name] = {{"bds", ch->bds_done},   {"bytes", ch->bytes},
                                 {"busy", ch->busy},      {"lock_wait", ch->lock_wait},
                                 {"stream_wait", ch->stream_wait}, {"state", state}};
  }
  // The phase that ran last explains the end of the run (a deadlock, a missing output).
  r.memory["cores"] = cores;
  r.memory["dma"] = dma;
  if (kernel_->phases.size() > 1)
    r.memory["phases"].push_back({{"name", kernel_->phases[phase_].name},
                                  {"start_cycle", start},
                                  {"end_cycle", end},
                                  {"cores", cores},
                                  {"dma", dma}});
}

}  // namespace tlmcraft::aie_ml
