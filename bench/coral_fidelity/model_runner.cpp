#include "bench/coral_fidelity/model_runner.h"

#include "platforms/coral/coral_platform.h"
#include "platforms/registry.h"
#include "tasks/baselines/baseline.h"
#include "tasks/registry.h"

namespace tlmcraft::bench {

namespace {

constexpr uint32_t kExtBase = 0x20000000;

RunLimits campaign_limits() {
  RunLimits l;
  l.max_instructions = 200'000'000;
  l.max_cycles = 1'000'000'000;
  l.wall_seconds = 600;
  return l;
}

bool assemble(Platform& p, const std::string& source, const std::string& file, const KernelContext& context,
              ModelRun& run) {
  std::vector<isa::Diagnostic> diags;
  if (p.assemble(source, file, context, run.program, diags)) return true;
  run.error = diags.empty() ? "build failed" : diags.front().format();
  return false;
}

void finish(Platform& p, ModelRun& run) {
  const RunResult r = p.run(campaign_limits(), {});
  run.cycles = r.cycles;
  run.instructions = r.instructions;
  run.ok = r.ok();
  if (!run.ok) run.error = r.message;
  for (const ExtRegion& in : run.inputs)
    run.outputs.push_back({in.address, p.read_memory("ext", in.address - kExtBase, in.bytes.size())});
}

void run_task(Platform& p, const FidelityCase& c, ModelRun& run) {
  const tasks::Instance inst = tasks::Registry::builtin().instance(c.task, "coral", c.config);
  const KernelContext context{inst.layout()->kernel_defaults()};
  // A kernel of its own (a search-agent version), else the task's baseline.
  const bool own = !c.source.empty();
  const std::string source = own ? c.source : tasks::baseline_kernel(inst, p.config());
  if (!assemble(p, source, own ? c.file_name : tasks::baseline_file_name(inst), context, run)) return;
  p.load(run.program);
  const auto layout = inst.layout();
  std::vector<tasks::MemoryWrite> writes = layout->encode_inputs(inst.generate_inputs(1));
  for (auto& w : layout->poison_outputs()) writes.push_back(std::move(w));
  for (const auto& w : writes) {
    if (w.memory != "ext") {
      run.error = "the layout writes memory '" + w.memory + "', which the oracle runner cannot preload";
      return;
    }
    p.write_memory(w.memory, w.address, w.bytes);
    run.inputs.push_back({static_cast<uint32_t>(kExtBase + w.address), w.bytes});
  }
  finish(p, run);
}

}  // namespace

ModelRun run_on_model(const FidelityCase& c, const std::vector<std::string>& overrides) {
  ModelRun run;
  try {
    const auto p = make_platform("coral", "default", overrides);
    if (!c.task.empty()) {
      run_task(*p, c, run);
    } else if (assemble(*p, c.source, c.file_name, {}, run)) {
      p->load(run.program);
      finish(*p, run);
    }
  } catch (const std::exception& e) {
    run.ok = false;
    run.error = e.what();
  }
  return run;
}

std::vector<FidelityCase> task_cases() {
  const auto& reg = tasks::Registry::builtin();
  std::vector<FidelityCase> cases;
  auto add = [&](const tasks::TaskSpec& t, const std::string& kind) {
    for (const char* cfg : {"C1", "C2", "C3", "C4", "C5"}) {
      try {
        const tasks::Instance inst = reg.instance(t.name, "coral", cfg);
        if (!tasks::has_baseline(inst)) continue;
      } catch (const tasks::TaskError&) {
        continue;  // not a Coral cell
      }
      cases.push_back({kind, t.name + "/" + cfg, t.name, cfg, "", ""});
    }
  };
  for (const auto& t : reg.tasks()) add(t, "task");
  for (const auto& t : reg.cpu_tasks()) add(t, "cpu");
  return cases;
}

}  // namespace tlmcraft::bench
