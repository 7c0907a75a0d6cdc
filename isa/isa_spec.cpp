// Loads and validates an ISA YAML description (schema: docs/isa/README.md).
// Every problem is collected with its YAML line and column so one run shows them all.
#include "isa/isa_spec.h"

#include "isa/actions.h"

#include "isa/compose.h"
#include "isa/expression_semantics.h"
#include "isa/fused.h"
#include "isa/isa_overlay.h"
#include "isa/isa_variant.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <sys/stat.h>

#include "common/data_dir.h"

namespace tlmcraft::isa {

namespace {

bool file_exists(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string bits_text(int lsb, int msb) {
  return msb == lsb ? std::to_string(lsb) : std::to_string(msb) + ":" + std::to_string(lsb);
}

uint64_t bit_mask(int lsb, int msb) {
  const int w = msb - lsb + 1;
  const uint64_t ones = w >= 64 ? ~0ull : ((1ull << w) - 1);
  return ones << lsb;
}

}  // namespace

bool parse_integer(std::string_view t, int64_t& out) {
  size_t i = 0;
  bool neg = false;
  if (i < t.size() && (t[i] == '-' || t[i] == '+')) neg = t[i++] == '-';
  uint64_t base = 10;
  if (i + 1 < t.size() && t[i] == '0' && (t[i + 1] == 'x' || t[i + 1] == 'X')) base = 16, i += 2;
  if (i >= t.size()) return false;
  uint64_t v = 0;
  bool overflow = false;
  for (; i < t.size(); ++i) {
    const char c = t[i];
    uint64_t d;
    if (c >= '0' && c <= '9') d = uint64_t(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') d = uint64_t(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') d = uint64_t(c - 'A' + 10);
    else return false;
    if (v > (uint64_t(INT64_MAX) - d) / base) overflow = true;
    else v = v * base + d;
  }
  // Saturate: callers compare against their range and report "out of range".
  const int64_t mag = overflow ? INT64_MAX : int64_t(v);
  out = neg ? -mag : mag;
  return true;
}

std::string isa_yaml_path(const std::string& isa_name, const std::string& home_dir) {
  // The variant's --isa-dir first (isa/isa_variant.h), then the environment.
  const std::string variant_dir = current_isa_variant().isa_dir;
  const char* dir = variant_dir.empty() ? std::getenv("TLMCRAFT_ISA_DIR") : variant_dir.c_str();
  return isa_yaml_path_in(dir ? dir : "", isa_name, home_dir);
}

namespace {
// <d>/<name>/<name>.yaml or <d>/<name>.yaml, whichever exists; "" if neither does.
std::string existing_isa_file(const std::string& d, const std::string& isa_name) {
  const std::string nested = d + "/" + isa_name + "/" + isa_name + ".yaml";
  if (file_exists(nested)) return nested;
  const std::string flat = d + "/" + isa_name + ".yaml";
  return file_exists(flat) ? flat : "";
}
}  // namespace

std::string isa_yaml_path_in(const std::string& d, const std::string& isa_name, const std::string& home_dir) {
  if (!d.empty()) {
    if (const std::string found = existing_isa_file(d, isa_name); !found.empty()) return found;
    // Without a home the override folder must hold it: load() then names the path it could not open.
    if (home_dir.empty()) return d + "/" + isa_name + "/" + isa_name + ".yaml";
  }
  if (home_dir.empty()) return data::data_path("isa/" + isa_name + "/" + isa_name + ".yaml");
  const std::string found = existing_isa_file(home_dir, isa_name);
  return found.empty() ? home_dir + "/" + isa_name + "/" + isa_name + ".yaml" : found;
}

const char* role_name(Role r) {
  switch (r) {
    case Role::None: return "-";
    case Role::Read: return "read";
    case Role::Write: return "write";
    case Role::ReadWrite: return "readwrite";
  }
  return "?";
}

std::string RegisterClass::range_text() const {
  return prefix + "0-" + prefix + std::to_string(count - 1);
}

size_t InstructionSpec::min_operands() const {
  size_t n = 0;
  size_t omitted = 0;
  while (n < operands.size() && !operands[n].optional) omitted += operands[n++].omissible;
  return n - omitted;
}

std::string InstructionSpec::syntax() const {
  std::string s = mnemonic;
  bool first = true, in_optional = false;
  for (const auto& op : operands) {
    // Placeholder operands are written as the literal 0 they must be.
    const std::string text = op.placeholder ? "0" : op.name;
    if (op.omissible) {  // "M_MV_WO rd[, 0], imm"
      s += first ? " [0]" : "[, 0]";
      first = false;
      continue;
    }
    if (op.optional && !in_optional) {
      s += first ? " [" : "[, ";
      in_optional = true;
    } else {
      s += first ? " " : ", ";
    }
    s += text;
    first = false;
  }
  if (in_optional) s += "]";
  return s;
}

// ---------------------------------------------------------------------------------------
// Loader

class IsaSpecLoader {
 public:
  IsaSpecLoader(IsaSpec& spec, std::string file, const SourceMap* sources = nullptr)
      : s_(spec), file_(std::move(file)), sources_(sources) {
    s_.file_ = file_;
  }

  void run(const YAML::Node& root);
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  IsaSpec& s_;
  std::string file_;
  const SourceMap* sources_;  // with overlays: maps a mark to the file holding it
  std::vector<std::string> errors_;

  void error(const YAML::Mark& m, const std::string& msg) {
    if (sources_) return errors_.push_back(sources_->where(m) + ": " + msg);
    std::ostringstream o;
    o << file_ << ":" << (m.line + 1) << ":" << (m.column + 1) << ": " << msg;
    errors_.push_back(o.str());
  }
  void error(const YAML::Node& n, const std::string& msg) { error(n.Mark(), msg); }

  // Reports keys of a map that the schema does not know (catches typos such as "optinal").
  void check_keys(const YAML::Node& n, std::initializer_list<const char*> allowed, const std::string& what) {
    for (auto it = n.begin(); it != n.end(); ++it) {
      const std::string key = it->first.Scalar();
      bool ok = false;
      for (const char* a : allowed) ok = ok || key == a;
      if (!ok) {
        std::string list;
        for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
        error(it->first, "unknown key '" + key + "' in " + what + " (known keys: " + list + ")");
      }
    }
  }

  bool is_map(const YAML::Node& n, const std::string& what) {
    if (n.IsMap()) return true;
    error(n, what + " must be a mapping (key: value)");
    return false;
  }

  std::string str(const YAML::Node& parent, const char* key, const std::string& what, bool required,
                  const std::string& def = "") {
    const YAML::Node n = parent[key];
    if (!n) {
      if (required) error(parent, what + ": missing required key '" + key + "'");
      return def;
    }
    if (!n.IsScalar()) {
      error(n, what + ": '" + key + "' must be a single value");
      return def;
    }
    return n.Scalar();
  }

  bool integer(const YAML::Node& parent, const char* key, const std::string& what, bool required, int64_t& out) {
    const YAML::Node n = parent[key];
    if (!n) {
      if (required) error(parent, what + ": missing required key '" + key + "'");
      return false;
    }
    int64_t v;
    if (!n.IsScalar() || !parse_integer(n.Scalar(), v)) {
      error(n, what + ": '" + key + "' must be an integer (decimal or 0x hex), got '" +
                   (n.IsScalar() ? n.Scalar() : std::string("a list or map")) + "'");
      return false;
    }
    out = v;
    return true;
  }

