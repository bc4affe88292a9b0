// Unit tests of feed/CsvReader: the streaming CSV reader.
//
// Every case is a row of one table: an input and the exact sequence of records and
// issues the reader must report for it. Each row is checked three ways: fed as one
// chunk, fed byte by byte, and fed in every possible 2-way split, because the reader
// promises chunk boundaries make no difference.
#include <doctest/doctest.h>

#include "TestSupport.hpp"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "feed/CsvReader.hpp"

using svc::CsvIssue;
using svc::CsvIssueKind;
using svc::CsvReader;
using svc::CsvRecord;

namespace {

// Makes control and non-ASCII bytes visible, so a failing comparison is readable.
std::string visible(std::string_view text) {
    std::string out;
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (byte < 0x20 || byte >= 0x80) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\x%02X", byte);
            out += buffer;
        } else out += c;
    }
    return out;
}

const char* kindName(CsvIssueKind kind) {
    switch (kind) {
        case CsvIssueKind::UnterminatedQuote: return "UnterminatedQuote";
        case CsvIssueKind::CharacterAfterClosingQuote: return "CharacterAfterClosingQuote";
        case CsvIssueKind::FieldTooLong: return "FieldTooLong";
        case CsvIssueKind::RecordTooLong: return "RecordTooLong";
    }
    return "?";
}

// Records every callback as one line of text: "3: [a][b]" for a record starting on
// line 3, "3: ! Kind col 2: message" for a malformed record.
class TranscriptSink : public svc::CsvSink {
public:
    std::string transcript;

    void onRecord(const CsvRecord& record) override {
        transcript += std::to_string(record.line) + ": ";
        for (const auto& field : record.fields) transcript += "[" + visible(field) + "]";
        transcript += "\n";
    }
    void onMalformedRecord(const CsvIssue& issue) override {
        transcript += std::to_string(issue.line) + ": ! " + kindName(issue.kind) + " col " + std::to_string(issue.column) +
                      ": " + issue.message + "\n";
    }
};

std::string readWhole(std::string_view input, char delimiter, svc::CsvLimits limits = {}) {
    CsvReader reader(delimiter, limits);
    TranscriptSink sink;
    reader.feed(input, sink);
    reader.finish(sink);
    return sink.transcript;
}

std::string readByteByByte(std::string_view input, char delimiter, svc::CsvLimits limits = {}) {
    CsvReader reader(delimiter, limits);
    TranscriptSink sink;
    for (size_t i = 0; i < input.size(); ++i) reader.feed(input.substr(i, 1), sink);
    reader.finish(sink);
    return sink.transcript;
}

std::string readSplitAt(std::string_view input, size_t split, char delimiter, svc::CsvLimits limits = {}) {
    CsvReader reader(delimiter, limits);
    TranscriptSink sink;
    reader.feed(input.substr(0, split), sink);
    reader.feed("", sink);  // an empty chunk must change nothing either
    reader.feed(input.substr(split), sink);
    reader.finish(sink);
    return sink.transcript;
}

struct CsvCase {
    const char* name;
    std::string input;
    std::string expected;  // transcript, see TranscriptSink
    char delimiter = ';';
    svc::CsvLimits limits = {};
};

const std::string kBom = "\xEF\xBB\xBF";
const svc::CsvLimits kSmall{4, 10};

