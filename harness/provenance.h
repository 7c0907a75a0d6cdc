// Provenance of a hardware/ISA variant: what a result was measured on. A variant is a
// platform config (name or YAML file), KEY=VALUE overrides, an ISA directory and ISA
// overlays; its provenance adds content hashes of the config file, the ISA descriptions
// and each overlay (SHA-256) and the
// tlmcraft version and commit. The variant id (a hash of the content, not of the names)
// is part of every suite job's resume key, so results of two variants never mix.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlmcraft::harness {

struct VariantSpec {
  std::string name;                        // label chosen by the user ("" = derived from the rest)
  std::string platform_config = "default";  // config name or YAML path
  std::vector<std::string> overrides;      // KEY=VALUE, applied in order (the last one of a key wins)
  std::string isa_dir;                     // TLMCRAFT_ISA_DIR for the workers ("" = the built-in isa/)
  std::vector<std::string> isa_ext;        // ISA overlay files, merged in order (docs/isa-extensions.md)
};

// FNV-1a 64-bit of `bytes` as 16 hex digits (an identity check, not a cryptographic hash).
std::string fnv1a64_hex(const std::string& bytes);

// The variant's provenance on `platform` (schema in docs/report-schema.md, "provenance").
// Throws InputError when the config file or an ISA file cannot be read or an override has
// no '='.
nlohmann::json variant_provenance(const std::string& platform, const VariantSpec& variant);

// The variant id inside a provenance object ("" when absent).
std::string provenance_variant(const nlohmann::json& provenance);

// "name" or, without one, "KEY=VALUE, KEY=VALUE" / "default": for tables and messages.
std::string variant_label(const nlohmann::json& provenance);

// The same label from a spec: "config, KEY=VALUE, ..., isa DIR" or "default".
std::string variant_spec_label(const VariantSpec& variant);

// The worker arguments that reproduce the variant: --platform-config, --set..., --isa-dir,
// --isa-ext....
std::vector<std::string> variant_worker_args(const VariantSpec& variant);

// "tlmcraft 0.1.0 (commit 0123abcd..., modified)".
std::string version_text();

}  // namespace tlmcraft::harness
