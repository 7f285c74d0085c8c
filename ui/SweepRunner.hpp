#pragma once
// Runs a sweep: one runner job per value (block size or -D macro value) on a
// copy of the document, feeding each median kernel time back to the panel.
#include "doc/Document.hpp"
#include "views/SweepRequest.hpp"

#include <QObject>

#include <map>

namespace kw {

class RunnerClient;
class SweepPanel;
struct RunResult;

class SweepRunner : public QObject {
    Q_OBJECT
public:
    SweepRunner(RunnerClient* runner, SweepPanel* panel, QObject* parent = nullptr);

    // The document of one sweep point.
    static Document pointDocument(const Document& base, const SweepRequest& request, const std::string& value);
    // Why the request cannot run on this document ("" when it can).
    static QString problem(const Document& base, const SweepRequest& request);
    void start(const Document& base, const SweepRequest& request, const QString& device);
    bool owns(int jobId) const { return jobs_.count(jobId) > 0; }

signals:
    void pointFailed(const QString& value, const QString& why);

private:
    void done(int id, double medianMs, const QString& failure);

    RunnerClient* runner_;
    SweepPanel* panel_;
    std::map<int, std::pair<double, QString>> jobs_; // job id -> parameter (numeric, text)
};

} // namespace kw
