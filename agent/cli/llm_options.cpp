#include "agent/cli/llm_options.h"

#include <sstream>

#include "agent/providers/openai_profile.h"
#include "common/data_dir.h"
#include "harness/cli/cli_util.h"

namespace po = boost::program_options;

namespace tlmcraft::cli {

using nlohmann::json;

namespace {

constexpr size_t kMaxExtraBodyBytes = 64 * 1024;

// The options whose values are strings / numbers, in the order they are passed on.
const char* const kStringOptions[] = {"thinking", "reasoning-effort", "provider-profile", "extra-body",
                                      "prompt-cache", "price-table", "rate-limit-file"};
const char* const kNumberOptions[] = {"thinking-budget", "context-tokens", "requests-per-minute", "tokens-per-minute",
                                      "rate-limit-window"};

json parse_extra_body(const std::string& text) {
  if (text.size() > kMaxExtraBodyBytes)
    throw InputError("--extra-body: " + std::to_string(text.size()) + " bytes, more than the " +
                     std::to_string(kMaxExtraBodyBytes) + " allowed");
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw InputError("--extra-body: not JSON: " + agent::json_error_text(e));
  }
  if (!j.is_object()) throw InputError("--extra-body: must be a JSON object, got " + std::string(j.type_name()));
  return j;
}

double non_negative(const po::variables_map& vm, const char* name) {
  if (!vm.count(name)) return 0;
  const double v = vm[name].as<double>();
  if (v < 0) throw InputError(std::string("--") + name + " must be >= 0");
  return v;
}

}  // namespace

po::options_description llm_options() {
  po::options_description d("reasoning models, requests, cost, context and rate limits (docs/providers.md)");
  d.add_options()
      ("thinking", po::value<std::string>(), "anthropic: adaptive, enabled (with --thinking-budget) or off (default: "
                                             "send nothing, the model's default)")
      ("thinking-budget", po::value<double>(), "anthropic --thinking enabled: budget_tokens (>= 1024, below "
                                               "--max-tokens; default 4096)")
      ("reasoning-effort", po::value<std::string>(), "openai-compatible: reasoning_effort (e.g. low, medium, high); "
                                                     "anthropic: output_config.effort")
      ("provider-profile", po::value<std::string>(), "openai-compatible: openai, gemini-openai, deepseek, vllm, "
                                                     "openrouter (which reasoning fields go back; default from the "
                                                     "base URL)")
      ("extra-body", po::value<std::string>(), "a JSON object merged into every request body (RFC 7386; <= 64 KiB)")
      ("prompt-cache", po::value<std::string>(), "on (default) or off: Anthropic cache_control breakpoints on the "
                                                 "system prompt, tools and newest message; OpenAI prompt_cache_key; "
                                                 "OpenRouter cache_control for anthropic/ models")
      ("price-table", po::value<std::string>(), "price table JSON (default: the shipped agent/data/prices.json)")
      ("context-tokens", po::value<double>(), "context budget in tokens; compact older rounds above it (default: "
                                              "the model's window from the price table; 0 = none)")
      ("requests-per-minute", po::value<double>(), "shared limit of requests per window (0 = none)")
      ("tokens-per-minute", po::value<double>(), "shared limit of estimated request tokens per window (0 = none)")
      ("rate-limit-window", po::value<double>(), "seconds the two limits count over (default 60)")
      ("rate-limit-file", po::value<std::string>(), "state file shared by processes (agent-bench sets it)");
  return d;
}

