#pragma once
// The catalog table's columns one feed field writes, the same on every backend (the SQLite and
// PostgreSQL catalogs name their columns alike): category paths write two, the SKU none (it is the key).
#include <vector>

#include "feed/FeedColumns.hpp"

namespace svc {

class CatalogColumns {
public:
    static std::vector<const char*> of(FeedField field);
};

}  // namespace svc
