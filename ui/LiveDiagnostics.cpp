#include "LiveDiagnostics.hpp"

#include "compile/Compiler.hpp"
#include "util/Error.hpp"

#include <atomic>
#include <chrono>
#include <utility>

namespace kw {

LiveDiagnostics::LiveDiagnostics(QObject* parent)
    : QObject(parent)
    , compiler_(std::make_shared<Compiler>())
{
    timer_.setSingleShot(true);
    timer_.setInterval(300);
    connect(&timer_, &QTimer::timeout, this, &LiveDiagnostics::launch);
    pool_.setMaxThreadCount(1);
}

LiveDiagnostics::~LiveDiagnostics()
{
    // Results posted to a destroyed object are discarded by Qt; wait so no
    // worker still uses the compiler.
    pool_.clear();
    pool_.waitForDone();
}

void LiveDiagnostics::setTrust(Trust trust)
{
    trust_ = trust;
    if (trust_ == Trust::Untrusted) {
        timer_.stop();
        ++generation_; // a result still in flight belongs to another document
    }
}

void LiveDiagnostics::sourceEdited(const QString& source)
{
    pending_ = source;
    ++generation_; // anything in flight is stale now
    if (held_)
        heldBack_ = true;
    else if (trust_ == Trust::Trusted)
        timer_.start();
}

void LiveDiagnostics::hold()
{
    held_ = true;
    if (timer_.isActive()) {
        timer_.stop();
        heldBack_ = true;
    }
}

void LiveDiagnostics::release()
{
    held_ = false;
    if (std::exchange(heldBack_, false) && trust_ == Trust::Trusted)
        launch();
}

void LiveDiagnostics::compileNow(const QString& source)
{
    pending_ = source;
    ++generation_;
    timer_.stop();
    heldBack_ = false;
    if (trust_ == Trust::Trusted)
        launch();
}

void LiveDiagnostics::launch()
{
    const quint64 gen = ++generation_;
    CompileRequest request;
    request.source = pending_.toStdString();
    request.sourceName = sourceName;
    request.baseDir = baseDir_;
    request.options = options_;
    request.trust = trust_;
    request.timeLimit = std::chrono::seconds(60);
    // Queued jobs not yet started are stale: only the newest matters. The one dropped
    // (claimed here before its thread took it) no longer counts as running.
    pool_.clear();
    if (lastBegun_ && !lastBegun_->exchange(true))
        --running_;
    ++running_;
    emit started();
    auto compiler = compiler_;
    auto begun = lastBegun_ = std::make_shared<std::atomic<bool>>(false);
    pool_.start([this, gen, request, compiler, begun] {
        if (begun->exchange(true))
            return; // dropped by a newer check
        CompileResult result;
        QString failure;
        try {
            result = compiler->compile(request);
        } catch (const std::exception& e) {
            failure = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, gen, result = std::move(result), failure] {
                --running_;
                if (gen != generation_)
                    return;
                if (!failure.isEmpty())
                    emit unavailable(failure);
                else
                    emit finished(result);
            },
            Qt::QueuedConnection);
    });
}

} // namespace kw
