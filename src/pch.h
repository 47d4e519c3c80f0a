// Precompiled header for targets that use LibTorch: its headers dominate
// compile time, so every translation unit shares one parse of them.
#pragma once
#include <torch/torch.h>
