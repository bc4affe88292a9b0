#include "store/Migrations.hpp"

#include <vector>

namespace svc {
namespace {

struct Migration {
    int version;
    const char* sql;
};

const std::vector<Migration>& mainMigrations() {
    static const std::vector<Migration> list = {
        {1, R"sql(
CREATE TABLE tenants (
    id INTEGER PRIMARY KEY,
    api_id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    feed_id TEXT NOT NULL UNIQUE,
    secret_hash TEXT NOT NULL,
    currency TEXT NOT NULL DEFAULT 'EUR',
    locale TEXT NOT NULL DEFAULT 'de-DE',
    max_delete_share REAL NOT NULL DEFAULT 0.5,
    created_at INTEGER NOT NULL
);
CREATE TABLE feed_imports (
    id INTEGER PRIMARY KEY,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    feed TEXT NOT NULL DEFAULT 'default',
    source TEXT NOT NULL,
    delta INTEGER NOT NULL,
    identifier TEXT NOT NULL,
    delimiter TEXT NOT NULL,
    status TEXT NOT NULL,
    file_key TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    started_at INTEGER NOT NULL DEFAULT 0,
    finished_at INTEGER NOT NULL DEFAULT 0,
    rows_read INTEGER NOT NULL DEFAULT 0,
    inserted INTEGER NOT NULL DEFAULT 0,
    updated INTEGER NOT NULL DEFAULT 0,
    unchanged INTEGER NOT NULL DEFAULT 0,
    rejected INTEGER NOT NULL DEFAULT 0,
    marked_deleted INTEGER NOT NULL DEFAULT 0,
    message TEXT NOT NULL DEFAULT '',
    row_errors TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX feed_imports_by_tenant ON feed_imports(tenant_id, id);
CREATE INDEX feed_imports_by_feed ON feed_imports(tenant_id, feed, id);
CREATE INDEX feed_imports_pending ON feed_imports(status, id) WHERE status IN ('queued', 'running');
CREATE TABLE feed_uploads (
    id TEXT PRIMARY KEY,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    feed TEXT NOT NULL DEFAULT 'default',
    identifier TEXT NOT NULL,
    delimiter TEXT NOT NULL,
    delta INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    consumed_at INTEGER,
    import_id INTEGER REFERENCES feed_imports(id)
);
)sql"},
        // Curated content: the operator's set templates (shared by every tenant), each tenant's
        // custom and photo sets, kept as their validated JSON (sets/SetJson) so a field added
        // later needs no migration. Operator keys authenticate the authoring endpoints.
        {2, R"sql(
CREATE TABLE set_templates (
    id TEXT PRIMARY KEY,
    definition TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE custom_sets (
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    kind TEXT NOT NULL CHECK (kind IN ('custom', 'photo')),
    id TEXT NOT NULL,
    position INTEGER NOT NULL,
    definition TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, kind, id)
);
-- Bumped by every change a tenant's content depends on (imports, sets; tenant 0: the
-- templates), by any process: servers poll it to rebuild their in-memory content.
CREATE TABLE content_generations (
    tenant_id INTEGER PRIMARY KEY,
    generation INTEGER NOT NULL
);
CREATE TABLE operator_keys (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    key_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
)sql"},
        // The commission contract (docs/adr/0021): the attribution window and the rates, as
        // basis points "default[,WIDGET=bp...]". No rate until the operator sets one.
        {3, R"sql(
ALTER TABLE tenants ADD COLUMN attribution_window_days INTEGER NOT NULL DEFAULT 30;
ALTER TABLE tenants ADD COLUMN commission_rates TEXT NOT NULL DEFAULT '0';
)sql"},
        // Pulled feeds (docs/adr/0026): one source per tenant and feed. Credentials are sealed by
        // net/CredentialCipher (base64url), never stored in plain text; etag and last_modified
        // are the validators of the last imported file.
        {4, R"sql(
CREATE TABLE pull_sources (
    id INTEGER PRIMARY KEY,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    feed TEXT NOT NULL,
    url TEXT NOT NULL,
    interval_seconds INTEGER NOT NULL,
    delta INTEGER NOT NULL,
    identifier TEXT NOT NULL,
    delimiter TEXT NOT NULL,
    credentials TEXT NOT NULL DEFAULT '',
    etag TEXT NOT NULL DEFAULT '',
    last_modified TEXT NOT NULL DEFAULT '',
    next_run_at INTEGER NOT NULL,
    last_run_at INTEGER NOT NULL DEFAULT 0,
    last_result TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    UNIQUE (tenant_id, feed)
);
CREATE INDEX pull_sources_due ON pull_sources(next_run_at);
)sql"},
        // Widget presentation per tenant, set by the operator only (docs/adr/0028, 0029): the
        // language rule, the country whose price rules apply, the tenant's CSS, and text
        // bundles per language (validated JSON objects of text key to text).
        {5, R"sql(
CREATE TABLE widget_settings (
    tenant_id INTEGER PRIMARY KEY REFERENCES tenants(id),
    language_source TEXT NOT NULL DEFAULT 'html-lang' CHECK (language_source IN ('html-lang', 'path-segment', 'fixed')),
    default_language TEXT NOT NULL DEFAULT 'en',
    country TEXT NOT NULL DEFAULT '',
    css TEXT NOT NULL DEFAULT '',
    updated_at INTEGER NOT NULL
);
CREATE TABLE widget_texts (
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    language TEXT NOT NULL,
    texts TEXT NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, language)
) WITHOUT ROWID;
)sql"},
        // Shop plugin registrations (spec endpoint 6, docs/adr/0035): one per tenant and feed ID,
        // the record as the shop sent it (validated JSON), and what operators see of the
        // connection: the last registration, the last time the plugin answered and the last
        // pull's result. A registration pulls through a pull source of kind 'plugin'.
        {6, R"sql(
CREATE TABLE shop_registrations (
    tenant_id INTEGER NOT NULL REFERENCES tenants(id),
    feed_id TEXT NOT NULL,
    record TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    last_contact_at INTEGER NOT NULL DEFAULT 0,
    last_pull_at INTEGER NOT NULL DEFAULT 0,
    last_pull_result TEXT NOT NULL DEFAULT '',
    last_full_pull_at INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, feed_id)
) WITHOUT ROWID;
ALTER TABLE pull_sources ADD COLUMN kind TEXT NOT NULL DEFAULT 'file' CHECK (kind IN ('file', 'plugin'));
)sql"},
        // 7: what the image bot learnt about each image URL (docs/adr/0038). Per tenant and URL:
        // an unchanged URL is never fetched again; the thumbnail key is the SHA-256 of the URL.
        {7, R"sql(
CREATE TABLE image_facts (
    tenant_id INTEGER NOT NULL,
    url TEXT NOT NULL,
    thumb_key TEXT NOT NULL,
    status TEXT NOT NULL,                 -- 'ok' or 'failed'
    reason TEXT NOT NULL DEFAULT '',      -- why it failed, e.g. "image: an HTML page"
    http_status INTEGER NOT NULL DEFAULT 0,
    etag TEXT NOT NULL DEFAULT '',
    content_sha256 TEXT NOT NULL DEFAULT '',
    content_type TEXT NOT NULL DEFAULT '',
    bytes INTEGER NOT NULL DEFAULT 0,
    width INTEGER NOT NULL DEFAULT 0,
    height INTEGER NOT NULL DEFAULT 0,
    colors TEXT NOT NULL DEFAULT '[]',    -- [{"hex":"#rrggbb","share":0.61}, ...], largest first
    phash INTEGER NOT NULL DEFAULT 0,     -- 64-bit DCT hash, stored as its signed bit pattern
    attempts INTEGER NOT NULL DEFAULT 0,
    fetched_at INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL DEFAULT 0,  -- failed URLs: not before this time
    PRIMARY KEY (tenant_id, url)
);
CREATE INDEX image_facts_by_key ON image_facts(tenant_id, thumb_key);
)sql"},
        // ---- Operator console (docs/adr/0039-0041); versions 6 and 7 are shop registrations and the image bot. ----
        // 8: tenants the operator disabled (0: enabled; else when): refused by every tenant-facing endpoint.
        {8, R"sql(
ALTER TABLE tenants ADD COLUMN disabled_at INTEGER NOT NULL DEFAULT 0;
)sql"},
        // 9: operator accounts (Argon2id hashes, lock-out state) and their sessions (the token's
        // BLAKE2b hash only; the CSRF token is not a credential on its own).
        {9, R"sql(
CREATE TABLE operators (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    failed_sign_ins INTEGER NOT NULL DEFAULT 0,
    locked_until INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE TABLE operator_sessions (
    token_hash TEXT PRIMARY KEY,
    operator_id INTEGER NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
    csrf_token TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX operator_sessions_expiry ON operator_sessions(expires_at);
)sql"},
        // 10: the catalog's size (live products) after each applied import, for the console's
        // catalog-size chart (docs/adr/0044); NULL for imports before it and those not applied.
        {10, R"sql(
ALTER TABLE feed_imports ADD COLUMN catalog_products INTEGER;
)sql"},
        // 13: when each operator last signed in (0: never), for the console's list of operators.
        {13, R"sql(
ALTER TABLE operators ADD COLUMN last_sign_in_at INTEGER NOT NULL DEFAULT 0;
)sql"},
        // ---- end of the operator console's migrations ----
        // 14: the fleet view (docs/adr/0066) reads every tenant's feeds at once: each feed's newest
        // finished import and last applied one, kept by triggers on every path that finishes an
        // import (so the read is one row per feed, not a scan of the whole history), and the
        // held imports through a partial index (/metrics counts them through it too, ADR 0065). Filled from the history once here.
        {14, R"sql(
CREATE TABLE feed_states (
    tenant_id INTEGER NOT NULL,
    feed TEXT NOT NULL,
    last_finished_id INTEGER NOT NULL DEFAULT 0,   -- the newest import that applied or failed
    last_status TEXT NOT NULL DEFAULT '',
    last_message TEXT NOT NULL DEFAULT '',
    last_finished_at INTEGER NOT NULL DEFAULT 0,
    last_applied_at INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, feed)
) WITHOUT ROWID;
INSERT INTO feed_states(tenant_id, feed, last_finished_id, last_status, last_message, last_finished_at, last_applied_at)
    SELECT f.tenant_id, f.feed, f.id, f.status, f.message, f.finished_at,
           COALESCE((SELECT MAX(a.finished_at) FROM feed_imports a WHERE a.tenant_id = f.tenant_id AND a.feed = f.feed AND a.status = 'applied'), 0)
    FROM feed_imports f
    WHERE f.id IN (SELECT MAX(id) FROM feed_imports WHERE status IN ('applied', 'failed') GROUP BY tenant_id, feed);
CREATE TRIGGER feed_states_on_insert AFTER INSERT ON feed_imports WHEN NEW.status IN ('applied', 'failed')
BEGIN
    INSERT INTO feed_states(tenant_id, feed) VALUES (NEW.tenant_id, NEW.feed) ON CONFLICT DO NOTHING;
    UPDATE feed_states SET last_finished_id = NEW.id, last_status = NEW.status, last_message = NEW.message, last_finished_at = NEW.finished_at
        WHERE tenant_id = NEW.tenant_id AND feed = NEW.feed AND last_finished_id < NEW.id;
    UPDATE feed_states SET last_applied_at = MAX(last_applied_at, NEW.finished_at)
        WHERE NEW.status = 'applied' AND tenant_id = NEW.tenant_id AND feed = NEW.feed;
END;
CREATE TRIGGER feed_states_on_finish AFTER UPDATE OF status ON feed_imports
WHEN NEW.status IN ('applied', 'failed') AND OLD.status IS NOT NEW.status
BEGIN
    INSERT INTO feed_states(tenant_id, feed) VALUES (NEW.tenant_id, NEW.feed) ON CONFLICT DO NOTHING;
    UPDATE feed_states SET last_finished_id = NEW.id, last_status = NEW.status, last_message = NEW.message, last_finished_at = NEW.finished_at
        WHERE tenant_id = NEW.tenant_id AND feed = NEW.feed AND last_finished_id < NEW.id;
    UPDATE feed_states SET last_applied_at = MAX(last_applied_at, NEW.finished_at)
        WHERE NEW.status = 'applied' AND tenant_id = NEW.tenant_id AND feed = NEW.feed;
END;
CREATE INDEX feed_imports_held ON feed_imports(tenant_id) WHERE status = 'held';
)sql"},
        // 15: what an import says about its feed as a whole (docs/adr/0070): warnings about the
        // header (two names of one field), each once, as a JSON array; how many rows named SKUs a
        // feed without product descriptions cannot create; whether the feed describes products
        // (a name column; NULL for imports before).
        {15, R"sql(
ALTER TABLE feed_imports ADD COLUMN warnings TEXT NOT NULL DEFAULT '[]';
ALTER TABLE feed_imports ADD COLUMN unknown_skus INTEGER NOT NULL DEFAULT 0;
ALTER TABLE feed_imports ADD COLUMN describes_products INTEGER;
)sql"},
        // 16: each tenant's mapping of its own categories onto the content pool's slots (docs/adr/0075),
        // keyed by the category's normalised key so "T-Shirts" and "Tshirts" are one entry; and up to
        // where each tenant's content learned from purchases (ADR 0074), beside its content
        // generation, so a restarted server still reports it before its first build.
        {16, R"sql(
CREATE TABLE category_slot_mappings (
    tenant_id INTEGER NOT NULL,
    category_key TEXT NOT NULL,
    category TEXT NOT NULL,
    slot TEXT NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, category_key)
) WITHOUT ROWID;
CREATE TABLE content_learned (
    tenant_id INTEGER PRIMARY KEY,
    orders INTEGER NOT NULL,
    last_order_received_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
)sql"},
        // 17: the tenant's default consent (docs/adr/0083): what the SDK assumes until the shop's
        // page states the visitor's answer. 'granted' keeps what shops had before.
        {17, R"sql(
ALTER TABLE widget_settings ADD COLUMN consent TEXT NOT NULL DEFAULT 'granted' CHECK (consent IN ('pending', 'granted', 'denied'));
)sql"},
        // 18: leases of work that must run once across processes and nodes (docs/adr/0078);
        // they replace the flock files of <data-dir>/locks. 16 and 17 are left to other branches
        // of this round (category mappings, consent), so their databases meet this one's.
        {18, R"sql(
CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
)sql"},
        // 19: set-preview drafts, in storage so that any node opens a preview made on another
        // (docs/adr/0091); before, they lived in the server's memory.
        {19, R"sql(
CREATE TABLE set_previews (
    token_hash TEXT PRIMARY KEY,
    tenant_id INTEGER NOT NULL,
    draft TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX set_previews_expiry ON set_previews(expires_at);
)sql"},
    };
    return list;
}

const std::vector<Migration>& catalogMigrations() {
    // One catalog file per tenant (catalog/tenant-<id>.sqlite3): no tenant column needed.
    static const std::vector<Migration> list = {
        {1, R"sql(
CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    sku TEXT NOT NULL,
    main_sku TEXT NOT NULL,
    model TEXT NOT NULL DEFAULT '',
    variant TEXT NOT NULL DEFAULT '',
    name TEXT NOT NULL DEFAULT '',
    deeplink TEXT NOT NULL DEFAULT '',
    image TEXT NOT NULL DEFAULT '',
    thumbnail TEXT NOT NULL DEFAULT '',
    brand TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    category_paths TEXT NOT NULL DEFAULT '[]',
    primary_category TEXT NOT NULL DEFAULT '',
    stock INTEGER NOT NULL DEFAULT 0,
    retail_price INTEGER,
    discount_price INTEGER,
    lowest_price_30d INTEGER,
    property_set INTEGER NOT NULL DEFAULT 0,
    property_values TEXT NOT NULL DEFAULT '',
    deleted INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL
);
-- Property names are stored once per distinct set (a JSON array), rows keep only the
-- values (a JSON array in the same order): names repeated in every row were ~15% of it.
CREATE TABLE property_sets (
    id INTEGER PRIMARY KEY,
    names TEXT NOT NULL UNIQUE
);
CREATE UNIQUE INDEX products_by_sku ON products(sku);
CREATE INDEX products_by_main_sku ON products(main_sku);
CREATE INDEX products_available_by_category ON products(primary_category) WHERE deleted = 0 AND stock > 0;
)sql"},
        // A stock change rewrote the entry of an index whose condition names stock, whether
        // or not the row's availability changed: a stock delta dirtied an index page per
        // row. The category lookup filters stock on the rows it reads instead (ADR 0012).
        {2, R"sql(
DROP INDEX products_available_by_category;
CREATE INDEX products_live_by_category ON products(primary_category) WHERE deleted = 0;
)sql"},
        // Every import takes a sequence number and stamps the rows it writes with it, so the
        // content engine reads only what changed since its last build (ADR 0015). No index on
        // change_seq: imports keep writing one page per changed row; the reader's filter scan
        // is far cheaper than decoding every product.
        {3, R"sql(
ALTER TABLE products ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
CREATE TABLE catalog_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at INTEGER NOT NULL
);
)sql"},
        // Selling-price history for the lowest price of the 30 days before a reduction
        // (docs/adr/0030). A trigger keeps it, so every import path records it: only changes
        // (the price before the first change included), and only what can still matter,
        // i.e. from the price valid 30 days before the latest change on. IF NOT EXISTS: a
        // file whose recorded version was set back (tests of older files) keeps its history.
        {4, R"sql(
CREATE TABLE IF NOT EXISTS price_history (
    sku TEXT NOT NULL,
    since INTEGER NOT NULL,  -- Unix seconds: the import that set this selling price
    price INTEGER NOT NULL,  -- the selling price (discount, else retail), cents
    PRIMARY KEY (sku, since)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS price_history_on_change AFTER UPDATE OF retail_price, discount_price ON products
WHEN COALESCE(NEW.discount_price, NEW.retail_price) IS NOT COALESCE(OLD.discount_price, OLD.retail_price)
 AND COALESCE(NEW.discount_price, NEW.retail_price) IS NOT NULL
BEGIN
    INSERT OR IGNORE INTO price_history(sku, since, price)
        SELECT OLD.sku, MIN(OLD.updated_at, NEW.updated_at - 1), COALESCE(OLD.discount_price, OLD.retail_price)
        WHERE COALESCE(OLD.discount_price, OLD.retail_price) IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM price_history WHERE sku = OLD.sku);
    INSERT OR REPLACE INTO price_history(sku, since, price)
        VALUES (NEW.sku, NEW.updated_at, COALESCE(NEW.discount_price, NEW.retail_price));
    DELETE FROM price_history WHERE sku = NEW.sku AND since < (
        SELECT MAX(since) FROM price_history WHERE sku = NEW.sku AND since <= NEW.updated_at - 2592000);
END;
)sql"},
        // Feeds own their products (docs/adr/0070): the feeds that describe a product, sorted and
        // comma-separated. NULL for products stored before: the next full feed that lists one
        // claims it, and a full feed that leaves it out deletes it, as every full feed did before.
        {5, R"sql(
ALTER TABLE products ADD COLUMN feeds TEXT;
)sql"},
    };
    return list;
}

const std::vector<Migration>& eventMigrations() {
    // One table for every event, so that one sequence orders purchases and widget events by
    // arrival (attribution asks "did the interaction come before the order?").
    static const std::vector<Migration> list = {
        {1, R"sql(
CREATE TABLE events (
    sequence INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: readers keep it as a cursor
    tenant_id INTEGER NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('purchase', 'view', 'click', 'add-to-cart')),
    received_at INTEGER NOT NULL,                -- Unix seconds, the server's clock
    cid TEXT,                                    -- the anonymous _svc_cid
    order_id TEXT,                               -- purchases only
    widget TEXT,
    touchpoint TEXT,
    sku TEXT,
    set_id TEXT,
    test_group TEXT,
    variant TEXT,
    client_time INTEGER,                         -- ms, the browser's clock as sent
    CHECK ((type = 'purchase') = (order_id IS NOT NULL))
);
-- The deduplication of orders, across restarts; widget events (no order id) stay out of it.
CREATE UNIQUE INDEX events_order_once ON events(tenant_id, order_id) WHERE order_id IS NOT NULL;
CREATE INDEX events_purchases ON events(tenant_id, sequence) WHERE order_id IS NOT NULL;
CREATE TABLE order_lines (
    event INTEGER NOT NULL REFERENCES events(sequence),
    line INTEGER NOT NULL,
    sku TEXT NOT NULL,
    amount INTEGER NOT NULL,
    price INTEGER NOT NULL,                      -- gross unit price in cents
    PRIMARY KEY (event, line)
) WITHOUT ROWID;
)sql"},
        // Attribution and the commission ledger (docs/adr/0021).
        {2, R"sql(
ALTER TABLE events ADD COLUMN sid TEXT;          -- the _svc_sid of widget events (one browsing session)
CREATE INDEX events_interactions ON events(tenant_id, cid, sequence) WHERE type IN ('click', 'add-to-cart');
CREATE INDEX events_by_time ON events(tenant_id, received_at) WHERE order_id IS NULL;
CREATE TABLE attribution_cursor (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    sequence INTEGER NOT NULL                    -- purchases up to here are booked
);
INSERT INTO attribution_cursor(id, sequence) VALUES (1, 0);
CREATE TABLE ledger (
    entry INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('sale', 'return')),
    order_event INTEGER NOT NULL REFERENCES events(sequence),
    order_id TEXT NOT NULL,
    line INTEGER NOT NULL,
    sku TEXT NOT NULL,
    main_sku TEXT NOT NULL,
    amount INTEGER NOT NULL,                     -- units; negative for a return
    price INTEGER NOT NULL,                      -- gross unit price in cents
    revenue INTEGER NOT NULL,                    -- attributed gross revenue, cents
    commission INTEGER NOT NULL,                 -- cents
    rate_bp INTEGER NOT NULL,
    attributed INTEGER NOT NULL,
    reason TEXT,
    interaction INTEGER,
    interaction_type TEXT,
    widget TEXT,
    touchpoint TEXT,
    set_id TEXT,
    test_group TEXT,
    variant TEXT,
    interaction_at INTEGER,
    ordered_at INTEGER NOT NULL,
    booked_at INTEGER NOT NULL,
    return_id TEXT,
    CHECK ((kind = 'return') = (return_id IS NOT NULL))
);
CREATE UNIQUE INDEX ledger_sale_once ON ledger(order_event, line) WHERE kind = 'sale';
CREATE UNIQUE INDEX ledger_return_once ON ledger(tenant_id, return_id, line) WHERE kind = 'return';
CREATE INDEX ledger_by_order ON ledger(tenant_id, order_id);
CREATE INDEX ledger_by_time ON ledger(tenant_id, booked_at);
)sql"},
        // Claims on orders (docs/adr/0056) and failure isolation (docs/adr/0055). An order id may
        // now hold several claims: browser purchases that differ are kept as conflicts (an exact
        // repeat is still dropped, found by its claim_key), and the shop's word from its backend
        // (shop = 'confirmed' or 'rejected') is a claim of its own. Booking runs per tenant with a
        // cursor each, reversals take back what a claim earned when it stops earning, and a line
        // whose money cannot be booked is set aside in ledger_quarantine instead of stopping
        // every later booking. The ledger is rebuilt for its new kind and claim columns.
        {3, R"sql(
ALTER TABLE events ADD COLUMN shop TEXT;             -- purchases: NULL from a browser, 'confirmed'/'rejected' from the shop
ALTER TABLE events ADD COLUMN claim_key TEXT;        -- purchases: digest of what the claim says; NULL before migration 3
ALTER TABLE events ADD COLUMN conflicting INTEGER NOT NULL DEFAULT 0;  -- browser claims differing from an earlier one
ALTER TABLE events ADD COLUMN confirms_claim INTEGER;  -- the shop's confirmations naming a browser claim
DROP INDEX events_order_once;
CREATE UNIQUE INDEX events_browser_claim_once ON events(tenant_id, order_id, claim_key) WHERE order_id IS NOT NULL AND shop IS NULL;
CREATE INDEX events_order_claims ON events(tenant_id, order_id, sequence) WHERE order_id IS NOT NULL;

CREATE TABLE attribution_cursors (
    tenant_id INTEGER PRIMARY KEY,
    sequence INTEGER NOT NULL                    -- the tenant's claims up to here are booked
);
INSERT INTO attribution_cursors(tenant_id, sequence)
    SELECT DISTINCT tenant_id, (SELECT sequence FROM attribution_cursor WHERE id = 1) FROM events WHERE order_id IS NOT NULL;
DROP TABLE attribution_cursor;

CREATE TABLE ledger_claims (
    entry INTEGER PRIMARY KEY AUTOINCREMENT,
    tenant_id INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('sale', 'return', 'reversal')),
    order_event INTEGER NOT NULL REFERENCES events(sequence),  -- the claim
    order_id TEXT NOT NULL,
    line INTEGER NOT NULL,
    sku TEXT NOT NULL,
    main_sku TEXT NOT NULL,
    amount INTEGER NOT NULL,                     -- units; negative for a return or reversal
    price INTEGER NOT NULL,                      -- gross unit price in cents
    revenue INTEGER NOT NULL,                    -- attributed gross revenue, cents
    commission INTEGER NOT NULL,                 -- cents
    rate_bp INTEGER NOT NULL,
    attributed INTEGER NOT NULL,
    reason TEXT,
    interaction INTEGER,
    interaction_type TEXT,
    widget TEXT,
    touchpoint TEXT,
    set_id TEXT,
    test_group TEXT,
    variant TEXT,
    interaction_at INTEGER,
    ordered_at INTEGER NOT NULL,
    booked_at INTEGER NOT NULL,
    return_id TEXT,
    claim_source TEXT NOT NULL DEFAULT 'browser',  -- browser, confirmed
    claim_status TEXT NOT NULL DEFAULT 'claimed',  -- OrderSettlement's ClaimStatus when booked (reversals: why)
    CHECK ((kind = 'return') = (return_id IS NOT NULL))
);
INSERT INTO ledger_claims(entry, tenant_id, kind, order_event, order_id, line, sku, main_sku, amount, price, revenue, commission,
                          rate_bp, attributed, reason, interaction, interaction_type, widget, touchpoint, set_id, test_group, variant,
                          interaction_at, ordered_at, booked_at, return_id)
    SELECT entry, tenant_id, kind, order_event, order_id, line, sku, main_sku, amount, price, revenue, commission, rate_bp, attributed,
           reason, interaction, interaction_type, widget, touchpoint, set_id, test_group, variant, interaction_at, ordered_at,
           booked_at, return_id FROM ledger;
DROP TABLE ledger;
ALTER TABLE ledger_claims RENAME TO ledger;
CREATE UNIQUE INDEX ledger_sale_once ON ledger(order_event, line) WHERE kind = 'sale';
CREATE UNIQUE INDEX ledger_reversal_once ON ledger(order_event, line) WHERE kind = 'reversal';
CREATE UNIQUE INDEX ledger_return_once ON ledger(tenant_id, return_id, line) WHERE kind = 'return';
CREATE INDEX ledger_by_order ON ledger(tenant_id, order_id);
CREATE INDEX ledger_by_time ON ledger(tenant_id, booked_at);

CREATE TABLE ledger_quarantine (
    order_event INTEGER NOT NULL REFERENCES events(sequence),  -- the claim
    line INTEGER NOT NULL,
    tenant_id INTEGER NOT NULL,
    order_id TEXT NOT NULL,
    sku TEXT NOT NULL,
    amount INTEGER NOT NULL,
    price INTEGER NOT NULL,
    reason TEXT NOT NULL,
    at INTEGER NOT NULL,                         -- the claim's arrival
    PRIMARY KEY (order_event, line)
) WITHOUT ROWID;
CREATE INDEX ledger_quarantine_by_time ON ledger_quarantine(tenant_id, at);
)sql"},
        // 4: the fleet view's traffic and commission per tenant and UTC month (docs/adr/0066),
        // counted by triggers as events are stored and entries booked: this month against last
        // month for thousands of tenants is then two rows each, not a count over millions of
        // events. Filled from what is stored once here.
        {4, R"sql(
CREATE TABLE tenant_months (
    month INTEGER NOT NULL,                     -- YYYYMM, UTC
    tenant_id INTEGER NOT NULL,
    widget_events INTEGER NOT NULL DEFAULT 0,   -- views, clicks, add-to-carts
    purchases INTEGER NOT NULL DEFAULT 0,       -- purchase claims (browsers and the shop's words)
    commission INTEGER NOT NULL DEFAULT 0,      -- cents booked in the month (returns and reversals subtract)
    PRIMARY KEY (month, tenant_id)
) WITHOUT ROWID;
INSERT INTO tenant_months(month, tenant_id, widget_events, purchases)
    SELECT CAST(strftime('%Y%m', received_at, 'unixepoch') AS INTEGER), tenant_id,
           SUM(order_id IS NULL), SUM(order_id IS NOT NULL)
    FROM events GROUP BY 1, 2;
INSERT INTO tenant_months(month, tenant_id, commission)
    SELECT CAST(strftime('%Y%m', booked_at, 'unixepoch') AS INTEGER), tenant_id, SUM(commission) FROM ledger GROUP BY 1, 2
    ON CONFLICT(month, tenant_id) DO UPDATE SET commission = excluded.commission;
CREATE TRIGGER tenant_months_on_event AFTER INSERT ON events
BEGIN
    INSERT INTO tenant_months(month, tenant_id, widget_events, purchases)
        VALUES (CAST(strftime('%Y%m', NEW.received_at, 'unixepoch') AS INTEGER), NEW.tenant_id, NEW.order_id IS NULL, NEW.order_id IS NOT NULL)
        ON CONFLICT(month, tenant_id) DO UPDATE SET widget_events = widget_events + excluded.widget_events,
                                                    purchases = purchases + excluded.purchases;
END;
CREATE TRIGGER tenant_months_on_booking AFTER INSERT ON ledger
BEGIN
    INSERT INTO tenant_months(month, tenant_id, commission)
        VALUES (CAST(strftime('%Y%m', NEW.booked_at, 'unixepoch') AS INTEGER), NEW.tenant_id, NEW.commission)
        ON CONFLICT(month, tenant_id) DO UPDATE SET commission = commission + excluded.commission;
END;
)sql"},
    };
    return list;
}

