#include "cli/BackupCommands.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "app/SystemClock.hpp"
#include "store/DataDirBackup.hpp"

namespace svc {
namespace {

int printManifest(const Result<BackupManifest>& manifest, const std::string& what) {
    if (!manifest) {
        std::cerr << "svc-server: " << manifest.error().message << std::endl;
        return 1;
    }
    uint64_t bytes = 0;
    size_t databases = 0;
    for (const auto& file : manifest->files) {
        bytes += file.bytes;
        if (file.database) ++databases;
    }
    std::cout << nlohmann::json{{what, true}, {"createdAt", manifest->createdAt}, {"files", manifest->files.size()},
                                {"databases", databases}, {"bytes", bytes}}
                     .dump()
              << std::endl;
    return 0;
}

}  // namespace

BackupCommands::BackupCommands(CLI::App& app) {
    backup_ = app.add_subcommand("backup", "Copy a data dir, while the server runs, into a new folder (consistent, checksummed, 0600)");
    backup_->add_option("--data-dir", dataDir_, "The data dir to copy")->required();
    backup_->add_option("--to", backupDir_, "A new or empty folder for the copy")->required();
    backup_->add_flag("--verify", verifyOnly_, "Only check an existing backup in --to against its manifest");
    restore_ = app.add_subcommand("restore", "Restore a backup into a new data dir (never over a live or non-empty one)");
    restore_->add_option("--from", backupDir_, "The backup folder")->required();
    restore_->add_option("--data-dir", dataDir_, "A new or empty data dir")->required();
}

bool BackupCommands::parsed() const { return backup_->parsed() || restore_->parsed(); }

int BackupCommands::run() {
    if (restore_->parsed()) return printManifest(DataDirBackup::restore(backupDir_, dataDir_), "restored");
    if (verifyOnly_) return printManifest(DataDirBackup::verify(backupDir_), "verified");
    return printManifest(DataDirBackup::backup(dataDir_, backupDir_, SystemClock().nowSeconds()), "backedUp");
}

}  // namespace svc
