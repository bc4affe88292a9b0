#include "store/PgMigrations.hpp"

#include <string>
#include <vector>

namespace svc {
namespace {

struct Migration {
    int version;
    const char* sql;
};

// Every table of a tenant's data has tenant_id first in its key. Names, keys and SKUs are
// COLLATE "C": compared and ordered byte for byte, as the store contracts promise and as
// SQLite's BINARY does, whatever collation the database was created with.
const std::vector<Migration>& migrations() {
    static const std::vector<Migration> all{
        // 1: leases, tenants, operator keys, operators and their sessions, widget settings and texts,
        // pull sources, shop registrations, imports and uploads (the stores of issue 24's first slice).
        {1, R"sql(
CREATE TABLE leases (
    name text COLLATE "C" PRIMARY KEY,
    owner text COLLATE "C" NOT NULL,
    expires_at bigint NOT NULL
);
CREATE TABLE tenants (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    api_id text COLLATE "C" NOT NULL UNIQUE,
    name text NOT NULL,
    feed_id text COLLATE "C" NOT NULL UNIQUE,
    secret_hash text NOT NULL,
    currency text NOT NULL DEFAULT 'EUR',
    locale text NOT NULL DEFAULT 'de-DE',
    max_delete_share double precision NOT NULL DEFAULT 0.5,
    attribution_window_days bigint NOT NULL DEFAULT 30,
    commission_rates text NOT NULL DEFAULT '0',
    disabled_at bigint NOT NULL DEFAULT 0,
    created_at bigint NOT NULL
);
CREATE TABLE operator_keys (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text COLLATE "C" NOT NULL UNIQUE,
    key_hash text NOT NULL,
    created_at bigint NOT NULL
);
CREATE TABLE operators (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email text COLLATE "C" NOT NULL,
    password_hash text NOT NULL,
    failed_sign_ins bigint NOT NULL DEFAULT 0,
    locked_until bigint NOT NULL DEFAULT 0,
    created_at bigint NOT NULL,
    last_sign_in_at bigint NOT NULL DEFAULT 0
);
-- Unique case-insensitively as SQLite's NOCASE: lower() of a "C" column folds ASCII letters only.
CREATE UNIQUE INDEX operators_email ON operators (lower(email));
CREATE TABLE operator_sessions (
    token_hash text COLLATE "C" PRIMARY KEY,
    operator_id bigint NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
    csrf_token text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL
);
CREATE INDEX operator_sessions_expiry ON operator_sessions (expires_at);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id);
CREATE TABLE widget_settings (
    tenant_id bigint PRIMARY KEY REFERENCES tenants(id),
    language_source text NOT NULL DEFAULT 'html-lang' CHECK (language_source IN ('html-lang', 'path-segment', 'fixed')),
    default_language text NOT NULL DEFAULT 'en',
    country text NOT NULL DEFAULT '',
    css text NOT NULL DEFAULT '',
    consent text NOT NULL DEFAULT 'granted' CHECK (consent IN ('pending', 'granted', 'denied')),
    updated_at bigint NOT NULL
);
CREATE TABLE widget_texts (
    tenant_id bigint NOT NULL REFERENCES tenants(id),
    language text COLLATE "C" NOT NULL,
    texts text NOT NULL,
    updated_at bigint NOT NULL,
    PRIMARY KEY (tenant_id, language)
);
CREATE TABLE pull_sources (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id bigint NOT NULL REFERENCES tenants(id),
    feed text COLLATE "C" NOT NULL,
    kind text NOT NULL DEFAULT 'file' CHECK (kind IN ('file', 'plugin')),
    url text NOT NULL,
    interval_seconds bigint NOT NULL,
    delta boolean NOT NULL,
    identifier text NOT NULL,
    delimiter text NOT NULL,
    credentials text NOT NULL DEFAULT '',
    etag text NOT NULL DEFAULT '',
    last_modified text NOT NULL DEFAULT '',
    next_run_at bigint NOT NULL,
    last_run_at bigint NOT NULL DEFAULT 0,
    last_result text NOT NULL DEFAULT '',
    created_at bigint NOT NULL,
    UNIQUE (tenant_id, feed)
);
CREATE INDEX pull_sources_due ON pull_sources (next_run_at, id);
CREATE TABLE shop_registrations (
    tenant_id bigint NOT NULL REFERENCES tenants(id),
    feed_id text COLLATE "C" NOT NULL,
    record text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    last_contact_at bigint NOT NULL DEFAULT 0,
    last_pull_at bigint NOT NULL DEFAULT 0,
    last_pull_result text NOT NULL DEFAULT '',
    last_full_pull_at bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, feed_id)
);
CREATE TABLE feed_imports (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id bigint NOT NULL REFERENCES tenants(id),
    feed text COLLATE "C" NOT NULL DEFAULT 'default',
    source text NOT NULL,
    delta boolean NOT NULL,
    identifier text NOT NULL,
    delimiter text NOT NULL,
    status text NOT NULL,
    file_key text NOT NULL DEFAULT '',
    created_at bigint NOT NULL,
    started_at bigint NOT NULL DEFAULT 0,
    finished_at bigint NOT NULL DEFAULT 0,
    rows_read bigint NOT NULL DEFAULT 0,
    inserted bigint NOT NULL DEFAULT 0,
    updated bigint NOT NULL DEFAULT 0,
    unchanged bigint NOT NULL DEFAULT 0,
    rejected bigint NOT NULL DEFAULT 0,
    marked_deleted bigint NOT NULL DEFAULT 0,
    message text NOT NULL DEFAULT '',
    row_errors text NOT NULL DEFAULT '[]',
    catalog_products bigint,
    warnings text NOT NULL DEFAULT '[]',
    unknown_skus bigint NOT NULL DEFAULT 0,
    describes_products boolean
);
CREATE INDEX feed_imports_by_tenant ON feed_imports (tenant_id, id);
CREATE INDEX feed_imports_by_feed ON feed_imports (tenant_id, feed, id);
CREATE INDEX feed_imports_pending ON feed_imports (status, id) WHERE status IN ('queued', 'running');
CREATE INDEX feed_imports_held ON feed_imports (tenant_id) WHERE status = 'held';
CREATE TABLE feed_uploads (
    id text COLLATE "C" PRIMARY KEY,
    tenant_id bigint NOT NULL REFERENCES tenants(id),
    feed text COLLATE "C" NOT NULL DEFAULT 'default',
    identifier text NOT NULL,
    delimiter text NOT NULL,
    delta boolean NOT NULL,
    expires_at bigint NOT NULL,
    consumed_at bigint,
    import_id bigint REFERENCES feed_imports(id)
);
)sql"},
        // 2: the catalog and its price history (docs/adr/0087). Hash-partitioned by tenant (16
        // partitions: each stays a size vacuum and index builds handle at 20M SKUs, few enough
        // that planning stays cheap; a tenant's rows stay in one). Imports stamp the rows they
        // change with their change_seq and list the SKUs in catalog_change_skus, so any node
        // reads an import's articles by key; change_seq itself has no index, so updates that
        // keep sku, main_sku and primary_category can stay heap-only.
        {2, R"sql(
CREATE TABLE catalog_products (
    tenant_id bigint NOT NULL,
    sku text COLLATE "C" NOT NULL,
    main_sku text COLLATE "C" NOT NULL,
    model text NOT NULL DEFAULT '',
    variant text NOT NULL DEFAULT '',
    name text NOT NULL DEFAULT '',
    deeplink text NOT NULL DEFAULT '',
    image text NOT NULL DEFAULT '',
    thumbnail text NOT NULL DEFAULT '',
    brand text NOT NULL DEFAULT '',
    color text NOT NULL DEFAULT '',
    description text NOT NULL DEFAULT '',
    category_paths text NOT NULL DEFAULT '',
    primary_category text COLLATE "C" NOT NULL DEFAULT '',
    stock bigint NOT NULL DEFAULT 0,
    retail_price bigint,
    discount_price bigint,
    lowest_price_30d bigint,
    properties jsonb NOT NULL DEFAULT '{}',
    deleted boolean NOT NULL DEFAULT false,
    updated_at bigint NOT NULL,
    last_seen_at bigint NOT NULL,
    change_seq bigint NOT NULL,
    feeds text COLLATE "C",
    PRIMARY KEY (tenant_id, sku)
) PARTITION BY HASH (tenant_id);
CREATE INDEX catalog_products_by_main_sku ON catalog_products (tenant_id, main_sku, sku);
CREATE TABLE catalog_changes (
    tenant_id bigint NOT NULL REFERENCES tenants(id),
    seq bigint GENERATED ALWAYS AS IDENTITY,
    started_at bigint NOT NULL,
    listed boolean NOT NULL DEFAULT false,
    PRIMARY KEY (tenant_id, seq)
);
CREATE TABLE catalog_change_skus (
    tenant_id bigint NOT NULL,
    seq bigint NOT NULL,
    sku text COLLATE "C" NOT NULL,
    PRIMARY KEY (tenant_id, seq, sku)
) PARTITION BY HASH (tenant_id);
CREATE TABLE price_history (
    tenant_id bigint NOT NULL,
    sku text COLLATE "C" NOT NULL,
    since bigint NOT NULL,
    price bigint NOT NULL,
    PRIMARY KEY (tenant_id, sku, since)
) PARTITION BY HASH (tenant_id);
DO $$
BEGIN
    FOR i IN 0..15 LOOP
        EXECUTE format('CREATE TABLE catalog_products_%s PARTITION OF catalog_products FOR VALUES WITH (MODULUS 16, REMAINDER %s) '
                       'WITH (fillfactor = 80)', i, i);
        EXECUTE format('CREATE TABLE catalog_change_skus_%s PARTITION OF catalog_change_skus FOR VALUES WITH (MODULUS 16, REMAINDER %s)', i, i);
        EXECUTE format('CREATE TABLE price_history_%s PARTITION OF price_history FOR VALUES WITH (MODULUS 16, REMAINDER %s)', i, i);
    END LOOP;
END $$;
)sql"},
        // 3: content (templates, custom and photo sets, generations, what was learned), category
        // mappings, image facts and the fleet view's feed states (docs/adr/0088).
        {3, R"sql(
-- The operator's pool, shared by every tenant: no tenant_id (its generation is tenant 0's).
CREATE TABLE set_templates (
    id text COLLATE "C" PRIMARY KEY,
    definition text NOT NULL,
    updated_at bigint NOT NULL
);
-- position: creation order across nodes (an identity, not max()+1, which two nodes could both take).
CREATE TABLE custom_sets (
    tenant_id bigint NOT NULL REFERENCES tenants(id),
    kind text NOT NULL CHECK (kind IN ('custom', 'photo')),
    id text COLLATE "C" NOT NULL,
    position bigint GENERATED BY DEFAULT AS IDENTITY,
    definition text NOT NULL,
    updated_at bigint NOT NULL,
    PRIMARY KEY (tenant_id, kind, id)
);
CREATE INDEX custom_sets_order ON custom_sets (tenant_id, kind, position);
-- Tenant 0 stands for the templates, so no reference to tenants.
CREATE TABLE content_generations (
    tenant_id bigint PRIMARY KEY,
    generation bigint NOT NULL
);
CREATE TABLE content_learned (
    tenant_id bigint PRIMARY KEY,
    orders bigint NOT NULL,
    last_order_received_at bigint NOT NULL,
    updated_at bigint NOT NULL
);
CREATE TABLE category_slot_mappings (
    tenant_id bigint NOT NULL REFERENCES tenants(id),
    category_key text COLLATE "C" NOT NULL,
    category text NOT NULL,
    slot text NOT NULL,
    position integer NOT NULL,
    PRIMARY KEY (tenant_id, category_key)
);
-- Keyed by the URL's SHA-256, not the URL: a B-tree entry holds at most ~2.7 kB and feeds'
-- image URLs have no length limit.
CREATE TABLE image_facts (
    tenant_id bigint NOT NULL,
    url_hash bytea NOT NULL,
    url text NOT NULL,
    thumb_key text COLLATE "C" NOT NULL,
    status text NOT NULL CHECK (status IN ('ok', 'failed')),
    reason text NOT NULL DEFAULT '',
    http_status bigint NOT NULL DEFAULT 0,
    etag text NOT NULL DEFAULT '',
    content_sha256 text NOT NULL DEFAULT '',
    content_type text NOT NULL DEFAULT '',
    bytes bigint NOT NULL DEFAULT 0,
    width integer NOT NULL DEFAULT 0,
    height integer NOT NULL DEFAULT 0,
    colors text NOT NULL DEFAULT '[]',
    phash bigint NOT NULL DEFAULT 0,  -- the 64-bit hash's signed bit pattern
    attempts integer NOT NULL DEFAULT 0,
    fetched_at bigint NOT NULL,
    next_attempt_at bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, url_hash)
);
CREATE INDEX image_facts_by_key ON image_facts USING hash (thumb_key);
-- The newest finished import of every feed, kept by a trigger as on SQLite, so the fleet view
-- reads one row per feed instead of grouping every tenant's import history.
CREATE TABLE feed_states (
    tenant_id bigint NOT NULL,
    feed text COLLATE "C" NOT NULL,
    last_finished_id bigint NOT NULL DEFAULT 0,
    last_status text NOT NULL DEFAULT '',
    last_message text NOT NULL DEFAULT '',
    last_finished_at bigint NOT NULL DEFAULT 0,
    last_applied_at bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, feed)
);
INSERT INTO feed_states(tenant_id, feed, last_finished_id, last_status, last_message, last_finished_at, last_applied_at)
    SELECT DISTINCT ON (f.tenant_id, f.feed) f.tenant_id, f.feed, f.id, f.status, f.message, f.finished_at,
           COALESCE((SELECT max(a.finished_at) FROM feed_imports a WHERE a.tenant_id = f.tenant_id AND a.feed = f.feed AND a.status = 'applied'), 0)
    FROM feed_imports f WHERE f.status IN ('applied', 'failed') ORDER BY f.tenant_id, f.feed, f.id DESC;
