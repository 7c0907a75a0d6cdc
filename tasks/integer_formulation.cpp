#include "tasks/integer_formulation.h"

#include <stdexcept>

#include "tasks/numerics.h"
#include "tasks/platform_packs.h"

namespace tlmcraft::tasks {

namespace {

std::map<std::string, IntegerFormulation>& formulations() {
  static std::map<std::string, IntegerFormulation> r;
  return r;
}

// Which formulation registered each table name.
std::map<std::string, std::string>& table_owners() {
  static std::map<std::string, std::string> r;
  return r;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "none registered" : s;
}

}  // namespace

void register_integer_formulation(const std::string& name, IntegerFormulation formulation) {
  ensure_platform_packs();  // a clash with an in-tree formulation is found whatever the order
  if (name.empty()) throw std::invalid_argument("an integer formulation needs a name");
  if (formulations().count(name)) throw std::invalid_argument("integer formulation '" + name + "' is registered twice");
  for (const auto& [table, make] : formulation.tables) {
    const auto owner = table_owners().find(table);
    if (owner != table_owners().end())
      throw std::invalid_argument("integer formulation '" + name + "' registers table '" + table +
                                  "', which formulation '" + owner->second + "' already registered");
    if (!make) throw std::invalid_argument("integer formulation '" + name + "': table '" + table + "' has no function");
  }
  for (const auto& entry : formulation.tables) table_owners()[entry.first] = name;
  formulations().emplace(name, std::move(formulation));
}

const IntegerFormulation* find_integer_formulation(const std::string& name) {
  ensure_platform_packs();
  const auto it = formulations().find(name);
  return it == formulations().end() ? nullptr : &it->second;
}

const IntegerFormulation* platform_integer_formulation(const PlatformId& p) {
  const std::string& name = platform_numerics(p).integer_formulation;
  if (name.empty()) return nullptr;
  if (const IntegerFormulation* f = find_integer_formulation(name)) return f;
  throw std::invalid_argument("platform '" + p.name() + "' selects integer formulation '" + name +
                              "', which nobody registered (tasks::register_integer_formulation)");
}

std::vector<IntegerConstant> integer_constants(const PlatformId& p, const std::string& task, const Params& params) {
  const IntegerFormulation* f = platform_integer_formulation(p);
  if (!f || !f->constants) return {};
  return f->constants(task, params);
}

std::vector<int64_t> lookup_table(const std::string& name) {
  ensure_platform_packs();
  const auto owner = table_owners().find(name);
  if (owner == table_owners().end())
    throw std::invalid_argument("unknown table '" + name + "' (" + joined(lookup_table_names()) + ")");
  return formulations().at(owner->second).tables.at(name)();
}

std::vector<std::string> lookup_table_names() {
  ensure_platform_packs();
  std::vector<std::string> names;
  for (const auto& entry : table_owners()) names.push_back(entry.first);
  return names;
}

}  // namespace tlmcraft::tasks
