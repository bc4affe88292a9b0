#include "feed/CsvReader.hpp"

namespace svc {
namespace {
constexpr unsigned char kBom[] = {0xEF, 0xBB, 0xBF};
}

CsvReader::CsvReader(char delimiter) : delimiter_(delimiter) {}

void CsvReader::endField() {
    record_.fields.push_back(std::move(field_));
    field_.clear();
}

void CsvReader::endRecord(CsvSink& sink) {
    if (recordHasContent_ || !record_.fields.empty()) {
        endField();
        // A line holding nothing at all is skipped, not reported as a one-field record.
        bool blankLine = record_.fields.size() == 1 && record_.fields[0].empty() && !recordHasContent_;
        if (!blankLine) sink.onRecord(record_);
    }
    record_.fields.clear();
    field_.clear();
    recordHasContent_ = false;
    state_ = State::FieldStart;
}

void CsvReader::endLine(CsvSink& sink, char terminator) {
    pendingCarriageReturn_ = terminator == '\r';  // a following '\n' belongs to this line end
    endRecord(sink);
    ++line_;
}

void CsvReader::malformed(CsvSink& sink, CsvIssueKind kind, std::string message) {
    sink.onMalformedRecord({kind, record_.line, record_.fields.size() + 1, std::move(message)});
    record_.fields.clear();
    field_.clear();
    recordHasContent_ = false;
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
        if (record_.fields.empty() && field_.empty() && !recordHasContent_ && state_ == State::FieldStart) {
            record_.line = line_;
        }
        switch (state_) {
            case State::FieldStart:
                if (c == '"') {
                    state_ = State::Quoted;
                    recordHasContent_ = true;
                } else if (c == delimiter_) {
                    recordHasContent_ = true;
                    endField();
                } else if (c == '\n' || c == '\r') {
                    endLine(sink, c);
                } else {
                    field_ += c;
                    recordHasContent_ = true;
                    state_ = State::Unquoted;
                }
                break;
            case State::Unquoted:
                if (c == delimiter_) {
                    endField();
                    state_ = State::FieldStart;
                } else if (c == '\n' || c == '\r') {
                    endLine(sink, c);
                } else {
                    field_ += c;  // a quote inside an unquoted value is kept literally
                }
                break;
            case State::Quoted:
                if (c == '"') {
                    state_ = State::QuoteInQuoted;
                } else {
                    if (c == '\n') ++line_;
                    field_ += c;
                }
                break;
            case State::QuoteInQuoted:
                if (c == '"') {
                    field_ += '"';
                    state_ = State::Quoted;
                } else if (c == delimiter_) {
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
