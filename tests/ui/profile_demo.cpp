// Opens the matmul sample in the window with a profile built by hand loaded into the
// Profile view and the editor margin, as the simulator will count it. With --shots DIR
// it saves the window at 1366x768 and 1920x1080, the memory-access picture exported
// to PNG and SVG, presentation mode, a few shared-memory pictures and the dark palette
// there, then exits.
#include "CodeEditor.hpp"
#include "MainWindow.hpp"
#include "profile/AccessPicture.hpp"
#include "profile/AccessStats.hpp"
#include "profile/ProfileMargin.hpp"
#include "profile/ProfileView.hpp"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QEventLoop>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

using namespace kw;

namespace {
constexpr std::uint64_t warps = 12 * 16 * 8; // grid 12 x 16, 8 warps of 16 x 16 threads
constexpr std::uint64_t tiles = 8;           // K = 120 in tiles of 16
constexpr std::uint64_t bBase = 0x7f3ac0200000;

LineProfile line(int number, std::uint64_t inst, double lanes = 32)
{
    LineProfile l;
    l.file = "matmul.cu";
    l.line = number;
    l.counters.inst_executed = inst;
    l.counters.thread_inst_executed = std::uint64_t(double(inst) * lanes);
    return l;
}

// Warp 0 of block (0, 0): lanes 0-15 read row 16t of B, lanes 16-31 row 16t + 1, which
// starts 720 bytes (22.5 sectors) later.
AccessSample bTile(std::uint64_t t)
{
    AccessSample s;
    s.space = AccessSample::Space::Global;
    s.instruction = "ld.global.f32";
    for (int i = 0; i < 32; ++i) {
        const std::uint64_t row = 16 * t + std::uint64_t(i / 16), col = std::uint64_t(i % 16);
        s.lanes[i] = LaneAccess{true, bBase + (row * 180 + col) * 4, 4};
    }
    return s;
}

KernelProfile matmulProfile()
{
    KernelProfile p;
    const std::uint64_t loads = warps * tiles;
    for (int n : {16, 17})
        p.lines.push_back(line(n, 3 * warps));
    p.lines.push_back(line(18, warps));
    LineProfile loop = line(20, 3 * warps * (tiles + 1));
    loop.extras.branches = warps * (tiles + 1);
    p.lines.push_back(loop);
    p.lines.push_back(line(21, 2 * loads));
    p.lines.push_back(line(22, 2 * loads));
    LineProfile a = line(24, 8 * loads, 31.2);
    a.counters.global_ld_requests = loads;
    a.counters.global_ld_sectors = warps * (7 * 4 + 2);
    a.extras.global_ld_ideal_sectors = a.counters.global_ld_sectors;
    a.extras.global_stride_bytes = 4;
    a.counters.shared_st_requests = loads;
    a.counters.shared_st_wavefronts = loads;
    a.extras.shared_ideal_wavefronts = loads;
    p.lines.push_back(a);
    LineProfile b = line(25, 8 * loads, 30.1);
    b.counters.global_ld_requests = loads;
    b.counters.global_ld_sectors = warps * 7 * 5 + warps / 2 * 5;
    b.extras.global_ld_ideal_sectors = warps * 7 * 4 + warps / 2 * 4;
    b.counters.shared_st_requests = loads;
    b.counters.shared_st_wavefronts = loads;
    b.extras.shared_ideal_wavefronts = loads;
    p.lines.push_back(b);
    p.lines.push_back(line(26, loads));
    LineProfile inner = line(28, 3 * loads * 17);
    inner.extras.branches = loads * 17;
    p.lines.push_back(inner);
    LineProfile fma = line(29, 5 * 16 * loads);
    fma.counters.shared_ld_requests = 2 * 16 * loads;
    fma.counters.shared_ld_wavefronts = 2 * 16 * loads;
    fma.extras.shared_ideal_wavefronts = 2 * 16 * loads;
    p.lines.push_back(fma);
    p.lines.push_back(line(30, loads));
    LineProfile edge = line(33, 4 * warps);
    edge.extras.branches = warps;
    edge.counters.divergent_branches = 125;
    p.lines.push_back(edge);
    LineProfile store = line(34, 3 * 1491, 30.4);
    store.counters.global_st_requests = 1491;
    store.counters.global_st_sectors = 6710;
    store.extras.global_st_ideal_sectors = 5964;
    p.lines.push_back(store);
    for (const LineProfile& l : p.lines) {
        p.totals += l.counters;
        p.totalExtras += l.extras;
    }
    for (std::uint64_t t = 0; t < tiles; ++t)
        p.samples.push_back(bTile(t));
    return p;
}

std::vector<ProfileFinding> matmulFindings()
{
    return {
        {ProfileFinding::Kind::GlobalLoad, "matmul.cu", 25, 0.09,
         "B's rows are 720 bytes apart, not a multiple of 32: every other row starts in the middle "
         "of a sector, so a warp's 128 bytes take 5 sectors instead of 4 (25 % more traffic)."},
        {ProfileFinding::Kind::SharedLoad, "matmul.cu", 29, 0.7,
         "Both shared loads are broadcasts or whole rows: no bank conflicts."},
        {ProfileFinding::Kind::Divergence, "matmul.cu", 33, 0.01,
         "125 of 1,536 warps split at the right edge of C (columns 180 and up): "
         "8 % of these branches diverge."},
    };
}

void settle(int rounds = 6)
{
    for (int i = 0; i < rounds; ++i) {
        QApplication::processEvents();
        QEventLoop loop;
        QTimer::singleShot(40, &loop, &QEventLoop::quit);
        loop.exec();
    }
}

void save(QWidget* w, const QString& path)
{
    settle();
    std::printf(w->grab().save(path) ? "saved %s\n" : "could not save %s\n", qPrintable(path));
}
} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName("KernelWorkbenchDemo");
    QApplication::setApplicationName("profile-demo");
    const QStringList args = app.arguments();
    const int shotsAt = int(args.indexOf(QStringLiteral("--shots")));
    const QString dir = shotsAt > 0 && shotsAt + 1 < args.size() ? args[shotsAt + 1] : QString();

    MainWindow::Options options;
    options.restoreLayout = false;
    options.autosave = false;
    MainWindow window(options);
    window.resize(1366, 768);
    window.show();
    window.openDocument(QStringLiteral(KW_PROFILE_DEMO_SAMPLES "/matmul.kwb"));
    settle();

    RunResult r;
    r.ok = true;
    r.device.id = "sim";
    r.device.name = "CPU simulator";
    r.grid = {12, 16, 1};
    r.block = {16, 16, 1};
    r.profile = matmulProfile();
    ProfileRequest request;
    request.enabled = true;
    request.capture = AccessCaptureRequest{{}, 25, Dim3{0, 0, 0}, 0};
    ProfileView* view = window.profileView();
    view->setSource(window.editor()->text(), QStringLiteral("matmul.cu"));
    view->showResult(r, request);
    view->setFindings(matmulFindings());
    window.profileMargin()->setProfile(*r.profile, QStringLiteral("matmul.cu"));
    if (auto* dock = window.findChild<QDockWidget*>(QStringLiteral("profileDock")))
        dock->raise();

    if (dir.isEmpty())
        return app.exec();
    QDir().mkpath(dir);
    for (QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
        window.resize(size);
        const QString stem = QStringLiteral("%1/profile-%2x%3").arg(dir).arg(size.width()).arg(size.height());
        view->tabs()->setCurrentIndex(0);
        view->selectLine(25);
        window.editor()->goTo(25, 1); // as a click on the row does
        save(&window, stem + QStringLiteral("-lines.png"));
        view->tabs()->setCurrentIndex(1);
        save(&window, stem + QStringLiteral("-access.png"));
    }
    // On a projector: presentation mode, full screen.
    window.setPresentationMode(true);
    view->tabs()->setCurrentIndex(1);
    save(&window, dir + QStringLiteral("/profile-presentation.png"));
    window.setPresentationMode(false);
    settle();
    for (const char* ext : {"png", "svg"}) {
        QString error;
        const QString path = QStringLiteral("%1/access-picture.%2").arg(dir, ext);
        if (!view->picture()->exportTo(path, &error))
            std::fprintf(stderr, "export %s: %s\n", ext, qPrintable(error));
    }
    // Shared memory examples, for a look at the bank pictures: a 32 x 32 tile read by
    // column (32-way conflict), the same tile padded to 33 columns, and a broadcast.
    AccessPicture shared;
    shared.resize(1200, 400);
    const auto sharedSample = [](auto address) {
        AccessSample s;
        s.space = AccessSample::Space::Shared;
        s.instruction = "ld.shared.f32";
        for (int i = 0; i < 32; ++i)
            s.lanes[i] = LaneAccess{true, std::uint64_t(address(i)), 4};
        return s;
    };
    shared.setSample(sharedSample([](int i) { return 128 * i; }), "tile[threadIdx.x][k]",
                     "32 x 32 floats, read by column");
    shared.exportTo(dir + QStringLiteral("/example-shared-conflict.png"));
    shared.setSample(sharedSample([](int i) { return 132 * i; }), "tile[threadIdx.x][k]", "32 x 33 floats (padded)");
    shared.exportTo(dir + QStringLiteral("/example-shared-padded.png"));
    shared.setSample(sharedSample([](int i) { return 8 * i; }), "s[2 * threadIdx.x]", "stride 2");
    shared.exportTo(dir + QStringLiteral("/example-shared-stride2.png"));
    shared.setSample(sharedSample([](int) { return 64; }), "s[16]", "one word for all");
    shared.exportTo(dir + QStringLiteral("/example-shared-broadcast.png"));
    save(&shared, dir + QStringLiteral("/example-shared-broadcast-widget.png"));

    // The same picture on a dark desktop.
    QPalette dark(QColor(55, 55, 58), QColor(45, 45, 48)); // button, window: Qt derives the rest
    dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
    dark.setColor(QPalette::Base, QColor(30, 30, 32));
    dark.setColor(QPalette::AlternateBase, QColor(40, 40, 43));
    dark.setColor(QPalette::Text, QColor(230, 230, 230));
    dark.setColor(QPalette::ButtonText, QColor(230, 230, 230));
    dark.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
    dark.setColor(QPalette::ToolTipBase, QColor(50, 50, 52));
    dark.setColor(QPalette::ToolTipText, QColor(230, 230, 230));
    QApplication::setPalette(dark);
    settle();
    view->picture()->exportTo(dir + QStringLiteral("/access-picture-dark.png"));
    view->tabs()->setCurrentIndex(0);
    save(&window, dir + QStringLiteral("/profile-dark.png"));
    return 0;
}
