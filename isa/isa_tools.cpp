#include "isa/isa_tools.h"

#include "isa/isa_variant.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <iomanip>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "isa/assembler.h"
#include "isa/encoding.h"
#include "isa/isa_doc.h"
#include "isa/isa_spec.h"

namespace tlmcraft::isa {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

struct Registry {
  std::mutex mu;
  std::vector<std::unique_ptr<IsaTools>> entries;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

nlohmann::json IsaCheck::to_json() const {
  return {{"isa", isa}, {"file", file}, {"ok", ok()}, {"summary", summary}, {"errors", errors}};
}

nlohmann::json AsmResult::to_json() const {
  nlohmann::json j = {{"ok", ok}, {"instructions", instructions}, {"by_class", by_class}, {"by_unit", by_unit}};
  j["diagnostics"] = nlohmann::json::array();
  for (const auto& d : diags) j["diagnostics"].push_back(d.format());
  if (!listing.empty()) j["listing"] = listing;
  return j;
}

bool register_isa_tools(IsaTools tools) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto& e : r.entries)
    if (e->name == tools.name) {
      *e = std::move(tools);
      return true;
    }
  r.entries.push_back(std::make_unique<IsaTools>(std::move(tools)));
  return true;
}

const IsaTools* find_isa_tools(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (const auto& e : r.entries)
    if (e->name == name || std::find(e->aliases.begin(), e->aliases.end(), name) != e->aliases.end()) return e.get();
  return nullptr;
}

std::vector<const IsaTools*> all_isa_tools() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<const IsaTools*> out;
  for (const auto& e : r.entries) out.push_back(e.get());
  std::sort(out.begin(), out.end(), [](const IsaTools* a, const IsaTools* b) { return a->name < b->name; });
  return out;
}

std::string isa_tools_names() {
  std::string s;
  for (const IsaTools* t : all_isa_tools()) s += (s.empty() ? "" : ", ") + t->name;
  return s;
}

std::string isa_name_of_file(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw std::runtime_error(path + ": cannot open the ISA description");
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                             ": YAML syntax error: " + e.msg);
  }
  if (!root.IsMap() || !root["name"] || !root["name"].IsScalar())
    throw std::runtime_error(path + ":1:1: an ISA description needs a top-level 'name:' (which ISA it describes)");
  return root["name"].Scalar();
}

IsaCheck check_table_isa_file(const std::string& path) {
  IsaCheck c;
  c.file = path;
  try {
    // The overlays of the current variant (isa check --isa-ext) are merged over the file.
    const IsaSpec spec = IsaSpec::load(path, current_isa_variant().overlays);
    c.isa = spec.name();
    size_t fused = 0;
    for (const auto& i : spec.instructions()) fused += i.is_fused() ? 1 : 0;
    c.summary = std::to_string(spec.instructions().size()) + " instructions" +
                (fused ? " (" + std::to_string(fused) + " fused)" : "") + ", " + std::to_string(spec.fields().size()) +
                " fields, " + std::to_string(spec.register_classes().size()) + " register classes";
  } catch (const IsaSpecError& e) {
    c.errors = split_lines(e.what());
  }
  return c;
}

namespace {

AsmResult assemble_table(const IsaSpec& spec, const std::string& source, const std::string& file) {
  AsmResult r;
  Program prog;
  r.ok = assemble(spec, source, file, prog, r.diags);
  const InstructionCounts counts = count_instructions(spec, prog);
  r.instructions = counts.total;
  r.by_class = counts.by_class;
  r.by_unit = counts.by_unit;
  for (size_t pc = 0; pc < prog.code.size(); ++pc) {
    std::ostringstream o;
    o << std::setw(5) << pc << "  line " << std::setw(4) << prog.code[pc].line << "  " << std::hex << std::setw(8)
      << std::setfill('0') << encode(spec, prog.code[pc]) << std::dec << std::setfill(' ') << "  "
      << disassemble(spec, prog.code[pc]);
    r.listing.push_back(o.str());
  }
  return r;
}

}  // namespace

IsaTools table_isa_tools(const std::string& name, const std::string& summary,
                         std::vector<std::string> kernel_extensions,
                         std::function<std::map<std::string, std::string>()> latency_notes,
                         const std::string& home_dir) {
  // Looked up at each use: the variant (isa/isa_variant.h) may change between calls.
  auto own_file = [name, home_dir] { return isa_yaml_path(name, home_dir); };
  auto own_spec = [name, home_dir] { return load_isa_spec(name, home_dir); };
  IsaTools t;
  t.name = name;
  t.summary = summary;
  t.kernel_extensions = std::move(kernel_extensions);
  t.check = [name, own_file](const std::string& path) {
    IsaCheck c = check_table_isa_file(path.empty() ? own_file() : path);
    if (c.isa.empty()) c.isa = name;
    return c;
  };
  t.doc = [own_spec, latency_notes](bool latencies) {
    return render_isa_markdown(own_spec(),
                               latencies && latency_notes ? latency_notes() : std::map<std::string, std::string>{});
  };
  t.assemble = [own_spec](const std::string& source, const std::string& file) {
    return assemble_table(own_spec(), source, file);
  };
  t.encode = [own_spec](const std::string& source, const std::string& file, std::vector<uint32_t>& words,
                    std::string& error) {
    const IsaSpec spec = own_spec();
    Program prog;
    std::vector<Diagnostic> diags;
    if (!assemble(spec, source, file, prog, diags)) {
      for (const auto& d : diags) error += (error.empty() ? "" : "\n") + d.format();
      return false;
    }
    words = encode_program(spec, prog);
    return true;
  };
  t.decode = [own_spec](const std::vector<uint32_t>& words, std::string& text, std::string& error) {
    const IsaSpec spec = own_spec();
    Program prog;
    if (!decode_program(spec, words, prog, &error)) return false;
    text = disassemble_program(spec, prog);
    return true;
  };
  return t;
}

}  // namespace tlmcraft::isa
