// Task specifications as data: one YAML file per task in tasks/specs/ (schema in
// docs/tasks.md), loaded and validated here. Nothing in this file computes numbers;
// references, generators and layouts take a TaskSpec and a configuration's Params.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tasks/expr.h"

namespace tlmcraft::tasks {

// A spec file that cannot be used. what() is "file:line: cause".
struct SpecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A platform, by the name it registered under (common/platform_catalog.h): platforms are
// data, so any registered name is one. Constructing one checks nothing (a pack names its own
// platform while it registers); parse_platform() checks a name read from input.
class PlatformId {
 public:
  PlatformId() = default;
  explicit PlatformId(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }
  friend bool operator==(const PlatformId& a, const PlatformId& b) { return a.name_ == b.name_; }
  friend bool operator!=(const PlatformId& a, const PlatformId& b) { return a.name_ != b.name_; }
  friend bool operator<(const PlatformId& a, const PlatformId& b) { return a.name_ < b.name_; }

 private:
  std::string name_;
};
// Every registered platform, in the order tables list them (the registry's rank).
std::vector<PlatformId> all_platforms();
std::string platform_name(const PlatformId&);                  // its name
std::optional<PlatformId> parse_platform(const std::string&);  // nullopt if not registered

// input: activations; weight: parameters (matrices, norm gains, tables); kv: keys and
// values of attention (PLENA keeps them in the KV-cache format); output: results.
enum class Role { Input, Weight, Kv, Output };
const char* role_name(Role);

// How a generator fills a tensor. Every distribution is drawn from our own PRNG
// (tasks/random.h), never from std:: distributions.
struct Distribution {
  enum class Kind {
    None,        // outputs
    Uniform,     // U[lo, hi)
    Normal,      // N(mean, std)
    IntUniform,  // integers uniform in [lo, hi]
    IntNormal,   // round-half-away(N(mean, std)), saturated to [lo, hi]
    RopeCos,     // cos(p * 10000^(-2i/d)), shape [s, d], i = j mod d/2 (rotate-half pairs)
    RopeSin,     // sin of the same angle
    Table,       // a task-defined constant table (Coral lookup tables)
  };
  Kind kind = Kind::None;
  double lo = 0, hi = 0, mean = 0, std = 1;
  std::string fan_in;     // expression; if set, the spread is divided by sqrt(fan_in)
  int peaks = 0;          // this many distinct positions get a value from U[peak_lo, peak_hi]
  double peak_lo = 0, peak_hi = 0;
  std::string table;      // Table: which table ("gelu_lut", "silu_lut", "exp_q15")
  int64_t scale = 0;      // RopeCos/RopeSin: if > 0, round_half_away(scale * value) (a fixed-point table)
};
const char* distribution_name(Distribution::Kind);

// An adversarial input range: a named distribution that replaces a tensor's init on the
// trials that draw from it (the range schedule, tasks/generator.h).
struct NamedRange {
  std::string name;  // "large_max", "negative_max", ...
  Distribution dist;
};

struct TensorSpec {
  std::string name;
  Role role = Role::Input;
  std::vector<std::string> shape;       // expressions of the task's params
  std::vector<PlatformId> platforms;    // empty: present on every platform
  Distribution init;                    // default generator
  std::map<PlatformId, Distribution> init_for;  // per-platform generator overrides
  std::map<PlatformId, std::string> dtype_for;  // per-platform element type overrides
  std::vector<NamedRange> adversarial;          // default adversarial ranges, in spec order
  std::map<PlatformId, std::vector<NamedRange>> adversarial_for;  // per-platform replacements
  int line = 0;