-- One upsert: two nodes finishing imports of one feed serialise on its row, the newer id wins.
CREATE FUNCTION feed_states_on_finish() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO feed_states AS s (tenant_id, feed, last_finished_id, last_status, last_message, last_finished_at, last_applied_at)
    VALUES (NEW.tenant_id, NEW.feed, NEW.id, NEW.status, NEW.message, NEW.finished_at,
            CASE WHEN NEW.status = 'applied' THEN NEW.finished_at ELSE 0 END)
    ON CONFLICT (tenant_id, feed) DO UPDATE SET
        last_finished_id = CASE WHEN s.last_finished_id < NEW.id THEN NEW.id ELSE s.last_finished_id END,
        last_status = CASE WHEN s.last_finished_id < NEW.id THEN NEW.status ELSE s.last_status END,
        last_message = CASE WHEN s.last_finished_id < NEW.id THEN NEW.message ELSE s.last_message END,
        last_finished_at = CASE WHEN s.last_finished_id < NEW.id THEN NEW.finished_at ELSE s.last_finished_at END,
        last_applied_at = CASE WHEN NEW.status = 'applied' THEN greatest(s.last_applied_at, NEW.finished_at) ELSE s.last_applied_at END;
    RETURN NULL;
END;
$$;
CREATE TRIGGER feed_states_on_insert AFTER INSERT ON feed_imports
    FOR EACH ROW WHEN (NEW.status IN ('applied', 'failed')) EXECUTE FUNCTION feed_states_on_finish();
