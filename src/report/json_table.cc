#include "seedrl/report/json_table.h"

#include <fmt/format.h>

namespace seedrl::report {

namespace {

std::string scalar_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return fmt::format("{:.6g}", v.get<double>());
  return v.dump();  // integers, booleans, null
}

void flatten(const nlohmann::json& j, const std::string& key, std::size_t max_rows, Table& out, std::size_t& left_out,
             int depth) {
  const bool nested = (j.is_object() || j.is_array()) && !j.empty();
  if (nested && depth < 32) {
    if (j.is_object()) {
      for (const auto& [k, v] : j.items())
        flatten(v, key.empty() ? k : key + "." + k, max_rows, out, left_out, depth + 1);
    } else {
      for (std::size_t i = 0; i < j.size(); ++i)
        flatten(j[i], key + "[" + std::to_string(i) + "]", max_rows, out, left_out, depth + 1);
    }
    return;
  }
  if (out.size() >= max_rows) {
    ++left_out;
    return;
  }
  // Past the depth cap a value is not printed: dump() recurses, and a file
  // nested 100,000 deep would overflow the stack.
  out.emplace_back(key, nested ? std::string("(nested deeper than 32 levels)") : scalar_text(j));
}

}  // namespace

Table flatten_json(const nlohmann::json& j, std::size_t max_rows) {
  Table out;
  std::size_t left_out = 0;
  flatten(j, "", max_rows, out, left_out, 0);
  if (left_out > 0) out.emplace_back("…", fmt::format("{} more rows left out", left_out));
  return out;
}

}  // namespace seedrl::report
