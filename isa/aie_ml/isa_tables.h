// Internal to isa/aie_ml: the parts of aie_ml.yaml that only the assembler and the doc
// generator need (immediate kinds, operand roles, access sizes, documentation text).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/aie_ml/aie_core.h"

namespace tlmcraft::isa::aie_ml {

struct ImmKind {
  std::string name;
  int64_t min = 0, max = 0, align = 1;
  std::string doc;
};

struct OpExtra {
  int dst = 0;                 // leading operands written
  std::vector<int> rw;         // operands read and written
  uint32_t access_bytes = 0;   // memory access size (0: none)
  uint32_t access_align = 1;   // required address alignment
  std::string offset_kind;     // immediate kind of offsets / post-increments
};

struct DocEntry {
  std::string name, doc;
};
struct RegClassDoc {
  std::string name, count, bits, doc;
};

struct AieIsaDetails {
  AieIsa isa;
  std::vector<OpExtra> extra;  // parallel to isa.ops
  std::vector<ImmKind> immediates;
  std::string name, display_name, description;
  std::vector<DocEntry> slots;
  std::vector<RegClassDoc> register_classes;
  std::vector<std::string> latency_order;  // YAML order
  std::vector<DocEntry> notes;             // prose sections of the reference (title, markdown)
  std::map<Slot, std::string> added_op_ports_doc;  // slot -> the built-in op its ports come from
  const ImmKind* imm(const std::string& n) const {
    for (const auto& k : immediates)
      if (k.name == n) return &k;
    return nullptr;
  }
};

// Parses and validates a description; throws std::runtime_error listing every problem
// as file:line:col: message.
AieIsaDetails parse_aie_isa(const std::string& yaml_text, const std::string& file);
// `path` with ISA overlays merged over it (isa/isa_overlay.h); messages name the file
// (base or overlay), line and column.
AieIsaDetails load_aie_isa(const std::string& path, const std::vector<std::string>& overlays);
// The description of the current ISA variant (isa_yaml_path("aie_ml") plus the variant's
// overlays, isa/isa_variant.h), loaded once per variant.
const AieIsaDetails& aie_isa_details();

bool slot_from_name(const std::string& name, Slot& out);
// The markdown reference docs/isa/aie-ml.md, generated from the description.
std::string reference_markdown(const AieIsaDetails& d);
bool is_register_shape(const std::string& shape);
// True when an operand of this shape ("x", "sdst", "vany", ...) may be a register of class c.
bool shape_accepts_class(const std::string& shape, RegClass c);
// assemble_core with a given description (the loader assembles compose steps with the
// description it is building).
AieProgram assemble_core_with(const AieIsaDetails& d, const std::string& text, const std::string& file,
                              uint32_t first_line, std::vector<Diagnostic>& diags);

}  // namespace tlmcraft::isa::aie_ml
