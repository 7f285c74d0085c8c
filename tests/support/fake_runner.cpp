// A stand-in for a runner command, built with the tests so that the same command
// line works through /bin/sh and through cmd.exe:
//   kwtest-fake-runner hello-v1       reads one line, answers hello as protocol version 1 did
//   kwtest-fake-runner echo           copies each line of stdin to stdout until its end
//   kwtest-fake-runner fail N TEXT    writes TEXT to stderr and exits with status N
//   kwtest-fake-runner args WORD...   writes each WORD on a line of its own
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

int main(int argc, char** argv)
{
#ifdef _WIN32
    // A runner's bytes go through unchanged, as kwb-run serve's do.
    _setmode(_fileno(stdin), _O_BINARY);
    _setmode(_fileno(stdout), _O_BINARY);
#endif
    const std::string mode = argc > 1 ? argv[1] : "";
    std::string line;
    if (mode == "hello-v1") {
        std::getline(std::cin, line);
        std::cout << R"({"v":1,"id":1,"ok":true,"result":{"protocol":1,"devices":[]}})"
                  << "\n"
                  << std::flush;
        return 0;
    }
    if (mode == "echo") {
        while (std::getline(std::cin, line))
            std::cout << line << "\n" << std::flush;
        return 0;
    }
    if (mode == "fail" && argc > 3) {
        std::cerr << argv[3] << "\n" << std::flush;
        return std::atoi(argv[2]);
    }
    if (mode == "args") {
        for (int i = 2; i < argc; ++i)
            std::cout << argv[i] << "\n";
        return 0;
    }
    std::cerr << "usage: kwtest-fake-runner hello-v1 | echo | fail N TEXT | args WORD...\n";
    return 2;
}
