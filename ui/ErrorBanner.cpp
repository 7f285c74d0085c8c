#include "ErrorBanner.hpp"

#include <QScopedValueRollback>

#include "ThemeColours.hpp"

#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPushButton>
#include <QSizePolicy>
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
    full_ = "<b>" + title.toHtmlEscaped() + "</b><br>" + detail.toHtmlEscaped().replace('\n', "<br>");
    detail_ = detail;
    // Information is one line over the editor, elided, whole in its tooltip: an error or a
    // warning may take the editor's lines, what only informs may not.
    const bool oneLine = level == Level::Information;
    label_->setWordWrap(!oneLine);
    label_->setSizePolicy(oneLine ? QSizePolicy::Ignored : QSizePolicy::Preferred, QSizePolicy::Preferred);
    label_->setToolTip(oneLine ? title + "\n" + detail : QString());
    if (oneLine)
        fitInformation();
    else
        label_->setText(full_);
    action_->hide();
    onAction_ = nullptr;
    show();
}

void ErrorBanner::resizeEvent(QResizeEvent* e)
{
    QFrame::resizeEvent(e);
    if (level_ == Level::Information)
        fitInformation();
}

void ErrorBanner::fitInformation()
{
    const QString title = "<b>" + title_.toHtmlEscaped() + "</b>";
    QFont bold = label_->font();
    bold.setBold(true);
    const QString sep = QStringLiteral(" \u2014 ");
    const int room = label_->width() - QFontMetrics(bold).horizontalAdvance(title_)
        - label_->fontMetrics().horizontalAdvance(sep) - 4;
    QString detail = detail_;
    detail.replace('\n', "; ");
    detail = label_->fontMetrics().elidedText(detail, Qt::ElideRight, std::max(room, 0));
    label_->setText(detail.isEmpty() ? title : title + sep.toHtmlEscaped() + detail.toHtmlEscaped());
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

QString ErrorBanner::text() const { return isHidden() ? QString() : full_; }

} // namespace kw
