// bench-catalog-postgres: the catalog import on PostgreSQL against its floor, PostgreSQL's own COPY of the same
// file into a bare table (issue 24: svc's full import <= 1.5x of it), and against SQLite (docs/adr/0087).
//
// The feed is made from the real fashion catalog of ../shared/data/fashion (44,446 products, one variant each):
// id as SKU and main SKU, the display name, the category path masterCategory > subCategory > articleType, the
// first word of the name as brand, the colour, and gender, season, usage and year as properties. Stock and prices
// are not in the data: they are invented from the id (deterministic). Every step runs the code `svc-server feed
// import` runs for the catalog (FeedImporter over CatalogImport, then commit), in this process:
//   (a) floor: COPY of the feed file (CSV, ';') into a bare table, one text column per feed column, no key
//   (k) the same COPY into a table with the catalog's two keys, tenant-led and in byte order (what the keys cost),
//   (p) svc's parsing alone
//   (b) the full feed into an empty catalog (an initial load)
//   (c) the full feed again, 1% of the rows with new stock and prices (compared, stamped, price history)
//   (d) a delta feed of those 1% with other prices
// The server: --database-url URL or SVC_BENCH_DATABASE_URL, else a throwaway one (fsync=off, as the store tests').
// Every step runs --runs times (3), the PostgreSQL ones in a fresh schema each; the medians are reported.
#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "feed/FeedImporter.hpp"
#include "store/PgConnection.hpp"
#include "store/PgStorage.hpp"
#include "store/Storage.hpp"
#include "support/ThrowawayPostgres.hpp"
#include "tenant/Tenant.hpp"

namespace {

using Steady = std::chrono::steady_clock;

class FixedClock : public svc::Clock {
public:
    int64_t nowSeconds() const override { return now; }
    int64_t now = 1'750'000'000;
};

// RFC 4180 fields of one line (the source quotes fields with commas; none spans lines).
std::vector<std::string> csvFields(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
            else if (c == '"') quoted = false;
            else fields.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c != '\r') {
            fields.back() += c;
        }
    }
    return fields;
}

std::string csvQuoted(const std::string& value) {
    std::string out = "\"";
    for (char c : value) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

struct Feeds {
    std::string full, changed, delta;
    size_t rows = 0;
};

const char* const kHeader = "sku;main-sku;name;stock;retail-price;discount-price;category-path;brand;color;gender;season;usage;year\n";

// `variant` 0: the base feed; 1: every 100th row with new stock and prices; 2: those rows again, other prices.
std::string feedRow(const std::vector<std::string>& f, int variant) {
    long id = std::atol(f[0].c_str());
    long stock = (id * 7) % 13 + (variant ? 20 * variant : 0);
    long retail = 999 + (id * 37 % 200) * 100 + variant * 500;
    std::string discount = (id % 5 == 0 || variant) ? std::to_string(retail * 8 / 10 - variant * 100) : "";
    std::string brand = f[9].substr(0, f[9].find(' '));
    std::vector<std::string> values{f[0], f[0], f[9], std::to_string(stock), std::to_string(retail), discount,
                                    f[2] + " > " + f[3] + " > " + f[4], brand, f[5], f[1], f[6], f[8], f[7]};
    std::string row;
    for (size_t i = 0; i < values.size(); ++i) row += (i ? ";" : "") + csvQuoted(values[i]);
    return row + "\n";
}

Feeds makeFeeds(const std::string& source, const std::string& dir) {
    std::ifstream in(source);
    if (!in) throw std::runtime_error("cannot read " + source + " (../shared/data/fashion, see its README)");
    std::string line;
    std::getline(in, line);  // header
    std::ofstream full(dir + "/full.csv"), changed(dir + "/changed.csv"), delta(dir + "/delta.csv");
    full << kHeader;
    changed << kHeader;
    delta << kHeader;
    Feeds feeds{dir + "/full.csv", dir + "/changed.csv", dir + "/delta.csv", 0};
    while (std::getline(in, line)) {
        auto f = csvFields(line);
        if (f.size() != 10 || f[0].empty()) continue;
        bool picked = feeds.rows % 100 == 0;
        full << feedRow(f, 0);
        changed << feedRow(f, picked ? 1 : 0);
        if (picked) delta << feedRow(f, 2);
        ++feeds.rows;
    }
    return feeds;
}

// A catalog that stores nothing: what svc's own CSV parsing and row mapping cost, without any store.
class DiscardingImport : public svc::CatalogImport {
public:
    svc::Result<svc::UpsertOutcome> upsert(const svc::Product&, const svc::FeedShape&) override {
        ++counts_.inserted;
        return svc::UpsertOutcome::Written;
    }
    int64_t liveBefore() const override { return 0; }
    svc::ImportCounts pendingCounts() const override { return counts_; }
    svc::Result<int64_t> countMissing(const svc::SkuSet&) override { return int64_t{0}; }
    svc::Result<svc::ImportCounts> commit(const svc::SkuSet*) override { return counts_; }

private:
    svc::ImportCounts counts_;
};

double parseOnly(const std::string& path) {
    auto started = Steady::now();
    DiscardingImport import;
    svc::FeedImporter importer(import, svc::FeedImportOptions{});
    std::ifstream in(path, std::ios::binary);
    std::vector<char> chunk(1 << 16);
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        if (auto status = importer.feed(std::string_view(chunk.data(), static_cast<size_t>(in.gcount()))); !status) {
            throw std::runtime_error("parse: " + status.error().message);
        }
    }
    if (auto report = importer.finishReading(); !report) throw std::runtime_error("parse: " + report.error().message);
    return std::chrono::duration<double>(Steady::now() - started).count();
}

