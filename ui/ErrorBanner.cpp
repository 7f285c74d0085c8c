#include "ErrorBanner.hpp"

#include <QScopedValueRollback>

#include "ThemeColours.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace kw {

ErrorBanner::ErrorBanner(QWidget* parent)
    : QFrame(parent)
{
    icon_ = new QLabel(this);
    label_ = new QLabel(this);
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    action_ = new QPushButton(this);
    action_->hide();
    connect(action_, &QPushButton::clicked, this, [this] {
        if (onAction_)
            onAction_();
    });
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(icon_);
    layout->addWidget(label_, 1);
    layout->addWidget(action_, 0, Qt::AlignTop);
    layout->addWidget(close, 0, Qt::AlignTop);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void ErrorBanner::applyColours()
{
    const QColor accent = level_ == Level::Error ? ThemeColours::error(palette())
        : level_ == Level::Warning               ? ThemeColours::warning(palette())
                                                 : palette().color(QPalette::Highlight);
    const QColor back = ThemeColours::tint(palette(), accent);
    // Set on the frame only: the child widgets keep the palette's text colours.
    // A style sheet change sends a palette change itself: do not answer that one.
    const QScopedValueRollback<bool> guard(applying_, true);
    setStyleSheet(QString("kw--ErrorBanner { background: %1; border: 1px solid %2; border-radius: 3px; }")
                      .arg(back.name(), accent.name()));
}

void ErrorBanner::changeEvent(QEvent* e)
{
    QFrame::changeEvent(e);
    if (e->type() == QEvent::PaletteChange && !isHidden() && !applying_)
        applyColours();
}

void ErrorBanner::showStyled(Level level, const QString& title, const QString& detail)
{
    level_ = level;
    title_ = title;
    applyColours();
    label_->setText("<b>" + title.toHtmlEscaped() + "</b><br>" + detail.toHtmlEscaped().replace('\n', "<br>"));
    action_->hide();
    onAction_ = nullptr;
    show();
}

void ErrorBanner::showError(const QString& title, const QString& detail)
{
    icon_->setPixmap(QIcon(":/kw/icons/error.svg").pixmap(20, 20));
    showStyled(Level::Error, title, detail);
}

void ErrorBanner::showWarning(const QString& title, const QString& detail)
{
    icon_->setPixmap(QIcon(":/kw/icons/warning.svg").pixmap(20, 20));
    showStyled(Level::Warning, title, detail);
}

void ErrorBanner::showInformation(const QString& title, const QString& detail)
{
    icon_->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxInformation).pixmap(20, 20));
    showStyled(Level::Information, title, detail);
}

void ErrorBanner::setAction(const QString& text, std::function<void()> action)
{
    onAction_ = std::move(action);
    action_->setText(text);
    action_->setVisible(!text.isEmpty());
}

QString ErrorBanner::text() const { return isHidden() ? QString() : label_->text(); }

} // namespace kw
