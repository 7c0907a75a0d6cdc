#include "platforms/aie_ml/aie_ml_isa_tools.h"

#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "isa/aie_ml/wait_insertion.h"
#include "isa/aie_ml/isa_tables.h"
#include "isa/isa_spec.h"
#include "isa/isa_variant.h"
#include "platforms/aie_ml/aie_area.h"
#include "platforms/aie_ml/aie_config.h"
#include "platforms/aie_ml/aie_platform.h"

namespace tlmcraft::aie_ml {
namespace {

// Parsed from `path` ("" = isa_yaml_path, so --isa-dir applies) with the variant's
// overlays (--isa-ext) at each use.
isa::aie_ml::AieIsaDetails load_details(const std::string& path) {
  const std::string file = path.empty() ? isa::isa_yaml_path("aie_ml") : path;
  return isa::aie_ml::load_aie_isa(file, isa::current_isa_variant().overlays);
}

// The ops added by data and the datapath area each adds to one core and to the default
// configuration's array (aie_variant_area: the figure a run's report and the co-design
// tools use), for `isa check`.
std::string added_ops_summary(const isa::aie_ml::AieIsaDetails& d) {
  const int tiles = compute_tiles(nlohmann::json::object());
  std::string out;
  for (const AddedArea& line : aie_variant_area(d.isa, tiles)) {
    const isa::aie_ml::OpSpec* op = d.isa.find(line.name);
    const bool composed = op && op->extension >= 0 && d.isa.extensions.at(size_t(op->extension))->composed();
    std::ostringstream a;
    if (line.unpriced.empty())
      a << std::setprecision(4) << line.mm2 / tiles << " mm2 per core, " << line.mm2 << " mm2 on " << tiles << " tiles";
    else
      a << "area not priced: " << line.unpriced;
    out += (out.empty() ? "; added: " : ", ") + line.name + " (" + (composed ? "compose" : "semantics") + ", " +
           a.str() + ")";
  }
  return out;
}

isa::IsaCheck check(const std::string& path) {
  isa::IsaCheck c;
  c.isa = "aie_ml";
  c.file = path.empty() ? isa::isa_yaml_path("aie_ml") : path;
  try {
    const isa::aie_ml::AieIsaDetails d = load_details(c.file);
    c.summary = std::to_string(d.isa.ops.size()) + " operations, " + std::to_string(d.slots.size()) + " slots, " +
                std::to_string(d.isa.latency.size()) + " latency classes, " +
                std::to_string(d.register_classes.size()) + " register classes" + added_ops_summary(d);
  } catch (const std::runtime_error& e) {
    std::istringstream in(e.what());
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) c.errors.push_back(line);
  }
  return c;
}

// Assembles every core program of a kernel file (no `.movement` needed: a kernel without
// one is checked as the cores alone). Counts slot operations by slot and by tile.
isa::AsmResult assemble(const std::string& source, const std::string& file) {
  isa::AsmResult r;
  AieKernel k;
  r.ok = assemble_kernel(load_aie_config("default"), source, file, "", k, r.diags);
  if (!r.ok) return r;
  const auto& ops = isa::aie_ml::AieIsa::get().ops;
  for (const auto& phase : k.phases)
    for (const auto& core : phase.cores) {
      const std::string tile = "tile " + std::to_string(core.column) + "," + std::to_string(core.row);
      for (size_t pc = 0; pc < core.program.bundles.size(); ++pc) {
        const auto& b = core.program.bundles[pc];
        std::string text;
        for (const auto& op : b.ops) {
          text += (text.empty() ? "" : " ;; ") + ops[op.op].mnemonic;
          r.by_class[isa::aie_ml::slot_name(op.slot)]++;
          r.by_unit[tile]++;
          r.instructions++;
        }
        std::ostringstream o;
        o << (phase.name.empty() ? "" : phase.name + " ") << tile << " pc " << pc << " line " << b.line << "  " << text;
        r.listing.push_back(o.str());
      }
    }
  return r;
}

}  // namespace

isa::IsaTools aie_ml_isa_tools() {
  isa::IsaTools t;
  t.name = "aie_ml";
  t.aliases = {"aie-ml"};
  t.summary = "AIE-ML (isa/aie_ml/aie_ml.yaml; VLIW bundles, its own schema and assembler)";
  t.kernel_extensions = {".aie"};
  t.check = check;
  // The YAML states its own cycles per latency class, so the reference always has them.
  t.doc = [](bool) { return isa::aie_ml::reference_markdown(load_details("")); };
  t.assemble = assemble;
  t.insert_waits = [](const std::string& source, const std::string& config, const std::vector<std::string>& overrides) {
    return isa::aie_ml::insert_waits(source, read_stages(load_aie_config(config, overrides)));
  };
  return t;
}

}  // namespace tlmcraft::aie_ml