// Seconds to run the catalog import of `path` through `storage` (and the counts it reports).
double importFile(svc::Storage& storage, int64_t tenantId, FixedClock& clock, const std::string& path, bool delta, std::string& summary) {
    clock.now += 7200;  // past the hour after which a product seen again is stamped again
    auto started = Steady::now();
    auto import = storage.catalog().beginImport(tenantId, clock.now, "default");
    if (!import) throw std::runtime_error("begin import: " + import.error().message);
    svc::FeedImportOptions options;
    options.delta = delta;
    svc::FeedImporter importer(**import, options);
    std::ifstream in(path, std::ios::binary);
    std::vector<char> chunk(1 << 16);
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        if (auto status = importer.feed(std::string_view(chunk.data(), static_cast<size_t>(in.gcount()))); !status) {
            throw std::runtime_error("import: " + status.error().message);
        }
    }
    auto report = importer.finishReading();
    if (!report) throw std::runtime_error("import: " + report.error().message);
    if (report->rejected) throw std::runtime_error("import rejected " + std::to_string(report->rejected) + " rows");
    auto counts = (*import)->commit(delta ? nullptr : &importer.listedSkus());
    if (!counts) throw std::runtime_error("commit: " + counts.error().message);
    double seconds = std::chrono::duration<double>(Steady::now() - started).count();
    summary = std::to_string(report->rowsRead) + " rows: " + std::to_string(counts->inserted) + " inserted, " + std::to_string(counts->updated) +
              " updated, " + std::to_string(counts->unchanged) + " unchanged";
    return seconds;
}

svc::Tenant makeTenant(svc::Storage& storage) {
    svc::Tenant tenant;
    tenant.name = "bench";
    tenant.apiId = "bench-" + std::to_string(::getpid());
    tenant.secretHash = "hash";
    tenant.feedId = "00000000-0000-4000-8000-000000000001";
    auto created = storage.tenants().create(tenant);
    if (!created) throw std::runtime_error("tenant: " + created.error().message);
    return *created;
}

// The floor: the server's own COPY of the file into a bare table (what any loader of this file costs at least).
// `keyed`: the table has the keys svc's catalog has (primary key on tenant and SKU, an index on tenant, main SKU and SKU).
double copyFloor(const std::string& url, const std::string& path, bool keyed) {
    auto connection = svc::PgConnection::open(url);
    if (!connection) throw std::runtime_error(connection.error().message);
    auto& db = **connection;
    if (auto status = db.executeScript("floor table", "DROP TABLE IF EXISTS bench_floor; CREATE TABLE bench_floor (sku text, main_sku text, "
                                                      "name text, stock text, retail text, discount text, category text, brand text, "
                                                      "color text, gender text, season text, usage text, year text)");
        !status) {
        throw std::runtime_error(status.error().message);
    }
    if (keyed) {
        // The catalog's keys as they are: led by the tenant, SKUs in byte order (COLLATE "C"; the database's
        // default collation would compare by ICU rules and overstate what the keys cost).
        if (auto status = db.executeScript("floor keys", "ALTER TABLE bench_floor ADD COLUMN tenant_id bigint NOT NULL DEFAULT 1, "
                                                         "ALTER COLUMN sku TYPE text COLLATE \"C\", ALTER COLUMN main_sku TYPE text COLLATE \"C\"; "
                                                         "ALTER TABLE bench_floor ADD PRIMARY KEY (tenant_id, sku); "
                                                         "CREATE INDEX ON bench_floor (tenant_id, main_sku, sku)");
            !status) {
            throw std::runtime_error(status.error().message);
        }
    }
    auto started = Steady::now();
    if (auto status = db.beginCopy("floor copy", "COPY bench_floor(sku, main_sku, name, stock, retail, discount, category, brand, color, gender, "
                                                 "season, usage, year) FROM STDIN (FORMAT csv, HEADER true, DELIMITER ';')");
        !status) {
        throw std::runtime_error(status.error().message);
    }
    std::ifstream in(path, std::ios::binary);
    std::vector<char> chunk(1 << 16);
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        if (auto status = db.putCopyData("floor copy", std::string_view(chunk.data(), static_cast<size_t>(in.gcount()))); !status) {
            throw std::runtime_error(status.error().message);
        }
    }
    if (auto status = db.endCopy("floor copy"); !status) throw std::runtime_error(status.error().message);
    double seconds = std::chrono::duration<double>(Steady::now() - started).count();
    (void)db.executeScript("floor table", "DROP TABLE bench_floor");
    return seconds;
}