  bool boolean(const YAML::Node& parent, const char* key, const std::string& what, bool def) {
    const YAML::Node n = parent[key];
    if (!n) return def;
    const std::string v = n.IsScalar() ? n.Scalar() : "";
    if (v == "true" || v == "yes") return true;
    if (v == "false" || v == "no") return false;
    error(n, what + ": '" + key + "' must be true or false, got '" + v + "'");
    return def;
  }

  template <class F>
  void each(const YAML::Node& root, const char* key, bool required, F&& f) {
    const YAML::Node list = root[key];
    if (!list) {
      if (required) error(root, std::string("missing required top-level key '") + key + "'");
      return;
    }
    if (!list.IsSequence()) {
      error(list, std::string("'") + key + "' must be a list");
      return;
    }
    for (const auto& item : list) f(item);
  }

  // `on_entry(node, name)` reads keys beyond name and doc (listed in `extra_keys`).
  template <class F>
  void load_named_docs(const YAML::Node& root, const char* key, bool required, std::vector<NamedDoc>& out,
                       std::initializer_list<const char*> keys, F&& on_entry) {
    std::set<std::string> seen;
    each(root, key, required, [&](const YAML::Node& n) {
      const std::string what = std::string(key) + " entry";
      if (!is_map(n, what)) return;
      check_keys(n, keys, what);
      NamedDoc d{str(n, "name", what, true), str(n, "doc", what, false)};
      if (d.name.empty()) return;
      if (!seen.insert(d.name).second) error(n, "duplicate " + std::string(key) + " name '" + d.name + "'");
      on_entry(n, d.name);
      out.push_back(std::move(d));
    });
  }
  void load_named_docs(const YAML::Node& root, const char* key, bool required, std::vector<NamedDoc>& out) {
    load_named_docs(root, key, required, out, {"name", "doc"}, [](const YAML::Node&, const std::string&) {});
  }
  // latency_classes entries may declare `cycles:` (the default when a platform config has none).
  void load_latency_classes(const YAML::Node& root) {
    load_named_docs(root, "latency_classes", true, s_.latency_classes_, {"name", "doc", "cycles"},
                    [&](const YAML::Node& n, const std::string& name) {
                      int64_t c;
                      if (!integer(n, "cycles", "latency class " + name, false, c)) return;
                      if (c < 0 || c > (int64_t(1) << 20))
                        error(n["cycles"], "latency class " + name + ": cycles must be 0..1048576, got " +
                                               std::to_string(c));
                      else
                        s_.default_cycles_[name] = c;
                    });
  }

  // An operand's `value:` must be a class this ISA declares, written with the operand's
  // register class (an immediate's class has none).
  void check_value_class(const YAML::Node& at, const OperandKind& k, const OperandSpec& op, const std::string& what) {
    const ValueClass* vc = s_.value_class(op.value);
    if (!vc) {
      std::string known;
      for (const auto& c : s_.value_classes_) known += (known.empty() ? "" : ", ") + c.name;
      return error(at, what + ": value class '" + op.value + "' is not one " + s_.display_name_ + " has (known: " +
                           (known.empty() ? "none declared" : known) + ")");
    }
    const std::string reg = k.type == KindType::Register && k.register_class >= 0
                                ? s_.reg_classes_[k.register_class].name
                                : std::string();
    if (reg != vc->register_class)
      error(at, what + ": value class " + vc->name + " is held in " +
                    (vc->register_class.empty() ? std::string("an immediate") : "a " + vc->register_class + " register") +
                    ", but kind " + k.name + " is " + (reg.empty() ? std::string("an immediate") : "a " + reg + " register"));
  }

  bool within_word(int lsb, int msb) const { return lsb >= 0 && msb >= lsb && msb < s_.word_bits_; }

  void load_header(const YAML::Node& root);
  void load_fields(const YAML::Node& root);
  void load_register_classes(const YAML::Node& root);
  void load_register_ports(const YAML::Node& root);
  void load_kinds(const YAML::Node& root);
  void load_classes(const YAML::Node& root);
  void load_parameters(const YAML::Node& root);
  void load_actions(const YAML::Node& actions, InstructionSpec& ins, const std::string& what);
  void load_syntax(const YAML::Node& root);
  void load_instructions(const YAML::Node& root);
  void load_value_classes(const YAML::Node& root);
  void load_computation(const YAML::Node& n, InstructionSpec& ins, const std::string& what);
  bool step_lines(const YAML::Node& f, const std::string& what, const std::string& key);
  void load_composition(const YAML::Node& c, const std::string& key, const InstructionSpec& ins, Composition& out,
                        const std::string& what);
  void load_timing(const YAML::Node& n, InstructionSpec& ins, const std::string& what);
  bool load_operand(const YAML::Node& n, InstructionSpec& ins, OperandSpec& op);
  void check_instruction_bits(const YAML::Node& n, const InstructionSpec& ins);
  template <class T>
  int index_of(const std::vector<T>& v, const std::string& name) const {
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i].name == name) return int(i);
    return -1;
  }
  template <class T>
  std::string names_of(const std::vector<T>& v) const {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x.name;
    return s;
  }
};

void IsaSpecLoader::run(const YAML::Node& root) {
  if (!root.IsMap()) {
    error(root, "an ISA description must be a mapping with keys name, word_bits, fields, instructions, ...");
    return;
  }
  check_keys(root,
             {"name", "display_name", "description", "word_bits", "opcode", "parameters", "fields",
              "register_classes", "register_ports", "operand_kinds", "value_classes", "resources", "units",
              "latency_classes", "classes", "syntax", "instructions"},
             "the ISA description");
  load_header(root);
  load_parameters(root);
  load_fields(root);
  load_register_classes(root);
  load_register_ports(root);
  load_kinds(root);
  load_value_classes(root);
  load_named_docs(root, "resources", false, s_.resources_);
  load_named_docs(root, "units", true, s_.units_);
  load_latency_classes(root);
  load_classes(root);
  load_syntax(root);
  load_instructions(root);
}

