// --executor local|slurm and the Slurm options, shared by bench, agent-bench and sweep.
#pragma once
#include <memory>

#include <boost/program_options.hpp>

#include "harness/executor.h"

namespace tlmcraft::cli {

// The "executor" option group (add it with opts.add(executor_options())).
boost::program_options::options_description executor_options();
// The executor the options ask for; throws InputError for bad values or Slurm options
// given without --executor slurm.
std::unique_ptr<harness::Executor> make_executor(const boost::program_options::variables_map& vm);

}  // namespace tlmcraft::cli
