// Internal to isa/aie_ml: the pieces of the aie_ml.yaml loader shared by isa_table.cpp
// (slots, registers, built-in ops) and extension_load.cpp (ops added by data).
#pragma once
#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "isa/aie_ml/extension_ops.h"
#include "isa/aie_ml/isa_tables.h"
#include "isa/isa_overlay.h"

namespace tlmcraft::isa::aie_ml {

// Collects every problem of a description as "file:line:col: message".
struct YamlErrors {
  std::string file;
  std::vector<std::string> errors;
  const SourceMap* sources = nullptr;  // with overlays: which file (base or overlay) a mark lies in
  std::string base_text;               // the base file's text (expression positions need it)
  void error(const YAML::Mark& m, const std::string& msg) {
    if (sources) return errors.push_back(sources->where(m) + ": " + msg);
    errors.push_back(file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": " + msg);
  }
  void error(const YAML::Node& n, const std::string& msg) { error(n.Mark(), msg); }
  static std::string text(const YAML::Node& parent, const char* key) {
    const YAML::Node n = parent[key];
    return n && n.IsScalar() ? n.Scalar() : std::string();
  }
  // An error at each key of the mapping `n` that is not in `allowed` (strict schema).
  void check_keys(const YAML::Node& n, std::initializer_list<const char*> allowed, const std::string& where);
};

// An op with `compose:` or `semantics:` waiting for every built-in op to be known.
struct PendingExtension {
  size_t op_index = 0;   // into AieIsaDetails::isa.ops
  YAML::Node node;       // the op's mapping
};

// Reads the list form of `operands:` ({name, class, role, format} each) into the op's
// shapes, dst/rw roles and the extension's operand table.
void read_named_operands(YamlErrors& L, const YAML::Node& list, const AieIsaDetails& d, OpSpec& op, OpExtra& ex,
                         ExtensionOp& ext);

// Builds the extension of pending op `p` (its compose steps assembled against `d`, or its
// semantics parsed), and stores it in d.isa.extensions.
void build_extension(YamlErrors& L, AieIsaDetails& d, const PendingExtension& p, ExtensionOp ext);

}  // namespace tlmcraft::isa::aie_ml
