#include "tasks/registry.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "common/data_dir.h"
#include "common/platform_catalog.h"
#include "tasks/cpu/cpu_programs.h"
#include "tasks/generator.h"
#include "tasks/layout_registry.h"
#include "tasks/numerics.h"
#include "tasks/reference/reference.h"

namespace tlmcraft::tasks {

const std::vector<std::string>& benchmark_task_order() {
  static const std::vector<std::string> order{
      "silu", "relu", "gelu", "softmax", "layernorm", "rmsnorm", "gemv", "gemm", "batchmatmul", "linear",
      "conv2d", "depthwise_conv", "rope", "ffn", "swiglu", "scaled_dot_product", "flash_attention", "mha",
      "gqa", "mqa", "conv_block", "llama_decoder", "t5_decoder"};
  return order;
}

// ---------------------------------------------------------------- Instance

Instance::Instance(const TaskSpec& task, PlatformId platform, const ConfigSpec& config)
    : task_(&task), platform_(platform), config_(&config) {}

TensorSet Instance::generate_inputs(uint64_t seed, const std::string& range) const {
  return tasks::generate_inputs(*task_, platform_, params(), seed, range);
}

std::vector<std::string> Instance::input_ranges() const { return tasks::adversarial_ranges(*task_, platform_); }

std::string Instance::range_for_trial(uint64_t seed, size_t trial) const {
  return tasks::range_for_trial(*task_, platform_, seed, trial);
}

TensorSet Instance::reference_outputs(const TensorSet& inputs) const {
  if (cpu::is_cpu_program(task_->name)) return cpu::reference(*task_, params(), inputs);
  TensorSet outputs = reference(*task_, platform_, params(), inputs);
  std::vector<std::vector<double>> slack = rounding_slack(*task_, platform_, params(), inputs, outputs);
  for (size_t t = 0; t < slack.size() && t < outputs.size(); ++t) outputs[t].slack = std::move(slack[t]);
  return outputs;
}

std::vector<int64_t> Instance::view(const std::string& tensor) const {
  for (const TensorSpec* t : task_->tensors_on(platform_))
    if (t->name == tensor) {
      // PLENA's layout lays 1-D tensors out as rows of VLEN (64); the other platforms'
      // layouts are not written yet and use the same default rows of 64 for reporting.
      return default_view(task_->shape_of(*t, params()), 64);
    }
  throw std::invalid_argument("task " + task_->name + " has no tensor '" + tensor + "' on " + platform_name(platform_));
}

CheckResult Instance::check(const TensorSet& got, const std::vector<std::vector<uint8_t>>& unwritten,
                            const TensorSet& want, const CheckOptions& options) const {
  if (!unwritten.empty() && unwritten.size() != got.size())
    throw std::invalid_argument("check: " + std::to_string(unwritten.size()) + " unwritten masks for " +
                                std::to_string(got.size()) + " tensors");
  std::vector<CheckTensor> ts;
  for (const Tensor& w : want) {
    size_t k = 0;
    while (k < got.size() && got[k].name != w.name) ++k;
    if (k == got.size()) throw std::invalid_argument("check: output '" + w.name + "' was not provided");
    if (got[k].data.size() != w.data.size())
      throw std::invalid_argument("check: output '" + w.name + "' has " + std::to_string(got[k].data.size()) +
                                  " values, expected " + std::to_string(w.data.size()));
    ts.push_back({w.name, view(w.name), got[k].data, w.data, unwritten.empty() ? std::vector<uint8_t>{} : unwritten[k],
                  w.slack});
  }
  return tasks::check(ts, tolerance(), options);
}

CheckResult Instance::check(const DecodedOutputs& got, const TensorSet& want, const CheckOptions& options) const {
  const LayoutRegistration* layout = find_layout(platform_);
  if (layout && layout->resolve_unwritten) {  // the platform's poison byte is a valid value
    DecodedOutputs resolved = got;
    layout->resolve_unwritten(resolved, want);
    return check(resolved.tensors, resolved.unwritten, want, options);
  }
  return check(got.tensors, got.unwritten, want, options);
}

std::unique_ptr<PlatformLayout> Instance::layout() const {
  return make_layout(*task_, platform_, params());
}

std::vector<IntegerConstant> Instance::integer_constants() const {
  return tasks::integer_constants(platform_, task_->name, params());
}

nlohmann::json Instance::shape_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& name : task_->params) j[name] = params().at(name);
  return j;
}

