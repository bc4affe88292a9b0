#include "image/StbAllocationBudget.hpp"

#include <cstdlib>
#include <cstdint>
#include <cstring>

namespace svc {
namespace {

// The budget of this thread's current probe or decode (images are decoded on the image bot's
// worker threads and on HTTP threads at once; stb's allocator hooks take no context argument).
thread_local StbAllocationBudget* current = nullptr;

// Each block starts with its size, so that free and realloc know what they give back; the
// header keeps stb's blocks aligned as malloc's are.
constexpr size_t kHeader = alignof(std::max_align_t) > sizeof(size_t) ? alignof(std::max_align_t) : sizeof(size_t);

size_t& sizeOf(void* block) { return *reinterpret_cast<size_t*>(static_cast<char*>(block) - kHeader); }

}  // namespace

StbAllocationBudget::StbAllocationBudget(size_t maxBytes) : maxBytes_(maxBytes), outer_(current) { current = this; }

StbAllocationBudget::~StbAllocationBudget() { current = outer_; }

bool StbAllocationBudget::reserve(size_t bytes) {
    if (bytes > maxBytes_ - heldBytes_) {
        exceeded_ = true;
        return false;
    }
    heldBytes_ += bytes;
    if (heldBytes_ > peakBytes_) peakBytes_ = heldBytes_;
    return true;
}

void* StbAllocationBudget::allocate(size_t bytes) {
    if (!current || bytes > SIZE_MAX - kHeader || !current->reserve(bytes)) return nullptr;
    char* raw = static_cast<char*>(std::malloc(kHeader + bytes));
    if (!raw) {
        current->heldBytes_ -= bytes;
        return nullptr;
    }
    *reinterpret_cast<size_t*>(raw) = bytes;
    return raw + kHeader;
}

// Counted as a new block plus the old one until the copy is done, as it is in the worst case.
void* StbAllocationBudget::reallocate(void* block, size_t bytes) {
    if (!block) return allocate(bytes);
    void* moved = allocate(bytes);
    if (!moved) return nullptr;  // the old block stays valid, as realloc's does
    size_t old = sizeOf(block);
    std::memcpy(moved, block, old < bytes ? old : bytes);
    release(block);
    return moved;
}

void StbAllocationBudget::release(void* block) {
    if (!block) return;
    size_t bytes = sizeOf(block);
    // A block may outlive the budget it came from (the decoded pixels are freed after the scope
    // that made them in some callers): only the budget in force gives bytes back, never below 0.
    if (current) current->heldBytes_ -= bytes < current->heldBytes_ ? bytes : current->heldBytes_;
    std::free(static_cast<char*>(block) - kHeader);
}

}  // namespace svc