// A schema of its own, so that a shared server's other data is never touched; dropped afterwards.
std::string schemaUrl(const std::string& url, const std::string& schema) {
    return url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-c%20search_path%3D" + schema;
}

std::string loadAverage() {
    std::ifstream in("/proc/loadavg");
    std::string one;
    in >> one;
    return one.empty() ? "?" : one;
}

// The tenant's catalog partition on disk (heap and indexes), after a step.
std::string partitionSize(const std::string& url, int64_t tenantId) {
    auto connection = svc::PgConnection::open(url);
    if (!connection) return "?";
    auto size = (*connection)->execute("partition size",
                                       "SELECT pg_size_pretty(pg_total_relation_size(tableoid)) FROM catalog_products WHERE tenant_id = $1 LIMIT 1",
                                       {tenantId});
    return size && size->rows() == 1 ? size->text(0, 0) : "?";
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

// One run of every step, each PostgreSQL step in a fresh schema.
struct Run {
    double floor = 0, keyed = 0, parsing = 0, pgLoad = 0, pgAgain = 0, pgDelta = 0, sqliteLoad = 0, sqliteAgain = 0, sqliteDelta = 0;
    std::string sizeAfterLoad, sizeAfterAgain, summaries[6];
};

Run runOnce(const std::string& url, const Feeds& feeds, const std::string& dir, int index) {
    Run run;
    std::string schema = "bench_catalog_" + std::to_string(::getpid()) + "_" + std::to_string(index);
    {
        auto admin = svc::PgConnection::open(url);
        if (!admin) throw std::runtime_error(admin.error().message);
        if (auto status = (*admin)->executeScript("bench schema", ("CREATE SCHEMA " + schema).c_str()); !status) {
            throw std::runtime_error(status.error().message);
        }
    }
    {
        FixedClock clock;
        auto storage = svc::PgStorage::open(schemaUrl(url, schema), clock);
        if (!storage) throw std::runtime_error(storage.error().message);
        svc::Tenant tenant = makeTenant(**storage);
        run.floor = copyFloor(schemaUrl(url, schema), feeds.full, false);
        run.keyed = copyFloor(schemaUrl(url, schema), feeds.full, true);
        run.parsing = parseOnly(feeds.full);
        run.pgLoad = importFile(**storage, tenant.id, clock, feeds.full, false, run.summaries[0]);
        run.sizeAfterLoad = partitionSize(schemaUrl(url, schema), tenant.id);
        run.pgAgain = importFile(**storage, tenant.id, clock, feeds.changed, false, run.summaries[1]);
        run.sizeAfterAgain = partitionSize(schemaUrl(url, schema), tenant.id);
        run.pgDelta = importFile(**storage, tenant.id, clock, feeds.delta, true, run.summaries[2]);
    }
    {
        auto admin = svc::PgConnection::open(url);
        if (admin) (void)(*admin)->executeScript("bench schema", ("DROP SCHEMA " + schema + " CASCADE").c_str());
    }
    {
        FixedClock clock;
        std::string data = dir + "/data-" + std::to_string(index);
        std::filesystem::create_directories(data);
        auto storage = svc::Storage::open("sqlite:" + data, clock);
        if (!storage) throw std::runtime_error(storage.error().message);
        svc::Tenant tenant = makeTenant(**storage);
        run.sqliteLoad = importFile(**storage, tenant.id, clock, feeds.full, false, run.summaries[3]);
        run.sqliteAgain = importFile(**storage, tenant.id, clock, feeds.changed, false, run.summaries[4]);
        run.sqliteDelta = importFile(**storage, tenant.id, clock, feeds.delta, true, run.summaries[5]);
    }
    std::printf("  run %d: (a) %.3f  (k) %.3f  (p) %.3f  (b) %.3f  (c) %.3f  (d) %.3f  | SQLite (b) %.3f  (c) %.3f  (d) %.3f  load %s\n", index + 1,
                run.floor, run.keyed, run.parsing, run.pgLoad, run.pgAgain, run.pgDelta, run.sqliteLoad, run.sqliteAgain, run.sqliteDelta,
                loadAverage().c_str());
    return run;
}

}  // namespace

