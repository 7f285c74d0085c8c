// Workbench responsiveness: time from start to the window shown (the real
// executable, started as a process) and the longest UI event-loop stall while
// live-compiling, compiling and running in the runner, and plotting 10^7 points.
// Run under a display (xvfb-run) or QT_QPA_PLATFORM=offscreen.
#include "CodeEditor.hpp"
#include "LaunchPanel.hpp"
#include "LiveDiagnostics.hpp"
#include "MainWindow.hpp"
#include "RunAsYouType.hpp"
#include "RunnerClient.hpp"
#include "views/ResultsPanel.hpp"

#include "doc/DocumentReader.hpp"

#include <nlohmann/json.hpp>

#include <qcustomplot.h>

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <vector>

namespace {

// Records the longest gap between ticks of a 2 ms timer: the longest time the
// event loop could not run.
class StallMeter : public QObject {
public:
    StallMeter()
    {
        timer_.setTimerType(Qt::PreciseTimer);
        timer_.setInterval(2);
        connect(&timer_, &QTimer::timeout, this, [this] {
            const qint64 now = clock_.nsecsElapsed();
            worst_ = std::max(worst_, now - last_);
            last_ = now;
        });
    }
    void start()
    {
        clock_.start();
        last_ = 0;
        worst_ = 0;
        timer_.start();
    }
    double stopMs()
    {
        timer_.stop();
        return worst_ / 1e6;
    }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0, worst_ = 0;
};

// With KW_TRACE_EVENTS set, prints every event delivery that took longer than
// 4 ms while tracing is on: which object and which event made a stall.
class TracingApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool tracing = false;
    bool notify(QObject* receiver, QEvent* event) override
    {
        if (!tracing)
            return QApplication::notify(receiver, event);
        QElapsedTimer t;
        t.start();
        ++depth_;
        const int type = event->type();
        const bool r = QApplication::notify(receiver, event);
        --depth_;
        const double ms = t.nsecsElapsed() / 1e6;
        if (ms > 4)
            std::printf("  %*s%.1f ms  event %d  %s '%s'\n", depth_ * 2, "", ms, type,
                        receiver->metaObject()->className(), qPrintable(receiver->objectName()));
        return r;
    }

private:
    int depth_ = 0;
};