void apply_llm_options(const po::variables_map& vm, agent::ProviderOptions& o) {
  if (vm.count("thinking")) {
    o.thinking = vm["thinking"].as<std::string>();
    if (o.thinking != "adaptive" && o.thinking != "enabled" && o.thinking != "off")
      throw InputError("--thinking: '" + o.thinking + "' is not adaptive, enabled or off");
    if (o.kind != "anthropic")
      throw InputError("--thinking applies to --provider anthropic; use --reasoning-effort or --extra-body for " +
                       o.kind);
  }
  if (vm.count("thinking-budget")) {
    if (o.thinking != "enabled") throw InputError("--thinking-budget needs --thinking enabled");
    const double b = vm["thinking-budget"].as<double>();
    if (b != double(int(b))) throw InputError("--thinking-budget must be a whole number");
    o.thinking_budget = int(b);
  } else if (o.thinking == "enabled") {
    o.thinking_budget = 4096;
  }
  if (o.thinking == "enabled" && (o.thinking_budget < 1024 || o.thinking_budget >= o.max_tokens))
    throw InputError("--thinking-budget " + std::to_string(o.thinking_budget) +
                     ": must be at least 1024 and below --max-tokens " + std::to_string(o.max_tokens));
  // Anthropic documents thinking as incompatible with a temperature other than 1.
  if ((o.thinking == "adaptive" || o.thinking == "enabled") && vm.count("temperature") &&
      vm["temperature"].as<double>() != 1.0)
    throw InputError("--temperature must be 1 (or left out) with --thinking " + o.thinking);
  if (vm.count("reasoning-effort")) o.reasoning_effort = vm["reasoning-effort"].as<std::string>();
  if (vm.count("provider-profile")) {
    o.profile = vm["provider-profile"].as<std::string>();
    try {
      (void)agent::openai_profile(o.profile, "");
    } catch (const agent::ProviderError&) {
      throw InputError("--provider-profile: '" + o.profile + "' is not one of " + agent::openai_profile_names());
    }
  }
  if (vm.count("extra-body")) o.extra_body = parse_extra_body(vm["extra-body"].as<std::string>());
  const std::string cache = vm.count("prompt-cache") ? vm["prompt-cache"].as<std::string>() : "on";
  if (cache != "on" && cache != "off") throw InputError("--prompt-cache: '" + cache + "' is not on or off");
  o.prompt_cache = cache == "on";
  o.requests_per_minute = non_negative(vm, "requests-per-minute");
  o.tokens_per_minute = non_negative(vm, "tokens-per-minute");
  if (vm.count("rate-limit-window")) {
    o.rate_window_seconds = vm["rate-limit-window"].as<double>();
    if (!(o.rate_window_seconds > 0)) throw InputError("--rate-limit-window must be positive");
  }
  if (vm.count("rate-limit-file")) o.rate_limit_file = vm["rate-limit-file"].as<std::string>();
}

std::optional<agent::PriceTable> load_price_table(const po::variables_map& vm) {
  std::string path;
  if (vm.count("price-table")) {
    path = vm["price-table"].as<std::string>();
  } else {
    try {
      path = agent::PriceTable::default_path();
    } catch (const data::DataDirError&) {
      return std::nullopt;  // no data folder: costs stay unknown
    }
  }
  try {
    return agent::PriceTable::load(path);
  } catch (const agent::PriceTableError& e) {
    throw InputError(e.what());
  }
}

size_t context_budget(const po::variables_map& vm, const std::optional<agent::ModelPrice>& price) {
  if (vm.count("context-tokens")) {
    const double v = vm["context-tokens"].as<double>();
    if (v < 0 || v != double(uint64_t(v))) throw InputError("--context-tokens must be a whole number >= 0");
    return size_t(v);
  }
  return price ? size_t(price->context_tokens) : 0;
}

std::vector<std::string> llm_option_args(const po::variables_map& vm) {
  std::vector<std::string> args;
  for (const char* name : kStringOptions)
    if (vm.count(name)) args.insert(args.end(), {std::string("--") + name, vm[name].as<std::string>()});
  for (const char* name : kNumberOptions)
    if (vm.count(name)) {
      std::ostringstream v;
      v.precision(17);
      v << vm[name].as<double>();
      args.insert(args.end(), {std::string("--") + name, v.str()});
    }
  return args;
}

json llm_run_info(const agent::ProviderOptions& o, size_t context_tokens, const std::optional<agent::ModelPrice>& price) {
  json j = {{"thinking", o.thinking},
            {"thinking_budget", o.thinking_budget},
            {"reasoning_effort", o.reasoning_effort},
            {"provider_profile", o.profile},
            {"extra_body", o.extra_body},
            {"prompt_cache", o.prompt_cache},
            {"context_tokens", context_tokens},
            {"requests_per_minute", o.requests_per_minute},
            {"tokens_per_minute", o.tokens_per_minute}};
  if (price)
    j["price"] = {{"key", price->key}, {"input", price->input}, {"cached_input", price->cached_input},
                  {"cache_write", price->cache_write}, {"output", price->output}};
  return j;
}

}  // namespace tlmcraft::cli