void IsaSpecLoader::load_header(const YAML::Node& root) {
  s_.name_ = str(root, "name", "the ISA description", true);
  std::string upper = s_.name_;
  for (auto& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
  s_.display_name_ = str(root, "display_name", "the ISA description", false, upper);
  s_.description_ = str(root, "description", "the ISA description", false);
  int64_t w = 32;
  integer(root, "word_bits", "the ISA description", true, w);
  if (w < 8 || w > 32) {
    error(root["word_bits"] ? root["word_bits"] : root, "word_bits must be between 8 and 32, got " + std::to_string(w));
    w = 32;
  }
  s_.word_bits_ = int(w);
  const YAML::Node op = root["opcode"];
  if (!op) {
    error(root, "missing required top-level key 'opcode' (the opcode's bit range: {lsb: 0, msb: 5})");
  } else if (is_map(op, "opcode")) {
    check_keys(op, {"lsb", "msb"}, "opcode");
    int64_t lsb = 0, msb = 0;
    if (integer(op, "lsb", "opcode", true, lsb) && integer(op, "msb", "opcode", true, msb)) {
      if (!within_word(int(lsb), int(msb)))
        error(op, "opcode bits " + std::to_string(msb) + ":" + std::to_string(lsb) + " lie outside the " +
                      std::to_string(s_.word_bits_) + "-bit word");
      else
        s_.opcode_lsb_ = int(lsb), s_.opcode_msb_ = int(msb);
    }
  }
}

void IsaSpecLoader::load_parameters(const YAML::Node& root) {
  each(root, "parameters", false, [&](const YAML::Node& n) {
    if (!is_map(n, "parameters entry")) return;
    check_keys(n, {"name", "value", "doc"}, "parameters entry");
    s_.parameters_.push_back(
        {str(n, "name", "parameters entry", true), str(n, "value", "parameters entry", false),
         str(n, "doc", "parameters entry", false)});
  });
}

void IsaSpecLoader::load_fields(const YAML::Node& root) {
  each(root, "fields", true, [&](const YAML::Node& n) {
    if (!is_map(n, "fields entry")) return;
    check_keys(n, {"name", "lsb", "msb", "immediate", "doc"}, "fields entry");
    FieldSpec f;
    f.name = str(n, "name", "fields entry", true);
    f.immediate = boolean(n, "immediate", "field " + f.name, false);
    if (index_of(s_.fields_, f.name) >= 0) error(n, "duplicate field name '" + f.name + "'");
    if (!f.immediate) {
      int64_t lsb = -1, msb = -1;
      const bool ok = integer(n, "lsb", "field " + f.name, true, lsb) & integer(n, "msb", "field " + f.name, true, msb);
      if (ok) {
        if (!within_word(int(lsb), int(msb))) {
          error(n, "field " + f.name + " bits " + std::to_string(msb) + ":" + std::to_string(lsb) + " lie outside the " +
                       std::to_string(s_.word_bits_) + "-bit word (bits " + std::to_string(s_.word_bits_ - 1) + ":0)");
        } else {
          f.lsb = int(lsb), f.msb = int(msb);
          if (bit_mask(f.lsb, f.msb) & bit_mask(s_.opcode_lsb_, s_.opcode_msb_))
            error(n, "field " + f.name + " (bits " + bits_text(f.lsb, f.msb) + ") overlaps the opcode (bits " +
                         bits_text(s_.opcode_lsb_, s_.opcode_msb_) + ")");
        }
      }
    } else if (n["lsb"] || n["msb"]) {
      error(n, "field " + f.name + " is an immediate slot: its bits come from the immediate operand kinds, "
                                   "so it takes no lsb/msb");
    }
    s_.fields_.push_back(std::move(f));
  });
  if (s_.fields_.size() > size_t(kMaxFields))
    error(root["fields"], "at most " + std::to_string(kMaxFields) + " fields are supported, got " +
                              std::to_string(s_.fields_.size()));
}

void IsaSpecLoader::load_register_classes(const YAML::Node& root) {
  each(root, "register_classes", true, [&](const YAML::Node& n) {
    if (!is_map(n, "register_classes entry")) return;
    check_keys(n, {"name", "prefix", "count", "zero_register", "zero_writes_dropped", "bare_numbers", "doc"},
               "register_classes entry");
    RegisterClass rc;
    rc.name = str(n, "name", "register class", true);
    const std::string what = "register class " + rc.name;
    rc.prefix = str(n, "prefix", what, true);
    int64_t count = 0;
    if (integer(n, "count", what, true, count) && (count < 1 || count > 256))
      error(n["count"], what + ": count must be 1..256, got " + std::to_string(count));
    rc.count = int(std::clamp<int64_t>(count, 0, 256));
    int64_t z = -1;
    if (integer(n, "zero_register", what, false, z) && (z < 0 || z >= rc.count))
      error(n["zero_register"], what + ": zero_register " + std::to_string(z) + " is not a register of the class (0.." +
                                    std::to_string(rc.count - 1) + ")");
    rc.zero_register = int(z);
    rc.zero_writes_dropped = boolean(n, "zero_writes_dropped", what, false);
    rc.bare_numbers = boolean(n, "bare_numbers", what, false);
    rc.doc = str(n, "doc", what, false);
    if (index_of(s_.reg_classes_, rc.name) >= 0) error(n, "duplicate register class '" + rc.name + "'");
    for (const auto& other : s_.reg_classes_)
      if (!rc.prefix.empty() && other.prefix == rc.prefix)
        error(n, what + ": prefix '" + rc.prefix + "' is already used by register class " + other.name);
    for (char c : rc.prefix)
      if (!std::isalpha(static_cast<unsigned char>(c)) && c != '_')
        error(n["prefix"], what + ": prefix '" + rc.prefix + "' must consist of letters");
    s_.reg_classes_.push_back(std::move(rc));
  });
}

// `register_ports: [{name: <register class>, write_ports: N, doc}]`: how many registers of
// the class one instruction may write (a composed instruction is checked against it,
// isa/compose.cpp). An overlay raising it is a hardware change (docs/isa-extensions.md).
void IsaSpecLoader::load_register_ports(const YAML::Node& root) {
  std::set<std::string> seen;
  each(root, "register_ports", false, [&](const YAML::Node& n) {
    if (!is_map(n, "register_ports entry")) return;
    check_keys(n, {"name", "write_ports", "doc"}, "register_ports entry");
    const std::string name = str(n, "name", "register_ports entry", true);
    const int cls = index_of(s_.reg_classes_, name);
    if (cls < 0) {
      if (!name.empty())
        error(n["name"],
              "register_ports: unknown register class '" + name + "' (known: " + names_of(s_.reg_classes_) + ")");
      return;
    }
    if (!seen.insert(name).second) error(n, "duplicate register_ports entry for register class '" + name + "'");
    int64_t ports = 0;
    if (!integer(n, "write_ports", "register_ports " + name, true, ports)) return;
    if (ports < 1 || ports > 8)
      error(n["write_ports"], "register_ports " + name + ": write_ports must be 1..8, got " + std::to_string(ports));
    else
      s_.reg_classes_[size_t(cls)].write_ports = int(ports);
  });
}

void IsaSpecLoader::load_kinds(const YAML::Node& root) {
  each(root, "operand_kinds", true, [&](const YAML::Node& n) {
    if (!is_map(n, "operand_kinds entry")) return;
    check_keys(n, {"name", "type", "register_class", "min", "max", "signed", "lsb", "msb", "accepts_zero_register", "doc"},
               "operand_kinds entry");
    OperandKind k;
    k.name = str(n, "name", "operand kind", true);
    const std::string what = "operand kind " + k.name;
    const std::string type = str(n, "type", what, true);
    k.doc = str(n, "doc", what, false);
    if (index_of(s_.kinds_, k.name) >= 0) error(n, "duplicate operand kind '" + k.name + "'");
    if (type == "register") {
      k.type = KindType::Register;
      const std::string rc = str(n, "register_class", what, true);
      k.register_class = index_of(s_.reg_classes_, rc);
      if (!rc.empty() && k.register_class < 0)
        error(n["register_class"], what + ": unknown register class '" + rc + "' (known: " + names_of(s_.reg_classes_) + ")");
    } else if (type == "immediate") {
      k.type = KindType::Immediate;
      k.is_signed = boolean(n, "signed", what, false);
      int64_t lsb = -1, msb = -1;
      const bool has_lsb = integer(n, "lsb", what, false, lsb), has_msb = integer(n, "msb", what, false, msb);
      if (has_lsb != has_msb) error(n, what + ": give both lsb and msb, or neither");
      if (has_lsb && has_msb) {
        if (!within_word(int(lsb), int(msb)))
          error(n, what + " bits " + std::to_string(msb) + ":" + std::to_string(lsb) + " lie outside the " +
                       std::to_string(s_.word_bits_) + "-bit word");
        else
          k.lsb = int(lsb), k.msb = int(msb);
      }
      const int w = k.has_bits() ? k.msb - k.lsb + 1 : 0;
      // Default range: everything the bits can hold.
      if (w > 0) {
        k.min = k.is_signed ? -(int64_t(1) << (w - 1)) : 0;
        k.max = k.is_signed ? (int64_t(1) << (w - 1)) - 1 : (int64_t(1) << w) - 1;
      }
      const bool has_min = integer(n, "min", what, w == 0, k.min);
      const bool has_max = integer(n, "max", what, w == 0, k.max);
      (void)has_min, (void)has_max;
      if (k.min > k.max) error(n, what + ": min " + std::to_string(k.min) + " is greater than max " + std::to_string(k.max));
      if (!k.is_signed && k.min < 0) error(n, what + ": an unsigned kind cannot have a negative min (set signed: true)");
      if (w > 0) {
        const int64_t lo = k.is_signed ? -(int64_t(1) << (w - 1)) : 0;
        const int64_t hi = k.is_signed ? (int64_t(1) << (w - 1)) - 1 : (int64_t(1) << w) - 1;
        if (k.min < lo || k.max > hi)
          error(n, what + ": range " + std::to_string(k.min) + ".." + std::to_string(k.max) + " does not fit its " +
                       std::to_string(w) + " bits (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
      }
    } else if (type == "zero") {
      k.type = KindType::Zero;
      const std::string rc = str(n, "accepts_zero_register", what, false);
      if (!rc.empty()) {
        k.register_class = index_of(s_.reg_classes_, rc);
        if (k.register_class < 0)
          error(n["accepts_zero_register"], what + ": unknown register class '" + rc + "'");
        else if (s_.reg_classes_[k.register_class].zero_register < 0)
          error(n["accepts_zero_register"], what + ": register class " + rc + " has no zero_register");
      }
    } else if (!type.empty()) {
      error(n["type"], what + ": unknown type '" + type + "' (register, immediate or zero)");
    }
    s_.kinds_.push_back(std::move(k));
  });
}

void IsaSpecLoader::load_classes(const YAML::Node& root) {
  each(root, "classes", true, [&](const YAML::Node& n) {
    if (!is_map(n, "classes entry")) return;
    check_keys(n, {"letter", "name", "doc"}, "classes entry");
    const std::string letter = str(n, "letter", "instruction class", true);
    if (letter.size() != 1) {
      error(n, "instruction class letter must be a single character, got '" + letter + "'");
      return;
    }
    for (const auto& c : s_.classes_)
      if (c.letter == letter[0]) error(n, "duplicate instruction class letter '" + letter + "'");
    s_.classes_.push_back({letter[0], str(n, "name", "instruction class " + letter, true),
                           str(n, "doc", "instruction class " + letter, false)});
  });
}

void IsaSpecLoader::load_syntax(const YAML::Node& root) {
  const YAML::Node n = root["syntax"];
  if (!n || !is_map(n, "syntax")) return;
  check_keys(n, {"comments", "label_hint"}, "syntax");
  if (const YAML::Node c = n["comments"]) {
    if (!c.IsSequence()) {
      error(c, "syntax.comments must be a list of comment markers such as [';', '#', '//']");
    } else {
      s_.syntax_.comments.clear();
      for (const auto& m : c) {
        if (!m.IsScalar() || m.Scalar().empty()) error(m, "a comment marker must be non-empty text");
        else s_.syntax_.comments.push_back(m.Scalar());
      }
    }
  }
  s_.syntax_.label_hint = str(n, "label_hint", "syntax", false);
}

bool IsaSpecLoader::load_operand(const YAML::Node& n, InstructionSpec& ins, OperandSpec& op) {
  const std::string where = ins.mnemonic + " operand";
  if (!is_map(n, where)) return false;
  check_keys(n, {"name", "kind", "field", "role", "optional", "omissible", "default", "literal_zero", "min", "max",
                 "range_hint", "doc", "value"},
             where);
  op.name = str(n, "name", where, true);
  const std::string what = ins.mnemonic + " operand '" + op.name + "'";
  const std::string kind = str(n, "kind", what, true);
  op.kind = index_of(s_.kinds_, kind);
  if (!kind.empty() && op.kind < 0) {
    error(n["kind"], what + ": unknown operand kind '" + kind + "' (known: " + names_of(s_.kinds_) + ")");
    return false;
  }
  if (op.kind < 0) return false;
  const OperandKind& k = s_.kinds_[op.kind];
  op.placeholder = k.type == KindType::Zero;
  const std::string field = str(n, "field", what, false);
  if (!field.empty()) {
    op.field = index_of(s_.fields_, field);
    if (op.field < 0) {
      error(n["field"], what + ": unknown field '" + field + "' (known: " + names_of(s_.fields_) + ")");
      return false;
    }
  }
  const std::string role = str(n, "role", what, false);
  if (role.empty()) op.role = k.type == KindType::Register ? Role::Read : Role::None;
  else if (role == "read") op.role = Role::Read;
  else if (role == "write") op.role = Role::Write;
  else if (role == "readwrite") op.role = Role::ReadWrite;
  else error(n["role"], what + ": unknown role '" + role + "' (read, write or readwrite)");
  if (op.role != Role::None && k.type != KindType::Register)
    error(n["role"], what + ": only register operands have a role (kind " + k.name + " is not a register)");
  op.optional = boolean(n, "optional", what, false);
  integer(n, "default", what, false, op.default_value);
  op.literal_zero = boolean(n, "literal_zero", what, false);
  op.omissible = boolean(n, "omissible", what, false);
  if (op.omissible && (k.type != KindType::Zero || op.field >= 0 || op.optional))
    error(n["omissible"], what + ": only a not-encoded zero placeholder that is not optional can be omissible");
  op.has_min = integer(n, "min", what, false, op.min);
  op.has_max = integer(n, "max", what, false, op.max);
  op.range_hint = str(n, "range_hint", what, false);
  op.doc = str(n, "doc", what, false);
  op.value = str(n, "value", what, false);
  if (!op.value.empty()) check_value_class(n["value"], k, op, what);

  if (k.type == KindType::Register) {
    if (op.field < 0) error(n, what + ": a register operand needs a field to be encoded in");
    if (op.has_min || op.has_max) error(n, what + ": min/max apply to immediates, not registers");
    // register_class is -1 when the kind named an unknown class (already an error).
    if (op.literal_zero && k.register_class >= 0 && s_.reg_classes_[k.register_class].zero_register < 0)
      error(n["literal_zero"], what + ": literal_zero needs a register class with a zero_register");
  } else if (op.literal_zero) {
    error(n["literal_zero"], what + ": literal_zero applies to register operands only");
  }
  if (k.type == KindType::Immediate && op.field < 0) error(n, what + ": an immediate operand needs a field");
  if (k.type == KindType::Zero && (op.has_min || op.has_max)) error(n, what + ": a zero placeholder has no range");
  if (op.field >= 0) {
    const FieldSpec& f = s_.fields_[op.field];
    if (k.has_bits() && !f.immediate)
      error(n["field"], what + ": kind " + k.name + " has its own bit range, so its field must be an immediate slot, but " +
                            f.name + " is a fixed field");
    if (!k.has_bits() && f.immediate)
      error(n["field"], what + ": field " + f.name + " is an immediate slot with no bits of its own; kind " + k.name +
                            " needs a fixed field (or a kind with lsb/msb)");
    if (!k.has_bits() && f.has_bits()) {
      const int w = f.width();
      if (k.type == KindType::Register && k.register_class >= 0 &&
          s_.reg_classes_[k.register_class].count > (1 << std::min(w, 30)))
        error(n["field"], what + ": field " + f.name + " has " + std::to_string(w) + " bits, too few for " +
                              std::to_string(s_.reg_classes_[k.register_class].count) + " " + k.name + " registers");
      if (k.type == KindType::Immediate && (k.min < 0 || k.max >= (int64_t(1) << std::min(w, 62))))
        error(n["field"], what + ": kind " + k.name + " (" + std::to_string(k.min) + ".." + std::to_string(k.max) +
                              ") does not fit the " + std::to_string(w) + " bits of field " + f.name);
    }
  }
  if (k.type == KindType::Immediate) {
    const int64_t lo = s_.operand_min(op), hi = s_.operand_max(op);
    if ((op.has_min && (op.min < k.min || op.min > k.max)) || (op.has_max && (op.max < k.min || op.max > k.max)) ||
        lo > hi)
      error(n, what + ": range " + std::to_string(lo) + ".." + std::to_string(hi) + " must lie inside kind " + k.name +
                   " (" + std::to_string(k.min) + ".." + std::to_string(k.max) + ")");
    if (op.optional && (op.default_value < lo || op.default_value > hi))
      error(n["default"] ? n["default"] : n, what + ": default " + std::to_string(op.default_value) + " is outside " +
                                                 std::to_string(lo) + ".." + std::to_string(hi));
  } else if (op.default_value != 0 && k.type == KindType::Zero) {
    error(n["default"], what + ": a zero placeholder's default must be 0");
  } else if (k.type == KindType::Register && op.optional && k.register_class >= 0 &&
             (op.default_value < 0 || op.default_value >= s_.reg_classes_[k.register_class].count)) {
    error(n["default"] ? n["default"] : n, what + ": default register " + std::to_string(op.default_value) +
                                               " is outside " + s_.reg_classes_[k.register_class].range_text());
  }
  return true;
}

void IsaSpecLoader::check_instruction_bits(const YAML::Node& n, const InstructionSpec& ins) {
  // Bits of every encoded operand, checked pairwise so the message names both sides.
  struct Used {
    std::string what;
    int lsb, msb;
    bool immediate;
  };
  std::vector<Used> used;
  for (const auto& op : ins.operands) {
    if (op.field < 0 || op.kind < 0) continue;
    const OperandKind& k = s_.kinds_[op.kind];
    const FieldSpec& f = s_.fields_[op.field];
    if (k.has_bits())
      used.push_back({"the immediate " + op.name + " (" + k.name + ", bits " + bits_text(k.lsb, k.msb) + ")", k.lsb, k.msb,
                      true});
    else if (f.has_bits())
      used.push_back({"operand " + op.name + " (field " + f.name + ", bits " + bits_text(f.lsb, f.msb) + ")", f.lsb, f.msb,
                      false});
  }
  for (size_t i = 0; i < used.size(); ++i)
    for (size_t j = i + 1; j < used.size(); ++j)
      if (bit_mask(used[i].lsb, used[i].msb) & bit_mask(used[j].lsb, used[j].msb)) {
        const Used& a = used[i].immediate ? used[j] : used[i];
        const Used& b = used[i].immediate ? used[i] : used[j];
        error(n, ins.mnemonic + ": " + a.what + " overlaps " + b.what);
      }
}

// `actions: {vector.mul.bf16: VLEN, ...}`: names checked here, counts against the ISA's
// parameters (the platform's values replace them when a program is loaded; isa/actions.h).
void IsaSpecLoader::load_actions(const YAML::Node& a, InstructionSpec& ins, const std::string& what) {
  if (!a.IsMap()) return error(a, what + ": actions must be a map of action: count (e.g. {vector.mul.bf16: VLEN})");
  std::map<std::string, uint64_t> params;
  for (const auto& p : s_.parameters_) {  // the typical values: a platform's own replace them
    int64_t v = 1;
    params[p.name] = parse_integer(p.value, v) && v > 0 ? uint64_t(v) : 1;
  }
  for (auto it = a.begin(); it != a.end(); ++it) {
    const std::string name = it->first.Scalar();
    if (const std::string bad = check_action_name(name); !bad.empty()) error(it->first, what + ": " + bad);
    if (!it->second.IsScalar()) {
      error(it->second, what + ": actions." + name + " must be a count (a number or an expression like VLEN*2)");
      continue;
    }
    uint64_t n = 0;
    std::string why;
    if (!eval_count(it->second.Scalar(), params, n, why)) error(it->second, what + ": actions." + name + ": " + why);
    const YAML::Mark m = it->second.Mark();
    ins.actions.push_back({name, it->second.Scalar(), m.line + 1, m.column + 1});
  }
}

void IsaSpecLoader::load_instructions(const YAML::Node& root) {
  std::unordered_map<uint32_t, int> opcode_line;
  std::unordered_map<std::string, int> mnemonic_line;
  const uint64_t max_opcode = bit_mask(0, s_.opcode_msb_ - s_.opcode_lsb_);
  each(root, "instructions", true, [&](const YAML::Node& n) {
    if (!is_map(n, "instructions entry")) return;
    check_keys(n,
               {"mnemonic", "opcode", "class", "unit", "latency_class", "operands", "reads", "writes", "implemented",
                "doc", "operation", "notes", "loop", "loop_counter", "fused", "compose", "semantics", "replaces", "timing",
                "actions"},
               "instructions entry");
    InstructionSpec ins;
    ins.line = n.Mark().line + 1;
    ins.mnemonic = str(n, "mnemonic", "instruction", true);
    if (ins.mnemonic.empty()) return;
    const std::string what = "instruction " + ins.mnemonic;
    for (char c : ins.mnemonic)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.')
        error(n["mnemonic"], what + ": a mnemonic may contain letters, digits, '_' and '.' only");
    if (auto it = mnemonic_line.find(ins.mnemonic); it != mnemonic_line.end())
      error(n["mnemonic"], "duplicate mnemonic " + ins.mnemonic + " (first defined at line " + std::to_string(it->second) + ")");
    else
      mnemonic_line[ins.mnemonic] = ins.line;

    int64_t opcode = 0;
    if (integer(n, "opcode", what, true, opcode)) {
      if (opcode < 0 || uint64_t(opcode) > max_opcode) {
        error(n["opcode"], what + ": opcode " + std::to_string(opcode) + " does not fit the opcode bits " +
                               bits_text(s_.opcode_lsb_, s_.opcode_msb_) + " (0.." + std::to_string(max_opcode) + ")");
      } else {
        ins.opcode = uint32_t(opcode);
        if (auto it = opcode_line.find(ins.opcode); it != opcode_line.end()) {
          std::ostringstream o;
          o << "duplicate opcode 0x" << std::hex << ins.opcode << std::dec << ": " << ins.mnemonic
            << " reuses the opcode of " << s_.instructions_[it->second].mnemonic << " (line "
            << s_.instructions_[it->second].line << ")";
          error(n["opcode"], o.str());
        } else {
          opcode_line[ins.opcode] = int(s_.instructions_.size());
        }
      }
    }
    const std::string cls = str(n, "class", what, true);
    if (cls.size() == 1) ins.cls = cls[0];
    if (!cls.empty() && !s_.class_info(ins.cls)) {
      std::string letters;
      for (const auto& c : s_.classes_) letters += std::string(letters.empty() ? "" : ", ") + c.letter;
      error(n["class"], what + ": unknown class '" + cls + "' (known: " + letters + ")");
    }
    ins.unit = str(n, "unit", what, true);
    if (!ins.unit.empty() && index_of(s_.units_, ins.unit) < 0)
      error(n["unit"], what + ": unknown unit '" + ins.unit + "' (known: " + names_of(s_.units_) + ")");
    ins.latency_class = str(n, "latency_class", what, true);
    if (!ins.latency_class.empty() && index_of(s_.latency_classes_, ins.latency_class) < 0)
      error(n["latency_class"], what + ": unknown latency class '" + ins.latency_class + "' (known: " +
                                    names_of(s_.latency_classes_) + ")");
    ins.implemented = boolean(n, "implemented", what, true);
    ins.doc = str(n, "doc", what, true);
    ins.operation = str(n, "operation", what, true);
    if (const YAML::Node notes = n["notes"]) {
      if (notes.IsScalar()) ins.notes.push_back(notes.Scalar());
      else if (notes.IsSequence())
        for (const auto& x : notes) ins.notes.push_back(x.IsScalar() ? x.Scalar() : "");
      else error(notes, what + ": notes must be text or a list of texts");
    }

    // Operands.
    if (const YAML::Node ops = n["operands"]) {
      if (!ops.IsSequence()) {
        error(ops, what + ": operands must be a list");
      } else {
        bool seen_optional = false;
        std::set<int> fields_used;
        for (const auto& on : ops) {
          OperandSpec op;
          if (!load_operand(on, ins, op)) continue;
          if (seen_optional && !op.optional)
            error(on, what + ": operand '" + op.name + "' is required but follows an optional operand "
                                                       "(optional operands must come last)");
          seen_optional = seen_optional || op.optional;
          if (op.field >= 0 && !fields_used.insert(op.field).second)
            error(on, what + ": field " + s_.fields_[op.field].name + " is used by two operands");
          for (const auto& prev : ins.operands)
            if (prev.name == op.name && !op.placeholder)
              error(on, what + ": two operands are named '" + op.name + "'");
          ins.operands.push_back(std::move(op));
        }
      }
    }
    check_instruction_bits(n, ins);

    // Implicit resources.
    auto resources = [&](const char* key, std::vector<uint16_t>& out) {
      const YAML::Node r = n[key];
      if (!r) return;
      if (!r.IsSequence()) return error(r, what + ": " + key + " must be a list of resource names");
      for (const auto& x : r) {
        const int idx = x.IsScalar() ? index_of(s_.resources_, x.Scalar()) : -1;
        if (idx < 0)
          error(x, what + ": unknown resource '" + (x.IsScalar() ? x.Scalar() : "?") + "' in " + key +
                       " (known: " + names_of(s_.resources_) + ")");
        else
          out.push_back(uint16_t(idx));
      }
    };
    resources("reads", ins.implicit_reads);
    resources("writes", ins.implicit_writes);

    // Hardware-loop structure (checked statically by the assembler).
    const std::string loop = str(n, "loop", what, false);
    if (loop == "start") ins.loop = LoopRole::Start;
    else if (loop == "end") ins.loop = LoopRole::End;
    else if (loop == "break") ins.loop = LoopRole::Break;
    else if (!loop.empty()) error(n["loop"], what + ": loop must be 'start', 'end' or 'break', got '" + loop + "'");
    const bool counted = ins.loop == LoopRole::Start || ins.loop == LoopRole::End;
    const std::string counter = str(n, "loop_counter", what, counted);
    if (!counter.empty()) {
      for (size_t i = 0; i < ins.operands.size(); ++i)
        if (ins.operands[i].name == counter) ins.loop_counter = int(i);
      if (ins.loop_counter < 0)
        error(n["loop_counter"], what + ": loop_counter '" + counter + "' is not one of its operands");
      else if (s_.kinds_[ins.operands[ins.loop_counter].kind].type != KindType::Register)
        error(n["loop_counter"], what + ": loop_counter '" + counter + "' must be a register operand");
      if (!counted) error(n["loop_counter"], what + ": loop_counter needs loop: start or loop: end");
    }

    load_computation(n, ins, what);
    load_timing(n, ins, what);

    if (const YAML::Node a = n["actions"]) load_actions(a, ins, what);

    ins.id = uint16_t(s_.instructions_.size());
    s_.instructions_.push_back(std::move(ins));
  });
  if (s_.instructions_.empty() && root["instructions"]) error(root["instructions"], "the ISA defines no instructions");
}

void IsaSpecLoader::load_value_classes(const YAML::Node& root) {
  std::set<std::string> seen;
  each(root, "value_classes", false, [&](const YAML::Node& n) {
    const std::string what = "value_classes entry";
    if (!is_map(n, what)) return;
    check_keys(n, {"name", "register_class", "address", "type", "doc"}, what);
    ValueClass vc;
    vc.name = str(n, "name", what, true);
    vc.register_class = str(n, "register_class", what, false);
    vc.address = boolean(n, "address", what, false);
    vc.type = str(n, "type", what, true);
    vc.doc = str(n, "doc", what, false);
    if (vc.name.empty()) return;
    if (!seen.insert(vc.name).second) error(n["name"], "duplicate value class '" + vc.name + "'");
    if (!vc.register_class.empty() && index_of(s_.reg_classes_, vc.register_class) < 0)
      error(n["register_class"], "value class " + vc.name + ": unknown register class '" + vc.register_class +
                                     "' (known: " + names_of(s_.reg_classes_) + ")");
    s_.value_classes_.push_back(std::move(vc));
  });
}

// One assembly line per step, with the YAML position of its first character (a quoted
// scalar's mark is its quote).
static void read_steps(const YAML::Node& list, Composition& c) {
  for (const auto& x : list) {
    Composition::Step st;
    st.text = x.Scalar();
    st.line = x.Mark().line + 1;
    st.col = x.Mark().column + 1 + (x.Tag() == "!" ? 1 : 0);
    c.steps.push_back(std::move(st));
  }
}

// A non-empty list of assembly lines (`key` names it in messages).
bool IsaSpecLoader::step_lines(const YAML::Node& f, const std::string& what, const std::string& key) {
  if (!f.IsSequence() || f.size() == 0)
    return error(f, what + ": " + key + " must be a non-empty list of assembly lines"), false;
  bool ok = true;
  for (const auto& x : f)
    if (!x.IsScalar()) {
      error(x, what + ": each step must be one assembly line, e.g. \"V_EXP_V rd, rd, rmask\"");
      ok = false;
    }
  return ok;
}

// `compose:` or `replaces:` (`key`): {temps: [names], steps: [assembly lines]}.
void IsaSpecLoader::load_composition(const YAML::Node& c, const std::string& key, const InstructionSpec& ins,
                                     Composition& out, const std::string& what) {
  if (!is_map(c, what + ": " + key)) return;
  check_keys(c, {"temps", "steps"}, what + ": " + key);
  if (const YAML::Node t = c["temps"]) {
    if (!t.IsSequence()) error(t, what + ": " + key + ".temps must be a list of names, e.g. [t0, t1]");
    else
      for (const auto& x : t) {
        const std::string name = x.IsScalar() ? x.Scalar() : "";
        bool ident = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
        for (char ch : name) ident = ident && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
        if (!ident) error(x, what + ": a temporary's name must be an identifier, got '" + name + "'");
        for (const auto& op : ins.operands)
          if (op.name == name) error(x, what + ": temporary '" + name + "' has the name of an operand");
        for (const auto& prev : out.temps)
          if (prev == name) error(x, what + ": temporary '" + name + "' is declared twice");
        out.temps.push_back(name);
      }
  }
  const YAML::Node st = c["steps"];
  if (!st) error(c, what + ": " + key + " needs 'steps' (a list of assembly lines)");
  else if (step_lines(st, what, key + ".steps"))
    read_steps(st, out);
}

// What the instruction computes: `compose:` (temps + steps), the legacy `fused:` list, or
// `semantics:` (an expression); at most one of them. Steps are checked once the whole ISA
// is known (isa/compose.h).
void IsaSpecLoader::load_computation(const YAML::Node& n, InstructionSpec& ins, const std::string& what) {
  const char* given[3] = {nullptr, nullptr, nullptr};
  int count = 0;
  for (const char* k : {"compose", "fused", "semantics"})
    if (n[k]) given[count++] = k;
  if (count > 1)
    error(n[given[1]], what + ": '" + given[0] + "' and '" + given[1] +
                           "' both say what it computes; give exactly one of compose, fused, semantics");
  if (const YAML::Node f = n["fused"]) {
    if (step_lines(f, what, "fused")) {
      for (const auto& x : f) ins.fused.push_back(x.Scalar());
      read_steps(f, ins.compose);
      ins.compose.from_fused = true;
    }
  }
  if (const YAML::Node c = n["compose"]) {
    load_composition(c, "compose", ins, ins.compose, what);
    for (const auto& st : ins.compose.steps) ins.fused.push_back(st.text);  // as written
  }
  if (const YAML::Node r = n["replaces"]) {
    if (!n["semantics"])
      error(n["replaces"], what + ": 'replaces' needs 'semantics': it names the composition an instruction with "
                                  "its own semantics stands for (a composed instruction replaces its steps already)");
    else
      load_composition(r, "replaces", ins, ins.replaces, what);
  }
  if (const YAML::Node e = n["semantics"]) {
    if (!e.IsScalar() || e.Scalar().empty()) {
      error(e, what + ": semantics must be text, one statement per line (docs/isa-extensions.md)");
    } else {
      ins.semantics = e.Scalar();
      ins.semantics_line = e.Mark().line + 1;
      ins.semantics_col = e.Mark().column + 1;
    }
  }
  // A loop end may carry composed steps (register updates done as the loop end runs:
  // loop-end fusion); its control flow stays the loop end's own (isa/compose.cpp).
  if (ins.is_fused() && ins.loop != LoopRole::None && ins.loop != LoopRole::End)
    error(n["compose"] ? n["compose"] : n["fused"],
          what + ": a composed instruction cannot open or leave a loop (only a loop end may carry composed steps)");
}

// `timing: {latency, ii, read_ports, write_ports}`: the timing model's own parameters.
void IsaSpecLoader::load_timing(const YAML::Node& n, InstructionSpec& ins, const std::string& what) {
  const YAML::Node t = n["timing"];
  if (!t || !is_map(t, what + ": timing")) return;
  check_keys(t, {"latency", "ii", "read_ports", "write_ports"}, what + ": timing");
  const std::string w = what + ": timing";
  auto get = [&](const char* key, int64_t lo, int64_t& out) {
    int64_t v;
    if (!integer(t, key, w, false, v)) return;
    if (v < lo || v > (int64_t(1) << 20))
      return error(t[key], w + ": " + key + " must be " + std::to_string(lo) + "..1048576, got " + std::to_string(v));
    out = v;
  };
  get("latency", 0, ins.timing.latency);
  get("ii", 1, ins.timing.ii);
  get("read_ports", 1, ins.timing.read_ports);
  get("write_ports", 1, ins.timing.write_ports);
}

// ---------------------------------------------------------------------------------------

IsaSpec IsaSpec::parse(const std::string& yaml_text, const std::string& file_name) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    std::ostringstream o;
    o << file_name << ":" << (e.mark.line + 1) << ":" << (e.mark.column + 1) << ": YAML syntax error: " << e.msg;
    throw IsaSpecError(o.str());
  }
  return from_document(root, nullptr, file_name, yaml_text);
}