// With KW_TRACE_EVENTS set: prints how long each plot under root took to replot.
void traceReplots(QWidget* root)
{
    for (QCustomPlot* p : root->findChildren<QCustomPlot*>()) {
        auto clock = std::make_shared<QElapsedTimer>();
        QObject::connect(p, &QCustomPlot::beforeReplot, [clock] { clock->start(); });
        QObject::connect(p, &QCustomPlot::afterReplot, [clock, p] {
            std::printf("    replot %.1f ms  %s %dx%d\n", clock->nsecsElapsed() / 1e6,
                        p->parent()->metaObject()->className(), p->width(), p->height());
        });
    }
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// False when a run gave no start-up report.
bool startup(int runs)
{
    const QString exe = QString(KW_BIN_DIR) + "/kernel-workbench";
    std::vector<double> outside, inside;
    for (int i = 0; i < runs; ++i) {
        QProcess p;
        QElapsedTimer t;
        t.start();
        p.start(exe, {"--report-startup", "--size", "1400x900"});
        double shown = -1;
        while (shown < 0 && p.waitForReadyRead(15000)) {
            const QString out = QString::fromUtf8(p.readAllStandardOutput());
            const int at = out.indexOf("window shown after ");
            if (at >= 0) {
                shown = t.nsecsElapsed() / 1e6;
                inside.push_back(out.mid(at + 19).section(' ', 0, 0).toDouble());
            }
        }
        p.kill();
        p.waitForFinished(5000);
        if (shown < 0) {
            std::printf("start-up run %d: no report (%s)\n", i, qPrintable(p.errorString()));
            continue;
        }
        outside.push_back(shown);
    }
    std::printf("start to window shown: median %.0f ms from process start (max %.0f), %.0f ms inside main, %zu runs\n",
                median(outside), outside.empty() ? 0.0 : *std::max_element(outside.begin(), outside.end()),
                median(inside), outside.size());
    return int(outside.size()) == runs;
}

bool waitFor(QSignalSpy& spy, int ms) { return spy.count() > 0 || spy.wait(ms); }

// Run as you type, a kernel on the simulator: from the end of the pause after an edit
// (the moment a run is due; the pause itself is not counted, though the run's compile
// may start in it) to the result drawn in the Results plot. Each edit changes the code
// (a comment would not: the program cache answers), so every run compiles. Its peer, in
// alternate rounds: the same kind of edit sent straight to a runner of its own (a
// RunnerClient, no window), from the request to the decoded result: the compile, launch
// and transfer any window waits for.
void runAsYouTypeStage(kw::MainWindow& window, const QString& docPath, const char* label,
                       const std::function<void(const char*)>& failed)
{
    window.openDocument(docPath);
    window.trustCurrentDocument(); // the user's own (a shipped sample already is)
    window.launchPanel()->setCurrentDevice("sim");
    auto* typing = window.findChild<kw::RunAsYouType*>();
    auto* results = window.findChild<kw::ResultsPanel*>();
    kw::LiveDiagnostics* live = window.liveDiagnostics();
    typing->setEnabled(true);
    QElapsedTimer clock;
    clock.start();
    qint64 due = 0, plotted = 0, drawn = 0;
    // From the pause's end, whether the run starts then or waits for the pause's compile.
    QObject::connect(typing, &kw::RunAsYouType::pauseEnded, [&] { due = clock.nsecsElapsed(); });
    for (QCustomPlot* plot : window.findChildren<QCustomPlot*>()) {
        const bool resultPlot = results->isAncestorOf(plot);
        QObject::connect(plot, &QCustomPlot::afterReplot, [&, resultPlot] {
            drawn = clock.nsecsElapsed();
            if (resultPlot)
                plotted = drawn;
        });
    }
    // The peer's runner, warmed by a first run that is not counted.
    kw::RunnerClient direct;
    direct.setProgram(QString(KW_BIN_DIR) + "/kwb-run");
    kw::Document peerDoc = kw::DocumentReader::readFile(docPath.toStdString(), kw::Trust::Trusted);
    peerDoc.run.warmup = 0; // as a run while typing: launched once
    peerDoc.run.repeats = 0;
    const std::string peerSource = peerDoc.source;
    QSignalSpy directDone(&direct, &kw::RunnerClient::runFinished);
    direct.run(peerDoc, "sim");
    if (!directDone.wait(120000))
        failed("the peer's runner did not answer");
    // Nothing of one round (the live check that follows a run) may run into the next.
    auto settle = [&] {
        (void)QTest::qWaitFor([&] { return !live->busy() && !live->scheduled() && !window.runner()->busy(); }, 30000);
    };

    QSignalSpy typed(&window, &kw::MainWindow::runCompleted);
    std::vector<double> toRun, toPlotted, toDrawn, compileMs, peerMs, peerCompileMs;
    int prepared = 0; // runs whose program was compiled in the pause
    const QString source = window.editor()->text();
    for (int i = 0; i < 15; ++i) {
        settle();
        typed.clear();
        plotted = 0;
        QString edited = source;
        // A constant no earlier run used: the program cache on disk outlives the process.
        const qint64 stamp = QDateTime::currentMSecsSinceEpoch() * 100 + i;
        edited.replace("a[idx] + b[idx]", QString("a[idx] + b[idx] + %1.0f * idx * 0.0f").arg(stamp));
        window.editor()->setText(edited);
        if (!typed.wait(60000)) {
            failed("a run as you type did not come");
            break;
        }
        const qint64 ran = clock.nsecsElapsed();
        QTest::qWait(200); // anything drawn after the result arrived
        const kw::RunResult r = typed.at(0).at(0).value<kw::RunResult>();
        if (r.fault || !r.compile.ok)
            failed("a run as you type failed");
        if (plotted < due)
            failed("a run as you type drew nothing in the Results");
        compileMs.push_back(r.compile.compileMs);
        prepared += r.compile.cacheHit ? 1 : 0;
        toRun.push_back((ran - due) / 1e6);
        toPlotted.push_back((std::max(ran, plotted) - due) / 1e6);
        toDrawn.push_back((std::max(ran, drawn) - due) / 1e6);

        settle();
        directDone.clear();
        peerDoc.source = peerSource;
        const std::string from = "a[idx] + b[idx]";
        peerDoc.source.replace(peerDoc.source.find(from), from.size(),
                               "a[idx] + b[idx] + 0.0f * idx * " + std::to_string(stamp) + ".0f");
        const qint64 sent = clock.nsecsElapsed();
        direct.run(peerDoc, "sim");
        if (!directDone.wait(60000)) {
            failed("the peer's run did not come");
            break;
        }
        peerMs.push_back((clock.nsecsElapsed() - sent) / 1e6);
        const kw::RunResult p = directDone.at(0).at(1).value<kw::RunResult>();
        if (p.fault || !p.compile.ok || p.compile.cacheHit)
            failed("the peer's run failed or was not compiled");
        peerCompileMs.push_back(p.compile.compileMs);
    }
    typing->setEnabled(false);
    auto range = [](const std::vector<double>& v) {
        return v.empty()
            ? std::pair<double, double>(-1, -1)
            : std::pair<double, double>(*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
    };
    const auto [lo, hi] = range(toPlotted);
    std::printf("run as you type, %s on sim: pause over to Results plot drawn p50 %.1f ms (%.1f to %.1f; "
                "to result %.1f ms; to the last plot drawn, hidden tabs included, %.1f ms; its compile %.1f ms), "
                "%zu edits, delay %d ms, %d compiled in the pause (from %d ms)\n",
                label, median(toPlotted), lo, hi, median(toRun), median(toDrawn), median(compileMs), toPlotted.size(),
                typing->delay(), prepared, typing->prepareDelay());
    std::printf("  peer, the same edit straight through a runner: p50 %.1f ms (its compile %.1f ms); "
                "window / peer %.2f\n",
                median(peerMs), median(peerCompileMs), median(toPlotted) / median(peerMs));
}

} // namespace

int main(int argc, char** argv)
{
    TracingApplication app(argc, argv);
    const bool trace = qEnvironmentVariableIsSet("KW_TRACE_EVENTS");
    QApplication::setOrganizationName("KernelWorkbenchBench");
    QApplication::setApplicationName("bench_ui");
    // A stage that did not finish, or finished wrong, makes the whole run fail: its
    // stall figure would describe an event loop that had nothing to do.
    int status = 0;
    auto failed = [&](const char* what) {
        std::printf("FAILED: %s\n", what);
        status = 1;
    };
    if (!startup(5))
        failed("start-up: a run gave no report");

    kw::MainWindow::Options options;
    options.restoreLayout = false;
    options.autosave = false;
    options.runnerProgram = QString(KW_BIN_DIR) + "/kwb-run";
    kw::MainWindow window(options);
    window.resize(1400, 900);
    window.show();
    QSignalSpy devices(window.runner(), &kw::RunnerClient::devicesChanged);
    if (!waitFor(devices, 20000))
        failed("the runner did not answer hello");
    window.openDocument(QString(KW_SAMPLES_DIR) + "/mandelbrot.kwb");
    window.launchPanel()->setCurrentDevice("sim");
    QTest::qWait(1000);

    StallMeter meter;
    meter.start();
    QTest::qWait(500);
    std::printf("idle: longest stall %.1f ms\n", meter.stopMs());

    // Typing: an edit every 40 ms, then the live compile after the quiet period.
    QSignalSpy live(window.liveDiagnostics(), &kw::LiveDiagnostics::finished);
    meter.start();
    for (int i = 0; i < 20; ++i) {
        window.editor()->insertAt(" ", 0, 0);
        QTest::qWait(40);
    }
    const bool liveDone = live.wait(60000);
    std::printf("typing + live compile (%s): longest stall %.1f ms\n", liveDone ? "done" : "timed out", meter.stopMs());
    if (!liveDone)
        failed("the live compile timed out");

    QSignalSpy compiled(&window, &kw::MainWindow::compileCompleted);
    meter.start();
    window.compile();
    const bool compileDone = compiled.wait(60000);
    std::printf("compile in the runner (%s): longest stall %.1f ms\n", compileDone ? "done" : "timed out",
                meter.stopMs());
    if (!compileDone)
        failed("the compile in the runner timed out");
    else if (!compiled.at(0).at(0).value<kw::CompileResult>().ok)
        failed("the compile in the runner gave errors");

    QSignalSpy ran(&window, &kw::MainWindow::runCompleted);
    QElapsedTimer runClock;
    runClock.start();
    meter.start();
    app.tracing = trace;
    if (trace)
        traceReplots(&window);
    window.run();
    const bool runDone = ran.wait(300000);
    const double runMs = runClock.nsecsElapsed() / 1e6;
    QTest::qWait(300); // results drawn
    app.tracing = false;
    std::printf("run on sim and show results (%s, %.0f ms): longest stall %.1f ms\n", runDone ? "done" : "timed out",
                runMs, meter.stopMs());
    if (!runDone)
        failed("the run on sim timed out");
    else if (ran.at(0).at(0).value<kw::RunResult>().fault)
        failed("the run on sim faulted");

    runAsYouTypeStage(window, QString(KW_SAMPLES_DIR) + "/add_vectors.kwb", "add_vectors", failed);
    // The same with the CUDA headers the speed issue names: the recompile (with its
    // precompiled header once made) is what the pause has to hide.
    {
        QTemporaryDir folder;
        const QString withHeaders = folder.filePath("add_vectors_headers.kwb");
        nlohmann::json doc = nlohmann::json::parse(std::ifstream(KW_SAMPLES_DIR "/add_vectors.kwb"));
        doc["source"] = "#include <cuda_fp16.h>\n#include <cuda/std/complex>\n" + doc["source"].get<std::string>();
        std::ofstream(withHeaders.toStdString()) << doc.dump(1);
        runAsYouTypeStage(window, withHeaders, "add_vectors with <cuda_fp16.h> and <cuda/std/complex>", failed);
    }

    // 10^7 points in the results panel, as a run would deliver them.
    kw::RunResult big;
    big.ok = true;
    kw::BufferResult b;
    b.name = "signal";
    b.direction = kw::Direction::Out;
    const std::size_t n = 10'000'000;
    b.data = kw::HostBuffer(kw::DType::F32, n);
    b.shape = {n};
    auto* f = reinterpret_cast<float*>(b.data.data());
    for (std::size_t i = 0; i < n; ++i)
        f[i] = float(std::sin(i * 1e-4) + 0.001 * (i % 97));
    big.buffers.push_back(std::move(b));
    kw::ResultsPanel results;
    results.resize(1200, 500);
    results.show();
    if (trace)
        traceReplots(&results);
    meter.start();
    app.tracing = trace;
    results.showResult(std::move(big)); // handed over, as MainWindow hands over a run's result
    QTest::qWait(2000);
    app.tracing = false;
    std::printf("showing 10^7 points: longest stall %.1f ms\n", meter.stopMs());
    return status;
}
