#pragma once
// A tool button whose click opens its menu. The styles draw the menu's arrow in the
// button's lower right corner without making room for it, over the end of the text: the
// text is drawn left of the arrow instead of centred where it would touch it. The size
// hints stay the style's (a wider button would narrow the docks at 1366x768).
#include <QToolButton>

namespace kw {

class MenuButton : public QToolButton {
public:
    explicit MenuButton(const QString& text, QWidget* parent = nullptr);

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace kw
