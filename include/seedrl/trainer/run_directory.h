// A training run's --logdir: created if missing; a fresh run (no --resume)
// in a directory that holds an earlier run's checkpoint first moves that
// run's files into a subdirectory, so forgetting --resume once does not
// overwrite a trained model (TensorBoard shows the moved run beside the new).
#pragma once

#include <string>

namespace seedrl {

// Throws std::invalid_argument naming --logdir when it cannot be created or
// written in.
// Returns the subdirectory the earlier run was moved to, or "" if none.
std::string prepare_run_directory(const std::string& logdir, bool resume);

// logdir/config.toml: the settings a fresh run was given (TrainConfig::
// settings_toml), for `seedrl train --config` to run it again.
void write_run_settings(const std::string& logdir, const std::string& toml);

}  // namespace seedrl
