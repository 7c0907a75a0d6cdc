#include "tasks/spec.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "common/platform_catalog.h"
#include "tasks/integer_formulation.h"

namespace tlmcraft::tasks {

std::vector<PlatformId> all_platforms() {
  std::vector<PlatformId> out;
  for (const auto& name : registered_platform_names()) out.emplace_back(name);
  return out;
}

std::string platform_name(const PlatformId& p) { return p.name(); }

std::optional<PlatformId> parse_platform(const std::string& s) {
  if (!find_platform_info(s)) return std::nullopt;
  return PlatformId(s);
}

const char* role_name(Role r) {
  switch (r) {
    case Role::Input: return "input";
    case Role::Weight: return "weight";
    case Role::Kv: return "kv";
    case Role::Output: return "output";
  }
  return "?";
}

const char* distribution_name(Distribution::Kind k) {
  switch (k) {
    case Distribution::Kind::None: return "none";
    case Distribution::Kind::Uniform: return "uniform";
    case Distribution::Kind::Normal: return "normal";
    case Distribution::Kind::IntUniform: return "int_uniform";
    case Distribution::Kind::IntNormal: return "int_normal";
    case Distribution::Kind::RopeCos: return "rope_cos";
    case Distribution::Kind::RopeSin: return "rope_sin";
    case Distribution::Kind::Table: return "table";
  }
  return "?";
}

const char* provenance_name(Provenance p) {
  switch (p) {
    case Provenance::Paper: return "paper";
    case Provenance::Interpolated: return "interpolated";
    case Provenance::Chosen: return "chosen";
  }
  return "?";
}

std::string Tolerance::describe() const {
  std::ostringstream o;
  switch (kind) {
    case Kind::AbsOrRel: o << "|got - want| <= " << abs << " or |got - want| <= " << rel << " * |want|"; break;
    case Kind::AllClose: o << "allclose: |got - want| <= " << abs << " + " << rel << " * |want|"; break;
    case Kind::Exact: o << "exact: got == want"; break;
  }
  if (kind != Kind::Exact)
    o << " for every element, and per output tensor and per row a relative RMS error sqrt(sum (got - want)^2 / sum "
         "want^2) <= "
      << kTensorRelRms;
  if (small_rel > 0)
    o << ", and per row, over the elements whose reference is below " << abs
      << " in magnitude, a relative error sum |got - want| / sum |want| <= " << small_rel;
  return o.str();
}

bool TensorSpec::on(PlatformId p) const {
  return platforms.empty() || std::find(platforms.begin(), platforms.end(), p) != platforms.end();
}

const ConfigSpec* PlatformSpec::config(const std::string& name) const {
  for (const auto& c : configs)
    if (c.name == name) return &c;
  return nullptr;
}

const PlatformSpec& TaskSpec::platform(const PlatformId& p) const {
  const auto it = platforms.find(p);
  if (it != platforms.end()) return it->second;
  static const PlatformSpec none = [] {
    PlatformSpec s;
    s.reason = "the task has no section for this platform (neither in its spec nor in a pack's overlay)";
    return s;
  }();
  return none;
}

std::vector<const TensorSpec*> TaskSpec::tensors_on(PlatformId p) const {
  std::vector<const TensorSpec*> v;
  for (const auto& t : tensors)
    if (t.on(p)) v.push_back(&t);
  return v;
}
std::vector<const TensorSpec*> TaskSpec::inputs_on(PlatformId p) const {
  std::vector<const TensorSpec*> v;
  for (const auto& t : tensors)
    if (t.on(p) && t.role != Role::Output) v.push_back(&t);
  return v;
}
std::vector<const TensorSpec*> TaskSpec::outputs_on(PlatformId p) const {
  std::vector<const TensorSpec*> v;
  for (const auto& t : tensors)
    if (t.on(p) && t.role == Role::Output) v.push_back(&t);
  return v;
}

std::vector<int64_t> TaskSpec::shape_of(const TensorSpec& t, const Params& params) const {
  std::vector<int64_t> s;
  for (const auto& e : t.shape) s.push_back(eval_expr(e, params));
  return s;
}

namespace {

const std::vector<std::string> kConfigNames{"C1", "C2", "C3", "C4", "C5"};

bool is_identifier(const std::string& s);

// Reads one YAML file, turning every problem into "file:line: cause".
class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  YAML::Node load() {
    try {
      return YAML::LoadFile(path_);
    } catch (const YAML::BadFile&) {
      throw SpecError(path_ + ": cannot open the file");
    } catch (const YAML::ParserException& e) {
      throw SpecError(path_ + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
    }
  }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& why) const {
    const int line = at.IsDefined() ? at.Mark().line + 1 : 0;
    throw SpecError(path_ + ":" + std::to_string(line > 0 ? line : 1) + ": " + why);
  }
  int line(const YAML::Node& n) const { return n.Mark().line + 1; }

