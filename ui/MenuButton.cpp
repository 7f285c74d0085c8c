#include "MenuButton.hpp"

#include <QStyle>
#include <QStyleOptionToolButton>
#include <QStylePainter>

#include <algorithm>

namespace kw {

MenuButton::MenuButton(const QString& text, QWidget* parent)
    : QToolButton(parent)
{
    setText(text);
    setPopupMode(QToolButton::InstantPopup);
}

void MenuButton::paintEvent(QPaintEvent*)
{
    QStylePainter painter(this);
    QStyleOptionToolButton option;
    initStyleOption(&option);
    const QString text = option.text;
    option.text.clear();
    painter.drawComplexControl(QStyle::CC_ToolButton, option); // the frame and the arrow
    // The arrow's left edge where QCommonStyle puts it: its size in from the right, less 4 px.
    const int arrowLeft = width() + 4 - style()->pixelMetric(QStyle::PM_MenuButtonIndicator, &option, this);
    const int textWidth = option.fontMetrics.horizontalAdvance(text);
    const int gap = 4; // empty columns between them
    // Moved left as far as the arrow needs, never past the left margin.
    const int shift
        = std::clamp((width() + textWidth) / 2 + gap - arrowLeft, 0, std::max(0, (width() - textWidth) / 2 - gap));
    const int frame = style()->pixelMetric(QStyle::PM_DefaultFrameWidth, &option, this);
    option.text = text;
    option.rect = rect().adjusted(frame, frame, -frame - 2 * shift, -frame); // centred in it: `shift` to the left
    painter.drawControl(QStyle::CE_ToolButtonLabel, option);
}

} // namespace kw
