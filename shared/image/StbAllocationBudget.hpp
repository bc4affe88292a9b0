#pragma once
// Every allocation stb_image makes goes through here (StbBindings.hpp defines STBI_MALLOC,
// STBI_REALLOC and STBI_FREE): an image file declares sizes (PNG chunk lengths, the zlib
// stream's output, JPEG dimensions) and stb allocates from them before it has read the data
// behind them; a 391-byte PNG once made it ask for 2 GiB (docs/adr/0060). A budget, installed
// for the current thread by ImageCodec around each probe and decode, caps the bytes held at
// once: an allocation past it fails, stb gives up with an error, and the decode is refused.
// Outside a budget stb_image allocates nothing at all.
#include <cstddef>

namespace svc {

class StbAllocationBudget {
public:
    explicit StbAllocationBudget(size_t maxBytes);
    ~StbAllocationBudget();
    StbAllocationBudget(const StbAllocationBudget&) = delete;
    StbAllocationBudget& operator=(const StbAllocationBudget&) = delete;

    size_t maxBytes() const { return maxBytes_; }
    // The most stb held at once under this budget (without the bookkeeping header per block).
    size_t peakBytes() const { return peakBytes_; }
    // An allocation was refused: whatever stb reports next is "out of budget", not corruption.
    bool exceeded() const { return exceeded_; }

    // stb's allocator (C-style: nullptr on refusal).
    static void* allocate(size_t bytes);
    static void* reallocate(void* block, size_t bytes);
    static void release(void* block);

private:
    bool reserve(size_t bytes);

    size_t maxBytes_;
    size_t heldBytes_ = 0;
    size_t peakBytes_ = 0;
    bool exceeded_ = false;
    StbAllocationBudget* outer_;
};

}  // namespace svc
