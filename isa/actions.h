// Energy by action (Accelergy's model, docs/energy-area.md): an executed instruction is a
// set of ACTIONS on components, each counted and priced by the platform's `ppa` table;
// static energy is static power x run time. Energy therefore changes only when the work or
// the time changes, never with how many cycles a unit was busy.
//
// An action is named "<component>.<action>[.<format>]" and counted in its own unit:
//   arithmetic     "<unit>.<op>.<format>"    one per element operation   vector.mul.bf16
//   storage        "<storage>.read_bytes"    bytes read / written        vram.read_bytes, gp.write_bytes
//   other          "<component>.<action>"    one per event               fetch.instruction
// Ops are primitives (primitive_ops()); composite ops (sigmoid, silu, tanh, gelu, ...)
// decompose into primitives (actions_of), so a table prices a handful of primitives per
// format and an added instruction needs no new price.
//
// Three layers:
// - the EXTENSION HOOK: actions_of(InstructionWork) turns "these ops at these formats plus
//   this register/SRAM traffic" into an action list; compose_actions() sums a composed
//   instruction's steps minus the traffic its temporaries save. Engineers adding
//   instructions (docs/isa-extensions.md) call these.
// - declared actions: an ISA YAML entry's `actions:` map (action -> count expression over
//   the ISA's parameters), evaluated once per program with the platform's values.
// - the hot path: ActionCatalog interns names to dense ids once; ActionLists holds a
//   precomputed list per instruction (or pc); ActionCounter::add is an array increment.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace tlmcraft::isa {

struct InstructionSpec;
class IsaSpec;

struct NamedAction {
  std::string name;  // "vector.mul.bf16"
  uint64_t count = 0;
  bool operator==(const NamedAction& o) const { return name == o.name && count == o.count; }
};
using NamedActions = std::vector<NamedAction>;

// Thrown by actions_of / compose_actions / declared_actions for a bad name or count.
struct ActionError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// ---------------------------------------------------------------------------------------
// The extension hook

// `count` element operations `op` at `format` on `unit` ({"vector", "silu", "bf16", 64}).
struct OpWork {
  std::string unit, op, format;
  uint64_t count = 1;
};
// Bytes an instruction reads and writes in one storage: a register file ("gp", "v") or an
// SRAM ("vram", "dtcm").
struct StorageTraffic {
  std::string storage;
  uint64_t read_bytes = 0, write_bytes = 0;
};
struct InstructionWork {
  std::vector<OpWork> ops;
  std::vector<StorageTraffic> traffic;
};

// The primitive ops a ppa table prices: add mul mac div exp log sqrt rsqrt recip cmp logic
// convert move.
const std::vector<std::string>& primitive_ops();
// What one element of `op` costs in primitive ops ({"exp",1},{"add",1},{"recip",1} for
// sigmoid); aliases map to one primitive (sub -> add, max -> cmp, fma -> mac). Empty when
// `op` is unknown.
std::vector<std::pair<std::string, uint64_t>> primitive_decomposition(const std::string& op);

// The action list of an instruction doing `work`: "<unit>.<primitive>.<format>" per op
// element (composites decomposed), "<storage>.read_bytes"/".write_bytes" per byte; equal
// names merged, zero counts dropped, sorted by name. Throws ActionError naming a bad
// unit/format/storage name (letters, digits, '_') or an unknown op.
NamedActions actions_of(const InstructionWork& work);

// A composed instruction: the sum of its steps' actions minus `saved`, the register/SRAM
// traffic of its temporaries (written and read inside the datapath, never stored).
// Throws ActionError when `saved` exceeds what the steps do.
NamedActions compose_actions(const std::vector<NamedActions>& steps, const std::vector<StorageTraffic>& saved);

// Sums two lists (merging equal names, sorted by name).
NamedActions merge_actions(const NamedActions& a, const NamedActions& b);

// "" when `name` is "<component>.<action>[.<format>]" (2 or 3 non-empty parts of
// [a-z0-9_]); otherwise why not.
std::string check_action_name(const std::string& name);

// ---------------------------------------------------------------------------------------
// Declared actions (ISA YAML `actions:`)

// A count expression: integers and parameter names joined by '*' and '/', evaluated left to
// right in integers ("MLEN/HLEN*MLEN*HLEN*MLEN"). False with `error` set on an unknown name,
// a bad token or a division that is not exact.
bool eval_count(const std::string& expr, const std::map<std::string, uint64_t>& params, uint64_t& out,
                std::string& error);

// The ISA's parameters with the platform's values over the YAML's typical ones.
std::map<std::string, uint64_t> action_parameters(const IsaSpec& spec, const std::map<std::string, uint64_t>& platform);

struct ActionDecl;
// Declared actions evaluated with `params` (composite ops decomposed like actions_of). Throws
// ActionError "<file>:<line>:<col>: <what>: actions.<name>: <why>" on a bad count.
NamedActions evaluate_actions(const std::vector<ActionDecl>& decls, const std::map<std::string, uint64_t>& params,
                              const std::string& file, const std::string& what);

// An instruction's declared `actions:` evaluated with `params` (composite ops decomposed
// like actions_of). Throws ActionError "<file>:<line>: <mnemonic>: ..." on a bad count.
NamedActions declared_actions(const IsaSpec& spec, const InstructionSpec& ins, const std::map<std::string, uint64_t>& params);

// ---------------------------------------------------------------------------------------
// The hot path

using ActionId = uint32_t;

// Interns action names to dense ids. A platform fills it before a run with every action its
// instructions can perform, so a report lists each (zero when unused) and ppa terms resolve.
class ActionCatalog {
 public:
  ActionId id(const std::string& name);  // adds `name` if new
  int find(const std::string& name) const;  // -1 if absent
  const std::vector<std::string>& names() const { return names_; }
  size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, ActionId> ids_;
};

struct ActionRef {
  ActionId id = 0;
  uint64_t count = 0;
};

// A precomputed action list per key (an instruction id or a pc), stored flat.
class ActionLists {
 public:
  void clear() { begin_.assign(1, 0), refs_.clear(); }
  // Appends the list for the next key (keys are 0, 1, 2, ... in call order).
  void push(const NamedActions& actions, ActionCatalog& catalog);
  size_t keys() const { return begin_.size() - 1; }
  const ActionRef* begin(size_t key) const { return refs_.data() + begin_[key]; }
  const ActionRef* end(size_t key) const { return refs_.data() + begin_[key + 1]; }

 private:
  std::vector<uint32_t> begin_ = {0};
  std::vector<ActionRef> refs_;
};

// Counts per action id; sized to the catalog when the run starts.
class ActionCounter {
 public:
  void reset(size_t actions) { counts_.assign(actions, 0); }
  void add(ActionId id, uint64_t n) { counts_[id] += n; }
  void add(const ActionLists& lists, size_t key, uint64_t times = 1) {
    for (const ActionRef* r = lists.begin(key); r != lists.end(key); ++r) counts_[r->id] += r->count * times;
  }
  uint64_t count(ActionId id) const { return id < counts_.size() ? counts_[id] : 0; }
  // Every catalog action by name, zero included (the report's `actions` object).
  std::map<std::string, uint64_t> by_name(const ActionCatalog& catalog) const;

 private:
  std::vector<uint64_t> counts_;
};

}  // namespace tlmcraft::isa
