#pragma once
// The list of compile diagnostics; activating one jumps to its location.
#include "compile/Diagnostic.hpp"

#include <QTreeWidget>

#include <vector>

namespace kw {

class ProblemsPanel : public QTreeWidget {
    Q_OBJECT
public:
    explicit ProblemsPanel(QWidget* parent = nullptr);
    void setDiagnostics(const std::vector<Diagnostic>& diagnostics);
    int errorCount() const { return errors_; }
    int warningCount() const { return warnings_; }

signals:
    void locationActivated(int line, int column); // 1-based
    void countsChanged(int errors, int warnings);

private:
    int errors_ = 0, warnings_ = 0;
};

} // namespace kw
