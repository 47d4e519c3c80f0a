#include "seedrl/io/replace_file.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "seedrl/io/output_file.h"

namespace seedrl {

void replace_file(const std::string& path, std::string_view contents) {
  // The process id: two writers of one file (a run and `seedrl report`) do
  // not share a temporary file.
  replace_file_via(path, path + ".tmp" + std::to_string(::getpid()), contents);
}

void replace_file_via(const std::string& path, const std::string& tmp, std::string_view contents) {
  try {
    OutputFile out(tmp, OutputFile::Mode::kTruncate);
    out.write(contents);
    out.sync();
    out.close();
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw std::system_error(ec, "cannot replace " + path + " with " + tmp);
  }
}

}  // namespace seedrl
