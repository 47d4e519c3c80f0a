// Finds and loads the MuJoCo model files under assets/mujoco/. A model is
// compiled once per process per file and shared, read-only, by every env that
// uses it; each env keeps its own mjData.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct mjModel_;  // MuJoCo's mjModel; complete only where <mujoco/mujoco.h> is included

namespace seedrl {

// Where assets are searched, in order: $SEEDRL_ASSETS_DIR, <exe dir>/assets,
// <exe dir>/../share/seedrl/assets, <exe dir>/../assets, then the source
// tree's assets/ (compiled in). Computed afresh on each call.
std::vector<std::filesystem::path> default_asset_dirs();

// The first `dir / relative` that is a regular file. Throws std::runtime_error
// naming every path tried when none is.
std::filesystem::path find_asset(const std::string& relative, const std::vector<std::filesystem::path>& dirs);

class MujocoModelLoader {
 public:
  // With no dirs, each load searches default_asset_dirs().
  explicit MujocoModelLoader(std::vector<std::filesystem::path> dirs = {});

  // The loader every built-in env uses, so a model is compiled once per process.
  static MujocoModelLoader& process_wide();

  // The path `file` (e.g. "hopper.xml") resolves to under <assets>/mujoco/.
  std::filesystem::path resolve(const std::string& file) const;

  // Loads <assets>/mujoco/<file>; a path loaded before returns the same model.
  // Throws std::runtime_error if the file is missing or does not compile, and
  // also when seedrl was built without MuJoCo.
  std::shared_ptr<const mjModel_> load(const std::string& file);

 private:
  std::vector<std::filesystem::path> dirs_;
  std::mutex mutex_;  // guards cache_ and serialises XML compilation
  std::map<std::filesystem::path, std::shared_ptr<const mjModel_>> cache_;
};

}  // namespace seedrl