const std::vector<Migration>& migrationsOf(DatabaseKind kind) {
    switch (kind) {
        case DatabaseKind::Main: return mainMigrations();
        case DatabaseKind::Catalog: return catalogMigrations();
        case DatabaseKind::Events: return eventMigrations();
    }
    return mainMigrations();
}

}  // namespace

int latestSchemaVersion(DatabaseKind kind) { return migrationsOf(kind).back().version; }

std::string_view databaseKindName(DatabaseKind kind) {
    switch (kind) {
        case DatabaseKind::Main: return "main";
        case DatabaseKind::Catalog: return "catalog";
        case DatabaseKind::Events: return "events";
    }
    return "main";
}

namespace {

Result<int> recordedVersion(SqliteDatabase& db) {
    {
        auto table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'");
        if (!table) return table.error();
        auto row = table->step();
        if (!row) return row.error();
        if (!*row) return 0;
    }
    // Scoped: a statement still active on the connection would make DROP fail ("table is locked").
    auto query = db.prepare("SELECT COALESCE(MAX(version), 0) FROM schema_migrations");
    if (!query) return query.error();
    auto row = query->step();
    if (!row) return row.error();
    return static_cast<int>(query->integer(0));
}

}  // namespace

Result<SchemaState> schemaState(SqliteDatabase& db, DatabaseKind kind) {
    auto current = recordedVersion(db);
    if (!current) return current.error();
    SchemaState state;
    state.current = *current;
    state.latest = latestSchemaVersion(kind);
    for (const auto& migration : migrationsOf(kind)) {
        if (migration.version > state.current) state.pending.push_back(migration.version);
    }
    return state;
}

