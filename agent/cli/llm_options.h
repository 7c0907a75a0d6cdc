// The reasoning-model, request, cost, context and rate-limit options that `tlmcraft agent`
// takes and `tlmcraft agent-bench` passes on to every run (docs/providers.md).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "agent/pricing.h"
#include "agent/providers.h"

namespace tlmcraft::cli {

// The options, without defaults where "not given" means "passed on as not given".
boost::program_options::options_description llm_options();

// Reads them into `o` (after kind, model and max_tokens are set). InputError (exit 2) for a
// bad value: an unknown thinking mode or profile, --extra-body that is not a JSON object
// or is over 64 KiB, a thinking budget out of range, a negative limit.
void apply_llm_options(const boost::program_options::variables_map& vm, agent::ProviderOptions& o);

// The price table: --price-table, else the shipped one (none when the data folder has
// none). InputError for a given table that cannot be read.
std::optional<agent::PriceTable> load_price_table(const boost::program_options::variables_map& vm);

// The --context-tokens budget: the option when given, else the table's context window for
// the model, else 0 (no budget).
size_t context_budget(const boost::program_options::variables_map& vm, const std::optional<agent::ModelPrice>& price);

// The given options as command-line arguments, for agent-bench to pass on.
std::vector<std::string> llm_option_args(const boost::program_options::variables_map& vm);

// The options as recorded in the transcript's start event.
nlohmann::json llm_run_info(const agent::ProviderOptions& o, size_t context_tokens,
                            const std::optional<agent::ModelPrice>& price);

}  // namespace tlmcraft::cli
