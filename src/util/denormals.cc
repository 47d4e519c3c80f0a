#include "seedrl/util/denormals.h"

#include <ATen/Context.h>

namespace seedrl {

bool flush_denormals_on_this_thread() { return at::globalContext().setFlushDenormal(true); }

}  // namespace seedrl
