// Fills every output view with synthetic data. With --shots DIR it saves a screenshot
// of each view (and each tab) there and exits; without, it opens them in one window.
#include "data/HostBuffer.hpp"
#include "views/BlockGridView.hpp"
#include "views/Exporter.hpp"
#include "views/HistogramView.hpp"
#include "views/LinePlot.hpp"
#include "views/PrintfPanel.hpp"
#include "views/PtxPanel.hpp"
#include "views/ResultsPanel.hpp"
#include "views/SweepPanel.hpp"
#include "views/TimingsPanel.hpp"

#include <qcustomplot.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QTabWidget>
#include <QTimer>
#include <QTreeWidget>

#include <cmath>
#include <cstdio>
#include <random>

using namespace kw;

namespace {

BufferResult signal1d(std::size_t n)
{
    BufferResult b;
    b.name = "y";
    b.direction = Direction::Out;
    b.shape = {n};
    b.data = HostBuffer(DType::F32, n);
    std::mt19937 rng(1);
    std::normal_distribution<float> noise(0.f, 0.05f);
    auto* p = reinterpret_cast<float*>(b.data.data());
    for (std::size_t i = 0; i < n; ++i) {
        const double t = double(i) / double(n);
        p[i] = float(std::sin(40 * t) * std::exp(-2 * t) + noise(rng));
    }
    p[n / 3] = 2.5f; // a spike the decimation must keep
    return b;
}

BufferResult mandelbrot(std::size_t w, std::size_t h)
{
    BufferResult b;
    b.name = "img";
    b.direction = Direction::Out;
    b.shape = {h, w};
    b.data = HostBuffer(DType::U8, w * h);
    for (std::size_t y = 0; y < h; ++y)
        for (std::size_t x = 0; x < w; ++x) {
            const double cr = -2.2 + 3.0 * double(x) / double(w), ci = -1.2 + 2.4 * double(y) / double(h);
            double zr = 0, zi = 0;
            int it = 0;
            while (it < 255 && zr * zr + zi * zi < 4) {
                const double t = zr * zr - zi * zi + cr;
                zi = 2 * zr * zi + ci;
                zr = t;
                ++it;
            }
            b.data.set(y * w + x, it);
        }
    return b;
}

PrintfOutput helloOutput(Dim3 grid, Dim3 block, bool uneven)
{
    PrintfOutput out;
    for (std::uint32_t z = 0; z < grid.z; ++z)
        for (std::uint32_t y = 0; y < grid.y; ++y)
            for (std::uint32_t x = 0; x < grid.x; ++x)
                for (std::uint32_t tz = 0; tz < block.z; ++tz)
                    for (std::uint32_t ty = 0; ty < block.y; ++ty)
                        for (std::uint32_t tx = 0; tx < block.x; ++tx) {
                            // Uneven: only some threads print, more in the middle blocks.
                            if (uneven && (tx + ty * 3 + x * y) % (1 + (x + y) % 4) != 0)
                                continue;
                            char text[160];
                            std::snprintf(text, sizeof text, "Hello from block (%u, %u, %u), thread (%u, %u, %u)", x, y,
                                          z, tx, ty, tz);
                            out.lines.push_back(PrintfLine{Dim3{x, y, z}, Dim3{tx, ty, tz}, text});
                            out.raw += std::string(text) + "\n";
                        }
    return out;
}

RunResult demoResult()
{
    RunResult r;
    r.ok = false;
    r.device.id = "cuda:0";
    r.device.name = "NVIDIA H200";
    r.device.memoryBandwidthGBs = 4800;
    r.grid = {8, 6, 1};
    r.block = {8, 4, 1};
    BufferResult x = signal1d(1'000'000);
    x.name = "x";
    x.direction = Direction::In;
    r.buffers = {x, signal1d(10'000'000), mandelbrot(768, 512)};
    CheckResult pass{"img", "mandel(x, y)", true, 768 * 512, 0, 0, 0, {}};
    CheckResult fail{"y", "sin(40*i/n)*exp(-2*i/n)", false, 10'000'000, 7, 2.31, 0.92, {}};
    for (std::size_t i : {1200u, 5400u, 90'000u, 2'000'000u, 3'333'333u, 6'100'000u, 9'000'000u}) {
        const double got = r.buffers[1].data.at(i);
        fail.firstMismatches.push_back({i, got, got - 0.1 * std::sin(double(i)) - (i == 3'333'333u ? 2.2 : 0)});
    }
    r.checks = {pass, fail};
    r.timings.compileMs = 11.8;
    r.timings.moduleLoadMs = 0.9;
    r.timings.h2dMs = 4.2;
    r.timings.d2hMs = 7.9;
    std::mt19937 rng(5);
    std::lognormal_distribution<double> jitter(0.0, 0.04);
    for (int i = 0; i < 20; ++i)
        r.timings.kernelMs.push_back(0.021 * jitter(rng) + (i == 0 ? 0.006 : 0.0));
    r.timings.bytesMoved = 3ull * 4 * (1u << 20) * 2; // a + b in, c out, n = 2^21
    r.printf = helloOutput(r.grid, r.block, true);
    return r;
}

CompileResult demoCompile()
{
    CompileResult c;
    c.ok = true;
    c.arch = "sm_90";
    c.compileMs = 11.8;
    QFile f(QStringLiteral(KW_VIEWS_DEMO_DIR "/demo.ptx"));
    if (f.open(QIODevice::ReadOnly))
        c.ptx = f.readAll().toStdString();
    c.loweredNames["reduce<256>"] = "_Z6reduceILi256EEvPKfPfi";
    c.kernels.push_back(KernelSignature{"saxpy", {}, {}, 18});
    return c;
}

void settle()
{
    for (int i = 0; i < 5; ++i) {
        QApplication::processEvents();
        QTimer t;
        t.setSingleShot(true);
        QEventLoop loop;
        QObject::connect(&t, &QTimer::timeout, &loop, &QEventLoop::quit);
        t.start(20);
        loop.exec();
    }
}

void shot(QWidget* w, const QString& dir, const QString& name)
{
    settle();
    const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
    if (!w->grab().save(path))
        std::fprintf(stderr, "could not save %s\n", qPrintable(path));
    else
        std::printf("saved %s\n", qPrintable(path));
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int shotsAt = int(args.indexOf(QStringLiteral("--shots")));
    const QString dir = shotsAt > 0 && shotsAt + 1 < args.size() ? args[shotsAt + 1] : QString();

    const auto result = std::make_shared<const RunResult>(demoResult());
    QTabWidget window;
    window.resize(1400, 900);
    auto* results = new ResultsPanel;
    auto* printfPanel = new PrintfPanel;
    auto* timings = new TimingsPanel;
    auto* sweep = new SweepPanel;
    auto* ptx = new PtxPanel;
    window.addTab(results, "Results");
    window.addTab(printfPanel, "printf");
    window.addTab(timings, "Timings");
    window.addTab(sweep, "Sweep");
    window.addTab(ptx, "PTX");

    results->showResult(result);
    printfPanel->showOutput(result->printf, result->grid, result->block);
    timings->showResult(*result);
    ptx->showCompile(demoCompile());
    QObject::connect(sweep, &SweepPanel::sweepRequested, sweep, [sweep](const SweepRequest& req) {
        // Stand-in for the main window: a latency curve with a sweet spot at 256.
        for (const std::string& v : req.values) {
            const double b = std::stod(v);
            sweep->addPoint(b, 0.02 + 0.6 / b + b * 2e-5);
        }
        sweep->finish();
    });
    sweep->start();
    window.show();

    if (dir.isEmpty())
        return app.exec();

    QDir().mkpath(dir);
    results->tabs()->setCurrentIndex(0);
    results->selectBuffer(1);
    while (!results->linePlot()->isExact())
        settle();
    shot(&window, dir, "results_line");
    results->linePlot()->plot()->xAxis->setRange(3'333'000, 3'333'700);
    results->linePlot()->plot()->replot();
    shot(&window, dir, "results_line_zoomed");
    results->selectBuffer(2);
    shot(&window, dir, "results_heatmap");
    results->tabs()->setCurrentIndex(1);
    while (!results->histogram()->isReady())
        settle();
    shot(&window, dir, "results_histogram");
    results->tabs()->setCurrentIndex(2);
    shot(&window, dir, "results_table");
    results->tabs()->setCurrentIndex(3);
    shot(&window, dir, "results_checks");

    window.setCurrentWidget(printfPanel);
    shot(&window, dir, "printf_console");
    printfPanel->tabs()->setCurrentIndex(1);
    printfPanel->blockFilter()->setText("2,*");
    printfPanel->textFilter()->setText("thread (0");
    shot(&window, dir, "printf_table");
    printfPanel->tabs()->setCurrentIndex(2);
    settle();
    printfPanel->showBlock(Dim3{3, 2, 0});
    shot(&window, dir, "printf_blocks");
    // A 3-D grid whose output was cut off, and a long 1-D grid.
    PrintfOutput cut = helloOutput(Dim3{3, 4, 5}, Dim3{2, 2, 1}, false);
    cut.truncated = true;
    printfPanel->showOutput(cut, Dim3{3, 4, 5}, Dim3{2, 2, 1});
    printfPanel->tabs()->setCurrentIndex(2);
    printfPanel->showBlock(Dim3{1, 2, 3});
    shot(&window, dir, "printf_blocks_3d_truncated");
    printfPanel->showOutput(helloOutput(Dim3{1500, 1, 1}, Dim3{1, 1, 1}, true), Dim3{1500, 1, 1}, Dim3{1, 1, 1});
    printfPanel->tabs()->setCurrentIndex(2);
    shot(&window, dir, "printf_blocks_1d");

    window.setCurrentWidget(timings);
    shot(&window, dir, "timings");
    RunResult sim = *result;
    sim.device = DeviceInfo{};
    sim.device.id = "sim";
    sim.device.name = "CPU simulator";
    timings->showResult(sim);
    shot(&window, dir, "timings_sim");

    window.setCurrentWidget(sweep);
    shot(&window, dir, "sweep");
    // A sweep over a document variable: the problem size n.
    sweep->kindSelector()->setCurrentIndex(sweep->kindSelector()->findData(int(SweepRequest::Variable)));
    sweep->nameEdit()->setText(QStringLiteral("n"));
    sweep->valuesEdit()->setText(QStringLiteral("1024 4096 16384 65536"));
    sweep->start();
    shot(&window, dir, "sweep_variable");
    window.setCurrentWidget(ptx);
    shot(&window, dir, "ptx");

    // The exporter's files, for a look at them too.
    window.setCurrentWidget(results);
    results->tabs()->setCurrentIndex(0);
    results->selectBuffer(1);
    settle();
    for (const char* ext : {"png", "svg", "pdf"}) {
        QString error;
        if (!Exporter::savePlot(results->linePlot()->plot(), QDir(dir).filePath(QStringLiteral("export.") + ext),
                                &error))
            std::fprintf(stderr, "export %s: %s\n", ext, qPrintable(error));
    }
    return 0;
}
