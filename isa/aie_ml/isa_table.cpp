// Loads isa/aie_ml/aie_ml.yaml into AieIsa (ops, slots, latency classes) and provides the
// register-class and storage-unit tables shared by the assembler and the semantics.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <cctype>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "isa/aie_ml/aie_core.h"
#include "isa/aie_ml/isa_loader.h"
#include "isa/aie_ml/isa_tables.h"
#include "isa/actions.h"
#include "isa/aie_ml/op_codes.h"
#include "isa/isa_overlay.h"
#include "isa/isa_spec.h"
#include "isa/isa_variant.h"

namespace tlmcraft::isa::aie_ml {

const char* slot_name(Slot s) {
  static const char* names[kSlotCount] = {"lda", "ldb", "st", "alu", "vec", "mv"};
  const int i = int(s);
  return i >= 0 && i < kSlotCount ? names[i] : "?";
}

bool slot_from_name(const std::string& name, Slot& out) {
  for (int i = 0; i < kSlotCount; ++i)
    if (name == slot_name(Slot(i))) return out = Slot(i), true;
  return false;
}

const char* mac_format_name(MacFormat f) {
  static const char* names[kMacFormatCount] = {"", "int8", "int16", "int32", "bf16", "fp32"};
  const int i = int(f);
  return i >= 0 && i < kMacFormatCount ? names[i] : "?";
}

bool mac_format_from_name(const std::string& name, MacFormat& out) {
  for (int i = 1; i < kMacFormatCount; ++i)
    if (name == mac_format_name(MacFormat(i))) return out = MacFormat(i), true;
  return false;
}

const char* reg_class_prefix(RegClass c) {
  switch (c) {
    case RegClass::None: return "";
    case RegClass::R: return "r";
    case RegClass::P: return "p";
    case RegClass::M: return "m";
    case RegClass::DN: return "dn";
    case RegClass::DJ: return "dj";
    case RegClass::DC: return "dc";
    case RegClass::W: return "w";
    case RegClass::X: return "x";
    case RegClass::Y: return "y";
    case RegClass::AM: return "am";
    case RegClass::BM: return "bm";
    case RegClass::CM: return "cm";
    case RegClass::LS: return "ls";
    case RegClass::LE: return "le";
    case RegClass::LC: return "lc";
    case RegClass::S: return "s";
    case RegClass::LR: return "lr";
    case RegClass::CR: return "cr";
  }
  return "";
}

int reg_class_count(RegClass c) {
  switch (c) {
    case RegClass::None: return 0;
    case RegClass::R: return kScalarRegs;
    case RegClass::P: return kPointerRegs;
    case RegClass::M: return kModifierRegs;
    case RegClass::DN: case RegClass::DJ: case RegClass::DC: return kDimRegs;
    case RegClass::W: return kVectorRegs * 2;
    case RegClass::X: return kVectorRegs;
    case RegClass::Y: return kVectorRegs / 2;
    case RegClass::AM: return kAccumulatorRegs * 2;
    case RegClass::BM: return kAccumulatorRegs;
    case RegClass::CM: return kAccumulatorRegs / 2;
    case RegClass::LS: case RegClass::LE: case RegClass::LC: case RegClass::LR: return 1;
    case RegClass::S: return 4;
    case RegClass::CR: return 2;
  }
  return 0;
}

// ---- storage units ------------------------------------------------------------------
namespace {
constexpr uint16_t kUnitR = 0, kUnitP = kUnitR + kScalarRegs, kUnitM = kUnitP + kPointerRegs,
                   kUnitDN = kUnitM + kModifierRegs, kUnitDJ = kUnitDN + kDimRegs,
                   kUnitDC = kUnitDJ + kDimRegs, kUnitS = kUnitDC + kDimRegs, kUnitX = kUnitS + 4,
                   kUnitBM = kUnitX + kVectorRegs, kUnitLS = kUnitBM + kAccumulatorRegs,
                   kUnitLE = kUnitLS + 1, kUnitLC = kUnitLE + 1, kUnitLR = kUnitLC + 1,
                   kUnitCR = kUnitLR + 1, kUnitEnd = kUnitCR + 2;
}  // namespace

std::vector<uint16_t> storage_units(RegClass cls, int num) {
  const uint16_t n = uint16_t(num);
  switch (cls) {
    case RegClass::R: return {uint16_t(kUnitR + n)};
    case RegClass::P: return {uint16_t(kUnitP + n)};
    case RegClass::M: return {uint16_t(kUnitM + n)};
    case RegClass::DN: return {uint16_t(kUnitDN + n)};
    case RegClass::DJ: return {uint16_t(kUnitDJ + n)};
    case RegClass::DC: return {uint16_t(kUnitDC + n)};
    case RegClass::S: return {uint16_t(kUnitS + n)};
    case RegClass::W: return {uint16_t(kUnitX + n / 2)};
    case RegClass::X: return {uint16_t(kUnitX + n)};
    case RegClass::Y: return {uint16_t(kUnitX + 2 * n), uint16_t(kUnitX + 2 * n + 1)};
    case RegClass::AM: return {uint16_t(kUnitBM + n / 2)};
    case RegClass::BM: return {uint16_t(kUnitBM + n)};
    case RegClass::CM: return {uint16_t(kUnitBM + 2 * n), uint16_t(kUnitBM + 2 * n + 1)};
    case RegClass::LS: return {kUnitLS};
    case RegClass::LE: return {kUnitLE};
    case RegClass::LC: return {kUnitLC};
    case RegClass::LR: return {kUnitLR};
    case RegClass::CR: return {uint16_t(kUnitCR + n)};
    case RegClass::None: return {};
  }
  return {};
}

std::string unit_name(uint16_t u) {
  auto nm = [](const char* p, int n) { return std::string(p) + std::to_string(n); };
  if (u < kUnitP) return nm("r", u - kUnitR);
  if (u < kUnitM) return nm("p", u - kUnitP);
  if (u < kUnitDN) return nm("m", u - kUnitM);
  if (u < kUnitDJ) return nm("dn", u - kUnitDN);
  if (u < kUnitDC) return nm("dj", u - kUnitDJ);
  if (u < kUnitS) return nm("dc", u - kUnitDC);
  if (u < kUnitX) return nm("s", u - kUnitS);
  if (u < kUnitBM) return nm("x", u - kUnitX);
  if (u < kUnitLS) return nm("bm", u - kUnitBM);
  if (u == kUnitLS) return "ls";
  if (u == kUnitLE) return "le";
  if (u == kUnitLC) return "lc";
  if (u == kUnitLR) return "lr";
  if (u == kUnitCR) return "crrnd";
  if (u == kUnitCR + 1) return "crsat";
  return "unit" + std::to_string(u);
  static_assert(kUnitEnd < 200, "unit ids fit comfortably in uint16_t");
}

// ---- op codes -------------------------------------------------------------------------
namespace {
struct CodeName {
  Code code;
  const char* name;
};
const CodeName kCodeNames[] = {
#define TLM_AIE_PAIR(id, name) {Code::id, name},
    TLM_AIE_OPS(TLM_AIE_PAIR)
#undef TLM_AIE_PAIR
};
}  // namespace

bool code_of(const std::string& mnemonic, Code& out) {
  for (const auto& cn : kCodeNames)
    if (mnemonic == cn.name) return out = cn.code, true;
  return false;
}

const char* code_name(Code c) {
  const size_t i = size_t(c);
  return i < sizeof kCodeNames / sizeof kCodeNames[0] ? kCodeNames[i].name : "?";
}

// ---- YAML loading ----------------------------------------------------------------------
namespace {

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

using Loader = YamlErrors;

std::string yaml_error(const std::string& file, const YAML::Exception& e, const char* what) {
  return file + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": " + what + e.msg;
}

// Reads and validates the parsed tree; yaml-cpp throws on values of an unexpected shape.
AieIsaDetails read_aie_isa(const YAML::Node& root, const std::string& file, const std::string& text,
                           const SourceMap* sources = nullptr);

// `macs` and `format` of an op: what one issue computes, both or neither.
void read_mac_fields(Loader& L, const YAML::Node& o, OpSpec& op) {
  const YAML::Node macs = o["macs"], format = o["format"];
  if (!macs && !format) return;
  if (!macs || !format) {
    L.error(o, op.mnemonic + ": 'macs' and 'format' go together (MACs per issue and their operand format)");
    return;
  }
  int64_t v = 0;
  if (!macs.IsScalar() || !parse_integer(macs.Scalar(), v) || v < 1 || v > 65536)
    L.error(macs, op.mnemonic + ": 'macs' must be an integer 1..65536 (MACs per issue)");
  else
    op.macs = uint32_t(v);
  const std::string name = format.IsScalar() ? format.Scalar() : std::string();
  if (!mac_format_from_name(name, op.mac_format))
    L.error(format, op.mnemonic + ": unknown MAC format '" + name + "' (int8, int16, int32, bf16, fp32)");
}

// `commutative: [i, j]`: two read operands whose order does not change the result (the
// search agent's matcher binds them either way).
void read_commutative(Loader& L, const YAML::Node& o, OpSpec& op) {
  const YAML::Node c = o["commutative"];
  if (!c) return;
  int64_t a = -1, b = -1;
  if (!c.IsSequence() || c.size() != 2 || !parse_integer(c[0].Scalar(), a) || !parse_integer(c[1].Scalar(), b) ||
      a < 0 || b < 0 || a == b || a >= int64_t(kMaxOperands) || b >= int64_t(kMaxOperands)) {
    L.error(c, op.mnemonic + ": 'commutative' is a pair of operand positions [i, j] (0-based, different)");
    return;
  }
  op.commutative = {int8_t(a), int8_t(b)};
}

// `added_op_ports`: per slot, the register-file reads and writes an op added by data may
// use (the co-design miner's limits).
void read_added_op_ports(Loader& L, const YAML::Node& root, AieIsaDetails& d) {
  for (const auto& kv : root["added_op_ports"]) {
    const std::string name = kv.first.Scalar();
    L.check_keys(kv.second, {"reads", "writes", "doc"}, "added_op_ports of slot '" + name + "'");
    Slot slot;
    int64_t r = 0, w = 0;
    if (!slot_from_name(name, slot)) {
      L.error(kv.second, "added_op_ports: unknown slot '" + name + "' (lda, ldb, st, alu, vec, mv)");
      continue;
    }
    if (!parse_integer(L.text(kv.second, "reads"), r) || !parse_integer(L.text(kv.second, "writes"), w) || r < 1 ||
        w < 1 || r > kMaxOperands || w > kMaxOperands) {
      L.error(kv.second, "added_op_ports of slot '" + name + "': 'reads' and 'writes' must be 1.." +
                             std::to_string(kMaxOperands));
      continue;
    }
    d.isa.added_op_ports[slot] = {int(r), int(w)};
    d.added_op_ports_doc[slot] = L.text(kv.second, "doc");
  }
}

// `latency`: a latency class name, or a number of cycles (an op added by data may state its
// own; it becomes a class named after the op). `ii`: cycles the op holds its slot.
void read_latency(Loader& L, const YAML::Node& o, AieIsaDetails& d, OpSpec& op) {
  const YAML::Node lat = o["latency"];
  int64_t v = 0;
  const std::string text = L.text(o, "latency");
  if (lat && lat.IsScalar() && !text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) {
    if (!parse_integer(text, v) || v < 0 || v > 1000) {
      L.error(lat, op.mnemonic + ": 'latency' must be a latency class or 0..1000 cycles");
    } else {
      op.latency_class = op.mnemonic;
      d.isa.latency[op.mnemonic] = uint32_t(v);
      d.isa.latency_doc[op.mnemonic] = "the op's own latency";
    }
  } else {
    op.latency_class = text;
    if (!d.isa.latency.count(op.latency_class))
      L.error(o, op.mnemonic + ": unknown latency class '" + op.latency_class + "'");
  }
  if (const YAML::Node ii = o["ii"]) {
    if (!ii.IsScalar() || !parse_integer(ii.Scalar(), v) || v < 1 || v > 64)
      L.error(ii, op.mnemonic + ": 'ii' (cycles the op holds its slot) must be 1..64");
    else
      op.ii = uint32_t(v);
  }
}

// `actions: {scalar.mul.int32: 1}`: an op's energy actions per issue, declared instead of
// derived (platforms/aie_ml/aie_actions.cpp); counts are numbers (AIE-ML has no parameters).
void read_action_fields(Loader& L, const YAML::Node& o, OpSpec& op) {
  const YAML::Node a = o["actions"];
  if (!a) return;
  if (!a.IsMap()) return L.error(a, op.mnemonic + ": actions must be a map of action: count (e.g. {scalar.mul.int32: 1})");
  for (auto it = a.begin(); it != a.end(); ++it) {
    const std::string name = it->first.Scalar();
    if (const std::string bad = check_action_name(name); !bad.empty()) L.error(it->first, op.mnemonic + ": " + bad);
    uint64_t n = 0;
    std::string why;
    if (!it->second.IsScalar() || !eval_count(it->second.Scalar(), {}, n, why))
      L.error(it->second, op.mnemonic + ": actions." + name + ": " + (why.empty() ? "must be a count" : why));
    op.actions.push_back({name, it->second.IsScalar() ? it->second.Scalar() : "", it->second.Mark().line + 1,
                          it->second.Mark().column + 1});
  }
}

}  // namespace

void YamlErrors::check_keys(const YAML::Node& n, std::initializer_list<const char*> allowed, const std::string& where) {
  if (!n.IsMap()) return;
  for (const auto& kv : n) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("?");
    if (std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) continue;
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    std::string msg = "unknown key '" + key + "' in " + where + " (known keys: " + list + ")";
    if (key == "fused")
      msg += "; AIE-ML has no `fused:`: an op built from existing ops is written with `compose: {temps, steps}` "
             "(docs/isa-extensions.md)";
    error(kv.first, msg);
  }
}