Status migrate(SqliteDatabase& db, DatabaseKind kind) { return migrateTo(db, kind, latestSchemaVersion(kind)); }

Status migrateTo(SqliteDatabase& db, DatabaseKind kind, int version) {
    if (auto status = db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
        !status) {
        return status;
    }
    auto current = recordedVersion(db);
    if (!current) return current.error();
    if (*current > latestSchemaVersion(kind)) {
        return Error::unavailable("database schema version " + std::to_string(*current) +
                                  " is newer than this svc-server (" + std::to_string(latestSchemaVersion(kind)) + ")");
    }
    for (const auto& migration : migrationsOf(kind)) {
        if (migration.version <= *current || migration.version > version) continue;
        auto transaction = SqliteTransaction::begin(db);
        if (!transaction) return transaction.error();
        if (auto status = db.execute(migration.sql); !status) {
            return Error::unavailable("migration " + std::to_string(migration.version) + ": " + status.error().message);
        }
        auto record = db.prepare("INSERT INTO schema_migrations(version, applied_at) VALUES (?, strftime('%s','now'))");
        if (!record) return record.error();
        record->bind(1, static_cast<int64_t>(migration.version));
        if (auto status = record->run(); !status) return status;
        if (auto status = transaction->commit(); !status) return status;
    }
    return Status::success();
}

}  // namespace svc
