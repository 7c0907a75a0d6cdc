// The ISA tool registry: what `tlmcraft asm`, `isa doc`, `isa check` and `list isas` can
// do with each ISA. Every ISA registers its own entry points (the platform that uses it
// does, since it knows the toolchain and the default latencies), so shared code names no
// ISA. ISAs described in the generic schema (isa_spec.h) get all tools from
// table_isa_tools(); ISAs with their own schema or an external assembler fill the
// functions themselves.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "isa/program.h"

namespace tlmcraft::isa {

// The outcome of validating an ISA description.
struct IsaCheck {
  std::string isa;     // the ISA's name
  std::string file;    // the description checked ("" when the ISA has none)
  std::string summary;  // "56 instructions, 6 fields, 3 register classes"
  std::vector<std::string> errors;  // each "file:line:col: message"
  bool ok() const { return errors.empty(); }
  nlohmann::json to_json() const;
};

// The outcome of assembling a kernel.
struct AsmResult {
  bool ok = false;
  std::vector<Diagnostic> diags;
  size_t instructions = 0;                    // instructions (VLIW: slot operations)
  std::map<std::string, size_t> by_class;     // class letter, slot, ... as the ISA groups them
  std::map<std::string, size_t> by_unit;
  std::vector<std::string> listing;           // one line per instruction/bundle (--list)
  nlohmann::json to_json() const;
};

struct IsaTools {
  std::string name;                           // "plena"
  std::vector<std::string> aliases;           // other spellings accepted ("aie-ml")
  std::string summary;                        // one line for `tlmcraft list isas`
  std::vector<std::string> kernel_extensions;  // ".asm": picks the ISA when --isa is not given
  // Validates a description file ("" = the ISA's own, found by isa_yaml_path).
  std::function<IsaCheck(const std::string& path)> check;
  // The Markdown reference; `latencies` adds the platform's default cycles per class.
  std::function<std::string(bool latencies)> doc;
  std::function<AsmResult(const std::string& source, const std::string& file)> assemble;
  // Fixed-width binary encodings (optional: empty for ISAs assembled into images).
  std::function<bool(const std::string& source, const std::string& file, std::vector<uint32_t>& words,
                     std::string& error)>
      encode;
  std::function<bool(const std::vector<uint32_t>& words, std::string& text, std::string& error)> decode;
  // Optional: the class an assembled instruction counts under (get_instruction_size), for
  // ISAs whose Program holds raw words rather than IsaSpec table entries.
  std::function<std::string(const Instruction&)> instruction_class;
  // Optional: the kernel with explicit waits (NOPs) wherever a result is read or
  // overwritten before it lands, for cores without register interlocks
  // (`tlmcraft asm --waits OUT`), timed by the pipeline stages of the platform configuration
  // (`config`: a name or YAML file; `overrides`: KEY=VALUE); throws std::invalid_argument
  // naming the cause, InputError for a bad configuration.
  std::function<std::string(const std::string& source, const std::string& config,
                            const std::vector<std::string>& overrides)>
      insert_waits;
  // Optional: a C header for the custom instructions of the given ISA overlays
  // (`tlmcraft isa header NAME --isa-ext FILE`); throws std::runtime_error for a bad overlay.
  std::function<std::string(const std::vector<std::string>& overlays)> header;
};

// Adds (or replaces, by name) an entry. Returns true so a platform can register from a
// static initialiser: `static const bool r = isa::register_isa_tools(...)`.
bool register_isa_tools(IsaTools tools);
// The entry named `name` or one of its aliases; nullptr if none.
const IsaTools* find_isa_tools(const std::string& name);
// Every entry, sorted by name.
std::vector<const IsaTools*> all_isa_tools();
// Names of every entry, ", "-separated (for messages).
std::string isa_tools_names();

// The ISA a description file is for (its top-level `name:`); throws std::runtime_error
// naming the file when it cannot be read or has no name.
std::string isa_name_of_file(const std::string& path);

// Tools for an ISA in the generic schema (isa_spec.h), loaded from
// isa_yaml_path(name, home_dir) at each use (so TLMCRAFT_ISA_DIR and --isa-dir apply).
// `latency_notes` gives the platform's cycles per latency class for `isa doc
// --latencies`. `home_dir`: the folder holding an ISA kept outside tlmcraft's data folder
// (a plugin's isa/, the same as its PlatformInfo::isa_dir); "" = the data folder's isa/.
IsaTools table_isa_tools(const std::string& name, const std::string& summary,
                         std::vector<std::string> kernel_extensions,
                         std::function<std::map<std::string, std::string>()> latency_notes,
                         const std::string& home_dir = "");
// The generic validator on one file.
IsaCheck check_table_isa_file(const std::string& path);

}  // namespace tlmcraft::isa
