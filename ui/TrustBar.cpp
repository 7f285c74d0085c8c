#include "TrustBar.hpp"

#include <QLabel>
#include <QPushButton>

namespace kw {

TrustBar::TrustBar(QWidget* parent)
    : NoticeStrip("TrustBar", parent)
    , trust_(new QPushButton(tr("Trust this document")))
{
    trust_->setToolTip(tr("Compile and run it, with the options and files listed here"));
    addControl(trust_);
    connect(trust_, &QPushButton::clicked, this, &TrustBar::trustRequested);
}

void TrustBar::showFor(const std::vector<DocumentRequest>& requests, const QString& refusal)
{
    QString html = tr("<b>This document comes from elsewhere.</b> Nothing in it is compiled or run "
                      "until you trust it.");
    if (!refusal.isEmpty())
        html += "<br>" + refusal.toHtmlEscaped();
    QStringList options, files;
    for (const auto& r : requests) {
        const QString item = QString::fromStdString(r.field).toHtmlEscaped() + ": <code>"
            + QString::fromStdString(r.value).toHtmlEscaped() + "</code>";
        (r.kind == DocumentRequest::Kind::Option ? options : files) << item;
    }
    if (!options.isEmpty())
        html += "<br>" + tr("Compile options: %1").arg(options.join(", "));
    if (!files.isEmpty())
        html += "<br>" + tr("Files it names: %1").arg(files.join(", "));
    if (options.isEmpty() && files.isEmpty())
        html += "<br>" + tr("It asks for no compile options and names no files.");
    label_->setText(html);
    show();
}

QString TrustBar::text() const { return label_->text(); }

} // namespace kw
