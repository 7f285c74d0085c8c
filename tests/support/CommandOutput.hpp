#pragma once
// Runs a kwb-run command class (CompileCommand, RunCommand) with its output and error
// streams in temporary files, and returns what it printed and its exit code.
#include <cstdio>
#include <string>
#include <utility>

namespace kw::test {

struct Outcome {
    int code = -1;
    std::string out, err;
};

// Reads `f` from the start and closes it.
inline std::string contents(std::FILE* f)
{
    std::string text;
    std::rewind(f);
    char chunk[4096];
    for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;)
        text.append(chunk, n);
    std::fclose(f);
    return text;
}

template <class Command, class Options> Outcome executeCommand(Options options)
{
    std::FILE* out = std::tmpfile();
    std::FILE* err = std::tmpfile();
    Outcome r;
    r.code = Command(std::move(options), out, err).execute();
    r.out = contents(out);
    r.err = contents(err);
    return r;
}

} // namespace kw::test