  bool on(PlatformId p) const;
};

// Where a configuration's values come from: the paper's tables, values we placed
// between the paper's endpoints, or values we chose where the paper gives none.
enum class Provenance { Paper, Interpolated, Chosen };
const char* provenance_name(Provenance);

struct ConfigSpec {
  std::string name;   // "C1" .. "C5"
  Params params;
  Provenance provenance = Provenance::Paper;
  int line = 0;
};

struct Tolerance {
  enum class Kind { AbsOrRel, AllClose, Exact };
  Kind kind = Kind::Exact;
  double abs = 0;   // AbsOrRel: |e| <= abs or |e| <= rel |want|; AllClose: |e| <= abs + rel |want|
  double rel = 0;
  // Tensor-level guard for the float kinds: sqrt(sum (got - want)^2 / sum want^2) must not
  // exceed this. The element rule's absolute floor alone would let zeros pass for outputs
  // far below it (softmax over 16384 values is about 6e-5 everywhere).
  static constexpr double kTensorRelRms = 0.05;
  // The same bound for every row (rows with a non-zero reference): a row whose values all
  // lie below the absolute floor cannot be left at zero.
  static constexpr double kRowRelRms = 0.05;
  // > 0 (the task's small_outputs_rel, softmax-like outputs): per row, the elements whose
  // reference lies below the absolute floor must also meet sum |got - want| / sum |want|
  // <= small_rel, so a kernel cannot zero the small outputs (a "top k per row" softmax).
  double small_rel = 0;
  std::string describe() const;
};

struct PlatformSpec {
  bool supported = false;
  std::string reason;          // why unsupported (shown to users)
  std::string dtype;           // default element type ("mxfp8 in / bf16 out", "bf16", "int8")
  Tolerance tolerance;
  std::string numerics;        // one-line numerics policy
  std::string notes;           // task-specific text for this platform (staged numerics, int8 formulation)
  std::vector<ConfigSpec> configs;  // C1..C5 when supported
  bool data_dependent_cycles = false;  // this platform's formulation (e.g. table lookups): see TaskSpec
  int line = 0;

  const ConfigSpec* config(const std::string& name) const;
};

struct TaskSpec {
  std::string name;
  int level = 0;
  std::string title;
  std::string description;
  std::vector<std::string> params;
  std::vector<TensorSpec> tensors;        // inputs in layout order, then outputs
  std::map<PlatformId, PlatformSpec> platforms;
  std::string file;
  // The algorithm's work depends on the input values (sorting); otherwise a kernel whose
  // cycles differ between trials is flagged (its timing depends on the data it was given).
  bool data_dependent_cycles = false;

  // A platform with no section (a registered platform the task does not mention) is
  // unsupported, with a reason saying so.
  const PlatformSpec& platform(const PlatformId& p) const;
  bool supports(const PlatformId& p) const { return platform(p).supported; }
  // The tensors present on platform p, in order (inputs and outputs).
  std::vector<const TensorSpec*> tensors_on(PlatformId p) const;
  std::vector<const TensorSpec*> inputs_on(PlatformId p) const;
  std::vector<const TensorSpec*> outputs_on(PlatformId p) const;
  std::vector<int64_t> shape_of(const TensorSpec& t, const Params& params) const;
};

// A CPU benchmark program (the paper's BOOM case study): names only for now.
struct CpuProgram {
  std::string name;
  std::string title;
};

// Platform defaults (dtype, tolerance, numerics) from specs/platforms.yaml.
std::map<PlatformId, PlatformSpec> load_platform_defaults(const std::string& path);
// One task file; `defaults` fills what the task's platform blocks leave out.
TaskSpec load_task(const std::string& path, const std::map<PlatformId, PlatformSpec>& defaults);
std::vector<CpuProgram> load_cpu_programs(const std::string& path);
// A pack's overlay of task t (<data_dir>/tasks/<task>.yaml, docs/platform-sdk.md): a file
// holding only `platforms: {name: {...}}`, whose sections are added to t. A section for a
// platform t already has is a SpecError naming both files. `defaults` are the overlay's
// platform defaults (<data_dir>/tasks/platforms.yaml), if any.
void apply_task_overlay(TaskSpec& t, const std::string& path, const std::map<PlatformId, PlatformSpec>& defaults);

}  // namespace tlmcraft::tasks
