#include "seedrl/util/error_text.h"

#include <new>

#include <c10/util/Exception.h>

namespace seedrl {

std::string error_text(const std::exception& e) {
  std::string text;
  if (const auto* c10 = dynamic_cast<const c10::Error*>(&e)) {
    text = c10->what_without_backtrace();
  } else if (dynamic_cast<const std::bad_alloc*>(&e)) {
    text = std::string("out of memory (") + e.what() + ")";
  } else {
    text = e.what();
  }
  if (const auto nl = text.find('\n'); nl != std::string::npos) text.resize(nl);
  return text;
}

}  // namespace seedrl
