#include "cli/Cli.hpp"

int main(int argc, char** argv) { return svc::runCli(argc, argv); }
