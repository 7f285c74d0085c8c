#include "NoticeStrip.hpp"

#include <QHBoxLayout>
#include <QLabel>

namespace kw {

NoticeStrip::NoticeStrip(const QString& objectName, QWidget* parent)
    : QFrame(parent)
    , label_(new QLabel)
{
    setObjectName(objectName);
    setFrameShape(QFrame::StyledPanel);
    // Palette roles, not fixed colours, so the strip follows a dark desktop theme.
    setBackgroundRole(QPalette::ToolTipBase);
    setForegroundRole(QPalette::ToolTipText);
    setAutoFillBackground(true);
    label_->setWordWrap(true);
    label_->setTextFormat(Qt::RichText);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* h = new QHBoxLayout(this);
    h->setContentsMargins(8, 4, 8, 4);
    h->addWidget(label_, 1);
    hide();
}

void NoticeStrip::addControl(QWidget* control)
{
    static_cast<QHBoxLayout*>(layout())->addWidget(control, 0, Qt::AlignTop);
}

} // namespace kw
