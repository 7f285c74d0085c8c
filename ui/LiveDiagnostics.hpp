#pragma once
// Compiles the editor's source on a worker thread shortly after typing stops
// and reports the diagnostics of the latest edit only (older results are dropped).
// NVRTC runs in the compiler's sandboxed child process (compile/Compiler), so a
// compiler crash or hang shows as a diagnostic.
#include "compile/CompileOptions.hpp"
#include "compile/CompileResult.hpp"
#include "util/Trust.hpp"

#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <filesystem>
#include <memory>

namespace kw {

class Compiler;

class LiveDiagnostics : public QObject {
    Q_OBJECT
public:
    explicit LiveDiagnostics(QObject* parent = nullptr);
    ~LiveDiagnostics() override;

    void setDelay(int ms) { timer_.setInterval(ms); }
    void setOptions(const CompileOptions& options) { options_ = options; }
    void setBaseDir(const std::filesystem::path& dir) { baseDir_ = dir; }
    // An untrusted document is never compiled: edits and compileNow do nothing.
    void setTrust(Trust trust);
    Trust trust() const { return trust_; }
    static constexpr const char* sourceName = "kernel.cu";

    quint64 generation() const { return generation_; }
    bool busy() const { return running_ > 0; }
    // A check is due (the pause after an edit is running).
    bool scheduled() const { return timer_.isActive(); }
    // Until release(), edits start no check: a run about to compile the same text
    // gives the diagnostics first, without a second NVRTC beside it on the cores.
    void hold();
    // Checks the newest source now when an edit was held back.
    void release();

public slots:
    // Call on every edit: (re)starts the quiet-period timer.
    void sourceEdited(const QString& source);
    // Compiles now, skipping the quiet period.
    void compileNow(const QString& source);

signals:
    void started();
    void finished(const kw::CompileResult& result);
    // NVRTC could not be used at all (missing library).
    void unavailable(const QString& message);

private:
    void launch();

    QTimer timer_;
    QString pending_;
    CompileOptions options_;
    std::filesystem::path baseDir_;
    Trust trust_ = Trust::Untrusted;
    std::shared_ptr<Compiler> compiler_;
    QThreadPool pool_;
    quint64 generation_ = 0;
    int running_ = 0;
    std::shared_ptr<std::atomic<bool>> lastBegun_; // the newest check: taken by its thread, or dropped
    bool held_ = false;
    bool heldBack_ = false; // an edit came while held
};

} // namespace kw
