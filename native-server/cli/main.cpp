#include <sys/stat.h>

#include "cli/Cli.hpp"

int main(int argc, char** argv) {
    // Whatever svc-server creates is its own (issue 18, docs/adr/0061): files 0600, directories
    // 0700, also where a library (SQLite, libcurl) creates one with its own default mode.
    ::umask(077);
    return svc::runCli(argc, argv);
}