std::string Instance::describe() const {
  const PlatformSpec& ps = platform_spec();
  std::ostringstream o;
  o << "Task " << task_->name << " (level " << task_->level << "): " << task_->title << "\n";
  o << "Platform " << platform_name(platform_) << ", configuration " << config_->name << ":";
  for (const auto& name : task_->params) o << " " << name << " = " << params().at(name);
  o << "\n\n" << task_->description;
  o << "\nTensors (inputs in memory order, then outputs):\n";
  for (const TensorSpec* t : task_->tensors_on(platform_)) {
    o << "  " << t->name << ": " << role_name(t->role) << ", shape " << shape_text(task_->shape_of(*t, params()))
      << " (";
    for (size_t i = 0; i < t->shape.size(); ++i) o << (i ? ", " : "") << t->shape[i];
    o << "), " << element_type(*t, platform_) << "\n";
  }
  o << "\nNumerics on " << platform_name(platform_) << ": " << ps.numerics << "\n";
  if (!ps.notes.empty()) o << ps.notes;
  const auto ints = integer_constants();
  if (!ints.empty()) {
    o << "Integer constants of this configuration:\n";
    for (const auto& c : ints) o << "  " << c.name << " = " << c.value << "  (" << c.meaning << ")\n";
  }
  o << "\nCorrectness: every output element must satisfy " << ps.tolerance.describe()
    << ", on several trials with fresh random inputs; outputs are poisoned before each run.\n";
  const std::vector<std::string> ranges = input_ranges();
  if (!ranges.empty()) {
    o << "The first trial draws ordinary inputs; every later trial draws from one of these input ranges, chosen "
         "to test the numerics:";
    for (const auto& r : ranges) o << " " << r;
    o << " (docs/tasks.md, \"Input ranges\").\n";
  }
  if (has_layout(platform_)) {
    o << "\n" << layout()->text();
  } else {
    o << "\nMemory layout: given by the " << platform_name(platform_) << " platform (not described by tasks/ yet).\n";
  }
  return o.str();
}

// ---------------------------------------------------------------- Registry

namespace {

// Adds the platform sections registered platforms keep in their own data folder
// (<data_dir>/tasks/<task>.yaml, with defaults in <data_dir>/tasks/platforms.yaml).
void apply_pack_overlays(std::vector<TaskSpec>& tasks) {
  namespace fs = std::filesystem;
  for (const PlatformInfo* info : registered_platforms()) {
    if (info->data_dir.empty()) continue;
    const fs::path dir = fs::path(info->data_dir) / "tasks";
    if (!fs::is_directory(dir)) continue;
    std::map<PlatformId, PlatformSpec> defaults;
    if (fs::exists(dir / "platforms.yaml")) defaults = load_platform_defaults((dir / "platforms.yaml").string());
    for (TaskSpec& t : tasks) {
      const fs::path overlay = dir / (t.name + ".yaml");
      if (fs::exists(overlay)) apply_task_overlay(t, overlay.string(), defaults);
    }
  }
}

}  // namespace

Registry Registry::load(const std::string& specs_dir) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(specs_dir)) throw SpecError(specs_dir + ": not a directory of task specs");
  Registry r;
  const auto defaults = load_platform_defaults(specs_dir + "/platforms.yaml");
  if (fs::exists(specs_dir + "/cpu.yaml")) r.cpu_ = load_cpu_programs(specs_dir + "/cpu.yaml");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(specs_dir)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".yaml" && name != "platforms.yaml" && name != "cpu.yaml") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) r.tasks_.push_back(load_task(f, defaults));
  apply_pack_overlays(r.tasks_);
  const auto& order = benchmark_task_order();
  auto rank = [&](const TaskSpec& t) {
    const auto it = std::find(order.begin(), order.end(), t.name);
    return std::make_pair(t.level, it == order.end() ? order.size() : size_t(it - order.begin()));
  };
  std::stable_sort(r.tasks_.begin(), r.tasks_.end(), [&](const TaskSpec& a, const TaskSpec& b) { return rank(a) < rank(b); });
  // CPU programs with a spec in specs_dir/cpu/ become tasks (level 0), in cpu.yaml's order.
  for (const auto& c : r.cpu_) {
    const std::string f = specs_dir + "/cpu/" + c.name + ".yaml";
    if (!fs::exists(f)) continue;
    TaskSpec t = load_task(f, defaults);
    if (t.name != c.name) throw SpecError(f + ": name '" + t.name + "' does not match the file name");
    t.level = 0;
    r.cpu_tasks_.push_back(std::move(t));
  }
  apply_pack_overlays(r.cpu_tasks_);
  return r;
}

