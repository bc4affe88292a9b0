#pragma once
// The functions js/library.js provides to the Wasm module (see there). Strings are
// NUL-terminated UTF-8; a returned char* is malloc'ed and owned by the caller.
extern "C" {
int svc_dom_select(const char* selector, int firstId);
char* svc_dom_attribute(int node, const char* name);
void svc_dom_set_attribute(int node, const char* name, const char* value);  // value nullptr: remove
void svc_dom_set_content(int node, const char* html);
void svc_dom_set_visible(int node, int visible);
int svc_dom_displayed(int node);   // 1 when the page displays the element (Dom::displayed)
void svc_dom_release(int node);
int svc_dom_same(int a, int b);    // 1 when both handles hold one element
int svc_dom_connected(int node);   // 1 while the element is in the page
void svc_warn(const char* message);
void svc_host_fetch(int batchId, const char* query);
// name nullptr: value becomes the part's content; else the part's attribute `name` (removed when value is nullptr).
void svc_dom_part(int node, const char* part, const char* name, const char* value);
void svc_dom_scroll_part(int node, const char* part, int direction);  // -1 or +1
int svc_shop_can_add_to_cart();
void svc_shop_add_to_cart(int requestId, const char* sku);
void svc_shop_watch_plugin();  // calls _svc_shop_plugin_ready once addToCart is a function
int svc_shop_navigate_to(const char* url);
char* svc_document_cookie();  // nullptr when reading it throws
void svc_set_document_cookie(const char* assignment);
char* svc_storage_get(int session, const char* key);
int svc_storage_set(int session, const char* key, const char* value);
void svc_random_bytes(char* out, int count);
char* svc_location(int part);  // 0: hostname, 1: protocol
char* svc_shop_test_group();   // nullptr when not a string
void svc_observe_visibility(int node, int widgetKey);
void svc_dom_dispatch(int node, const char* type, const char* detailJson);  // queued: dispatched after this turn
void svc_storage_remove(int session, const char* key);
void svc_host_send_events(const char* body);
}
