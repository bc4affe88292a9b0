#pragma once
// The stb declarations svc uses, with the same configuration as their one implementation
// (StbBindings.cpp): only the JPEG and PNG decoders (less parser surface for untrusted bytes;
// the GIF decoder of this stb version has known memory-safety bugs), no stdio (the core does no I/O).
#define STBI_NO_STDIO
#define STBI_ONLY_JPEG
#define STBI_ONLY_PNG
// A backstop under ImageCodec's own pixel limit: no side longer than this is ever allocated.
#define STBI_MAX_DIMENSIONS 20000
#define STBI_WRITE_NO_STDIO
// Decoding allocates only within the budget ImageCodec installs (StbAllocationBudget, docs/adr/0060).
#include "image/StbAllocationBudget.hpp"
#define STBI_MALLOC(bytes) ::svc::StbAllocationBudget::allocate(bytes)
#define STBI_REALLOC(block, bytes) ::svc::StbAllocationBudget::reallocate(block, bytes)
#define STBI_FREE(block) ::svc::StbAllocationBudget::release(block)
#include <stb/stb_image.h>
#include <stb/stb_image_resize.h>
#include <stb/stb_image_write.h>
