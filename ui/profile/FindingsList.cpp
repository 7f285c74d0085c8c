#include "profile/FindingsList.hpp"

#include <QFileInfo>

namespace kw {

namespace {
constexpr int LineRole = Qt::UserRole + 1;
}

FindingsList::FindingsList(QWidget* parent)
    : QListWidget(parent)
{
    setWordWrap(true);
    setAlternatingRowColors(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    // Findings are sentences: wrapped to the width, never a horizontal scroll bar.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setResizeMode(QListView::Adjust);
    connect(this, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        if (const int line = item->data(LineRole).toInt(); line > 0)
            emit lineActivated(line);
    });
    connect(this, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        if (const int line = item->data(LineRole).toInt(); line > 0)
            emit lineActivated(line);
    });
    showMessage(tr("No findings yet."));
}

void FindingsList::showMessage(const QString& why)
{
    clear();
    auto* item = new QListWidgetItem(why, this);
    item->setFlags(Qt::NoItemFlags);
    count_ = 0;
}

void FindingsList::setFindings(const std::vector<ProfileFinding>& findings, const ProfileSource& source)
{
    if (findings.empty()) {
        showMessage(tr("Nothing stands out in the counters."));
        return;
    }
    clear();
    for (const ProfileFinding& f : findings) {
        const QString file = QFileInfo(QString::fromStdString(f.file)).fileName();
        const QString where = f.line <= 0              ? tr("Kernel")
            : file.isEmpty() || source.isShown(f.file) ? tr("Line %1").arg(f.line)
                                                       : QStringLiteral("%1:%2").arg(file).arg(f.line);
        auto* item = new QListWidgetItem(QStringLiteral("%1 — %2").arg(where, QString::fromStdString(f.text)), this);
        item->setData(LineRole, f.line);
        item->setToolTip(QString::fromStdString(f.text));
    }
    count_ = int(findings.size());
}

} // namespace kw
