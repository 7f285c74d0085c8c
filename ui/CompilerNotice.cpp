#include "CompilerNotice.hpp"

#include "compile/NvrtcPresence.hpp"

#include <QLabel>
#include <QTextDocument>
#include <QToolButton>

namespace kw {

CompilerNotice::CompilerNotice(QWidget* parent)
    : NoticeStrip("CompilerNotice", parent)
{
    auto* close = new QToolButton;
    close->setAutoRaise(true);
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Hide until the next start"));
    addControl(close);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
}

void CompilerNotice::showFor(const NvrtcPresence& presence)
{
    if (presence.found) {
        hide();
        return;
    }
    label_->setText(tr("<b>No CUDA compiler (NVRTC) found on this computer.</b><br>%1.")
                        .arg(QString::fromStdString(presence.installHint).toHtmlEscaped()));
    QStringList tried;
    for (const auto& t : presence.tried)
        tried << QString::fromStdString(t);
    setToolTip(tr("Looked for NVRTC in:\n%1").arg(tried.join('\n')));
    show();
}

QString CompilerNotice::text() const
{
    if (isHidden())
        return {};
    QTextDocument doc;
    doc.setHtml(label_->text());
    return doc.toPlainText();
}

} // namespace kw
