#include "CompilerNotice.hpp"

#include "compile/NvrtcPresence.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QTextDocument>
#include <QToolButton>

namespace kw {

CompilerNotice::CompilerNotice(QWidget* parent)
    : QFrame(parent)
{
    setObjectName("CompilerNotice");
    setFrameShape(QFrame::StyledPanel);
    // Palette roles, as the trust bar, so the strip follows a dark desktop theme.
    setBackgroundRole(QPalette::ToolTipBase);
    setForegroundRole(QPalette::ToolTipText);
    setAutoFillBackground(true);
    label_ = new QLabel;
    label_->setWordWrap(true);
    label_->setTextFormat(Qt::RichText);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton;
    close->setAutoRaise(true);
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Hide until the next start"));
    auto* h = new QHBoxLayout(this);
    h->setContentsMargins(8, 4, 8, 4);
    h->addWidget(label_, 1);
    h->addWidget(close, 0, Qt::AlignTop);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
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
