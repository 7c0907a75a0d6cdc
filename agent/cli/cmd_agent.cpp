// tlmcraft agent: one agent run on one workload (task x platform x configuration): the
// system prompt, the loop with a provider (OpenAI-compatible, Anthropic, a replayed
// transcript, or the built-in search agent), the workspace and the transcript.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <boost/program_options.hpp>

#include "agent/agent_report.h"
#include "agent/cli/llm_options.h"
#include "agent/loop.h"
#include "agent/providers.h"
#include "agent/system_prompt.h"
#include "agent/toolbox.h"
#include "agent/verdict.h"
#include "harness/variant_uses.h"
#include "agent/workspace.h"
#include "harness/cli/cli_util.h"
#include "harness/cli/commands.h"
#include "platforms/registry.h"
#include "tasks/registry.h"

namespace po = boost::program_options;

namespace tlmcraft::cli {
namespace {

using nlohmann::json;

const char* kAgentHelp = R"(usage: tlmcraft agent --platform P --task T --config C [options]

Runs an agent on one workload: it gets the system prompt (task, ISA reference, hardware
configuration, memory layout, budget) and calls the tools (write_code, check_syntax,
run_evaluation, view_output, profile, grep_docs, ...) for up to --budget rounds (default
15/20/25 for levels 1/2/3). Phase 1 reaches a correct kernel, phase 2 makes it faster.
Kernel versions and their reports go to --workspace, every message and tool call to the
--transcript (JSONL); --resume continues an interrupted run from its transcript.

Providers (--provider; default: openai when --base-url/--api-key or OPENAI_BASE_URL /
OPENAI_API_KEY is set, else anthropic when ANTHROPIC_API_KEY is set, else search):
  openai     any OpenAI-compatible Chat Completions endpoint (OpenAI, OpenRouter, vLLM,
             llama.cpp): --base-url (OPENAI_BASE_URL), --model (OPENAI_MODEL,
             TLMCRAFT_MODEL), --api-key (OPENAI_API_KEY)
  openai-responses  OpenAI's Responses API (reasoning items carried across tool
             calls): the same settings as openai
  anthropic  Anthropic Messages: --base-url (ANTHROPIC_BASE_URL), --model
             (ANTHROPIC_MODEL, TLMCRAFT_MODEL), --api-key (ANTHROPIC_API_KEY)
  replay     plays back the assistant turns of a recorded transcript (--replay FILE)
  search     the built-in search agent (no LLM): starts from the baseline kernel and
             keeps correct, faster transformations

The ISA variant (--isa-dir DIR, an edited copy of isa/; --isa-ext FILE, an overlay,
repeatable: docs/isa-extensions.md) reaches the ISA reference in the system prompt,
grep_docs, the assembler of every tool and the final verdict.

examples:
  tlmcraft agent --platform plena --task silu --config C1
  tlmcraft agent --platform plena --task silu --config C1 --isa-ext my_silu.yaml
  tlmcraft agent --platform plena --task gemm --config C2 --provider openai \
      --base-url http://localhost:8080/v1 --model qwen3-coder --budget 30
  OPENAI_API_KEY=... tlmcraft agent -p plena --task softmax --config C1 --model gpt-5.2 \
      --workspace out/agent --transcript out/agent/softmax.jsonl
  tlmcraft agent -p plena --task softmax --config C1 --transcript out/agent/softmax.jsonl --resume
  tlmcraft agent -p plena --task silu --config C1 --provider replay --replay out/agent/silu.jsonl
  tlmcraft agent -p plena --task silu --config C1 --json > result.json

exit codes: 0 a correct kernel was found; 1 none was (or the provider failed mid-run);
2 usage or input error (unknown task, unusable transcript, provider not configured)

options)";

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// The provider to use when --provider is not given (see the help text).
std::string default_provider(const po::variables_map& vm) {
  if (vm.count("base-url") || vm.count("api-key") || !env("OPENAI_BASE_URL").empty() || !env("OPENAI_API_KEY").empty())
    return "openai";
  if (!env("ANTHROPIC_API_KEY").empty()) return "anthropic";
  return "search";
}

std::unique_ptr<agent::Provider> make_provider(const agent::ProviderOptions& o) {
  if (o.kind == "openai") return agent::make_openai_provider(o);
  if (o.kind == "openai-responses") return agent::make_openai_responses_provider(o);
  if (o.kind == "anthropic") return agent::make_anthropic_provider(o);
  if (o.kind == "replay") return agent::make_replay_provider(o);
  if (o.kind == "search") return agent::make_search_provider(o);
  throw InputError("unknown provider '" + o.kind + "' (openai, openai-responses, anthropic, replay, search)");
}

}  // namespace

