#include "seedrl/util/device_stream.h"

#include <c10/core/impl/VirtualGuardImpl.h>

namespace seedrl {

OwnStreamGuard::OwnStreamGuard(torch::Device device, bool high_priority) {
  if (!device.is_cuda()) return;
  c10::impl::VirtualGuardImpl impl(device.type());
  guard_.emplace(impl.getStreamFromGlobalPool(device, high_priority));
}

void synchronize_current_stream(torch::Device device) {
  if (!device.is_cuda()) return;
  c10::impl::VirtualGuardImpl impl(device.type());
  impl.getStream(device).synchronize();
}

}  // namespace seedrl
