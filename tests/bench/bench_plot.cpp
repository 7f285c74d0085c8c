// Longest UI event-loop stall while a LinePlot shows 10^7 points and the user pans and
// zooms: a heartbeat timer records the gaps between event-loop turns while mouse-drag
// and wheel events are posted at 60 Hz, as a user would produce them.
// Usage: bench_plot [--points N] [--naive]   (--naive: hand every point to QCustomPlot,
// for comparison). Run under Xvfb or with QT_QPA_PLATFORM=offscreen.
#include "data/HostBuffer.hpp"
#include "views/LinePlot.hpp"

#include <qcustomplot.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace kw;

namespace {

// CPU time of the calling thread: on a shared, loaded machine the wall-clock gap also
// holds time the scheduler gave to other processes; this part is the UI's own work.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

struct Heartbeat {
    QElapsedTimer clock;
    qint64 last = 0;
    double lastCpu = 0;
    std::vector<double> gapsMs, cpuGapsMs;
    QTimer timer;

    Heartbeat()
    {
        timer.setInterval(0);
        QObject::connect(&timer, &QTimer::timeout, [this] {
            const qint64 now = clock.nsecsElapsed();
            const double cpu = threadCpuMs();
            gapsMs.push_back(double(now - last) / 1e6);
            cpuGapsMs.push_back(cpu - lastCpu);
            last = now;
            lastCpu = cpu;
        });
    }
    void start()
    {
        gapsMs.clear();
        cpuGapsMs.clear();
        clock.start();
        last = 0;
        lastCpu = threadCpuMs();
        timer.start();
    }
    double maxCpu() const { return cpuGapsMs.empty() ? 0 : *std::max_element(cpuGapsMs.begin(), cpuGapsMs.end()); }
    void stop() { timer.stop(); }
    double max() const { return gapsMs.empty() ? 0 : *std::max_element(gapsMs.begin(), gapsMs.end()); }
};

void post(QWidget* target, QEvent* e) { QCoreApplication::postEvent(target, e); }

void drag(QWidget* w, QPointF from, QPointF to, int steps, std::vector<std::function<void()>>& script)
{
    script.push_back([=] {
        post(w,
             new QMouseEvent(QEvent::MouseButtonPress, from, w->mapToGlobal(from), Qt::LeftButton, Qt::LeftButton,
                             Qt::NoModifier));
    });
    for (int i = 1; i <= steps; ++i) {
        const QPointF p = from + (to - from) * (double(i) / steps);
        script.push_back([=] {
            post(
                w,
                new QMouseEvent(QEvent::MouseMove, p, w->mapToGlobal(p), Qt::NoButton, Qt::LeftButton, Qt::NoModifier));
        });
    }
    script.push_back([=] {
        post(w,
             new QMouseEvent(QEvent::MouseButtonRelease, to, w->mapToGlobal(to), Qt::LeftButton, Qt::NoButton,
                             Qt::NoModifier));
    });
}

void wheel(QWidget* w, QPointF at, int delta, int times, std::vector<std::function<void()>>& script)
{
    for (int i = 0; i < times; ++i)
        script.push_back([=] {
            post(w,
                 new QWheelEvent(at, w->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                                 Qt::NoScrollPhase, false));
        });
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    std::size_t n = 10'000'000;
    if (const int i = int(args.indexOf(QStringLiteral("--points"))); i > 0 && i + 1 < args.size())
        n = args[i + 1].toULongLong();
    const bool naive = args.contains(QStringLiteral("--naive"));

    auto data = std::make_shared<HostBuffer>(DType::F32, n);
    {
        std::mt19937 rng(1);
        std::normal_distribution<float> noise(0.f, 0.1f);
        auto* p = reinterpret_cast<float*>(data->data());
        for (std::size_t i = 0; i < n; ++i)
            p[i] = float(std::sin(double(i) * 2e-6)) + noise(rng);
    }

    LinePlot view;
    view.resize(1400, 700);
    view.show();
    QCustomPlot* plot = view.plot();
    Heartbeat beat;
    for (int i = 0; i < 10; ++i)
        QApplication::processEvents();

    QElapsedTimer t;
    t.start();
    const double cpu0 = threadCpuMs();
    if (naive) {
        // Every point to QCustomPlot: what the decimation saves.
        QVector<double> x(static_cast<qsizetype>(n)), y(static_cast<qsizetype>(n));
        for (std::size_t i = 0; i < n; ++i) {
            x[qsizetype(i)] = double(i);
            y[qsizetype(i)] = data->at(i);
        }
        plot->graph(0)->setData(x, y, true);
        plot->rescaleAxes();
        plot->replot();
    } else {
        view.setBuffer(data, QStringLiteral("y"));
    }
    const double loadMs = double(t.nsecsElapsed()) / 1e6;
    const double loadCpuMs = threadCpuMs() - cpu0;
    std::printf("load machine: %s",
                [] {
                    QFile f(QStringLiteral("/proc/loadavg"));
                    return f.open(QIODevice::ReadOnly) ? f.readLine().toStdString() : std::string("?\n");
                }()
                    .c_str());
    // Until the worker's block summary arrives the plot shows a sampled preview.
    double exactMs = 0;
    if (!naive) {
        beat.start();
        QEventLoop wait;
        QObject::connect(&view, &LinePlot::exactDataReady, &wait, &QEventLoop::quit);
        if (!view.isExact())
            wait.exec();
        beat.stop();
        exactMs = double(t.nsecsElapsed()) / 1e6;
        std::printf("exact envelope after %.1f ms; longest stall while waiting for it: %.1f ms "
                    "(UI-thread CPU %.1f ms)\n",
                    exactMs, beat.max(), beat.maxCpu());
    }

    QWidget* target = plot;
    const QPointF centre(target->width() / 2.0, target->height() / 2.0);
    std::vector<std::function<void()>> script;
    // Zoomed out: every pan touches all 10^7 points.
    drag(target, centre, centre + QPointF(-300, 0), 30, script);
    drag(target, centre, centre + QPointF(300, 0), 30, script);
    wheel(target, centre, 120, 40, script); // zoom in step by step
    drag(target, centre, centre + QPointF(400, 40), 40, script);
    wheel(target, centre + QPointF(-200, 0), -120, 40, script); // and back out
    drag(target, centre, centre + QPointF(-200, -20), 30, script);

    std::size_t step = 0;
    QTimer driver;
    driver.setInterval(16); // 60 Hz input
    QObject::connect(&driver, &QTimer::timeout, [&] {
        if (step < script.size()) {
            script[step++]();
            return;
        }
        driver.stop();
        QTimer::singleShot(100, &app, &QApplication::quit);
    });
    int replots = 0;
    double slowestReplot = 0;
    QObject::connect(plot, &QCustomPlot::afterReplot, [&] {
        ++replots;
        slowestReplot = std::max(slowestReplot, plot->replotTime());
    });
    beat.start();
    t.restart();
    driver.start();
    app.exec();
    beat.stop();
    const double totalMs = double(t.nsecsElapsed()) / 1e6;

    std::printf("points: %zu (%s)\n", n, naive ? "naive: all points to QCustomPlot" : "min/max decimated");
    std::printf("initial load + first plot: %.1f ms wall, %.1f ms UI-thread CPU\n", loadMs, loadCpuMs);
    std::printf("interaction: %zu input events over %.0f ms, %zu event-loop turns\n", script.size(), totalMs,
                beat.gapsMs.size());
    const auto over = [&](double ms) {
        return std::count_if(beat.gapsMs.begin(), beat.gapsMs.end(), [ms](double g) { return g > ms; });
    };
    std::printf("event-loop stall: max %.1f ms wall (most UI-thread CPU in one turn: %.1f ms); "
                "turns over 16 ms: %td, over 33 ms: %td, over 50 ms: %td\n",
                beat.max(), beat.maxCpu(), over(16), over(33), over(50));
    std::printf("replots during interaction: %d, slowest %.1f ms\n", replots, slowestReplot);
    std::printf("last replot: %.1f ms, points drawn now: %d, x range %.0f..%.0f\n", plot->replotTime(),
                plot->graph(0)->dataCount(), plot->xAxis->range().lower, plot->xAxis->range().upper);
    return 0;
}