AieIsaDetails parse_aie_isa(const std::string& yaml_text, const std::string& file) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(yaml_error(file, e, "YAML syntax error: "));
  }
  try {
    return read_aie_isa(root, file, yaml_text);
  } catch (const YAML::Exception& e) {  // e.g. a scalar where a mapping belongs
    throw std::runtime_error(yaml_error(file, e, ""));
  }
}

namespace {

// "r, x|w, mem" -> {"r", "x|w", "mem"}.
std::vector<std::string> split_operand_shapes(const std::string& text) {
  std::vector<std::string> shapes;
  std::stringstream ss(text);
  for (std::string part; std::getline(ss, part, ',');) {
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    if (!part.empty()) shapes.push_back(part);
  }
  return shapes;
}

// `alt_operands: {alu: "r|lc, imm11s"}`: the narrower form an op has in one of its
// alternative slots; as many shapes as the op has operands.
void read_alt_operands(Loader& L, const YAML::Node& o, OpSpec& op) {
  const YAML::Node forms = o["alt_operands"];
  if (!forms) return;
  if (!forms.IsMap()) {
    L.error(forms, op.mnemonic + ": alt_operands is a map from slot to operand shapes");
    return;
  }
  for (const auto& f : forms) {
    Slot s;
    const std::string name = f.first.Scalar();
    if (!slot_from_name(name, s) || std::find(op.alt_slots.begin(), op.alt_slots.end(), s) == op.alt_slots.end()) {
      L.error(f.first, op.mnemonic + ": alt_operands names '" + name + "', which is not one of its alt_slots");
      continue;
    }
    std::vector<std::string> shapes = split_operand_shapes(f.second.Scalar());
    if (shapes.size() != op.operands.size()) {
      L.error(f.second, op.mnemonic + ": alt_operands for " + name + " has " + std::to_string(shapes.size()) +
                            " operand shapes, the op has " + std::to_string(op.operands.size()));
      continue;
    }
    op.alt_operands[s] = std::move(shapes);
  }
}

// The schema fields of one op (all but compose / semantics); false when it cannot be used.
bool read_op(Loader& L, const YAML::Node& o, AieIsaDetails& d, OpSpec& op, OpExtra& ex) {
  L.check_keys(o, {"mnemonic", "slot",    "alt_slots", "alt_operands", "operands", "dst",        "rw",
                   "access",   "latency", "ii",        "real",         "doc",      "operation",  "macs",
                   "format",   "actions", "compose",   "semantics",    "replaces", "commutative"},
               "op " + op.mnemonic);
  const size_t errors_before = L.errors.size();
  if (!slot_from_name(L.text(o, "slot"), op.slot))
    L.error(o, op.mnemonic + ": unknown slot '" + L.text(o, "slot") + "' (lda, ldb, st, alu, vec, mv)");
  for (const auto& a : o["alt_slots"]) {
    Slot s;
    if (slot_from_name(a.Scalar(), s)) op.alt_slots.push_back(s);
    else L.error(a, op.mnemonic + ": unknown slot '" + a.Scalar() + "' (lda, ldb, st, alu, vec, mv)");
  }
  if (!o["operands"] || o["operands"].IsScalar()) op.operands = split_operand_shapes(L.text(o, "operands"));
  read_alt_operands(L, o, op);
  read_latency(L, o, d, op);
  op.real_name = L.text(o, "real");
  op.doc = L.text(o, "doc");
  op.operation = L.text(o, "operation");
  read_mac_fields(L, o, op);
  read_action_fields(L, o, op);
  int64_t v = 0;
  if (parse_integer(L.text(o, "dst"), v)) ex.dst = int(v);
  for (const auto& rw : o["rw"])
    if (parse_integer(rw.Scalar(), v)) ex.rw.push_back(int(v));
  read_commutative(L, o, op);
  if (const YAML::Node a = o["access"]) {
    L.check_keys(a, {"bytes", "align", "offset"}, "access of op " + op.mnemonic);
    if (parse_integer(L.text(a, "bytes"), v)) ex.access_bytes = uint32_t(v);
    if (parse_integer(L.text(a, "align"), v)) ex.access_align = uint32_t(v);
    ex.offset_kind = L.text(a, "offset");
  }
  for (const auto& shape : op.operands) {
    std::stringstream alts(shape);
    for (std::string alt; std::getline(alts, alt, '|');) {
      const bool known = is_register_shape(alt) || alt == "label" || alt == "mem" || alt == "ptrmod" || d.imm(alt);
      if (!known) L.error(o, op.mnemonic + ": unknown operand shape '" + alt + "'");
    }
  }
  if (!ex.offset_kind.empty() && !d.imm(ex.offset_kind))
    L.error(o, op.mnemonic + ": unknown offset immediate kind '" + ex.offset_kind + "'");
  return L.errors.size() == errors_before;
}

AieIsaDetails read_aie_isa(const YAML::Node& root, const std::string& file, const std::string& text,
                           const SourceMap* sources) {
  Loader L{file, {}, sources, text};
  L.check_keys(root,
               {"name", "display_name", "description", "notes", "slots", "register_classes", "immediates",
                "latency_classes", "added_op_ports", "ops"},
               "the AIE-ML ISA description");
  AieIsaDetails d;
  d.isa.file = file;
  d.name = L.text(root, "name");
  d.display_name = L.text(root, "display_name");
  d.description = L.text(root, "description");
  for (const auto& n : root["notes"]) {
    L.check_keys(n, {"title", "text"}, "a note");
    d.notes.push_back({L.text(n, "title"), L.text(n, "text")});
  }
  for (const auto& s : root["slots"]) {
    L.check_keys(s, {"name", "doc"}, "slot " + L.text(s, "name"));
    Slot known;
    if (!slot_from_name(L.text(s, "name"), known))
      L.error(s, "slot '" + L.text(s, "name") + "' is not an issue slot of the AIE-ML core model (lda, ldb, st, alu, vec, mv)");
    d.slots.push_back({L.text(s, "name"), L.text(s, "doc")});
  }
  for (const auto& r : root["register_classes"]) {
    L.check_keys(r, {"name", "count", "bits", "doc"}, "register class " + L.text(r, "name"));
    const std::string name = L.text(r, "name");
    if (!is_register_shape(name) && name != "crrnd" && name != "crsat")
      L.error(r, "register class '" + name + "' does not exist in the AIE-ML core model "
                 "(r, p, m, dn, dj, dc, s, w, x, y, am, bm, cm, ls, le, lc, lr, crrnd, crsat)");
    d.register_classes.push_back({name, L.text(r, "count"), L.text(r, "bits"), L.text(r, "doc")});
  }
  for (const auto& kv : root["immediates"]) {
    ImmKind k;
    k.name = kv.first.Scalar();
    L.check_keys(kv.second, {"min", "max", "align", "doc"}, "immediate '" + k.name + "'");
    int64_t v = 0;
    if (!parse_integer(L.text(kv.second, "min"), v)) L.error(kv.second, "immediate '" + k.name + "': bad 'min'");
    k.min = v;
    if (!parse_integer(L.text(kv.second, "max"), v)) L.error(kv.second, "immediate '" + k.name + "': bad 'max'");
    k.max = v;
    if (!parse_integer(L.text(kv.second, "align"), v) || v < 1) L.error(kv.second, "immediate '" + k.name + "': bad 'align'");
    k.align = v < 1 ? 1 : v;
    k.doc = L.text(kv.second, "doc");
    d.immediates.push_back(k);
  }
  for (const auto& kv : root["latency_classes"]) {
    const std::string name = kv.first.Scalar();
    L.check_keys(kv.second, {"cycles", "doc"}, "latency class '" + name + "'");
    int64_t v = 0;
    if (!parse_integer(L.text(kv.second, "cycles"), v) || v < 0)
      L.error(kv.second, "latency class '" + name + "': 'cycles' must be a non-negative integer");
    d.isa.latency[name] = uint32_t(v);
    d.isa.latency_doc[name] = L.text(kv.second, "doc");
    d.latency_order.push_back(name);
  }
  read_added_op_ports(L, root, d);
  std::vector<bool> seen(size_t(Code::Count), false);
  std::vector<PendingExtension> pending;
  for (const auto& o : root["ops"]) {
    OpSpec op;
    OpExtra ex;
    op.mnemonic = L.text(o, "mnemonic");
    if (op.mnemonic.empty() || op.mnemonic != upper(op.mnemonic)) {
      L.error(o, "op mnemonic '" + op.mnemonic + "' must be non-empty upper case");
      continue;
    }
    const bool ok = read_op(L, o, d, op, ex);
    Code code;
    const bool builtin = code_of(op.mnemonic, code);
    if (builtin) seen[size_t(code)] = true;  // present, even when malformed (its errors say why)
    const bool added = o["compose"] || o["semantics"];
    if (builtin && added) {
      L.error(o["compose"] ? o["compose"] : o["semantics"],
              op.mnemonic + ": has built-in semantics (isa/aie_ml/op_codes.h); `compose:` / `semantics:` are for new mnemonics");
      continue;
    }
    if (!builtin && !added) {
      L.error(o, op.mnemonic + ": no semantics for this mnemonic in isa/aie_ml/op_codes.h, and neither `compose:` nor "
                               "`semantics:` is given (docs/isa-extensions.md, AIE-ML)");
      continue;
    }
    if (!ok) continue;
    if (d.isa.find(op.mnemonic)) {
      L.error(o, op.mnemonic + ": defined twice");
      continue;
    }
    if (builtin) {
      op.code = uint16_t(code);
    } else {
      op.code = uint16_t(Code::Extension);
      pending.push_back({d.isa.ops.size(), o});
    }
    d.isa.ops.push_back(op);
    d.extra.push_back(ex);
  }
  for (size_t i = 0; i < seen.size(); ++i)
    if (!seen[i]) L.errors.push_back(file + ": op " + code_name(Code(i)) + " has semantics but is missing from the YAML");
  // Added ops last: their steps may name any built-in op of the file.
  for (const auto& p : pending) {
    ExtensionOp ext;
    ext.mnemonic = d.isa.ops[p.op_index].mnemonic;
    const YAML::Node list = p.node["operands"];
    if (!list || !list.IsSequence()) {
      L.error(list ? list : p.node, ext.mnemonic + ": an op added by data lists its operands by name: operands: "
                                      "[{name: d, class: x, role: write, format: bf16}, ...]");
      continue;
    }
    const size_t errors_before = L.errors.size();
    read_named_operands(L, list, d, d.isa.ops[p.op_index], d.extra[p.op_index], ext);
    if (L.errors.size() == errors_before) build_extension(L, d, p, std::move(ext));
  }
  if (!L.errors.empty()) {
    std::string all;
    for (const auto& e : L.errors) all += e + "\n";
    throw std::runtime_error(all);
  }
  return d;
}

}  // namespace

