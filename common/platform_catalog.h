// The names of the registered platforms and what code below platforms/ (tasks/, the
// harness's lists) needs to know of them. platforms/registry.h's register_platform() fills
// it together with the platform's factory; a lookup first runs the built-in registrations
// (common/registration.h), so every executable sees all in-tree platforms without setup.
#pragma once
#include <string>
#include <vector>

namespace tlmcraft {

struct PlatformInfo {
  std::string name;                    // "plena": --platform, the key of a task spec's platforms: map
  std::vector<std::string> isa_names;  // the ISA files (<isa folder>/<name>/<name>.yaml) its assembler reads
  // ISAs its decoder has compiled in that still take overlays (isa: NAME) of added
  // instructions (Coral: riscv, custom-0..3; docs/isa-extensions.md). No file to hash.
  std::vector<std::string> overlay_only_isas;
  std::string display_name;            // "PLENA": table headers (empty: the name)
  int rank = 1000;                     // listing order (tables, `list platforms`); ties by name
  bool cpu_programs = false;           // runs the CPU group (tasks/specs/cpu/, level 0)
  // A folder with the platform's own data: tasks/<task>.yaml overlays (a platforms: section
  // merged into the built-in task, docs/platform-sdk.md) and tasks/platforms.yaml defaults.
  // Empty: none (the in-tree platforms keep their sections in tasks/specs/).
  std::string data_dir;
  // The folder of the platform's named configs (`--platform-config NAME` is NAME.yaml in
  // it). Empty: platforms/<name>/configs in the data folder (common/data_dir.h).
  std::string config_dir;
  // The folder holding the ISA descriptions of isa_names (<isa_dir>/<n>/<n>.yaml), for an
  // ISA kept outside tlmcraft's data folder (a plugin's own): provenance hashes them from
  // there (give isa::table_isa_tools the same folder). Empty: isa/ in the data folder.
  // TLMCRAFT_ISA_DIR (--isa-dir) still comes first where it holds the file.
  std::string isa_dir;
  // The ISA reference the agent reads for this platform's kernels (agent/docs_index.cpp):
  // rendered from isa/<reference_isa>/<reference_isa>.yaml when reference_from_yaml, else
  // the hand-written docs/isa/<reference_isa>*.md, plus the section reference_section of
  // docs/platforms/<reference_isa>.md when set. Empty reference_isa: the platform's name,
  // from YAML if that loads, else the hand-written files.
  std::string reference_isa;
  bool reference_from_yaml = false;
  std::string reference_section;
};

// Throws std::invalid_argument for an empty or malformed name or one already registered.
void register_platform_info(PlatformInfo info);
// nullptr if no platform of that name is registered.
const PlatformInfo* find_platform_info(const std::string& name);
// Every registered platform, by rank then name.
std::vector<const PlatformInfo*> registered_platforms();
std::vector<std::string> registered_platform_names();
// "plena, aie_ml, coral": for error messages listing what exists.
std::string registered_platform_list();

}  // namespace tlmcraft
