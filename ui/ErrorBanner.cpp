#include "ErrorBanner.hpp"

#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QToolButton>

namespace kw {

ErrorBanner::ErrorBanner(QWidget* parent) : QFrame(parent)
{
    icon_ = new QLabel(this);
    label_ = new QLabel(this);
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(icon_);
    layout->addWidget(label_, 1);
    layout->addWidget(close, 0, Qt::AlignTop);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void ErrorBanner::showStyled(const QString& title, const QString& detail, const char* background, const char* border)
{
    setStyleSheet(QString("kw--ErrorBanner { background: %1; border: 1px solid %2; border-radius: 3px; }")
                      .arg(background, border));
    label_->setText("<b>" + title.toHtmlEscaped() + "</b><br>" + detail.toHtmlEscaped().replace('\n', "<br>"));
    show();
}

void ErrorBanner::showError(const QString& title, const QString& detail)
{
    icon_->setPixmap(QIcon(":/kw/icons/error.svg").pixmap(20, 20));
    showStyled(title, detail, "#fde7e6", "#d9342b");
}

void ErrorBanner::showWarning(const QString& title, const QString& detail)
{
    icon_->setPixmap(QIcon(":/kw/icons/warning.svg").pixmap(20, 20));
    showStyled(title, detail, "#fff4d6", "#f0ad1e");
}

QString ErrorBanner::text() const { return isHidden() ? QString() : label_->text(); }

} // namespace kw
