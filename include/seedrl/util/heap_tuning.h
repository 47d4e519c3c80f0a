// glibc heap settings for LibTorch's allocation pattern. The learner frees and
// reallocates the same multi-megabyte activation tensors every update. By
// default glibc serves such blocks with mmap, or trims them back to the OS on
// free, so every update page-faults its memory in again: measured, that was
// half of an R2D2 update on MinAtar (122 ms -> 55 ms per step without it).
#pragma once

namespace seedrl {

// Serve blocks up to 32 MiB from the heap and keep freed memory there for
// reuse. Idempotent; a no-op outside glibc.
void keep_freed_memory_in_heap();

}  // namespace seedrl