IsaSpec IsaSpec::load(const std::string& path, const std::vector<std::string>& overlays) {
  if (overlays.empty()) return load(path);
  // The list sections an overlay may add entries to: the description's top-level lists.
  OverlaySchema schema;  // isa_name "": the base's `name:`
  schema.list_sections = {"parameters", "fields", "register_classes", "register_ports", "operand_kinds", "resources",
                          "units", "latency_classes", "classes", "instructions"};
  try {
    MergedIsaDocument doc = merge_isa_overlays(path, overlays, schema);
    auto sources = std::make_shared<const SourceMap>(std::move(doc.sources));
    return from_document(doc.root, sources, path, "");
  } catch (const OverlayError& e) {
    throw IsaSpecError(e.what());
  }
}

std::string IsaSpec::where_line(int line) const {
  return sources_ ? sources_->where_line(line) : file_ + ":" + std::to_string(line);
}

std::vector<std::string> IsaSpec::source_files() const {
  return sources_ ? sources_->files() : std::vector<std::string>{file_};
}

IsaSpec IsaSpec::from_document(const YAML::Node& root, std::shared_ptr<const SourceMap> sources,
                               const std::string& file_name, const std::string& yaml_text) {
  IsaSpec spec;
  spec.sources_ = sources;
  IsaSpecLoader loader(spec, file_name, sources.get());
  try {
    loader.run(root);
  } catch (const YAML::Exception& e) {
    // Defensive: yaml-cpp throws on some malformed node shapes; report, never crash.
    std::ostringstream o;
    if (sources) o << sources->where(e.mark) << ": " << e.msg;
    else o << file_name << ":" << (e.mark.line + 1) << ":" << (e.mark.column + 1) << ": " << e.msg;
    throw IsaSpecError(o.str());
  }
  if (!loader.errors().empty()) {
    std::string all;
    for (const auto& e : loader.errors()) all += (all.empty() ? "" : "\n") + e;
    throw IsaSpecError(all);
  }
  for (const auto& ins : spec.instructions_) {
    spec.by_mnemonic_[ins.mnemonic] = ins.id;
    spec.by_opcode_[ins.opcode] = ins.id;
  }
  // Composed steps are assembly lines: checked (and the legacy form converted) once the
  // whole ISA is known.
  std::vector<std::string> fused_errors = normalise_compositions(spec);
  // A merged document's line lives in the base or an overlay file: read that file's text.
  const DocumentLines lines = [&](int doc_line1) {
    if (!sources) return DocumentLine{file_name, yaml_text, doc_line1};
    const std::string& file = sources->file_of(doc_line1 - 1);
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return DocumentLine{file, text.str(), sources->local_line(doc_line1 - 1)};
  };
  for (auto& e : compile_expression_semantics(spec, lines)) fused_errors.push_back(std::move(e));
  if (!fused_errors.empty()) {
    std::string all;
    for (const auto& e : fused_errors) all += (all.empty() ? "" : "\n") + e;
    throw IsaSpecError(all);
  }
  return spec;
}