const Registry& Registry::builtin() {
  static const Registry r = [] {
    return load(data::data_path_or_env("TLMCRAFT_TASKS_DIR", "tasks/specs"));
  }();
  return r;
}

const TaskSpec* Registry::find(const std::string& name) const {
  for (const auto& t : tasks_)
    if (t.name == name) return &t;
  for (const auto& t : cpu_tasks_)
    if (t.name == name) return &t;
  return nullptr;
}

const TaskSpec& Registry::task(const std::string& name) const {
  if (const TaskSpec* t = find(name)) return *t;
  std::string list;
  for (const auto& t : tasks_) list += (list.empty() ? "" : ", ") + t.name;
  for (const auto& t : cpu_tasks_) list += ", " + t.name;
  throw TaskError("unknown task '" + name + "' (tasks: " + list + ")");
}

Instance Registry::instance(const std::string& task, const std::string& platform, const std::string& config) const {
  const auto p = parse_platform(platform);
  if (!p) throw TaskError("unknown platform '" + platform + "' (registered: " + registered_platform_list() + ")");
  return instance(task, *p, config);
}

Instance Registry::instance(const std::string& task, PlatformId platform, const std::string& config) const {
  const TaskSpec& t = this->task(task);
  const PlatformSpec& ps = t.platform(platform);
  if (!ps.supported)
    throw TaskError("task " + task + " is not supported on " + platform_name(platform) + ": " + ps.reason);
  const ConfigSpec* c = ps.config(config);
  if (!c) throw TaskError("unknown configuration '" + config + "' (C1, C2, C3, C4, C5)");
  return Instance(t, platform, *c);
}

nlohmann::json Registry::list_json() const {
  auto task_json = [](const TaskSpec& t) {
    nlohmann::json j{{"name", t.name}, {"level", t.level}, {"title", t.title}, {"params", t.params}};
    for (PlatformId p : all_platforms()) {
      const PlatformSpec& ps = t.platform(p);
      nlohmann::json pj{{"supported", ps.supported}};
      if (!ps.supported) {
        pj["reason"] = ps.reason;
      } else {
        pj["dtype"] = ps.dtype;
        pj["tolerance"] = ps.tolerance.describe();
        for (const auto& c : ps.configs) {
          nlohmann::json cj = nlohmann::json::object();
          for (const auto& name : t.params) cj[name] = c.params.at(name);
          cj["provenance"] = provenance_name(c.provenance);
          pj["configs"][c.name] = cj;
        }
      }
      j["platforms"][platform_name(p)] = pj;
    }
    return j;
  };
  nlohmann::json tasks = nlohmann::json::array();
  for (const auto& t : tasks_) tasks.push_back(task_json(t));
  // CPU programs: name and title, plus the task fields where a spec exists.
  nlohmann::json cpu = nlohmann::json::array();
  for (const auto& c : cpu_) {
    const TaskSpec* t = find(c.name);
    nlohmann::json j = t ? task_json(*t) : nlohmann::json::object();
    j["name"] = c.name;
    j["title"] = c.title;
    cpu.push_back(j);
  }
  return {{"tasks", tasks}, {"cpu", cpu}};
}

std::string Registry::list_text() const {
  std::ostringstream o;
  std::vector<const TaskSpec*> all;
  for (const auto& t : tasks_) all.push_back(&t);
  for (const auto& t : cpu_tasks_) all.push_back(&t);
  for (const TaskSpec* tp : all) {
    const TaskSpec& t = *tp;
    o << (t.level > 0 ? "L" + std::to_string(t.level) : std::string("CPU")) << " " << t.name << " (";
    for (size_t i = 0; i < t.params.size(); ++i) o << (i ? ", " : "") << t.params[i];
    o << ")\n";
    for (PlatformId p : all_platforms()) {
      const PlatformSpec& ps = t.platform(p);
      o << "    " << platform_name(p) << ": ";
      if (!ps.supported) {
        o << "unsupported (" << ps.reason << ")\n";
        continue;
      }
      for (const auto& c : ps.configs) {
        o << c.name << " (";
        for (size_t i = 0; i < t.params.size(); ++i) o << (i ? "," : "") << c.params.at(t.params[i]);
        o << ")  ";
      }
      o << "\n";
    }
  }
  if (!cpu_.empty()) {
    o << "CPU programs:";
    for (const auto& c : cpu_) o << " " << c.name << (find(c.name) ? "" : " (no spec)");
    o << "\n";
  }
  return o.str();
}

}  // namespace tlmcraft::tasks
