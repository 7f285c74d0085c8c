#include "SweepRunner.hpp"

#include "RunnerClient.hpp"
#include "views/SweepPanel.hpp"

namespace kw {

namespace {
// The first error says which value broke the build (a static_assert, an array size...).
QString compileFailure(const CompileResult& r)
{
    for (const Diagnostic& d : r.diagnostics)
        if (d.severity == Severity::Error)
            return SweepRunner::tr("compile failed: %1").arg(QString::fromStdString(d.message));
    return SweepRunner::tr("compile failed");
}

// A time measured on wrong results would mislead the plot: the first failed check.
QString checkFailure(const RunResult& r)
{
    for (const CheckResult& c : r.checks)
        if (!c.passed)
            return SweepRunner::tr("check on %1 failed: %2 of %3 elements differ from %4")
                .arg(QString::fromStdString(c.buffer))
                .arg(c.mismatches)
                .arg(c.checked)
                .arg(QString::fromStdString(c.expect));
    return {};
}
} // namespace

SweepRunner::SweepRunner(RunnerClient* runner, SweepPanel* panel, QObject* parent)
    : QObject(parent)
    , runner_(runner)
    , panel_(panel)
{
    connect(runner_, &RunnerClient::runFinished, this, [this](int id, const RunResult& r) {
        if (!owns(id))
            return;
        QString why;
        if (r.fault)
            why = QString::fromStdString(r.fault->message);
        else if (!r.compile.ok)
            why = compileFailure(r.compile);
        else
            why = checkFailure(r);
        done(id, r.timings.medianMs, why);
    });
    connect(runner_, &RunnerClient::jobFailed, this, [this](int id, const QString& why) {
        if (owns(id))
            done(id, 0, why);
    });
}

Document SweepRunner::pointDocument(const Document& base, const SweepRequest& request, const std::string& value)
{
    Document d = base;
    if (request.kind == SweepRequest::Macro) {
        bool replaced = false;
        for (auto& [name, v] : d.options.defines)
            if (name == request.name) {
                v = value;
                replaced = true;
            }
        if (!replaced)
            d.options.defines.emplace_back(request.name, value);
        return d;
    }
    if (request.kind == SweepRequest::Variable) {
        for (auto& [name, expr] : d.variables)
            if (name == request.name)
                expr = value;
        return d;
    }
    // A block-size variable drives both the block and the grid expressions.
    for (auto& [name, expr] : d.variables)
        if (name == "block" && d.launch.block.size() > 0 && d.launch.block[0] == "block") {
            expr = value;
            return d;
        }
    d.launch.block.at(0) = value;
    return d;
}

QString SweepRunner::problem(const Document& base, const SweepRequest& request)
{
    if (request.kind != SweepRequest::Variable)
        return {};
    for (const auto& [name, expr] : base.variables)
        if (name == request.name)
            return {};
    QStringList names;
    for (const auto& [name, expr] : base.variables)
        names << QString::fromStdString(name);
    return tr("The document has no variable named \"%1\"%2.")
        .arg(QString::fromStdString(request.name),
             names.isEmpty() ? QString() : tr("; it has %1").arg(names.join(QStringLiteral(", "))));
}

void SweepRunner::start(const Document& base, const SweepRequest& request, const QString& device)
{
    jobs_.clear();
    for (const std::string& value : request.values) {
        const Document d = pointDocument(base, request, value);
        const int id = runner_->run(d, device);
        jobs_[id] = {QString::fromStdString(value).toDouble(), QString::fromStdString(value)};
    }
    if (jobs_.empty())
        panel_->finish();
}

void SweepRunner::done(int id, double medianMs, const QString& failure)
{
    const auto [parameter, text] = jobs_.at(id);
    jobs_.erase(id);
    if (failure.isEmpty())
        panel_->addPoint(parameter, medianMs);
    else
        emit pointFailed(text, failure);
    if (jobs_.empty())
        panel_->finish();
}

} // namespace kw
