#include "feed/CsvReader.hpp"

#include <algorithm>
#include <cstring>

namespace svc {
namespace {
constexpr unsigned char kBom[] = {0xEF, 0xBB, 0xBF};
}

CsvReader::CsvReader(char delimiter, CsvLimits limits) : delimiter_(delimiter), limits_(limits) {}

void CsvReader::append(const char* bytes, size_t count, CsvSink& sink) {
    if (skipping_) return;
    size_t fieldRoom = limits_.maxFieldBytes - field_.size();
    size_t recordRoom = limits_.maxRecordBytes - recordBytes_;
    if (count > fieldRoom || count > recordRoom) {
        // Whichever limit the bytes cross first, as if they came one by one: chunk boundaries must not change the report.
        if (fieldRoom <= recordRoom) {
            return tooLong(sink, CsvIssueKind::FieldTooLong,
                           "field " + std::to_string(fieldCount_ + 1) + " is longer than " + std::to_string(limits_.maxFieldBytes) + " bytes");
        }
        return tooLong(sink, CsvIssueKind::RecordTooLong, "the row is longer than " + std::to_string(limits_.maxRecordBytes) + " bytes");
    }
    field_.append(bytes, count);
    recordBytes_ += count;
}

void CsvReader::delimiterSeen(CsvSink& sink) {
    if (skipping_) return;
    if (recordBytes_ >= limits_.maxRecordBytes) {
        return tooLong(sink, CsvIssueKind::RecordTooLong, "the row is longer than " + std::to_string(limits_.maxRecordBytes) + " bytes");
    }
    ++recordBytes_;
}

void CsvReader::tooLong(CsvSink& sink, CsvIssueKind kind, std::string message) {
    sink.onMalformedRecord({kind, record_.line, fieldCount_ + 1, std::move(message)});
    skipping_ = true;
    field_.clear();
}

void CsvReader::endField() {
    if (skipping_) {
        field_.clear();
        return;
    }
    // Field strings are reused from record to record: swapping hands the finished value
    // to the record and an old buffer (with its capacity) back to field_.
    if (fieldCount_ < record_.fields.size()) record_.fields[fieldCount_].swap(field_);
    else record_.fields.push_back(std::move(field_));
    ++fieldCount_;
    field_.clear();
}

void CsvReader::endRecord(CsvSink& sink) {
    if (!skipping_ && (recordHasContent_ || fieldCount_ > 0)) {
        endField();
        record_.fields.resize(fieldCount_);
        // A line holding nothing at all is skipped, not reported as a one-field record.
        bool blankLine = fieldCount_ == 1 && record_.fields[0].empty() && !recordHasContent_;
        if (!blankLine) sink.onRecord(record_);
    }
    fieldCount_ = 0;
    field_.clear();
    recordHasContent_ = false;
    recordBytes_ = 0;
    skipping_ = false;
    state_ = State::FieldStart;
}

void CsvReader::endLine(CsvSink& sink, char terminator) {
    pendingCarriageReturn_ = terminator == '\r';  // a following '\n' belongs to this line end
    endRecord(sink);
    ++line_;
}

void CsvReader::malformed(CsvSink& sink, CsvIssueKind kind, std::string message) {
    // A record already reported too long is not reported twice.
    if (!skipping_) sink.onMalformedRecord({kind, record_.line, fieldCount_ + 1, std::move(message)});
    fieldCount_ = 0;
    field_.clear();
    recordHasContent_ = false;
    recordBytes_ = 0;
    skipping_ = false;
    state_ = State::AfterMalformed;
}

void CsvReader::feed(std::string_view chunk, CsvSink& sink) {
    size_t i = 0;
    // Skip a UTF-8 BOM at the very start, even when split across chunks.
    while (atStart_ && i < chunk.size()) {
        if (static_cast<unsigned char>(chunk[i]) == kBom[bomMatched_]) {
            ++bomMatched_;
            ++i;
            if (bomMatched_ == 3) atStart_ = false;
        } else {
            // Not a BOM: replay the bytes matched so far as content.
            atStart_ = false;
            std::string replay(reinterpret_cast<const char*>(kBom), bomMatched_);
            if (!replay.empty()) feed(replay, sink);
        }
    }
    for (; i < chunk.size(); ++i) {
        char c = chunk[i];
        if (pendingCarriageReturn_) {
            pendingCarriageReturn_ = false;
            if (c == '\n') continue;  // CRLF: the CR already ended the line
        }
        if (fieldCount_ == 0 && field_.empty() && !recordHasContent_ && state_ == State::FieldStart) {
            record_.line = line_;
        }
        switch (state_) {
            case State::FieldStart:
                if (c == '"') {
                    state_ = State::Quoted;
                    recordHasContent_ = true;
                } else if (c == delimiter_) {
                    recordHasContent_ = true;
                    delimiterSeen(sink);
                    endField();
                } else if (c == '\n' || c == '\r') {
                    endLine(sink, c);
                } else {
                    recordHasContent_ = true;
                    append(&c, 1, sink);
                    state_ = State::Unquoted;
                }
                break;
            case State::Unquoted:
                if (c == delimiter_) {
                    delimiterSeen(sink);
                    endField();
                    state_ = State::FieldStart;
                } else if (c == '\n' || c == '\r') {
                    endLine(sink, c);
                } else {
                    // Fast path: take the run up to the next delimiter or line end in one append.
                    // A quote inside an unquoted value is kept literally.
                    size_t end = i + 1;
                    while (end < chunk.size() && chunk[end] != delimiter_ && chunk[end] != '\n' && chunk[end] != '\r') ++end;
                    append(chunk.data() + i, end - i, sink);
                    i = end - 1;
                }
                break;
            case State::Quoted:
                if (c == '"') {
                    state_ = State::QuoteInQuoted;
                } else {
                    // Fast path: everything up to the next quote belongs to the value.
                    const char* start = chunk.data() + i;
                    const void* quote = std::memchr(start, '"', chunk.size() - i);
                    size_t length = quote ? static_cast<size_t>(static_cast<const char*>(quote) - start) : chunk.size() - i;
                    line_ += static_cast<size_t>(std::count(start, start + length, '\n'));
                    append(start, length, sink);
                    i += length - 1;
                }
                break;
            case State::QuoteInQuoted:
                if (c == '"') {
                    append(&c, 1, sink);
                    state_ = State::Quoted;
                } else if (c == delimiter_) {
                    delimiterSeen(sink);
                    endField();
                    state_ = State::FieldStart;
                } else if (c == '\n' || c == '\r') {
                    endLine(sink, c);
                } else {
                    malformed(sink, CsvIssueKind::CharacterAfterClosingQuote,
                              std::string("unexpected character '") + c + "' after a closing quote");
                }
                break;
            case State::AfterMalformed:
                // Resynchronise at the next line end.
                if (c == '\n' || c == '\r') {
                    pendingCarriageReturn_ = c == '\r';
                    state_ = State::FieldStart;
                    ++line_;
                }
                break;
        }
    }
}

void CsvReader::finish(CsvSink& sink) {
    if (atStart_ && bomMatched_ > 0) {
        atStart_ = false;
        std::string replay(reinterpret_cast<const char*>(kBom), bomMatched_);
        feed(replay, sink);
    }
    if (state_ == State::Quoted) {
        malformed(sink, CsvIssueKind::UnterminatedQuote, "quoted value is never closed");
        state_ = State::FieldStart;
        return;
    }
    if (state_ != State::AfterMalformed) endRecord(sink);
    state_ = State::FieldStart;
}

}  // namespace svc