std::vector<CsvCase> csvCases() {
    return {
        {"semicolon is the default delimiter", "sku;name;stock\nA-1;Jeans;3\n", "1: [sku][name][stock]\n2: [A-1][Jeans][3]\n"},
        {"comma delimiter keeps semicolons in values", "a,b;c\n", "1: [a][b;c]\n", ','},
        {"tab delimiter", "a\tb c\n", "1: [a][b c]\n", '\t'},
        {"quoted value holding the delimiter", "\"a;b\";c\n", "1: [a;b][c]\n"},
        {"doubled quotes are one quote", "\"say \"\"hi\"\"\";x\n", "1: [say \"hi\"][x]\n"},
        {"a value of only an escaped quote", "\"\"\"\";x\n", "1: [\"][x]\n"},
        {"quoted newline: the next record starts two lines on",
         "\"line1\nline2\";x\nnext;y\n", "1: [line1\\nline2][x]\n3: [next][y]\n"},
        {"two quoted newlines in one record", "h\n\"a\n\nb\";c\nd\n", "1: [h]\n2: [a\\n\\nb][c]\n5: [d]\n"},
        {"quoted CRLF is kept and counted once", "\"x\r\ny\";z\r\nn\r\n", "1: [x\\r\\ny][z]\n3: [n]\n"},
        {"CRLF line ends", "a;b\r\nc;d\r\n", "1: [a][b]\n2: [c][d]\n"},
        {"lone CR line ends", "a;b\rc;d\r", "1: [a][b]\n2: [c][d]\n"},
        {"CRLF after a closing quote", "\"a\"\r\n\"b\";\"c\"\r\n", "1: [a]\n2: [b][c]\n"},
        {"UTF-8 BOM is skipped", kBom + "sku;name\nA;B\n", "1: [sku][name]\n2: [A][B]\n"},
        {"BOM before a quoted first value", kBom + "\"sku\";name\n", "1: [sku][name]\n"},
        {"BOM bytes later in the file are content", "a\n" + kBom + "b\n", "1: [a]\n2: [\\xEF\\xBB\\xBFb]\n"},
        {"a BOM prefix that is not a BOM is replayed as content", "\xEF\xBBx;y\n", "1: [\\xEF\\xBBx][y]\n"},
        {"a lone first BOM byte at EOF is content", "\xEF", "1: [\\xEF]\n"},
        {"only a BOM is an empty file", kBom, ""},
        {"quote inside an unquoted value is literal", "ab\"c;d\"\n", "1: [ab\"c][d\"]\n"},
        {"unquoted values keep inner spaces", " a b ; c\n", "1: [ a b ][ c]\n"},
        {"empty fields between delimiters", "a;;b\n", "1: [a][][b]\n"},
        {"a lone delimiter is two empty fields", ";\n", "1: [][]\n"},
        {"trailing delimiter adds an empty last field", "a;b;\n", "1: [a][b][]\n"},
        {"empty quoted value is a one-field record", "\"\"\n", "1: []\n"},
        {"blank lines are skipped but counted", "a\n\n\r\n\nb\n", "1: [a]\n5: [b]\n"},
        {"blank lines at the start", "\n\na;b\n", "3: [a][b]\n"},
        {"file without final newline", "a;b\nc;d", "1: [a][b]\n2: [c][d]\n"},
        {"final quoted value without newline", "a;\"b\"", "1: [a][b]\n"},
        {"trailing delimiter at EOF", "a;", "1: [a][]\n"},
        {"empty input", "", ""},
        {"unterminated quote at EOF names the record's line and field",
         "a;b\nc;\"open\nmore", "1: [a][b]\n2: ! UnterminatedQuote col 2: quoted value is never closed\n"},
        {"unterminated quote in the first field", "\"abc", "1: ! UnterminatedQuote col 1: quoted value is never closed\n"},
        {"character after closing quote: reading resumes on the next line",
         "\"a\"x;b\nc;d\n", "1: ! CharacterAfterClosingQuote col 1: unexpected character 'x' after a closing quote\n2: [c][d]\n"},
        {"character after closing quote in the third field",
         "h\n1;\"2\";\"3\" ;4\n5\n", "1: [h]\n2: ! CharacterAfterClosingQuote col 3: unexpected character ' ' after a closing quote\n3: [5]\n"},
        {"malformed record with CRLF resumes on the next line",
         "\"a\"b;c\r\nd\r\n", "1: ! CharacterAfterClosingQuote col 1: unexpected character 'b' after a closing quote\n2: [d]\n"},
        {"malformed record at EOF without newline", "x\n\"a\"b;c", "1: [x]\n2: ! CharacterAfterClosingQuote col 1: unexpected character 'b' after a closing quote\n"},
        {"malformed record after a quoted newline keeps line numbers",
         "\"a\nb\"c\nd\n", "1: ! CharacterAfterClosingQuote col 1: unexpected character 'c' after a closing quote\n3: [d]\n"},
        {"UTF-8 values pass through", "Größe;Farbe\n\"Weiß\";€\n", "1: [Gr\\xC3\\xB6\\xC3\\x9Fe][Farbe]\n2: [Wei\\xC3\\x9F][\\xE2\\x82\\xAC]\n"},
        // Limits (docs/adr/0054), small here so that every split is tried: fields of 4 bytes, rows of 10.
        {"a field of exactly the limit", "abcd;x\n", "1: [abcd][x]\n", ';', kSmall},
        {"a field one byte over it is reported and the row skipped", "h\nabcde;x\ny\n",
         "1: [h]\n2: ! FieldTooLong col 1: field 1 is longer than 4 bytes\n3: [y]\n", ';', kSmall},
        {"a quoted field of exactly the limit, its doubled quote counted once", "\"ab\"\"c\";x\n", "1: [ab\"c][x]\n", ';', kSmall},
        {"a quoted field one byte over it", "\"abcde\";x\ny\n", "1: ! FieldTooLong col 1: field 1 is longer than 4 bytes\n2: [y]\n", ';', kSmall},
        {"a skipped quoted field's newlines and delimiters stay inside it", "\"a;b\nc;d\ne\";x\ny\n",
         "1: ! FieldTooLong col 1: field 1 is longer than 4 bytes\n4: [y]\n", ';', kSmall},
        {"the second field over the limit", "ab;\"cdefg\";h\ny\n", "1: ! FieldTooLong col 2: field 2 is longer than 4 bytes\n2: [y]\n", ';', kSmall},
        {"a skipped field's stray quote is not reported a second time", "\"abcde\"z;x\ny\n",
         "1: ! FieldTooLong col 1: field 1 is longer than 4 bytes\n2: [y]\n", ';', kSmall},
        {"a skipped field never closed is reported once", "\"abcdef", "1: ! FieldTooLong col 1: field 1 is longer than 4 bytes\n", ';', kSmall},
        {"a row of exactly the limit (values and delimiters)", "abc;def;gh\n", "1: [abc][def][gh]\n", ';', kSmall},
        {"a row one byte over it", "abc;def;ghi\ny\n", "1: ! RecordTooLong col 3: the row is longer than 10 bytes\n2: [y]\n", ';', kSmall},
        {"a row of empty fields over it", ";;;;;;;;;;;\ny\n", "1: ! RecordTooLong col 11: the row is longer than 10 bytes\n2: [y]\n", ';', kSmall},
        {"a run crossing both limits is reported for the one it crosses first", "abcd;abc;xyzzy\ny\n",
         "1: ! RecordTooLong col 3: the row is longer than 10 bytes\n2: [y]\n", ';', kSmall},
        {"limits start again with each row", "abcd;abcd\nabcd;abcd\n", "1: [abcd][abcd]\n2: [abcd][abcd]\n", ';', kSmall},
    };
}

}  // namespace