CREATE TRIGGER feed_states_on_update AFTER UPDATE OF status ON feed_imports
    FOR EACH ROW WHEN (NEW.status IN ('applied', 'failed') AND OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION feed_states_on_finish();
)sql"},
        // 4: interaction events, claims on orders, the ledger (issue 24, docs/adr/0089). Only the
        // rows attribution reads are kept one by one: clicks and add-to-carts, in daily partitions
        // dropped whole past the longest attribution window; views (most events) are counters per
        // tenant, day and group. No foreign keys on these write-heavy tables: tenants are never deleted.
        {4, R"sql(
-- One sequence orders interactions and claims by arrival within a tenant ("did the click come
-- before the order?"). Values are taken only under the tenant's ordering lock, so a tenant's
-- sequence order is its commit order and a `sequence > cursor` reader skips nothing (PgEventStore).
CREATE SEQUENCE event_sequence AS bigint;
CREATE TABLE interactions (
    tenant_id bigint NOT NULL,
    sequence bigint NOT NULL,
    received_at bigint NOT NULL,                 -- Unix seconds, the server's clock: the partition key
    type text NOT NULL CHECK (type IN ('click', 'add-to-cart')),
    cid text COLLATE "C" NOT NULL,
    sid text COLLATE "C",
    widget text COLLATE "C" NOT NULL,
    touchpoint text COLLATE "C" NOT NULL,
    sku text COLLATE "C",
    set_id text COLLATE "C",
    test_group text COLLATE "C",
    variant text COLLATE "C",
    client_time bigint,
    PRIMARY KEY (tenant_id, sequence, received_at)
) PARTITION BY RANGE (received_at);
CREATE INDEX interactions_by_cid ON interactions (tenant_id, cid, sequence);
CREATE TABLE event_counts (
    tenant_id bigint NOT NULL,
    day bigint NOT NULL,                         -- Unix seconds at 00:00 UTC
    widget text COLLATE "C" NOT NULL,
    touchpoint text COLLATE "C" NOT NULL,
    test_group text COLLATE "C" NOT NULL,        -- '': none
    variant text COLLATE "C" NOT NULL,
    views bigint NOT NULL DEFAULT 0,
    clicks bigint NOT NULL DEFAULT 0,
    add_to_carts bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, day, widget, touchpoint, test_group, variant)
);
-- One row per order id a tenant has claims on: its first browser claim is the purchase
-- co-purchase learning reads.
CREATE TABLE orders (
    tenant_id bigint NOT NULL,
    order_id text COLLATE "C" NOT NULL,
    purchase bigint,                             -- the first browser claim's sequence; NULL: only the shop's word so far
    received_at bigint NOT NULL,
    PRIMARY KEY (tenant_id, order_id)
);
CREATE UNIQUE INDEX orders_purchases ON orders (tenant_id, purchase) WHERE purchase IS NOT NULL;
CREATE TABLE order_claims (
    tenant_id bigint NOT NULL,
    sequence bigint NOT NULL,
    order_id text COLLATE "C" NOT NULL,
    cid text COLLATE "C",
    received_at bigint NOT NULL,
    shop text CHECK (shop IN ('confirmed', 'rejected')),  -- NULL: a browser's claim
    claim_key text COLLATE "C" NOT NULL,
    confirms_claim bigint,
    PRIMARY KEY (tenant_id, sequence),
    FOREIGN KEY (tenant_id, order_id) REFERENCES orders (tenant_id, order_id)
);
CREATE UNIQUE INDEX order_claims_browser_once ON order_claims (tenant_id, order_id, claim_key) WHERE shop IS NULL;
CREATE INDEX order_claims_by_order ON order_claims (tenant_id, order_id, sequence);
CREATE TABLE order_lines (
    tenant_id bigint NOT NULL,
    claim bigint NOT NULL,
    line integer NOT NULL,
    sku text COLLATE "C" NOT NULL,
    amount bigint NOT NULL,
    price bigint NOT NULL,                       -- gross unit price in cents
    PRIMARY KEY (tenant_id, claim, line)
);
CREATE TABLE attribution_cursors (
    tenant_id bigint PRIMARY KEY,
    sequence bigint NOT NULL                     -- the tenant's claims up to here are booked
);
CREATE TABLE ledger (
    entry bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id bigint NOT NULL,
    kind text NOT NULL CHECK (kind IN ('sale', 'return', 'reversal')),
    order_event bigint NOT NULL,                 -- the claim
    order_id text COLLATE "C" NOT NULL,
    line bigint NOT NULL,
    sku text COLLATE "C" NOT NULL,
    main_sku text COLLATE "C" NOT NULL,
    amount bigint NOT NULL,
    price bigint NOT NULL,
    revenue bigint NOT NULL,
    commission bigint NOT NULL,
    rate_bp bigint NOT NULL,
    attributed boolean NOT NULL,
    reason text,
    interaction bigint,
    interaction_type text,
    widget text COLLATE "C",
    touchpoint text COLLATE "C",
    set_id text COLLATE "C",
    test_group text COLLATE "C",
    variant text COLLATE "C",
    interaction_at bigint,
    ordered_at bigint NOT NULL,
    booked_at bigint NOT NULL,
    return_id text COLLATE "C",
    claim_source text NOT NULL DEFAULT 'browser',
    claim_status text NOT NULL DEFAULT 'claimed',
    CHECK ((kind = 'return') = (return_id IS NOT NULL))
);
CREATE UNIQUE INDEX ledger_sale_once ON ledger (tenant_id, order_event, line) WHERE kind = 'sale';
CREATE UNIQUE INDEX ledger_reversal_once ON ledger (tenant_id, order_event, line) WHERE kind = 'reversal';
CREATE UNIQUE INDEX ledger_return_once ON ledger (tenant_id, return_id, line) WHERE kind = 'return';
CREATE INDEX ledger_by_order ON ledger (tenant_id, order_id, entry);
CREATE INDEX ledger_by_time ON ledger (tenant_id, booked_at, entry);
CREATE TABLE ledger_quarantine (
    tenant_id bigint NOT NULL,
    order_event bigint NOT NULL,
    line bigint NOT NULL,
    order_id text COLLATE "C" NOT NULL,
    sku text COLLATE "C" NOT NULL,
    amount bigint NOT NULL,
    price bigint NOT NULL,
    reason text NOT NULL,
    at bigint NOT NULL,                          -- the claim's arrival
    PRIMARY KEY (tenant_id, order_event, line)
);
CREATE INDEX ledger_quarantine_by_time ON ledger_quarantine (tenant_id, at);
-- The fleet view's traffic and commission per tenant and UTC month (docs/adr/0066), counted as
-- events are stored and entries booked.
CREATE TABLE tenant_months (
    month integer NOT NULL,                      -- YYYYMM, UTC
    tenant_id bigint NOT NULL,
    widget_events bigint NOT NULL DEFAULT 0,
    purchases bigint NOT NULL DEFAULT 0,
    commission bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (month, tenant_id)
);
)sql"},
        // 5: set-preview drafts shared by every node (docs/adr/0091). 2-4 are the catalog, content
        // and event stores' (helpers' branches of issue 24).
        {5, R"sql(
CREATE TABLE set_previews (
    token_hash text COLLATE "C" PRIMARY KEY,
    tenant_id bigint NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    draft text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL
);
CREATE INDEX set_previews_expiry ON set_previews (expires_at);
)sql"},
        // 6: product partitions keep half of each page free (docs/adr/0093). A full feed seen again
        // after an hour rewrites every row it lists (last_seen_at, change_seq): with a page half
        // free each row's new version fits beside the old one, so the update stays heap-only (no
        // index entries) and the next import's page pruning reclaims the old version. At 80 only
        // about one row in five fitted and the rest cost two index insertions each. Existing pages
        // keep their layout until rows move; every page written from now on follows the setting.
        {6, R"sql(
DO $$
BEGIN
    FOR i IN 0..15 LOOP
        EXECUTE format('ALTER TABLE catalog_products_%s SET (fillfactor = 50)', i);
    END LOOP;
END $$;
)sql"},
        // 7: rate limits shared by every node (docs/adr/0094): a token bucket per key. UNLOGGED:
        // no WAL and no replication for counters whose loss in a crash only forgives a few clients.
        {7, R"sql(
CREATE UNLOGGED TABLE rate_buckets (
    key text COLLATE "C" PRIMARY KEY,
    tokens double precision NOT NULL,
    updated_ms bigint NOT NULL,
    full_at_ms bigint NOT NULL                  -- from then on the bucket is full: forgotten by the leader
);
)sql"},
    };
    return all;
}

}  // namespace