  void expect_map(const YAML::Node& n, const std::string& what) const {
    if (!n.IsMap()) fail(n, what + " must be a mapping");
  }
  void allow_keys(const YAML::Node& n, const std::set<std::string>& keys, const std::string& what) const {
    for (const auto& kv : n) {
      const std::string k = kv.first.as<std::string>();
      if (!keys.count(k)) {
        std::string list;
        for (const auto& x : keys) list += (list.empty() ? "" : ", ") + x;
        fail(kv.first, "unknown key '" + k + "' in " + what + " (allowed: " + list + ")");
      }
    }
  }
  YAML::Node need(const YAML::Node& n, const std::string& key, const std::string& what) const {
    const YAML::Node v = n[key];
    if (!v) fail(n, what + " lacks the required key '" + key + "'");
    return v;
  }
  std::string str(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) fail(n, what + " must be a scalar");
    return n.as<std::string>();
  }
  double num(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) fail(n, what + " must be a number");
    try {
      const double v = n.as<double>();
      if (!std::isfinite(v)) fail(n, what + " must be finite");
      return v;
    } catch (const YAML::BadConversion&) {
      fail(n, what + " must be a number, got '" + n.as<std::string>() + "'");
    }
  }
  int64_t integer(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) fail(n, what + " must be an integer");
    try {
      return n.as<int64_t>();
    } catch (const YAML::BadConversion&) {
      fail(n, what + " must be an integer, got '" + n.as<std::string>() + "'");
    }
  }
  bool boolean(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar()) fail(n, what + " must be true or false");
    try {
      return n.as<bool>();
    } catch (const YAML::BadConversion&) {
      fail(n, what + " must be true or false, got '" + n.as<std::string>() + "'");
    }
  }
  PlatformId platform(const YAML::Node& n) const {
    const std::string s = str(n, "a platform name");
    const auto p = parse_platform(s);
    if (!p) fail(n, "unknown platform '" + s + "' (registered: " + registered_platform_list() + ")");
    return *p;
  }

  Tolerance tolerance(const YAML::Node& n) const {
    expect_map(n, "tolerance");
    allow_keys(n, {"kind", "abs", "rel", "atol", "rtol"}, "tolerance");
    Tolerance t;
    const std::string kind = str(need(n, "kind", "tolerance"), "tolerance kind");
    if (kind == "abs_or_rel") {
      t.kind = Tolerance::Kind::AbsOrRel;
      t.abs = num(need(n, "abs", "an abs_or_rel tolerance"), "abs");
      t.rel = num(need(n, "rel", "an abs_or_rel tolerance"), "rel");
    } else if (kind == "allclose") {
      t.kind = Tolerance::Kind::AllClose;
      t.abs = num(need(n, "atol", "an allclose tolerance"), "atol");
      t.rel = num(need(n, "rtol", "an allclose tolerance"), "rtol");
    } else if (kind == "exact") {
      t.kind = Tolerance::Kind::Exact;
    } else {
      fail(n["kind"], "unknown tolerance kind '" + kind + "' (abs_or_rel, allclose, exact)");
    }
    if (t.abs < 0 || t.rel < 0) fail(n, "tolerances must not be negative");
    return t;
  }

  // `adversarial: {name: init, ...}`: the tensor's adversarial input ranges, in spec order.
  std::vector<NamedRange> ranges(const YAML::Node& n, const std::set<std::string>& params) const {
    expect_map(n, "adversarial");
    std::vector<NamedRange> out;
    for (const auto& kv : n) {
      NamedRange r;
      r.name = str(kv.first, "a range name");
      if (!is_identifier(r.name)) fail(kv.first, "range name '" + r.name + "' is not a valid name");
      if (r.name == "ordinary") fail(kv.first, "'ordinary' names the init itself, not an adversarial range");
      r.dist = distribution(kv.second, params);
      if (r.dist.kind == Distribution::Kind::Table) fail(kv.second, "a table is not a range");
      out.push_back(r);
    }
    return out;
  }

  Distribution distribution(const YAML::Node& n, const std::set<std::string>& params) const {
    expect_map(n, "init");
    allow_keys(n, {"dist", "lo", "hi", "mean", "std", "fan_in", "peaks", "peak_lo", "peak_hi", "table", "scale"}, "init");
    Distribution d;
    const YAML::Node kind = need(n, "dist", "init");
    const std::string k = str(kind, "dist");
    using K = Distribution::Kind;
    static const std::map<std::string, K> kinds{
        {"uniform", K::Uniform},       {"normal", K::Normal},     {"int_uniform", K::IntUniform},
        {"int_normal", K::IntNormal},  {"rope_cos", K::RopeCos},  {"rope_sin", K::RopeSin},
        {"table", K::Table}};
    const auto it = kinds.find(k);
    if (it == kinds.end())
      fail(kind, "unknown dist '" + k + "' (uniform, normal, int_uniform, int_normal, rope_cos, rope_sin, table)");
    d.kind = it->second;
    if (d.kind == K::Uniform || d.kind == K::IntUniform || d.kind == K::IntNormal) {
      d.lo = num(need(n, "lo", "a " + k + " init"), "lo");
      d.hi = num(need(n, "hi", "a " + k + " init"), "hi");
      if (!(d.lo <= d.hi)) fail(n, "lo must not exceed hi");
      if (d.kind != K::Uniform && (d.lo != std::floor(d.lo) || d.hi != std::floor(d.hi)))
        fail(n, "integer distributions need integer lo and hi");
    }
    if (d.kind == K::Normal || d.kind == K::IntNormal) {
      d.mean = num(need(n, "mean", "a " + k + " init"), "mean");
      d.std = num(need(n, "std", "a " + k + " init"), "std");
      if (d.std < 0) fail(n["std"], "std must not be negative");
    }
    if (n["fan_in"]) {
      d.fan_in = str(n["fan_in"], "fan_in");
      check_expr(n["fan_in"], d.fan_in, params);
    }
    if (n["peaks"]) {
      d.peaks = int(integer(n["peaks"], "peaks"));
      if (d.peaks < 0) fail(n["peaks"], "peaks must not be negative");
      d.peak_lo = num(need(n, "peak_lo", "an init with peaks"), "peak_lo");
      d.peak_hi = num(need(n, "peak_hi", "an init with peaks"), "peak_hi");
      if (!(d.peak_lo <= d.peak_hi)) fail(n, "peak_lo must not exceed peak_hi");
    }
    if (n["scale"]) {
      if (d.kind != K::RopeCos && d.kind != K::RopeSin) fail(n["scale"], "scale applies to rope_cos and rope_sin only");
      d.scale = integer(n["scale"], "scale");
      if (d.scale <= 0) fail(n["scale"], "scale must be positive");
    }
    if (d.kind == K::Table) {
      d.table = str(need(n, "table", "a table init"), "table");
      const std::vector<std::string> tables = lookup_table_names();  // registered by integer formulations
      if (std::find(tables.begin(), tables.end(), d.table) == tables.end()) {
        std::string list;
        for (const auto& t : tables) list += (list.empty() ? "" : ", ") + t;
        fail(n["table"], "unknown table '" + d.table + "' (" + (list.empty() ? "no table is registered" : list) + ")");
      }
    }
    return d;
  }

  void check_expr(const YAML::Node& at, const std::string& e, const std::set<std::string>& params) const {
    try {
      for (const auto& name : expr_names(e))
        if (!params.count(name)) fail(at, "expression \"" + e + "\" uses '" + name + "', which is not a parameter of the task");
    } catch (const ExprError& err) {
      fail(at, err.what());
    }
  }

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string file_stem(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = base.find_last_of('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

// One platform's section of a task (`n`, under platforms:), read by `r` (the task's file or
// a pack's overlay of it).
PlatformSpec platform_section(const Reader& r, const YAML::Node& n, const PlatformId& p, const TaskSpec& t,
                              const std::set<std::string>& pset, const YAML::Node& small_outputs_rel,
                              const std::map<PlatformId, PlatformSpec>& defaults) {
  const std::string pn = platform_name(p);
  r.expect_map(n, "platform " + pn);
  r.allow_keys(n, {"supported", "reason", "configs", "tolerance", "dtype", "numerics", "notes", "data_dependent_cycles"},
               "platform " + pn);
  PlatformSpec ps;
  const auto d = defaults.find(p);
  if (d != defaults.end()) {
    ps = d->second;
  } else {  // a platform the suite's platforms.yaml does not know: its section says everything
    for (const char* key : {"dtype", "tolerance"}) r.need(n, key, "platform " + pn + " (it has no defaults)");
  }
  ps.line = r.line(n);
  ps.supported = r.boolean(r.need(n, "supported", "platform " + pn), "supported");
  if (n["tolerance"]) ps.tolerance = r.tolerance(n["tolerance"]);
  if (small_outputs_rel && ps.tolerance.kind != Tolerance::Kind::Exact) {
    ps.tolerance.small_rel = r.num(small_outputs_rel, "small_outputs_rel");
    if (!(ps.tolerance.small_rel > 0 && ps.tolerance.small_rel < 1))
      r.fail(small_outputs_rel, "small_outputs_rel must lie in (0, 1)");
  }
  if (n["dtype"]) ps.dtype = r.str(n["dtype"], "dtype");
  if (n["numerics"]) ps.numerics = r.str(n["numerics"], "numerics");
  if (n["data_dependent_cycles"]) ps.data_dependent_cycles = r.boolean(n["data_dependent_cycles"], "data_dependent_cycles");
  if (n["notes"]) ps.notes = r.str(n["notes"], "notes");
  if (!ps.supported) {
    ps.reason = r.str(r.need(n, "reason", "an unsupported platform"), "reason");
    if (n["configs"]) r.fail(n["configs"], "an unsupported platform has no configs");
    return ps;
  }
  const YAML::Node cfgs = r.need(n, "configs", "platform " + pn);
  r.expect_map(cfgs, "configs");
  for (const auto& ckv : cfgs) {
    const std::string cname = r.str(ckv.first, "a configuration name");
    if (std::find(kConfigNames.begin(), kConfigNames.end(), cname) == kConfigNames.end())
      r.fail(ckv.first, "configuration '" + cname + "' is not one of C1..C5");
  }
  for (const auto& cname : kConfigNames) {
    const YAML::Node c = cfgs[cname];
    if (!c) r.fail(cfgs, "platform " + pn + " lacks configuration " + cname);
    r.expect_map(c, "configuration " + cname);
    ConfigSpec cs;
    cs.name = cname;
    cs.line = r.line(c);
    for (const auto& pkv : c) {
      const std::string key = pkv.first.as<std::string>();
      if (key == "interpolated" || key == "chosen") {
        if (r.boolean(pkv.second, key)) {
          if (cs.provenance != Provenance::Paper) r.fail(pkv.first, "a configuration is either interpolated or chosen");
          cs.provenance = key == "interpolated" ? Provenance::Interpolated : Provenance::Chosen;
        }
        continue;
      }
      if (!pset.count(key)) r.fail(pkv.first, "configuration " + cname + " sets '" + key + "', which is not a parameter");
      const int64_t v = r.integer(pkv.second, "parameter " + key);
      if (v <= 0) r.fail(pkv.second, "parameter " + key + " must be positive");
      cs.params[key] = v;
    }
    for (const auto& pname : t.params)
      if (!cs.params.count(pname)) r.fail(c, "configuration " + cname + " of " + pn + " lacks parameter '" + pname + "'");
    // Every shape of every tensor on this platform must be a positive whole number.
    for (const auto& ts : t.tensors) {
      if (!ts.on(p)) continue;
      for (const auto& e : ts.shape) {
        int64_t v = 0;
        try {
          v = eval_expr(e, cs.params);
        } catch (const ExprError& err) {
          r.fail(c, "configuration " + cname + " of " + pn + ", tensor '" + ts.name + "': " + err.what());
        }
        if (v <= 0) r.fail(c, "configuration " + cname + " of " + pn + " gives tensor '" + ts.name + "' a non-positive dimension (" + e + " = " + std::to_string(v) + ")");
      }
      if (ts.role != Role::Output) {
        const Distribution& d = ts.init_for.count(p) ? ts.init_for.at(p) : ts.init;
        if (d.kind == Distribution::Kind::None)
          r.fail(c, "input '" + ts.name + "' has no init for platform " + pn);
      }
    }
    ps.configs.push_back(cs);
  }
  return ps;
}

}  // namespace

std::map<PlatformId, PlatformSpec> load_platform_defaults(const std::string& path) {
  Reader r(path);
  const YAML::Node root = r.load();
  r.expect_map(root, "the file");
  r.allow_keys(root, {"platforms"}, "the file");
  const YAML::Node ps = r.need(root, "platforms", "the file");
  r.expect_map(ps, "platforms");
  std::map<PlatformId, PlatformSpec> out;
  for (const auto& kv : ps) {
    const PlatformId id = r.platform(kv.first);
    const YAML::Node n = kv.second;
    r.expect_map(n, "platform " + platform_name(id));
    r.allow_keys(n, {"dtype", "tolerance", "numerics"}, "platform " + platform_name(id));
    PlatformSpec s;
    s.dtype = r.str(r.need(n, "dtype", platform_name(id)), "dtype");
    s.tolerance = r.tolerance(r.need(n, "tolerance", platform_name(id)));
    s.numerics = r.str(r.need(n, "numerics", platform_name(id)), "numerics");
    s.line = r.line(n);
    out[id] = s;
  }
  return out;
}

TaskSpec load_task(const std::string& path, const std::map<PlatformId, PlatformSpec>& defaults) {
  Reader r(path);
  const YAML::Node root = r.load();
  r.expect_map(root, "a task file");
  r.allow_keys(root, {"name", "level", "title", "description", "params", "tensors", "platforms", "data_dependent_cycles",
                      "small_outputs_rel"},
               "a task file");
  TaskSpec t;
  t.file = path;
  t.name = r.str(r.need(root, "name", "the task"), "name");
  if (t.name != file_stem(path))
    r.fail(root["name"], "task name '" + t.name + "' differs from the file name '" + file_stem(path) + "'");
  t.level = int(r.integer(r.need(root, "level", "the task"), "level"));
  if (t.level < 1 || t.level > 3) r.fail(root["level"], "level must be 1, 2 or 3");
  t.title = r.str(r.need(root, "title", "the task"), "title");
  t.description = r.str(r.need(root, "description", "the task"), "description");
  if (root["data_dependent_cycles"]) t.data_dependent_cycles = r.boolean(root["data_dependent_cycles"], "data_dependent_cycles");

  const YAML::Node params = r.need(root, "params", "the task");
  if (!params.IsSequence() || params.size() == 0) r.fail(params, "params must be a non-empty list of names");
  std::set<std::string> pset;
  for (const auto& p : params) {
    const std::string name = r.str(p, "a parameter name");
    if (!is_identifier(name)) r.fail(p, "parameter '" + name + "' is not a valid name");
    if (name == "interpolated" || name == "chosen") r.fail(p, "'" + name + "' is reserved for configuration provenance");
    if (!pset.insert(name).second) r.fail(p, "parameter '" + name + "' is listed twice");
    t.params.push_back(name);
  }

  // Tensors.
  const YAML::Node tensors = r.need(root, "tensors", "the task");
  if (!tensors.IsSequence() || tensors.size() == 0) r.fail(tensors, "tensors must be a non-empty list");
  std::set<std::string> tnames;
  bool seen_output = false;
  for (const auto& tn : tensors) {
    r.expect_map(tn, "a tensor");
    std::set<std::string> tensor_keys{"name", "role", "shape", "init", "adversarial", "platforms"};
    for (const auto& name : registered_platform_names()) tensor_keys.insert(name);  // per-platform overrides
    r.allow_keys(tn, tensor_keys, "a tensor");
    TensorSpec ts;
    ts.line = r.line(tn);
    ts.name = r.str(r.need(tn, "name", "a tensor"), "tensor name");
    if (!is_identifier(ts.name)) r.fail(tn["name"], "tensor name '" + ts.name + "' is not a valid name");
    if (!tnames.insert(ts.name).second) r.fail(tn["name"], "tensor '" + ts.name + "' is listed twice");
    const std::string role = r.str(r.need(tn, "role", "tensor " + ts.name), "role");
    if (role == "input") ts.role = Role::Input;
    else if (role == "weight") ts.role = Role::Weight;
    else if (role == "kv") ts.role = Role::Kv;
    else if (role == "output") ts.role = Role::Output;
    else r.fail(tn["role"], "unknown role '" + role + "' (input, weight, kv, output)");
    if (ts.role == Role::Output) seen_output = true;
    else if (seen_output) r.fail(tn, "input tensor '" + ts.name + "' follows an output: list inputs first, then outputs");
    const YAML::Node shape = r.need(tn, "shape", "tensor " + ts.name);
    if (!shape.IsSequence() || shape.size() == 0) r.fail(shape, "shape of '" + ts.name + "' must be a non-empty list");
    for (const auto& d : shape) {
      ts.shape.push_back(r.str(d, "a shape entry"));
      r.check_expr(d, ts.shape.back(), pset);
    }
    if (tn["platforms"]) {
      if (!tn["platforms"].IsSequence()) r.fail(tn["platforms"], "platforms must be a list");
      for (const auto& p : tn["platforms"]) ts.platforms.push_back(r.platform(p));
    }
    if (tn["init"]) {
      if (ts.role == Role::Output) r.fail(tn["init"], "output '" + ts.name + "' cannot have an init");
      ts.init = r.distribution(tn["init"], pset);
    }
    if (tn["adversarial"]) {
      if (ts.role == Role::Output) r.fail(tn["adversarial"], "output '" + ts.name + "' cannot have adversarial ranges");
      ts.adversarial = r.ranges(tn["adversarial"], pset);
    }
    for (PlatformId p : all_platforms()) {
      const YAML::Node o = tn[platform_name(p)];
      if (!o) continue;
      r.expect_map(o, "the " + platform_name(p) + " override");
      r.allow_keys(o, {"init", "dtype", "adversarial"}, "the " + platform_name(p) + " override");
      if (o["adversarial"]) {
        if (ts.role == Role::Output) r.fail(o["adversarial"], "output '" + ts.name + "' cannot have adversarial ranges");
        ts.adversarial_for[p] = r.ranges(o["adversarial"], pset);
      }
      if (o["init"]) {
        if (ts.role == Role::Output) r.fail(o["init"], "output '" + ts.name + "' cannot have an init");
        ts.init_for[p] = r.distribution(o["init"], pset);
      }
      if (o["dtype"]) ts.dtype_for[p] = r.str(o["dtype"], "dtype");
    }
    t.tensors.push_back(ts);
  }
  if (!seen_output) r.fail(tensors, "the task has no output tensor");

  // Platforms: the suite's platforms (those with defaults) must each have a section; any
  // other registered platform may have one (or add it from its pack, apply_task_overlay).
  const YAML::Node plats = r.need(root, "platforms", "the task");
  r.expect_map(plats, "platforms");
  for (const auto& kv : plats) r.platform(kv.first);  // rejects unknown names with their line
  for (const PlatformId& p : all_platforms()) {
    const YAML::Node n = plats[platform_name(p)];
    if (!n && defaults.count(p))
      r.fail(plats, "platform '" + platform_name(p) + "' is missing (every task says supported: true or false for each)");
    if (n) t.platforms[p] = platform_section(r, n, p, t, pset, root["small_outputs_rel"], defaults);
  }
  return t;
}

void apply_task_overlay(TaskSpec& t, const std::string& path, const std::map<PlatformId, PlatformSpec>& defaults) {
  Reader r(path);
  const YAML::Node root = r.load();
  r.expect_map(root, "a task overlay");
  r.allow_keys(root, {"platforms"}, "a task overlay (it only adds platform sections to task '" + t.name + "')");
  const YAML::Node plats = r.need(root, "platforms", "a task overlay");
  r.expect_map(plats, "platforms");
  // The task's own file, for what a section reads from it (parameters, small_outputs_rel).
  Reader task_reader(t.file);
  const YAML::Node task_root = task_reader.load();
  const std::set<std::string> pset(t.params.begin(), t.params.end());
  for (const auto& kv : plats) {
    const PlatformId p = r.platform(kv.first);
    const auto existing = t.platforms.find(p);
    if (existing != t.platforms.end())
      r.fail(kv.first, "platform '" + platform_name(p) + "' already has a section in " + t.file + ":" +
                           std::to_string(existing->second.line) + " (an overlay adds a platform, never replaces one)");
    t.platforms[p] = platform_section(r, kv.second, p, t, pset, task_root["small_outputs_rel"], defaults);
  }
}

std::vector<CpuProgram> load_cpu_programs(const std::string& path) {
  Reader r(path);
  const YAML::Node root = r.load();
  r.expect_map(root, "the file");
  r.allow_keys(root, {"group", "programs"}, "the file");
  if (r.str(r.need(root, "group", "the file"), "group") != "cpu") r.fail(root["group"], "group must be 'cpu'");
  const YAML::Node ps = r.need(root, "programs", "the file");
  if (!ps.IsSequence()) r.fail(ps, "programs must be a list");
  std::vector<CpuProgram> out;
  std::set<std::string> seen;
  for (const auto& p : ps) {
    r.expect_map(p, "a program");
    r.allow_keys(p, {"name", "title"}, "a program");
    CpuProgram c{r.str(r.need(p, "name", "a program"), "name"), r.str(r.need(p, "title", "a program"), "title")};
    if (!seen.insert(c.name).second) r.fail(p, "program '" + c.name + "' is listed twice");
    out.push_back(c);
  }
  return out;
}

}  // namespace tlmcraft::tasks
