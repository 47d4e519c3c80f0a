// `seedrl export`: a checkpoint's network as a file Python's torch.load reads
// (docs/export.md). torch.load returns a plain dict: each parameter and
// buffer of the network by its module name (a state_dict, the obs
// normaliser's moments included), and "seedrl_metadata", a JSON string that
// says which network the names belong to (env, torso, widths, specs).
#pragma once

#include <string>

namespace seedrl {

// Throws CheckpointError naming the checkpoint, or std::invalid_argument
// naming -o when `out_path` cannot be written (an earlier file there stays).
void export_weights(const std::string& checkpoint, const std::string& out_path);

}  // namespace seedrl