IsaSpec IsaSpec::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw IsaSpecError(path + ": cannot open the ISA description (set TLMCRAFT_ISA_DIR to the folder holding <isa>/<isa>.yaml)");
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), path);
}

const InstructionSpec* IsaSpec::find(const std::string& mnemonic) const {
  auto it = by_mnemonic_.find(mnemonic);
  return it == by_mnemonic_.end() ? nullptr : &instructions_[it->second];
}

const InstructionSpec* IsaSpec::find_opcode(uint32_t opcode) const {
  auto it = by_opcode_.find(opcode);
  return it == by_opcode_.end() ? nullptr : &instructions_[it->second];
}

namespace {
template <class T>
int find_by_name(const std::vector<T>& v, const std::string& name) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i].name == name) return int(i);
  return -1;
}
}  // namespace

int64_t IsaSpec::default_cycles(const std::string& latency_class) const {
  const auto it = default_cycles_.find(latency_class);
  return it == default_cycles_.end() ? -1 : it->second;
}

int IsaSpec::field_index(const std::string& name) const { return find_by_name(fields_, name); }
int IsaSpec::register_class_index(const std::string& name) const { return find_by_name(reg_classes_, name); }
int IsaSpec::kind_index(const std::string& name) const { return find_by_name(kinds_, name); }
int IsaSpec::resource_index(const std::string& name) const { return find_by_name(resources_, name); }