int cmd_agent(const Args& args) {
  po::options_description opts(kAgentHelp);
  add_platform_options(opts);
  opts.add_options()
      ("task", po::value<std::string>(), "task name (tlmcraft list tasks)")
      ("config", po::value<std::string>(), "configuration C1..C5")
      ("provider", po::value<std::string>(), "openai, openai-responses, anthropic, replay or search (default: see above)")
      ("base-url", po::value<std::string>(), "endpoint base URL, e.g. https://api.openai.com/v1")
      ("model", po::value<std::string>(), "model name")
      ("api-key", po::value<std::string>(), "API key (prefer the environment variables)")
      ("max-tokens", po::value<int>()->default_value(8192), "completion token limit per turn")
      ("temperature", po::value<double>(), "sampling temperature (default: the provider's)")
      ("request-timeout", po::value<double>()->default_value(300), "seconds per HTTP request")
      ("retries", po::value<int>()->default_value(5), "retries on 429 and 5xx")
      ("replay", po::value<std::string>(), "replay provider: the transcript to play back")
      ("budget", po::value<int>()->default_value(0), "rounds (model turns); 0 = 15/20/25 by task level")
      ("workspace", po::value<std::string>()->default_value("out/agent"), "workspace directory (kernel versions, reports)")
      ("transcript", po::value<std::string>(), "transcript JSONL (default: WORKSPACE/<task>_<platform>_<config>.jsonl)")
      ("resume", po::bool_switch(), "continue from the transcript's last complete round")
      ("trials", po::value<int>()->default_value(3), "trials per evaluation")
      ("seed", po::value<uint64_t>(),
       "development evaluations' first input seed and the search agent's candidate order (default: fresh input seeds "
       "from the OS, candidate order 1)")
      ("verdict-seed", po::value<uint64_t>(),
       "first seed of the final verdict (default: fresh from the OS, never one a development evaluation used)")
      ("json", po::bool_switch(), "print the result as one report JSON line (docs/agent.md)")
      ("quiet,q", po::bool_switch(), "no progress lines on stderr");
  opts.add(llm_options());
  po::variables_map vm;
  if (!parse_or_help(args, opts, po::positional_options_description{}, vm)) return vm.count("help") ? 0 : 2;
  if (!vm.count("task") || !vm.count("config")) throw InputError("--task and --config are required (see tlmcraft agent --help)");
  if (vm["trials"].as<int>() < 1) throw InputError("--trials must be at least 1");
  if (vm["budget"].as<int>() < 0) throw InputError("--budget must be >= 0");

  agent::Workload w{vm["platform"].as<std::string>(), vm["task"].as<std::string>(), vm["config"].as<std::string>()};
  int level = 0;
  try {
    level = tasks::Registry::builtin().instance(w.task, w.platform, w.config).task().level;
  } catch (const tasks::TaskError& e) {
    throw InputError(e.what());
  }
  const std::string platform_config = vm["platform-config"].as<std::string>();
  const auto overrides = vm["set"].as<std::vector<std::string>>();
  // --isa-dir / --isa-ext: checked (exit 2 naming file:line:col), then given explicitly to
  // the prompt, the toolbox and the verdict.
  const isa::IsaVariant isa_variant = use_isa_variant(vm, w.platform);
  (void)make_platform(w.platform, platform_config, overrides);  // bad platform/config: exit 2 before anything runs

  agent::ProviderOptions po;
  po.kind = vm.count("provider") ? vm["provider"].as<std::string>() : default_provider(vm);
  if (vm.count("base-url")) po.base_url = vm["base-url"].as<std::string>();
  if (vm.count("model")) po.model = vm["model"].as<std::string>();
  if (vm.count("api-key")) po.api_key = vm["api-key"].as<std::string>();
  po.max_tokens = vm["max-tokens"].as<int>();
  if (vm.count("temperature")) po.temperature = vm["temperature"].as<double>();
  po.timeout_seconds = vm["request-timeout"].as<double>();
  po.max_retries = vm["retries"].as<int>();
  if (vm.count("replay")) po.replay_path = vm["replay"].as<std::string>();
  if (po.kind == "replay" && po.replay_path.empty()) throw InputError("--provider replay needs --replay FILE");
  po.workload = w;
  po.seed = vm.count("seed") ? vm["seed"].as<uint64_t>() : 1;
  apply_llm_options(vm, po);

  const std::string workspace_dir = vm["workspace"].as<std::string>();
  const std::string transcript = vm.count("transcript") ? vm["transcript"].as<std::string>()
                                                         : workspace_dir + "/" + w.task + "_" + w.platform + "_" + w.config + ".jsonl";
  if (po.kind == "replay" && std::filesystem::absolute(po.replay_path) == std::filesystem::absolute(transcript))
    throw InputError("--replay and --transcript name the same file; give the replayed run its own --transcript");

  std::unique_ptr<agent::Provider> provider;
  try {
    provider = make_provider(po);
  } catch (const agent::ProviderError& e) {
    throw InputError(e.what());
  }
  // Prices and the context window of the model the provider names ("openai:gpt-5" -> gpt-5).
  const std::optional<agent::PriceTable> prices = load_price_table(vm);
  const std::string provider_name = provider->name();
  const std::string model_name = provider_name.substr(provider_name.find(':') + 1);
  const std::optional<agent::ModelPrice> price =
      prices && provider_name.find(':') != std::string::npos ? prices->find(model_name) : std::nullopt;

  agent::ToolboxOptions to;
  to.workspace_dir = workspace_dir;
  to.workload = w;
  to.platform_config = platform_config;
  to.overrides = overrides;
  to.isa = isa_variant;
  to.trials = vm["trials"].as<int>();
  if (vm.count("seed")) to.seed = vm["seed"].as<uint64_t>();
  auto toolbox = agent::make_toolbox(to);
  agent::Workspace workspace(workspace_dir);

  agent::LoopOptions lo;
  lo.workload = w;
  lo.level = level;
  lo.budget = vm["budget"].as<int>();
  lo.transcript_path = transcript;
  lo.resume = vm["resume"].as<bool>();
  lo.price = price;
  lo.context_tokens = context_budget(vm, price);
  lo.output_reserve_tokens = size_t(po.max_tokens);
  agent::PromptOptions pr{w, platform_config, overrides, lo.budget > 0 ? lo.budget : agent::default_budget(level),
                          isa_variant};
  lo.prompt = agent::build_system_prompt(pr);
  lo.run_info = {{"provider", po.kind}, {"model", po.model}, {"base_url", po.base_url}, {"platform_config", platform_config},
                 {"overrides", overrides}, {"trials", to.trials}, {"seed", to.seed ? json(*to.seed) : json(nullptr)},
                 {"workspace", workspace_dir}, {"llm", llm_run_info(po, lo.context_tokens, price)},
                 {"isa_dir", isa_variant.isa_dir}, {"isa_ext", isa_variant.overlays}};
  const bool quiet = vm["quiet"].as<bool>();
  if (!quiet) lo.log = [&](const std::string& line) { std::cerr << "[agent " << w.key() << "] " << line << "\n"; };

  workspace.write_metadata(w, {{"workload", w.key()}, {"provider", provider->name()}, {"transcript", transcript},
                            {"budget", pr.budget_rounds}, {"run", lo.run_info}});
  agent::LoopResult result;
  try {
    result = agent::run_agent_loop(*provider, *toolbox, lo);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());  // unusable transcript (resume of another workload, unreadable file)
  }

  // The verdict runs after the loop: the agent never sees its seeds or outputs.
  const std::optional<uint64_t> verdict_seed =
      vm.count("verdict-seed") ? std::optional<uint64_t>(vm["verdict-seed"].as<uint64_t>()) : std::nullopt;
  const json verdict = agent::final_verdict(w, result, workspace, to, verdict_seed);
  const json rep = agent::agent_report(w, level, result, workspace, provider->name(), transcript, verdict);
  const bool solved = result.solved() && rep.value("status", "") == "pass";
  if (vm["json"].as<bool>()) {
    std::cout << rep.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
  } else {
    std::cout << agent::agent_result_text(w, result);
    if (!verdict.is_null())
      std::cout << "final verdict on fresh inputs (seeds " << verdict["verdict"]["seeds"].dump() << "): "
                << rep.value("status", "") << ", " << rep.value("cycles", uint64_t(0)) << " cycles"
                << (solved ? "" : " - " + rep.value("reason", "")) << "\n"
                << harness::variant_uses_text(rep.value("isa_variant_uses", json::array()));
    std::cout << "transcript: " << transcript << "\nworkspace: " << workspace_dir << "\n";
  }
  if (solved) return 0;
  return result.stop_reason == "provider_error" && result.rounds == 0 ? 2 : 1;
}

namespace {
const bool registered = register_command("agent", cmd_agent, "run an agent (LLM or built-in search) on one workload");
}

}  // namespace tlmcraft::cli
