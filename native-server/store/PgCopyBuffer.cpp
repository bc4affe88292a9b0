#include "store/PgCopyBuffer.hpp"

namespace svc {

void PgCopyBuffer::separate() {
    if (rowStarted_) data_ += '\t';
    rowStarted_ = true;
}

PgCopyBuffer& PgCopyBuffer::text(std::string_view value) {
    separate();
    size_t run = 0;
    for (size_t i = 0; i < value.size(); ++i) {
        const char* escaped = nullptr;
        switch (value[i]) {
            case '\\': escaped = "\\\\"; break;
            case '\t': escaped = "\\t"; break;
            case '\n': escaped = "\\n"; break;
            case '\r': escaped = "\\r"; break;
            default: continue;
        }
        data_.append(value.substr(run, i - run));
        data_ += escaped;
        run = i + 1;
    }
    data_.append(value.substr(run));
    return *this;
}

PgCopyBuffer& PgCopyBuffer::integer(int64_t value) {
    separate();
    data_ += std::to_string(value);
    return *this;
}

PgCopyBuffer& PgCopyBuffer::integer(const std::optional<int64_t>& value) {
    if (!value) return null();
    return integer(*value);
}

PgCopyBuffer& PgCopyBuffer::null() {
    separate();
    data_ += "\\N";
    return *this;
}

void PgCopyBuffer::endRow() {
    data_ += '\n';
    rowStarted_ = false;
}

}  // namespace svc
