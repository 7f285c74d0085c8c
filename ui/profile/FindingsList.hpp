#pragma once
// The findings of a profile, one per row, each led by the line it is about; activating
// a row asks for that line in the editor. Without findings one grey row says so, so the
// list never looks broken.
#include "profile/ProfileSource.hpp"
#include "run/ProfileFindings.hpp"

#include <QListWidget>

#include <vector>

namespace kw {

class FindingsList : public QListWidget {
    Q_OBJECT
public:
    explicit FindingsList(QWidget* parent = nullptr);

    // Findings about the editor's file (source) lead with "Line N", others with file:line.
    void setFindings(const std::vector<ProfileFinding>& findings, const ProfileSource& source = {});
    // No findings: one grey row saying why.
    void showMessage(const QString& why);
    int findingCount() const { return count_; }

signals:
    void lineActivated(int line); // 1-based

private:
    int count_ = 0;
};

} // namespace kw