int main(int argc, char** argv) {
    std::string url;
    if (const char* env = std::getenv("SVC_BENCH_DATABASE_URL"); env && *env) url = env;
    std::string source = std::string(SVC_SOURCE_DIR) + "/../shared/data/fashion/catalog.csv";
    int runs = 3;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--database-url" && i + 1 < argc) url = argv[++i];
        else if (arg == "--source" && i + 1 < argc) source = argv[++i];
        else if (arg == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
        else {
            std::cerr << "usage: bench-catalog-postgres [--database-url URL] [--source catalog.csv] [--runs N (3)]\n";
            return 2;
        }
    }
    if (!std::filesystem::exists(source)) source = "/work/shared/data/fashion/catalog.csv";
    try {
        if (url.empty()) {
            auto& server = svc::test::ThrowawayPostgres::shared();
            if (!server.url()) throw std::runtime_error("no PostgreSQL: " + server.error());
            url = *server.url();
        }
        std::string dir = (std::filesystem::temp_directory_path() / ("bench-catalog-" + std::to_string(::getpid()))).string();
        std::filesystem::create_directories(dir);
        Feeds feeds = makeFeeds(source, dir);
        std::printf("feed: %zu rows from %s (stock and prices invented), %.1f MiB; %d runs, load %s at the start\n", feeds.rows, source.c_str(),
                    static_cast<double>(std::filesystem::file_size(feeds.full)) / (1 << 20), runs, loadAverage().c_str());
        std::vector<Run> all;
        for (int i = 0; i < runs; ++i) all.push_back(runOnce(url, feeds, dir, i));
        auto pick = [&](double Run::*field) {
            std::vector<double> values;
            for (const auto& run : all) values.push_back(run.*field);
            return median(values);
        };
        double floor = pick(&Run::floor), keyed = pick(&Run::keyed), parsing = pick(&Run::parsing);
        double pgLoad = pick(&Run::pgLoad), pgAgain = pick(&Run::pgAgain), pgDelta = pick(&Run::pgDelta);
        const Run& last = all.back();
        std::printf("medians of %d runs:\n", runs);
        std::printf("(a) floor, PostgreSQL COPY into a bare table:    %7.3f s\n", floor);
        std::printf("(k) COPY into a table with the catalog's keys:   %7.3f s  %.2fx floor\n", keyed, keyed / floor);
        std::printf("(p) svc's parsing alone (no store):              %7.3f s  %.2fx floor\n", parsing, parsing / floor);
        std::printf("(b) PostgreSQL, full feed into an empty catalog: %7.3f s  %.2fx floor  %.2fx keyed  (%s; partition %s)\n", pgLoad,
                    pgLoad / floor, pgLoad / keyed, last.summaries[0].c_str(), last.sizeAfterLoad.c_str());
        std::printf("(c) PostgreSQL, full feed again, 1%% changed:     %7.3f s  %.2fx floor  %.2fx keyed  (%s; partition %s)\n", pgAgain,
                    pgAgain / floor, pgAgain / keyed, last.summaries[1].c_str(), last.sizeAfterAgain.c_str());
        std::printf("(d) PostgreSQL, delta of 1%%:                     %7.3f s  (%s)\n", pgDelta, last.summaries[2].c_str());
        std::printf("(b) SQLite, full feed into an empty catalog:     %7.3f s  (%s)\n", pick(&Run::sqliteLoad), last.summaries[3].c_str());
        std::printf("(c) SQLite, full feed again, 1%% changed:         %7.3f s  (%s)\n", pick(&Run::sqliteAgain), last.summaries[4].c_str());
        std::printf("(d) SQLite, delta of 1%%:                         %7.3f s  (%s)\n", pick(&Run::sqliteDelta), last.summaries[5].c_str());
        std::filesystem::remove_all(dir);
        std::printf("target: (b) <= 1.5x floor: %s (%.2fx); load %s at the end\n", pgLoad <= 1.5 * floor ? "PASS" : "FAIL", pgLoad / floor,
                    loadAverage().c_str());
    } catch (const std::exception& error) {
        std::cerr << "bench-catalog-postgres: " << error.what() << "\n";
        return 1;
    }
    return 0;
}
