// The agent's system prompt, built from parts so each can be measured and documented:
// role and rules, the task, the ISA reference (generated from the ISA YAML where the ISA
// is data), the hardware configuration, the memory layout and the budget.
#pragma once
#include <string>
#include <vector>

#include "agent/toolbox.h"
#include "isa/isa_variant.h"

namespace tlmcraft::agent {

struct PromptPart {
  std::string name;     // "role", "task", "isa", "hardware", "layout", "budget"
  std::string text;
  size_t tokens = 0;    // estimate_tokens(text)
};

struct SystemPrompt {
  std::vector<PromptPart> parts;
  std::string text() const;     // the parts joined, each under a "## " heading (role has none)
  size_t tokens() const;        // sum of the parts' estimates
};

// Token estimate: ceil(bytes / 4), the usual rule of thumb for English and code with
// BPE tokenizers (within about 25% of the OpenAI/Anthropic counts for this text).
size_t estimate_tokens(const std::string& text);

struct PromptOptions {
  Workload workload;
  std::string platform_config = "default";
  std::vector<std::string> overrides;
  isa::IsaVariant isa;          // --isa-dir / --isa-ext: the ISA reference shows its instructions
  int budget_rounds = 0;        // tool rounds the run may use
};

// Throws std::runtime_error / InputError for an unknown workload or platform.
SystemPrompt build_system_prompt(const PromptOptions& options);

// The paper's budgets: 15 / 20 / 25 tool rounds for levels 1 / 2 / 3 (25 for others).
int default_budget(int level);

}  // namespace tlmcraft::agent
