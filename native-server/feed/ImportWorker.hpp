#pragma once
// Runs queued imports (push uploads) in the background, one at a time, oldest first.
// On start it requeues imports a killed process left running; their catalog
// transaction rolled back, so running them again is safe.
#include <condition_variable>
#include <mutex>
#include <thread>

#include "feed/FeedImportService.hpp"
#include "store/TenantStore.hpp"

namespace svc {

class ImportWorker {
public:
    ImportWorker(FeedImportService& service, FeedImportStore& history, TenantStore& tenants, const Clock& clock);
    ~ImportWorker();
    void start();
    void stop();
    void notify();  // a new import was queued

private:
    void loop();
    bool runOne();
    // Imports whose process stopped during them go back to the queue (logged per import).
    void requeueInterrupted();

    FeedImportService& service_;
    FeedImportStore& history_;
    TenantStore& tenants_;
    const Clock& clock_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool pending_ = true;
    std::thread thread_;
};

}  // namespace svc
