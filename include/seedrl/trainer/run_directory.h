// A training run's --logdir: created if missing; a fresh run (no --resume)
// in a directory that holds an earlier run's checkpoint first moves that
// run's files into a subdirectory, so forgetting --resume once does not
// overwrite a trained model (TensorBoard shows the moved run beside the new).
#pragma once

#include <string>
#include <vector>

#include "seedrl/io/output_path.h"

namespace seedrl {

// Creates `logdir` if missing; throws std::invalid_argument naming --logdir
// when it cannot be created or written in.
void create_run_directory(const std::string& logdir);

// create_run_directory, then sets an earlier run aside (unless resuming).
// Returns the subdirectory the earlier run was moved to, or "" if none.
std::string prepare_run_directory(const std::string& logdir, bool resume);

// logdir/config.toml: the settings a fresh run was given (TrainConfig::
// settings_toml), for `seedrl train --config` to run it again.
void write_run_settings(const std::string& logdir, const std::string& toml);

// The run's own files in `logdir` that exist now (those a fresh run sets
// aside): a command that reads a run writes its output over none of them.
std::vector<std::string> run_files(const std::string& logdir);

// What a command that reads `checkpoint` (given as `flag`) keeps its output
// off (io/output_path.h): the checkpoint, and the files of its run beside it.
std::vector<KeptFile> checkpoint_and_run_files(const std::string& checkpoint, const std::string& flag);

}  // namespace seedrl
