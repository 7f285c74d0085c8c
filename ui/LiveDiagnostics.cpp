#include "LiveDiagnostics.hpp"

#include "compile/Compiler.hpp"
#include "util/Error.hpp"

#include <chrono>

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
    if (trust_ == Trust::Trusted)
        timer_.start();
}

void LiveDiagnostics::compileNow(const QString& source)
{
    pending_ = source;
    ++generation_;
    timer_.stop();
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
    // Queued jobs not yet started are stale: only the newest matters.
    pool_.clear();
    ++running_;
    emit started();
    auto compiler = compiler_;
    pool_.start([this, gen, request, compiler] {
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