const ClassInfo* IsaSpec::class_info(char letter) const {
  for (const auto& c : classes_)
    if (c.letter == letter) return &c;
  return nullptr;
}

const ValueClass* IsaSpec::value_class(const std::string& name) const {
  for (const auto& c : value_classes_)
    if (c.name == name) return &c;
  return nullptr;
}

bool IsaSpec::addresses_value(const OperandSpec& op) const {
  const ValueClass* c = op.value.empty() ? nullptr : value_class(op.value);
  return c && c->address;
}

void IsaSpec::accesses(const Instruction& in, Accesses& out) const {
  out.clear();
  if (in.id >= instructions_.size()) return;
  const InstructionSpec& ins = instructions_[in.id];
  for (const auto& op : ins.operands) {
    if (op.role == Role::None || op.field < 0) continue;
    const OperandKind& k = kinds_[op.kind];
    const RegisterClass& rc = reg_classes_[k.register_class];
    const int64_t num = in.field[op.field];
    // The zero register is a constant: reading it never waits, writing it changes nothing.
    if (num == rc.zero_register) continue;
    const RegisterRef ref{uint8_t(k.register_class), uint8_t(num)};
    // An address register is only read; its role is the addressed value's.
    if (addresses_value(op)) {
      out.reads.push_back(ref);
      continue;
    }
    if (op.role == Role::Read || op.role == Role::ReadWrite) out.reads.push_back(ref);
    if (op.role == Role::Write || op.role == Role::ReadWrite) out.writes.push_back(ref);
  }
  out.resource_reads = ins.implicit_reads;
  out.resource_writes = ins.implicit_writes;
}

