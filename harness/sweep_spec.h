// A sweep: variants (a grid over platform-config keys, config files and ISA directories,
// and/or an explicit list) times a job selection. Described by a small YAML file
// (docs/suite.md, "Sweeps") or on the command line; both become a SweepSpec.
#pragma once
#include <string>
#include <vector>

#include "harness/provenance.h"

namespace tlmcraft::harness {

// One grid dimension. `key` is a platform-config key (a.b.c), "platform_config" (config
// names or YAML files), "isa_dir" (directories of ISA descriptions) or "isa_ext" (ISA
// overlay files, added after the base's; "a.yaml+b.yaml" stacks two, "none" adds none).
struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
};

struct SweepSpec {
  std::vector<std::string> platforms, tasks, configs, levels;  // job selection (as bench)
  std::string kernel_dir;                                      // "" = the baselines
  VariantSpec base;                                            // applied to every variant first
  std::vector<SweepAxis> grid;                                 // cartesian product, first axis slowest
  std::vector<VariantSpec> variants;                           // explicit list (crossed with the grid)
  std::string reference;  // variant name the others are compared with ("" = the first)
  std::string out;        // results JSONL ("" = the caller's default)
  unsigned jobs = 0;
  double timeout_seconds = 300;
};

// Reads a sweep YAML file. Relative config files, ISA and kernel directories are taken
// relative to the YAML file. Throws InputError naming file:line:col and the cause.
SweepSpec load_sweep_yaml(const std::string& path);

// "KEY=v1,v2,v3" (a --grid option); throws InputError on a missing '=' or empty values.
SweepAxis parse_grid_option(const std::string& text);
// "NAME: KEY=V KEY=V" or "KEY=V KEY=V" (a --variant option; platform_config=, isa_dir=
// and isa_ext= set those); throws InputError on a word that is not KEY=VALUE.
VariantSpec parse_variant_option(const std::string& text);

// Every variant of the sweep: base, then each list variant (or none), then each grid point.
// Names: the list variant's name and the grid point's KEY=VALUE pairs, joined by ", ".
// Throws InputError when two variants get the same name.
std::vector<VariantSpec> expand_variants(const SweepSpec& spec);

}  // namespace tlmcraft::harness