TEST_CASE("CsvReader: reads each table row exactly, whole, byte by byte and in every 2-way split") {
    for (const auto& c : csvCases()) {
        SUBCASE(c.name) {
            CAPTURE(visible(c.input));
            CHECK(readWhole(c.input, c.delimiter, c.limits) == c.expected);
            CHECK(readByteByByte(c.input, c.delimiter, c.limits) == c.expected);
            for (size_t split = 0; split <= c.input.size(); ++split) {
                CAPTURE(split);
                CHECK(readSplitAt(c.input, split, c.delimiter, c.limits) == c.expected);
            }
        }
    }
}

TEST_CASE("CsvReader: BOM split across three chunks is still skipped") {
    CsvReader reader;
    TranscriptSink sink;
    reader.feed("\xEF", sink);
    reader.feed("\xBB", sink);
    reader.feed("\xBF" "sku;name\n", sink);
    reader.finish(sink);
    CHECK(sink.transcript == "1: [sku][name]\n");
}

TEST_CASE("CsvReader: a record is delivered as soon as its line ends, before finish()") {
    CsvReader reader;
    TranscriptSink sink;
    reader.feed("a;b\nc", sink);
    CHECK(sink.transcript == "1: [a][b]\n");
    reader.feed(";d", sink);
    CHECK(sink.transcript == "1: [a][b]\n");  // no line end yet
    reader.finish(sink);
    CHECK(sink.transcript == "1: [a][b]\n2: [c][d]\n");
}

TEST_CASE("CsvReader: many records in one chunk keep their line numbers") {
    std::string input;
    std::string expected;
    for (int i = 1; i <= 200; ++i) {
        input += "sku-" + std::to_string(i) + ";\"multi\nline\"\n";
        expected += std::to_string(2 * i - 1) + ": [sku-" + std::to_string(i) + "][multi\\nline]\n";
    }
    CHECK(readWhole(input, ';') == expected);
}
