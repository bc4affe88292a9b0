#pragma once
// Streaming CSV reader: bytes go in chunk by chunk, complete records come out, so a
// feed of any size is read in constant memory. Follows the feed rules of the spec
// (delimiter, double-quote qualifier with "" escapes, UTF-8) and tolerates what real
// feeds contain: CRLF, a UTF-8 BOM, quoted newlines, unquoted values. Fields and rows are
// limited (CsvLimits, docs/adr/0054): a longer one is reported and skipped without being held,
// so memory stays bounded whatever a line holds.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace svc {

struct CsvRecord {
    std::vector<std::string> fields;
    size_t line = 0;  // 1-based physical line where the record starts
};

enum class CsvIssueKind { UnterminatedQuote, CharacterAfterClosingQuote, FieldTooLong, RecordTooLong };

// A feed's fields are names, texts and URLs: 64 KiB holds any real description many times over,
// 1 MiB any real row. Counted in bytes of the values (quotes and doubled quotes count once) plus
// one per delimiter.
struct CsvLimits {
    size_t maxFieldBytes = size_t{64} << 10;
    size_t maxRecordBytes = size_t{1} << 20;
};

struct CsvIssue {
    CsvIssueKind kind;
    size_t line = 0;    // 1-based line of the record
    size_t column = 0;  // 1-based field number
    std::string message;
};

class CsvSink {
public:
    virtual ~CsvSink() = default;
    virtual void onRecord(const CsvRecord& record) = 0;
    // The record could not be read; reading continues with the next line.
    virtual void onMalformedRecord(const CsvIssue& issue) = 0;
};

class CsvReader {
public:
    explicit CsvReader(char delimiter = ';', CsvLimits limits = {});

    void feed(std::string_view chunk, CsvSink& sink);
    // Flushes the last record (a file need not end with a newline).
    void finish(CsvSink& sink);

private:
    enum class State { FieldStart, Unquoted, Quoted, QuoteInQuoted, AfterMalformed };

    void endField();
    void endRecord(CsvSink& sink);
    void endLine(CsvSink& sink, char terminator);
    void malformed(CsvSink& sink, CsvIssueKind kind, std::string message);
    // Adds bytes of the current value, or reports the field or row as too long and skips it.
    void append(const char* bytes, size_t count, CsvSink& sink);
    void delimiterSeen(CsvSink& sink);
    void tooLong(CsvSink& sink, CsvIssueKind kind, std::string message);

    char delimiter_;
    CsvLimits limits_;
    State state_ = State::FieldStart;
    CsvRecord record_;
    size_t fieldCount_ = 0;  // fields of the current record (record_.fields keeps buffers beyond it)
    std::string field_;
    size_t line_ = 1;
    bool atStart_ = true;       // for the optional UTF-8 byte-order mark
    size_t bomMatched_ = 0;
    bool pendingCarriageReturn_ = false;
    bool recordHasContent_ = false;
    size_t recordBytes_ = 0;
    // The record was reported too long: it is read to its end (quotes and all) but nothing of it is kept.
    bool skipping_ = false;
};

}  // namespace svc
