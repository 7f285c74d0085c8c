// kwb-run: compile and run workbench documents from the command line, list the
// GPUs, and serve the workbench over stdin/stdout. This file defines the command
// line; each subcommand is a core class (core/serve/*Command, compile/CompileWorker).
//
// Exit codes (run/ExitCode): 0 success, 1 compile errors, 2 bad usage / bad input /
// nothing to run on, 3 kernel fault, 4 a check failed, 5 an untrusted document asked
// for an option or a file it may not (--trust lifts that for one's own files).
#include "compile/CompileWorker.hpp"
#include "debug/DebugCommand.hpp"
#include "grade/GradeCommand.hpp"
#include "run/CompileCommandOptions.hpp"
#include "run/ExitCode.hpp"
#include "run/FailureReport.hpp"
#include "run/RunCommandOptions.hpp"
#include "run/VersionReport.hpp"
#include "serve/CompileCommand.hpp"
#include "serve/DevicesCommand.hpp"
#include "serve/ExportCommand.hpp"
#include "serve/RunCommand.hpp"
#include "serve/ServeCommand.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv)
{
    CLI::App app{"kwb-run: compile and run Kernel Workbench documents"};
    app.require_subcommand(1);
    // "/path/kernel.cu" is a file, not a Windows-style "/option".
    app.allow_windows_style_options(false);
    app.set_version_flag(
        "--version",
        [] {
            std::string text = "kwb-run " + kw::VersionReport::version() + "\n"
                + kw::VersionReport::format(kw::VersionReport::collect());
            text.pop_back(); // CLI11 adds the last newline
            return text;
        },
        "print the version, and the NVRTC and driver found, then exit");

    kw::CompileCommandOptions compileOptions;
    auto* compile = app.add_subcommand("compile", "Compile a .cu file or a .kwb document with NVRTC");
    compile->add_option("file", compileOptions.file, "FILE.cu or FILE.kwb")->required();
    compile->add_option("--arch", compileOptions.arch, "target, e.g. sm_90 or compute_90 (default: the GPU's)");
    compile->add_option("-D,--define", compileOptions.defines, "NAME[=VALUE]");
    compile->add_option("-I,--include", compileOptions.includes, "include folder");
    compile->add_flag("--json", compileOptions.json, "print one JSON object");
    compile->add_flag("--trust", compileOptions.trust,
                      "take the document's options and files as they are (only for your own files)");
    compile
        ->add_option("--emit", compileOptions.emit,
                     "print what NVRTC produced: ptx, or cubin (binary, for a real arch)")
        ->check(CLI::IsMember({"ptx", "cubin"}));
    compile->add_option("--device", compileOptions.device,
                        "N, cuda:N or sim: the device a document's occupancy is shown for (default: cuda:0 if "
                        "present, else sim)");

    kw::RunCommandOptions runOptions;
    auto* run = app.add_subcommand("run", "Run a .kwb document");
    run->add_option("file", runOptions.file, "FILE.kwb")->required();
    run->add_option("--device", runOptions.device, "N, cuda:N or sim (default: cuda:0 if present, else sim)");
    run->add_option("--repeat", runOptions.repeat, "timed repeats (overrides the document)")
        ->check(CLI::NonNegativeNumber);
    run->add_option("--l2-flush", runOptions.l2Flush,
                    "on, off or auto: flush the GPU's L2 cache before each timed run (overrides the document's "
                    "run.l2_flush; auto flushes unless the kernel takes under 10 us)")
        ->check(CLI::IsMember({"on", "off", "auto"}));
    auto* outOption = run->add_option("--out", runOptions.outDir, "write output buffers as .npy and result.json here");
    run->add_option("--out-after", runOptions.outAfter,
                    "STEP (repeatable): a document of steps: also write every buffer as step STEP (\"2\", \"3.1\", "
                    "\"*\" for all) left it, as DIR/after-step-STEP/NAME.npy; a step in a loop: after its last pass")
        ->needs(outOption);
    run->add_flag("--json", runOptions.json, "print the run result as JSON");
    run->add_flag("--raw-printf", runOptions.rawPrintf,
                  "print the kernel's printf output as its bytes; by default each line is shown behind \"| \" "
                  "with control characters escaped, so it cannot pass for the summary or drive the terminal");
    run->add_flag("--trust", runOptions.trust,
                  "take the document's options and files as they are (only for your own files)");
    run->add_option("--check", runOptions.check,
                    "find memory errors, shared-memory races, uninitialised reads or barrier misuse: the "
                    "simulator's own checks on sim, compute-sanitizer on a GPU (docs/checks.md)")
        ->check(CLI::IsMember({"memcheck", "racecheck", "initcheck", "synccheck"}));
    run->add_flag("--profile", runOptions.profile,
                  "count per source line what Nsight Compute counts (memory requests, sectors, bank conflicts, "
                  "divergent branches); needs --device sim (docs/profile.md)");
    run->add_option("--runner", runOptions.runner,
                    "run on the runner this command line starts, e.g. \"ssh gpu-server kwb-run serve\" "
                    "(docs/remote.md); --device then names one of its devices");

    kw::debug::DebugCommandOptions debugOptions;
    auto* debug = app.add_subcommand(
        "debug", "Debug a .kwb document's launch on the simulator, with commands read from stdin (docs/debugger.md)");
    debug->add_option("file", debugOptions.file, "FILE.kwb (with --dap: or the launch request's \"program\")");
    debug->add_flag("--trust", debugOptions.trust,
                    "take the document's options and files as they are (only for your own files)");
    debug->add_option("--check", debugOptions.check, "stop where the simulator's check finds something")
        ->check(CLI::IsMember({"memcheck", "racecheck", "initcheck", "synccheck"}));
    debug->add_option("--step", debugOptions.step,
                      "a document of steps: the launch step to debug, by name or by path (\"2\", \"3.1\"); "
                      "\"3.1@4\": its launch in pass 4 of the repeat around it");
    debug->add_option("--pass", debugOptions.pass, "with --step: the pass of the repeat (1: the first)")
        ->check(CLI::PositiveNumber);
    debug->add_flag("--optimized", debugOptions.optimized,
                    "debug the optimized code (line information only, no -G): PTX registers, no source variables");
    debug->add_flag("--dap", debugOptions.dap,
                    "speak the Debug Adapter Protocol on stdin/stdout, for VS Code and other DAP clients "
                    "(docs/debugger.md)");

    kw::grade::GradeCommandOptions gradeOptions;
    auto* grade = app.add_subcommand(
        "grade", "Grade solutions of an exercise (.kwx) against its reference, case by case (docs/exercises.md)");
    grade->add_option("exercise", gradeOptions.exercise, "EXERCISE.kwx")->required();
    grade->add_option("solutions", gradeOptions.solutions,
                      "SOLUTION.cu or .kwb (several: one table and one JUnit testsuite each); none: the starter");
    grade->add_option("--device", gradeOptions.device, "sim (default) or cuda:N");
    grade->add_flag("--json", gradeOptions.json, "print the grade as JSON");
    grade->add_option("--junit", gradeOptions.junit, "also write the grade as JUnit XML to FILE");
    grade->add_option("--seed", gradeOptions.seed,
                      "the secret seed mixed into every case's inputs (default: a new random one each run)");
    grade->add_flag("--trust", gradeOptions.trust,
                    "take the exercise's options and files as they are (only for your own files)");

    kw::ExportCommandOptions exportOptions;
    auto* exportDoc = app.add_subcommand(
        "export", "Write a .kwb document as a program that reproduces its run: CuPy, PyCUDA or C++ (docs/export.md)");
    exportDoc->add_option("file", exportOptions.file, "FILE.kwb")->required();
    exportDoc->add_option("--to", exportOptions.target, "cupy, pycuda or cpp")
        ->required()
        ->check(CLI::IsMember({"cupy", "pycuda", "cpp"}));
    exportDoc->add_option("--out", exportOptions.outDir,
                          "the folder to write (default: NAME-TARGET beside the document)");
    exportDoc->add_flag("--cubin", exportOptions.cubin,
                        "cpp: compile now and embed the cubin (for --arch, or the document's options.arch)");
    exportDoc->add_option("--arch", exportOptions.arch, "with --cubin: the architecture, e.g. sm_90");
    exportDoc->add_flag("--trust", exportOptions.trust,
                        "take the document's options and files as they are (only for your own files)");

    bool devicesJson = false;
    auto* devices = app.add_subcommand("devices", "List GPUs and their limits");
    devices->add_flag("--json", devicesJson, "print JSON");

    kw::ServeCommand::Options serveOptions;
    auto* serve = app.add_subcommand("serve", "Serve the JSON-lines protocol on stdin/stdout (docs/protocol.md)");
    serve->add_option("--pending-fd", serveOptions.pendingFd, "input already read by a previous runner (internal)");
#ifdef _WIN32
    serve->add_option("--handover", serveOptions.handover, "file for unserved input when restarting (internal)");
#endif

    auto* worker = app.add_subcommand("compile-worker", "");
    worker->group(""); // internal: the workbench's isolated compiles
    bool workerMany = false, workerTrusted = false;
    std::string workerPchRoot;
    worker->add_flag("--many", workerMany, "compile job after job (WarmCompileWorker)");
    worker->add_flag("--trusted", workerTrusted, "with --many: jobs of trusted sources");
    worker->add_option("--pch-root", workerPchRoot, "with --many: the folder of precompiled headers");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? kw::ExitCode::Ok : kw::ExitCode::BadInput;
    }

    try {
        if (*compile)
            return kw::CompileCommand(compileOptions).execute();
        if (*run)
            return kw::RunCommand(runOptions).execute();
        if (*debug)
            return kw::debug::DebugCommand(debugOptions).execute();
        if (*grade)
            return kw::grade::GradeCommand(gradeOptions).execute();
        if (*exportDoc)
            return kw::ExportCommand(exportOptions).execute();
        if (*devices)
            return kw::DevicesCommand::execute(devicesJson);
        if (*serve)
            return kw::ServeCommand::execute(serveOptions);
        if (*worker && workerMany) {
            kw::CompileWorker::serveMany(stdin, stdout, !workerTrusted, workerPchRoot);
            return kw::ExitCode::Ok;
        }
        if (*worker) {
            kw::CompileWorker::serve(stdin, stdout);
            return kw::ExitCode::Ok;
        }
    } catch (const std::exception& e) {
        return kw::FailureReport::print(stderr, e);
    }
    return kw::ExitCode::BadInput;
}
