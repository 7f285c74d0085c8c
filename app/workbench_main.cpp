// kernel-workbench: the desktop workbench.
#include "CompilerNotice.hpp"
#include "HelpMenu.hpp"
#include "LaunchPanel.hpp"
#include "MainWindow.hpp"
#include "RunnerClient.hpp"
#include "StepListPanel.hpp"
#include "StepTree.hpp"
#include "UiResources.hpp"
#include "compile/NvrtcPresence.hpp"
#include "run/VersionReport.hpp"
#include "util/Paths.hpp"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace {

// The portable archive carries fonts and a fontconfig configuration for systems
// that have none (a minimal root, a container); a system with fonts keeps its own.
void useBundledFontsIfTheSystemHasNone()
{
#ifdef __linux__
    if (std::getenv("FONTCONFIG_FILE") || std::filesystem::exists("/etc/fonts/fonts.conf"))
        return;
    std::error_code ec;
    const auto conf = kw::executableDir() / ".." / "share" / "kernel-workbench" / "fonts" / "fonts.conf";
    if (std::filesystem::is_regular_file(conf, ec))
        ::setenv("FONTCONFIG_FILE", conf.lexically_normal().c_str(), 1);
#endif
}

int printVersion()
{
    auto lines = kw::VersionReport::collect();
    lines.insert(lines.begin() + 2, {"Qt", std::string(qVersion()) + " (built with " QT_VERSION_STR ")"});
    std::printf("kernel-workbench %s\n%s", KW_VERSION, kw::VersionReport::format(lines).c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QElapsedTimer sinceStart;
    sinceStart.start();
    // Before QApplication, so it works without a display.
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0)
            return printVersion();
    useBundledFontsIfTheSystemHasNone();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("KernelWorkbench");
    QApplication::setApplicationName("kernel-workbench");
    QApplication::setApplicationVersion(KW_VERSION);
    kw::initUiResources();
    QApplication::setWindowIcon(QIcon(":/kw/app.svg"));

    QCommandLineParser cli;
    cli.setApplicationDescription("Write, compile and run CUDA kernels.");
    cli.addHelpOption();
    cli.addOption({{"v", "version"}, "Print the version, and the Qt, NVRTC and driver found, then exit."});
    cli.addPositionalArgument("document", "A .kwb document to open.");
    QCommandLineOption device("device", "Device to select: cuda:N or sim.", "id");
    QCommandLineOption runOpt("run", "Run the document once it is open.");
    QCommandLineOption shot(
        "screenshot", "Save a picture of the window to FILE (after --run: once the run is shown) and quit.", "file");
    QCommandLineOption size("size", "Window size WxH, e.g. 1600x1000.", "size");
    QCommandLineOption step("step", "After --run, a document of steps: choose step PATH (e.g. 1.2) in the Steps list.",
                            "path");
    QCommandLineOption profile("profile", "With --run: a profiled run on the simulator (Run > Profile).");
    QCommandLineOption present("presentation", "Start in presentation mode.");
    QCommandLineOption report("report-startup", "Print the milliseconds from start to the window shown.");
    cli.addOptions({device, runOpt, shot, size, present, report, step, profile});
    cli.process(app);

    kw::MainWindow::Options options;
    // A scripted screenshot must not depend on, or change, the user's layout.
    options.restoreLayout = !cli.isSet(shot);
    kw::MainWindow window(options);
    if (cli.isSet(size)) {
        const QStringList wh = cli.value(size).split('x');
        if (wh.size() == 2)
            window.resize(wh[0].toInt(), wh[1].toInt());
    }
    window.show();
    if (cli.isSet(report)) {
        QTimer::singleShot(0, &window, [&] {
            std::printf("window shown after %lld ms\n", static_cast<long long>(sinceStart.elapsed()));
            std::fflush(stdout);
        });
    }

    const QStringList args = cli.positionalArguments();
    if (!args.isEmpty())
        window.openDocument(args.first());
    else if (!cli.isSet(shot))
        window.offerRecovery();
    if (!cli.isSet(shot))
        window.helpMenu()->showGettingStartedOnce();
    if (cli.isSet(device))
        window.launchPanel()->setCurrentDevice(cli.value(device));
    // Whether kernels can compile here, said on the first screen rather than at the
    // first compile. Only for this computer's runner: a remote one has its own NVRTC.
    if (!window.runner()->isRemote())
        window.compilerNotice()->showFor(kw::NvrtcPresence::check());
    if (cli.isSet(present))
        window.setPresentationMode(true);

    if (cli.isSet(shot)) {
        const QString file = cli.value(shot);
        auto grab = [&window, file] {
            window.grab().save(file);
            // What the first screen says about the compiler, for scripts that check it.
            if (const QString notice = window.compilerNotice()->text(); !notice.isEmpty())
                std::printf("compiler notice: %s\n", qPrintable(notice.simplified()));
            std::fflush(stdout);
            QApplication::quit();
        };
        if (cli.isSet(runOpt)) {
            QObject::connect(&window, &kw::MainWindow::runCompleted, &window,
                             [grab] { QTimer::singleShot(800, grab); });
            QObject::connect(window.runner(), &kw::RunnerClient::jobFailed, &window,
                             [grab] { QTimer::singleShot(800, grab); });
        } else {
            QTimer::singleShot(1500, grab);
        }
        QTimer::singleShot(120000, &app, &QApplication::quit); // never hang a script
    }
    if (cli.isSet(runOpt) && cli.isSet(step)) {
        const auto path = kw::StepTree::parse(cli.value(step).toStdString());
        QObject::connect(&window, &kw::MainWindow::runCompleted, &window, [&window, path] {
            if (path)
                window.stepList()->selectPath(*path);
        });
    }
    if (cli.isSet(runOpt)) {
        // Once the runner has listed its devices, so the chosen one exists.
        auto started = std::make_shared<bool>(false);
        auto go = [&window, &cli, &device, &profile, started] {
            if (*started)
                return;
            *started = true;
            if (cli.isSet(device))
                window.launchPanel()->setCurrentDevice(cli.value(device));
            if (cli.isSet(profile))
                window.profileAction()->trigger();
            else
                window.run();
        };
        QObject::connect(window.runner(), &kw::RunnerClient::devicesChanged, &window, go);
        QTimer::singleShot(5000, &window, go);
    }
    return app.exec();
}