int PgMigrations::latestVersion() { return migrations().back().version; }

Status PgMigrations::migrate(PgConnection& connection) {
    return connection.inTransaction("migrate", [&]() -> Status {
        // Keyed by the schema: databases and schemas migrate independently (a test's schema each).
        if (auto locked = connection.execute("migrate: wait for the migration lock",
                                             "SELECT pg_advisory_xact_lock(hashtext('svc migrations ' || coalesce(current_schema(), '')))");
            !locked) {
            return locked.error();
        }
        if (auto status = connection.executeScript(
                "migrate: create svc_migrations", "CREATE TABLE IF NOT EXISTS svc_migrations (version integer PRIMARY KEY, applied_at bigint NOT NULL)");
            !status) {
            return status;
        }
        auto applied = connection.execute("migrate: read the applied version", "SELECT coalesce(max(version), 0) FROM svc_migrations");
        if (!applied) return applied.error();
        int64_t current = applied->integer(0, 0);
        for (const auto& migration : migrations()) {
            if (migration.version <= current) continue;
            std::string purpose = "migrate to version " + std::to_string(migration.version);
            if (auto status = connection.executeScript(purpose, migration.sql); !status) return status;
            auto recorded = connection.execute(purpose, "INSERT INTO svc_migrations(version, applied_at) VALUES ($1, extract(epoch FROM now())::bigint)",
                                               {migration.version});
            if (!recorded) return recorded.error();
        }
        return Status::success();
    });
}

}  // namespace svc
