// The ISA variant a run uses: an edited copy of the ISA folder (--isa-dir) and ISA
// overlays merged over the shipped descriptions (--isa-ext, isa/isa_overlay.h). Entry
// points build one from their options and pass it on explicitly (agent and MCP toolbox
// options, sweep variants, worker arguments); code that loads an ISA description deep
// inside a platform reads the variant in force (current_isa_variant): a ScopedIsaVariant
// installed by the caller for the duration of a call, else the one the command set for
// the whole process. Neither reaches a child process (workers get --isa-dir/--isa-ext).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tlmcraft::isa {

class IsaSpec;

struct IsaVariant {
  std::string isa_dir;                // "" = TLMCRAFT_ISA_DIR if set, else the shipped isa/
  std::vector<std::string> overlays;  // overlay files, merged in this order
  bool empty() const { return isa_dir.empty() && overlays.empty(); }
  bool operator==(const IsaVariant& o) const { return isa_dir == o.isa_dir && overlays == o.overlays; }
};

// The innermost ScopedIsaVariant of this thread, else the process default.
IsaVariant current_isa_variant();
// Changes whenever any variant is set or a scope begins or ends (in any thread): loaders
// called per simulated bundle keep the description they found while it is unchanged.
uint64_t isa_variant_generation();
// The process default (set by a CLI command from its options; initially empty).
void set_process_isa_variant(const IsaVariant& variant);

// Makes `variant` current on this thread until destroyed (nests).
class ScopedIsaVariant {
 public:
  explicit ScopedIsaVariant(const IsaVariant& variant);
  ~ScopedIsaVariant();
  ScopedIsaVariant(const ScopedIsaVariant&) = delete;
  ScopedIsaVariant& operator=(const ScopedIsaVariant&) = delete;

 private:
  std::shared_ptr<const IsaVariant> previous_;
};

// One ISA's description in the current variant: the base file (isa_yaml_path) and the
// variant's overlays whose `isa:` names this ISA (entry points check beforehand that every
// overlay extends one of their platform's ISAs: harness/isa_variant_check.h).
struct IsaSource {
  std::string path;
  std::vector<std::string> overlays;
  // Identity for caches: the paths and the overlays' content (an edited overlay is new).
  std::string cache_key() const;
};
IsaSource isa_source(const std::string& isa_name, const std::string& home_dir = "");

// The ISA in the current variant, parsed and validated (throws IsaSpecError naming
// file:line:col in the base or an overlay).
IsaSpec load_isa_spec(const std::string& isa_name, const std::string& home_dir = "");
// The same, parsed once per distinct source (platforms build many instances).
std::shared_ptr<const IsaSpec> cached_isa_spec(const std::string& isa_name, const std::string& home_dir = "");

}  // namespace tlmcraft::isa