AieIsaDetails load_aie_isa(const std::string& path, const std::vector<std::string>& overlays) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the AIE-ML ISA description");
  std::stringstream ss;
  ss << in.rdbuf();
  if (overlays.empty()) return parse_aie_isa(ss.str(), path);
  // Ops are a list keyed by mnemonic; latency classes and immediates are maps keyed by name.
  const OverlaySchema schema{"aie_ml", {"ops", "notes"}, {"latency_classes", "immediates"}};
  MergedIsaDocument doc;
  try {
    doc = merge_isa_overlays_text(ss.str(), path, overlays, schema);
  } catch (const OverlayError& e) {
    throw std::runtime_error(e.what());
  }
  try {
    return read_aie_isa(doc.root, path, ss.str(), &doc.sources);
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(doc.sources.where(e.mark) + ": " + e.msg);
  }
}

// One parsed description per variant (isa/isa_variant.h: --isa-dir / TLMCRAFT_ISA_DIR and
// overlays), loaded at its first use and kept for the process (assembled programs point
// into it). This runs once per executed bundle: the thread's last answer is reused while
// no variant changed (isa_variant_generation) and TLMCRAFT_ISA_DIR is the same, without
// touching the file system.
const AieIsaDetails& aie_isa_details() {
  thread_local uint64_t last_generation = 0;
  thread_local std::string last_env;
  thread_local const AieIsaDetails* last = nullptr;
  const uint64_t now = isa_variant_generation();
  const char* env = std::getenv("TLMCRAFT_ISA_DIR");
  const std::string_view env_now = env ? env : "";
  if (last && last_generation == now && env_now == last_env) return *last;
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<AieIsaDetails>> by_source;
  const IsaSource src = isa_source("aie_ml");
  const std::string key = src.cache_key();
  std::lock_guard<std::mutex> lock(mu);
  auto& details = by_source[key];
  if (!details) {
    try {
      details = std::make_unique<AieIsaDetails>(load_aie_isa(src.path, src.overlays));
    } catch (...) {
      by_source.erase(key);
      throw;
    }
  }
  last_generation = now;
  last_env = std::string(env_now);
  last = details.get();
  return *last;
}

const AieIsa& AieIsa::get() { return aie_isa_details().isa; }

const OpSpec* AieIsa::find(const std::string& mnemonic) const {
  const std::string u = upper(mnemonic);
  for (const auto& op : ops)
    if (op.mnemonic == u) return &op;
  return nullptr;
}

uint32_t AieIsa::latency_of(const SlotOp& op) const {
  if (op.op >= ops.size()) return 0;
  const auto it = latency.find(ops[op.op].latency_class);
  return it == latency.end() ? 0 : it->second;
}

const SlotOp* Bundle::in_slot(Slot s) const {
  for (const auto& op : ops)
    if (op.slot == s) return &op;
  return nullptr;
}

bool is_register_shape(const std::string& s) {
  static const char* shapes[] = {"r", "p", "m", "dn", "dj", "dc", "s", "w", "x", "y", "am", "bm", "cm",
                                 "ls", "le", "lc", "lr", "sdst", "ssrc", "vany"};
  return std::find(std::begin(shapes), std::end(shapes), s) != std::end(shapes);
}

}  // namespace tlmcraft::isa::aie_ml