int64_t IsaSpec::operand_min(const OperandSpec& op) const {
  const OperandKind& k = kinds_[op.kind];
  if (k.type == KindType::Register) return 0;
  if (k.type == KindType::Zero) return 0;
  return op.has_min ? std::max(op.min, k.min) : k.min;
}

int64_t IsaSpec::operand_max(const OperandSpec& op) const {
  const OperandKind& k = kinds_[op.kind];
  if (k.type == KindType::Register) return reg_classes_[k.register_class].count - 1;
  if (k.type == KindType::Zero) return 0;
  return op.has_max ? std::min(op.max, k.max) : k.max;
}

namespace {
// "an fp", "a gp", "an addr", "an unsigned": short names are read letter by letter.
std::string article(const std::string& word) {
  if (word.empty()) return "a ";
  const char c = char(std::tolower(static_cast<unsigned char>(word[0])));
  const bool vowel_sound = word.size() <= 2 ? std::string("aefhilmnorsx").find(c) != std::string::npos
                                            : std::string("aeiou").find(c) != std::string::npos;
  return vowel_sound ? "an " : "a ";
}
}  // namespace

std::string IsaSpec::describe_operand(const OperandSpec& op) const {
  const OperandKind& k = kinds_[op.kind];
  switch (k.type) {
    case KindType::Register: {
      const RegisterClass& rc = reg_classes_[k.register_class];
      std::string s = article(rc.name) + rc.name + " register (" + rc.range_text() + ")";
      if (op.literal_zero) s += " or the literal 0 for " + rc.prefix + std::to_string(rc.zero_register);
      return s;
    }
    case KindType::Zero: {
      std::string s = "the placeholder 0";
      if (k.register_class >= 0) {
        const RegisterClass& rc = reg_classes_[k.register_class];
        s += " (or " + rc.prefix + std::to_string(rc.zero_register) + ")";
      }
      return s;
    }
    case KindType::Immediate: {
      const int64_t lo = operand_min(op), hi = operand_max(op);
      if (lo == 0 && hi == 1) return "a flag (0 or 1)";
      std::string s;
      if (k.has_bits())
        s = article(k.is_signed ? "signed" : "unsigned") + std::string(k.is_signed ? "signed " : "unsigned ") +
            std::to_string(k.msb - k.lsb + 1) + "-bit immediate";
      else
        s = "an integer";
      return s + " (" + std::to_string(lo) + ".." + std::to_string(hi) + ")";
    }
  }
  return "?";
}

}  // namespace tlmcraft::isa
