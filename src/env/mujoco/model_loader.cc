#include "seedrl/env/mujoco/model_loader.h"

#include <cstdlib>
#include <stdexcept>
#include <system_error>

#include "seedrl/env/mujoco/mujoco_messages.h"

#if SEEDRL_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace seedrl {

namespace fs = std::filesystem;

std::vector<fs::path> default_asset_dirs() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("SEEDRL_ASSETS_DIR"); env != nullptr && *env != '\0') {
    dirs.emplace_back(env);
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path exe_dir = exe.parent_path();
    dirs.push_back(exe_dir / "assets");
    dirs.push_back(exe_dir / ".." / "share" / "seedrl" / "assets");
    dirs.push_back(exe_dir / ".." / "assets");
  }
#ifdef SEEDRL_SOURCE_ASSETS_DIR
  dirs.emplace_back(SEEDRL_SOURCE_ASSETS_DIR);
#endif
  return dirs;
}

fs::path find_asset(const std::string& relative, const std::vector<fs::path>& dirs) {
  std::string tried;
  for (const fs::path& dir : dirs) {
    const fs::path candidate = dir / relative;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal();
    tried += (tried.empty() ? "" : ", ") + candidate.lexically_normal().string();
  }
  throw std::runtime_error("asset '" + relative +
                           "' not found; tried: " + (tried.empty() ? std::string("(no directories)") : tried) +
                           " (set SEEDRL_ASSETS_DIR to the folder holding mujoco/)");
}

MujocoModelLoader::MujocoModelLoader(std::vector<fs::path> dirs) : dirs_(std::move(dirs)) {}

MujocoModelLoader& MujocoModelLoader::process_wide() {
  static MujocoModelLoader loader;  // thread-safe initialisation; its cache has a mutex
  return loader;
}

fs::path MujocoModelLoader::resolve(const std::string& file) const {
  const std::string relative = "mujoco/" + file;
  return find_asset(relative, dirs_.empty() ? default_asset_dirs() : dirs_);
}

std::shared_ptr<const mjModel_> MujocoModelLoader::load(const std::string& file) {
#if SEEDRL_HAVE_MUJOCO
  install_mujoco_messages();  // before MuJoCo can fail or warn for the first time
  const fs::path path = resolve(file);
  std::error_code ec;
  fs::path key = fs::weakly_canonical(path, ec);
  if (ec) key = path;
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  char error[1024] = "";
  mjModel* model = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  if (model == nullptr) {
    throw std::runtime_error("cannot load MuJoCo model " + path.string() + ": " + error);
  }
  std::shared_ptr<const mjModel_> shared(model, [](const mjModel* m) { mj_deleteModel(const_cast<mjModel*>(m)); });
  cache_.emplace(key, shared);
  return shared;
#else
  throw std::runtime_error("cannot load MuJoCo model '" + file +
                           "': seedrl was built without MuJoCo (install libmujoco-dev and "
                           "reconfigure)");
#endif
}

}  // namespace seedrl
